// oinfer-run --extract: the part of a model that computes some values from
// others, written as a model of its own (the semantics of
// onnx.utils.extract_model). The only CLI file that reads the ONNX protobuf
// itself (onnx_proto): the sub-model keeps the file's nodes, attributes,
// functions and metadata exactly, which oinfer's Graph (functions inlined,
// nodes renamed) cannot give back.
#pragma once

#include "cli_json.h"
#include "cli_options.h"
#include "oinfer/graph.h"

namespace oinfer::cli {

// Writes o.extractTo from o.model: the nodes needed to compute
// o.extractOutputs from o.extractInputs (walking back from the outputs,
// stopping at the inputs and at initializers; names a subgraph reads from
// the outer scope count as inputs of its node), in file order, with the
// initializers they read, every opset import, the model-local functions they
// call, and typed graph inputs and outputs (the file's declared type, else
// oinfer's shape inference). External data: referenced as it is when the
// sub-model is written into the model's folder, else inlined. `file` is the
// model as loaded (for names, types and the "did you mean" rule). Reports in
// text or into `out` (--json). Throws std::runtime_error with one line on
// bad names, an output the inputs cannot compute, or I/O failures.
void extractModel(const Options& o, const Graph& file, Json& out);

}  // namespace oinfer::cli
