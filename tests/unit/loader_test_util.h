// Helpers for the loader tests: build ModelProtos with the protobuf API and
// load them through the public API.
#pragma once

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "oinfer/graph.h"
#include "graph/graph_access.h"

namespace loader_test {

// A dim for vi(): a value, or a symbol when `param` is set, or unknown.
struct D {
  int64_t v = -1;
  const char* param = nullptr;
  D(int64_t value) : v(value) {}  // NOLINT
  D(const char* p) : param(p) {}  // NOLINT
  static D unknown() { return D(int64_t{-1}); }
};

inline void setTensorType(onnx::TypeProto* t, int elem, const std::vector<D>& dims, bool withShape = true) {
  auto* tt = t->mutable_tensor_type();
  tt->set_elem_type(elem);
  if (!withShape) return;
  auto* shape = tt->mutable_shape();
  for (const auto& d : dims) {
    auto* dim = shape->add_dim();
    if (d.param) dim->set_dim_param(d.param);
    else if (d.v >= 0) dim->set_dim_value(d.v);
  }
}

inline onnx::ValueInfoProto* vi(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name,
                                int elem = onnx::TensorProto::FLOAT, const std::vector<D>& dims = {}) {
  auto* v = list->Add();
  v->set_name(name);
  setTensorType(v->mutable_type(), elem, dims);
  return v;
}

inline onnx::NodeProto* node(onnx::GraphProto* g, const std::string& op, const std::vector<std::string>& ins,
                             const std::vector<std::string>& outs, const std::string& name = "") {
  auto* n = g->add_node();
  n->set_op_type(op);
  if (!name.empty()) n->set_name(name);
  for (const auto& s : ins) n->add_input(s);
  for (const auto& s : outs) n->add_output(s);
  return n;
}

inline void fillFloatTensor(onnx::TensorProto* t, const std::string& name, const std::vector<int64_t>& dims,
                            const std::vector<float>& vals, bool raw = true) {
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->add_dims(d);
  if (raw)
    t->set_raw_data(std::string(reinterpret_cast<const char*>(vals.data()), vals.size() * sizeof(float)));
  else
    for (float f : vals) t->add_float_data(f);
}

inline onnx::TensorProto* initF(onnx::GraphProto* g, const std::string& name, const std::vector<int64_t>& dims,
                                const std::vector<float>& vals, bool raw = true) {
  auto* t = g->add_initializer();
  fillFloatTensor(t, name, dims, vals, raw);
  return t;
}

inline onnx::AttributeProto* attr(onnx::NodeProto* n, const std::string& name, onnx::AttributeProto::AttributeType t) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(t);
  return a;
}

// An empty model: ir 8, the default domain at `opset`, a graph named "main".
inline onnx::ModelProto modelWithOpset(int opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  m.mutable_graph()->set_name("main");
  return m;
}

// X [N,3] float -> Relu -> Y, opset 17, ir 8.
inline onnx::ModelProto reluModel() {
  onnx::ModelProto m = modelWithOpset(17);
  auto* g = m.mutable_graph();
  vi(g->mutable_input(), "X", onnx::TensorProto::FLOAT, {"N", 3});
  vi(g->mutable_output(), "Y", onnx::TensorProto::FLOAT, {"N", 3});
  node(g, "Relu", {"X"}, {"Y"}, "relu");
  return m;
}

inline std::string bytesOf(const onnx::ModelProto& m) {
  std::string s;
  EXPECT_TRUE(m.SerializeToString(&s));
  return s;
}

// Loads through the public API and hands back the IR (the tests inspect it).
inline oinfer::ir::Graph load(const onnx::ModelProto& m, const std::string& baseDir = {},
                              const oinfer::LoadOptions& options = {}) {
  std::string s = bytesOf(m);
  return oinfer::detail::GraphAccess::take(oinfer::Graph::loadFromBuffer(s.data(), s.size(), baseDir, options));
}

// Loads through the public API (for a Session).
inline oinfer::Graph loadModel(const onnx::ModelProto& m, const std::string& baseDir = {}) {
  std::string s = bytesOf(m);
  return oinfer::Graph::loadFromBuffer(s.data(), s.size(), baseDir);
}

// The message of the Error that loading throws ("<no error>" if none).
inline std::string loadError(const onnx::ModelProto& m, const std::string& baseDir = {},
                             oinfer::ErrorCode want = oinfer::ErrorCode::kInvalidModel,
                             const oinfer::LoadOptions& options = {}) {
  try {
    load(m, baseDir, options);
  } catch (const oinfer::Error& e) {
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(want)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected an oinfer::Error";
  return "<no error>";
}

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << "message: " << (msg)

// A fresh folder under the temp dir, removed at scope exit.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    path = std::filesystem::temp_directory_path() /
           ("oinfer_loader_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline const oinfer::Node* findNode(const oinfer::ir::Graph& g, const std::string& name) {
  for (const auto& n : g.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

}  // namespace loader_test
