// AttributeProto -> Attribute, and the Constant node normalisation.
#include <memory>

#include "parser/onnx_parser.h"

namespace oinfer::parser {
namespace {

// IR version 1 models may omit AttributeProto.type; the set field tells it.
AttrType inferType(const onnx::AttributeProto& a) {
  if (a.has_f()) return AttrType::kFloat;
  if (a.has_i()) return AttrType::kInt;
  if (a.has_s()) return AttrType::kString;
  if (a.has_t()) return AttrType::kTensor;
  if (a.has_g()) return AttrType::kGraph;
  if (a.has_sparse_tensor()) return AttrType::kSparseTensor;
  if (a.has_tp()) return AttrType::kTypeProto;
  if (a.floats_size()) return AttrType::kFloats;
  if (a.ints_size()) return AttrType::kInts;
  if (a.strings_size()) return AttrType::kStrings;
  if (a.tensors_size()) return AttrType::kTensors;
  if (a.graphs_size()) return AttrType::kGraphs;
  if (a.sparse_tensors_size()) return AttrType::kSparseTensors;
  if (a.type_protos_size()) return AttrType::kTypeProtos;
  return AttrType::kUndefined;
}

}  // namespace

Attribute convertAttribute(onnx::AttributeProto& ap, LoadContext& ctx, Scope& scope, const std::string& where) {
  Attribute a;
  a.name = ap.name();
  const std::string what = where + "attribute '" + a.name + "'";
  if (a.name.empty()) fail(ctx, where + "attribute without a name");
  if (!ap.ref_attr_name().empty())
    fail(ctx, what + " refers to function attribute '" + ap.ref_attr_name() + "' outside a function");
  a.type = ap.has_type() && ap.type() != onnx::AttributeProto::UNDEFINED ? static_cast<AttrType>(ap.type())
                                                                          : inferType(ap);
  switch (a.type) {
    case AttrType::kFloat: a.f = ap.f(); break;
    case AttrType::kInt: a.i = ap.i(); break;
    case AttrType::kString: a.s = ap.s(); break;
    case AttrType::kTensor: a.t = convertTensor(*ap.mutable_t(), ctx, what); break;
    case AttrType::kGraph:
      a.g = std::make_shared<ir::Graph>();
      buildGraph(*ap.mutable_g(), *a.g, ctx, &scope, what + ": ");
      break;
    case AttrType::kFloats: a.floats.assign(ap.floats().begin(), ap.floats().end()); break;
    case AttrType::kInts: a.ints.assign(ap.ints().begin(), ap.ints().end()); break;
    case AttrType::kStrings: a.strings.assign(ap.strings().begin(), ap.strings().end()); break;
    case AttrType::kTensors:
      for (int k = 0; k < ap.tensors_size(); ++k)
        a.tensors.push_back(convertTensor(*ap.mutable_tensors(k), ctx, what + " tensor " + std::to_string(k)));
      break;
    case AttrType::kGraphs:
      for (int k = 0; k < ap.graphs_size(); ++k) {
        auto g = std::make_shared<ir::Graph>();
        buildGraph(*ap.mutable_graphs(k), *g, ctx, &scope, what + " graph " + std::to_string(k) + ": ");
        a.graphs.push_back(std::move(g));
      }
      break;
    case AttrType::kSparseTensor:
      // Kept as SPARSE_TENSOR (the declared type) with the dense value in `t`.
      a.t = convertSparseTensor(*ap.mutable_sparse_tensor(), ctx, what);
      break;
    case AttrType::kSparseTensors:
      for (int k = 0; k < ap.sparse_tensors_size(); ++k)
        a.tensors.push_back(
            convertSparseTensor(*ap.mutable_sparse_tensors(k), ctx, what + " tensor " + std::to_string(k)));
      break;
    case AttrType::kTypeProto: convertType(ap.tp(), a.typeProto, ctx, what); break;
    case AttrType::kTypeProtos:
      for (const auto& tp : ap.type_protos()) {
        ValueInfo vi;
        convertType(tp, vi, ctx, what);
        a.typeProtos.push_back(std::move(vi));
      }
      break;
    default:
      fail(ctx, what + " has no or an unknown type");
  }
  return a;
}

// Constant comes in eight forms (value, value_float, ..., sparse_value). All
// become one TENSOR attribute "value" so the kernel and constant folding see a
// single form; the name stays "value" whatever the original form was.
void normalizeConstant(Node& node, LoadContext& ctx, const std::string& where) {
  struct Form {
    const char* name;
    AttrType type;
  };
  static const Form kForms[] = {
      {"value", AttrType::kTensor},        {"value_float", AttrType::kFloat},
      {"value_floats", AttrType::kFloats}, {"value_int", AttrType::kInt},
      {"value_ints", AttrType::kInts},     {"value_string", AttrType::kString},
      {"value_strings", AttrType::kStrings}, {"sparse_value", AttrType::kSparseTensor},
  };
  Attribute* found = nullptr;
  int count = 0;
  AttrType want = AttrType::kUndefined;
  for (auto& a : node.attributes)
    for (const auto& f : kForms)
      if (a.name == f.name) found = &a, want = f.type, ++count;
  if (count != 1)
    fail(ctx, where + node.describe() + ": expected exactly one of the attributes value, value_float, value_floats, "
                      "value_int, value_ints, value_string, value_strings, sparse_value; got " +
                  std::to_string(count));
  Attribute& a = *found;
  if (a.type != want)
    fail(ctx, where + node.describe() + ": attribute '" + a.name + "' has type " + attrTypeName(a.type) +
                  ", expected " + attrTypeName(want));
  Tensor t;
  switch (a.type) {
    case AttrType::kTensor: case AttrType::kSparseTensor: t = a.t; break;
    case AttrType::kFloat: t = Tensor::scalar<float>(a.f); break;
    case AttrType::kFloats: t = Tensor::fromVector<float>({static_cast<int64_t>(a.floats.size())}, a.floats); break;
    case AttrType::kInt: t = Tensor::scalar<int64_t>(a.i); break;
    case AttrType::kInts: t = Tensor::fromVector<int64_t>({static_cast<int64_t>(a.ints.size())}, a.ints); break;
    case AttrType::kString: t = Tensor::scalar<std::string>(a.s); break;
    case AttrType::kStrings:
      t = Tensor::fromVector<std::string>({static_cast<int64_t>(a.strings.size())}, a.strings);
      break;
    default: break;
  }
  Attribute v;
  v.name = "value";
  v.type = AttrType::kTensor;
  v.t = std::move(t);
  a = std::move(v);
}

}  // namespace oinfer::parser
