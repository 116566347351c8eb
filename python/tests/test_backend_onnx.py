"""onnx's own backend conformance suite (onnx.backend.test.BackendTest) run
against oinfer.backend: every node, simple, pytorch and real-model case of the
installed onnx package, one pytest test per case and device (the CUDA ones
skip in a CPU build). docs/conformance.md compares the counts with
oinfer-conformance (scripts/test_python.sh --update-docs rewrites them).

Every case must pass but those EXCLUDED and KNOWN_FAILURES list, each with its reason.
"""

import os

import onnx.backend.test

import oinfer.backend

# Case-name patterns (BackendTest regexes) left out of the run, with why.
# OINFER_BACKEND_QUICK=1 leaves out onnx's nine "real" models
# (AlexNet, VGG-19, ResNet-50, ...; about 80 s of the run on 2 cores; their
# reference outputs are written under $ONNX_HOME, ~/.onnx by default).
EXCLUDED = {
    # Random values compared exactly: they pass or fail by chance (a small
    # Bernoulli case does match now and then), so neither an expected pass nor
    # an expected failure; oinfer-conformance checks them statistically.
    r"^test_(bernoulli|bernoulli_double|bernoulli_seed)(_expanded)?_(cpu|cuda)$|"
    r"^test_training_dropout(_default|_default_mask|_mask)?_(cpu|cuda)$":
        "random values (Bernoulli, training Dropout): BackendTest compares them exactly, "
        "so they match only by chance; oinfer-conformance checks them statistically",
}
if os.environ.get("OINFER_BACKEND_QUICK") == "1":
    EXCLUDED[r"^test_(bvlc_alexnet|densenet121|inception_v1|inception_v2|resnet50|shufflenet|"
             r"squeezenet|vgg19|zfnet512)_"] = "OINFER_BACKEND_QUICK=1"

# Cases that fail, with the reason; run as expected failures, so one that
# starts passing fails the run until it leaves this list. The first three
# groups are outside oinfer-conformance's denominator (other domains); the
# ImageDecoder cases fail there too; test_loop16_seq_none is outside it (an
# optional input); the DFT cases pass there, under the per-case tolerance of
# tests/conformance/manifest.txt.
KNOWN_FAILURES = {
    r"^test_(adagrad|adagrad_multiple|adam|adam_multiple|momentum|momentum_multiple|"
    r"nesterov_momentum)_(cpu|cuda)$":
        "ai.onnx.preview.training (training optimizers): domain not implemented",
    r"^test_gradient_of_add(_and_mul)?_(cpu|cuda)$":
        "ai.onnx.preview.training::Gradient: domain not implemented",
    r"^test_flexattention(?!.*_expanded)": "ai.onnx.preview::FlexAttention: domain not implemented",
    r"^test_image_decoder_": "ImageDecoder: image codecs are not part of the engine",
    r"^test_loop16_seq_none_(cpu|cuda)$":
        "onnx's assert_similar_outputs cannot compare a sequence that holds a 0-d tensor "
        "(it calls len() on it); the output is right (test_session.py::test_loop16_seq_none)",
    r"^test_dft_inverse(_opset19)?_(cpu|cuda)$":
        "the stored output is numpy's float32 FFT: 1.9e-7 where the exact value is 0, "
        "above BackendTest's atol 1e-7 (oinfer's transform runs in double)",
}

backend_test = onnx.backend.test.BackendTest(oinfer.backend, __name__)
for pattern in EXCLUDED:
    backend_test.exclude(pattern)
for pattern in KNOWN_FAILURES:
    backend_test.xfail(pattern)

globals().update(backend_test.test_cases)
