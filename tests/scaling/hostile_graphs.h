// Issue 23: huge and deeply nested graphs, built as serialized ONNX models so
// that loading is covered too. Used by the scaling tests
// (test_graph_scaling.cpp).
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace oinfer::test {

inline void addTensorValue(onnx::ValueInfoProto* v, const std::string& name, const std::vector<int64_t>& dims) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

inline onnx::ModelProto emptyModel(int64_t opset = 17) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  return m;
}

// x -> Relu -> Relu -> ... (n nodes) -> y, on a [1, 4] float tensor.
inline std::string chainModel(int n) {
  onnx::ModelProto m = emptyModel();
  auto* g = m.mutable_graph();
  g->set_name("chain");
  addTensorValue(g->add_input(), "x", {1, 4});
  addTensorValue(g->add_output(), "y", {1, 4});
  std::string prev = "x";
  for (int i = 0; i < n; ++i) {
    auto* node = g->add_node();
    node->set_op_type("Relu");
    node->add_input(prev);
    prev = i + 1 == n ? "y" : "v" + std::to_string(i);
    node->add_output(prev);
  }
  return m.SerializeAsString();
}

// y = Sum(x0, x1, ..., x{n-1}), every input a [1, 4] float graph input.
inline std::string wideSumModel(int n) {
  onnx::ModelProto m = emptyModel();
  auto* g = m.mutable_graph();
  g->set_name("sum");
  auto* node = g->add_node();
  node->set_op_type("Sum");
  for (int i = 0; i < n; ++i) {
    const std::string name = "x" + std::to_string(i);
    addTensorValue(g->add_input(), name, {1, 4});
    node->add_input(name);
  }
  node->add_output("y");
  addTensorValue(g->add_output(), "y", {1, 4});
  return m.SerializeAsString();
}

// x fanned out to n Relu nodes whose outputs are concatenated on axis 1:
// every intermediate is live at the Concat.
inline std::string fanOutModel(int n) {
  onnx::ModelProto m = emptyModel();
  auto* g = m.mutable_graph();
  g->set_name("fan");
  addTensorValue(g->add_input(), "x", {1, 4});
  auto* cat = g->add_node();  // listed first: the loader sorts
  cat->set_op_type("Concat");
  auto* axis = cat->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(1);
  for (int i = 0; i < n; ++i) {
    auto* node = g->add_node();
    node->set_op_type("Relu");
    node->add_input("x");
    node->add_output("r" + std::to_string(i));
    cat->add_input("r" + std::to_string(i));
  }
  cat->add_output("y");
  addTensorValue(g->add_output(), "y", {1, 4 * int64_t(n)});
  return m.SerializeAsString();
}

// `depth` Ifs nested in each other's then-branch, all on the outer-scope
// bool `c`; the innermost branch is Identity(x). Both branches of each If
// yield a [1, 4] float.
inline std::string nestedIfModel(int depth) {
  auto branch = [](onnx::GraphProto* b, const std::string& name, const std::string& out) {
    b->set_name(name);
    addTensorValue(b->add_output(), out, {1, 4});
  };
  onnx::ModelProto m = emptyModel();
  auto* g = m.mutable_graph();
  g->set_name("nested");
  addTensorValue(g->add_input(), "x", {1, 4});
  auto* c = g->add_input();
  c->set_name("c");
  c->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  c->mutable_type()->mutable_tensor_type()->mutable_shape();
  addTensorValue(g->add_output(), "y", {1, 4});
  onnx::GraphProto* cur = g;
  std::string out = "y";
  for (int d = 0; d < depth; ++d) {
    auto* node = cur->add_node();
    node->set_op_type("If");
    node->set_name("if" + std::to_string(d));
    node->add_input("c");
    node->add_output(out);
    auto* thenA = node->add_attribute();
    thenA->set_name("then_branch");
    thenA->set_type(onnx::AttributeProto::GRAPH);
    auto* elseA = node->add_attribute();
    elseA->set_name("else_branch");
    elseA->set_type(onnx::AttributeProto::GRAPH);
    const std::string inner = "t" + std::to_string(d);
    branch(thenA->mutable_g(), "then" + std::to_string(d), inner);
    branch(elseA->mutable_g(), "else" + std::to_string(d), "e" + std::to_string(d));
    auto* neg = elseA->mutable_g()->add_node();
    neg->set_op_type("Neg");
    neg->add_input("x");
    neg->add_output("e" + std::to_string(d));
    cur = thenA->mutable_g();
    out = inner;
  }
  auto* id = cur->add_node();
  id->set_op_type("Identity");
  id->add_input("x");
  id->add_output(out);
  return m.SerializeAsString();
}

// `depth` Loops nested in each other's bodies, each running `trips` times
// (an outer-scope int64 `m`) with a loop-carried [1, 4] float; the innermost
// body applies Relu. y = Relu(x).
inline std::string nestedLoopModel(int depth) {
  onnx::ModelProto m = emptyModel();
  auto* g = m.mutable_graph();
  g->set_name("loops");
  addTensorValue(g->add_input(), "x", {1, 4});
  auto* trips = g->add_input();
  trips->set_name("m");
  trips->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  trips->mutable_type()->mutable_tensor_type()->mutable_shape();
  addTensorValue(g->add_output(), "y", {1, 4});
  onnx::GraphProto* cur = g;
  std::string in = "x", out = "y";
  for (int d = 0; d < depth; ++d) {
    const std::string s = std::to_string(d);
    auto* loop = cur->add_node();
    loop->set_op_type("Loop");
    loop->set_name("loop" + s);
    loop->add_input("m");
    loop->add_input("");
    loop->add_input(in);
    loop->add_output(out);
    auto* body = loop->add_attribute();
    body->set_name("body");
    body->set_type(onnx::AttributeProto::GRAPH);
    auto* b = body->mutable_g();
    b->set_name("body" + s);
    auto* it = b->add_input();
    it->set_name("i" + s);
    it->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
    it->mutable_type()->mutable_tensor_type()->mutable_shape();
    auto* c = b->add_input();
    c->set_name("c" + s);
    c->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    c->mutable_type()->mutable_tensor_type()->mutable_shape();
    addTensorValue(b->add_input(), "v" + s, {1, 4});
    auto* co = b->add_output();
    co->set_name("co" + s);
    co->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
    co->mutable_type()->mutable_tensor_type()->mutable_shape();
    addTensorValue(b->add_output(), "w" + s, {1, 4});
    auto* id = b->add_node();
    id->set_op_type("Identity");
    id->add_input("c" + s);
    id->add_output("co" + s);
    cur = b;
    in = "v" + s;
    out = "w" + s;
  }
  auto* relu = cur->add_node();
  relu->set_op_type("Relu");
  relu->add_input(in);
  relu->add_output(out);
  return m.SerializeAsString();
}

}  // namespace oinfer::test
