# The model's inputs and outputs (symbolic dims by name), then one run on
# deterministic random inputs; every error is one line and exit status 2.
oinfer-run models/digits.onnx

# A real input (.npy or a serialized TensorProto), the best class.
oinfer-run models/digits.onnx --input pixels=models/digits_samples/digit_7.npy --top-k 1

# A batch of 4 random inputs: set the symbolic dim through --shape.
oinfer-run models/digits.onnx --shape pixels=4x64

# Latency: 200 timed runs (or 5 s) on 2 threads, a per-node profile, the plan.
oinfer-run models/digits.onnx --bench 200 --bench-seconds 5 --threads 2 --profile
oinfer-run models/digits.onnx --print-plan

# Outputs as .npy files (numpy.load reads them), or everything as JSON.
oinfer-run models/digits.onnx --output-dir "$GUIDE_TMP/out" --json > "$GUIDE_TMP/run.json"

# Stop any run that takes longer than 10 s (a model with an endless Loop).
oinfer-run models/digits.onnx --timeout 10
