// TensorProto / SequenceProto files (the ONNX backend test data format).
#include <onnx/onnx-data_pb.h>

#include <filesystem>
#include <new>

#include "oinfer/tensor_io.h"
#include "parser/onnx_parser.h"

namespace oinfer {
namespace {

using parser::fail;
using parser::LoadContext;

template <class F>
auto guarded(LoadContext& ctx, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kInvalidModel || e.code() == ErrorCode::kIO) throw;
    throw Error(ErrorCode::kInvalidModel, ctx.source + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kInvalidModel, ctx.source + ": out of memory while reading the tensor");
  }
}

std::string folderOf(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

Tensor tensorFrom(const void* data, size_t size, LoadContext& ctx) {
  onnx::TensorProto tp;
  if (!parser::parseMessage(tp, data, size)) fail(ctx, "not a valid TensorProto");
  const std::string what = tp.name().empty() ? std::string("tensor") : "tensor '" + tp.name() + "'";
  return parser::convertTensor(tp, ctx, what);
}

}  // namespace

Tensor parseTensorProto(const void* data, size_t size) {
  LoadContext ctx;
  ctx.source = "TensorProto buffer";
  return guarded(ctx, [&] { return tensorFrom(data, size, ctx); });
}

Tensor loadTensorProto(const std::string& path) {
  parser::MappedFile file(path);
  LoadContext ctx;
  ctx.source = path;
  ctx.baseDir = folderOf(path);
  return guarded(ctx, [&] { return tensorFrom(file.data(), file.size(), ctx); });
}

std::vector<Tensor> loadSequenceProto(const std::string& path) {
  parser::MappedFile file(path);
  LoadContext ctx;
  ctx.source = path;
  ctx.baseDir = folderOf(path);
  return guarded(ctx, [&] {
    onnx::SequenceProto sp;
    if (!parser::parseMessage(sp, file.data(), file.size())) fail(ctx, "not a valid SequenceProto");
    // An empty sequence may leave elem_type unset; anything but tensors is
    // not representable as std::vector<Tensor>.
    const bool tensors = sp.elem_type() == onnx::SequenceProto::TENSOR ||
                         (sp.elem_type() == onnx::SequenceProto::UNDEFINED && sp.sparse_tensor_values_size() == 0 &&
                          sp.sequence_values_size() == 0 && sp.map_values_size() == 0 &&
                          sp.optional_values_size() == 0);
    if (!tensors)
      fail(ctx, "sequence elem_type " + std::to_string(sp.elem_type()) + " is not supported (only tensors)");
    std::vector<Tensor> out;
    out.reserve(static_cast<size_t>(sp.tensor_values_size()));
    for (int i = 0; i < sp.tensor_values_size(); ++i)
      out.push_back(parser::convertTensor(*sp.mutable_tensor_values(i), ctx, "sequence item " + std::to_string(i)));
    return out;
  });
}

}  // namespace oinfer
