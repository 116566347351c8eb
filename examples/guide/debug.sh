# 1. Which ops (and opsets) the model needs, and whether this build has them.
oinfer-run models/digits.onnx --list-ops

# 2. Compare every intermediate value with a reference: ONNX Runtime when the
#    Python in OINFER_PYTHON (or python3) imports it, else oinfer without
#    graph passes. Exit status 1 names the first node whose output diverges.
oinfer-run models/digits.onnx --input pixels=models/digits_samples/digit_7.npy --compare

# 3. Look at one intermediate value (kept even where a fusion would remove
#    it), with and without the graph passes.
oinfer-run models/digits.onnx --fetch hidden_pre --top-k 3
oinfer-run models/digits.onnx --fetch hidden_pre --top-k 3 --opt-level 0

# 4. Cut the model down to the part that goes wrong, for a bug report or to
#    run it in another engine.
oinfer-run models/digits.onnx --extract "$GUIDE_TMP/first_layer.onnx" \
  --extract-inputs pixels --extract-outputs hidden_pre
oinfer-run "$GUIDE_TMP/first_layer.onnx"

# 5. The graph as oinfer runs it (fused nodes marked), for Graphviz.
oinfer-run models/digits.onnx --dot "$GUIDE_TMP/digits"
