// Graph::loadFromONNX / loadFromBuffer: ModelProto-level checks (ir_version,
// opset imports), function inlining, then the graph conversion.
//
// The file is memory-mapped and parsed in place; protobuf copies each weight
// once into the message and the Tensor adopts that buffer (see
// tensor_proto.cpp), so weights are never copied twice.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <new>

#include "parser/loader.h"
#include "parser/onnx_parser.h"

namespace oinfer {
namespace {

using parser::fail;
using parser::LoadContext;

// Newest versions this build knows (those of onnx 1.22.0, whose operators the
// registry targets); newer models load with a warning.
constexpr int64_t kKnownIrVersion = 13;
constexpr int64_t kKnownDefaultOpset = 27;

std::map<std::string, int64_t> readOpsets(const onnx::ModelProto& model, LoadContext& ctx) {
  std::map<std::string, int64_t> opsets;
  for (const auto& op : model.opset_import()) {
    const std::string d = parser::normalizeDomain(op.domain());
    if (op.version() <= 0)
      fail(ctx, "opset_import of domain '" + d + "' has invalid version " + std::to_string(op.version()));
    auto [it, fresh] = opsets.emplace(d, op.version());
    if (!fresh && it->second != op.version())
      fail(ctx, "opset_import lists domain '" + d + "' twice, with versions " + std::to_string(it->second) +
                    " and " + std::to_string(op.version()));
  }
  if (!opsets.count("")) {
    // IR versions before 3 had no opset_import; such models are opset 1.
    if (model.ir_version() < 3)
      opsets[""] = 1;
    else if (opsets.empty())
      fail(ctx, "model has ir_version " + std::to_string(model.ir_version()) + " but no opset_import");
  }
  return opsets;
}

ir::Graph loadModel(const void* data, size_t size, LoadContext& ctx) {
  if (size == 0) fail(ctx, "empty model file");
  if (size > static_cast<size_t>(INT_MAX))
    fail(ctx, "model is " + std::to_string(size) +
                  " bytes; a protobuf message is limited to 2 GB (store the weights as external data)");
  onnx::ModelProto model;
  if (!parser::parseMessage(model, data, size, ctx.ownMapping)) {
    // Nested deeper than the parser allows, or corrupt: the wire format says which.
    const int depth = parser::subgraphNesting(data, size);
    if (depth > ctx.maxGraphNesting)
      fail(ctx, "subgraphs are nested " + std::to_string(depth) +
                    " deep (If / Loop / Scan bodies inside each other); the limit is " +
                    std::to_string(ctx.maxGraphNesting));
    fail(ctx, "not a valid ONNX model (protobuf parsing failed: corrupt, truncated or not an .onnx file)");
  }
  if (!model.has_ir_version() || model.ir_version() <= 0)
    fail(ctx, "missing or invalid ir_version (" + std::to_string(model.ir_version()) + "); not an ONNX model?");
  if (!model.has_graph()) fail(ctx, "model has no graph");
  ctx.irVersion = model.ir_version();
  if (model.ir_version() > kKnownIrVersion)
    spdlog::warn("{}: ir_version {} is newer than the newest known ({}); loading anyway", ctx.source,
                 model.ir_version(), kKnownIrVersion);

  ir::Graph g;
  g.irVersion = model.ir_version();
  g.producerName = model.producer_name();
  g.producerVersion = model.producer_version();
  g.domain = model.domain();
  g.docString = model.doc_string();
  g.opsetImports = readOpsets(model, ctx);
  parser::inlineFunctions(model, g.opsetImports, ctx);
  ctx.opsets = g.opsetImports;
  auto def = g.opsetImports.find("");
  if (def != g.opsetImports.end() && def->second > kKnownDefaultOpset)
    spdlog::warn("{}: default-domain opset {} is newer than the newest known ({}); newer ops may be missing",
                 ctx.source, def->second, kKnownDefaultOpset);
  parser::buildGraph(*model.mutable_graph(), g, ctx, nullptr, "");
  return g;
}

// Every failure leaves as an oinfer::Error naming the source: errors from
// helpers outside the parser (Tensor's own checks) become kInvalidModel, and
// allocation failures caused by hostile sizes are reported, not propagated.
ir::Graph guardedLoad(const void* data, size_t size, LoadContext& ctx) {
  try {
    return loadModel(data, size, ctx);
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kInvalidModel || e.code() == ErrorCode::kIO) throw;
    throw Error(ErrorCode::kInvalidModel, ctx.source + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kInvalidModel, ctx.source + ": out of memory while loading the model");
  } catch (const std::length_error& e) {
    throw Error(ErrorCode::kInvalidModel, ctx.source + ": size out of range while loading the model");
  }
}

}  // namespace

ir::Graph parser::loadModelFile(const std::string& path, const LoadOptions& options) {
  parser::MappedFile file(path);
  LoadContext ctx;
  ctx.options = options;
  ctx.source = path;
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  ctx.baseDir = parent.empty() ? std::string(".") : parent.string();
  ctx.ownMapping = true;
  return guardedLoad(file.data(), file.size(), ctx);
}

ir::Graph parser::loadModelBuffer(const void* data, size_t size, const std::string& baseDir, const LoadLimits& limits,
                                  const LoadOptions& options) {
  LoadContext ctx;
  ctx.options = options;
  ctx.source = "model buffer";
  ctx.baseDir = baseDir;
  ctx.maxGraphNesting = std::min(limits.maxGraphNesting, kMaxGraphNesting);
  ctx.maxNodes = std::min(limits.maxNodes, kMaxModelNodes);
  if (!data && size) fail(ctx, "null data pointer");
  return guardedLoad(data, size, ctx);
}

}  // namespace oinfer
