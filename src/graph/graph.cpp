#include "graph/ir.h"
#include "graph/names.h"

#include <vector>

namespace oinfer {

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace oinfer

namespace oinfer::ir {

const char* attrTypeName(AttrType t) {
  switch (t) {
    case AttrType::kFloat: return "FLOAT";
    case AttrType::kInt: return "INT";
    case AttrType::kString: return "STRING";
    case AttrType::kTensor: return "TENSOR";
    case AttrType::kGraph: return "GRAPH";
    case AttrType::kFloats: return "FLOATS";
    case AttrType::kInts: return "INTS";
    case AttrType::kStrings: return "STRINGS";
    case AttrType::kTensors: return "TENSORS";
    case AttrType::kGraphs: return "GRAPHS";
    case AttrType::kSparseTensor: return "SPARSE_TENSOR";
    case AttrType::kSparseTensors: return "SPARSE_TENSORS";
    case AttrType::kTypeProto: return "TYPE_PROTO";
    case AttrType::kTypeProtos: return "TYPE_PROTOS";
    case AttrType::kUndefined: return "UNDEFINED";
  }
  return "UNDEFINED";
}

std::string Node::describe() const { return "node '" + name + "' (" + opType + ")"; }

const Attribute* Node::attr(const std::string& n) const {
  for (const auto& a : attributes)
    if (a.name == n) return &a;
  return nullptr;
}

namespace {
const Attribute* typed(const Node& node, const std::string& name, AttrType want) {
  const Attribute* a = node.attr(name);
  if (a && a->type != want)
    throw Error(ErrorCode::kInvalidModel, node.describe() + ": attribute '" + name + "' has type " +
                                              attrTypeName(a->type) + ", expected " + attrTypeName(want));
  return a;
}
}  // namespace

int64_t Node::attrInt(const std::string& n, int64_t def) const {
  const Attribute* a = typed(*this, n, AttrType::kInt);
  return a ? a->i : def;
}
float Node::attrFloat(const std::string& n, float def) const {
  const Attribute* a = typed(*this, n, AttrType::kFloat);
  return a ? a->f : def;
}
std::string Node::attrString(const std::string& n, const std::string& def) const {
  const Attribute* a = typed(*this, n, AttrType::kString);
  return a ? a->s : def;
}
std::vector<int64_t> Node::attrInts(const std::string& n, std::vector<int64_t> def) const {
  const Attribute* a = typed(*this, n, AttrType::kInts);
  return a ? a->ints : def;
}
std::vector<float> Node::attrFloats(const std::string& n, std::vector<float> def) const {
  const Attribute* a = typed(*this, n, AttrType::kFloats);
  return a ? a->floats : def;
}
std::vector<std::string> Node::attrStrings(const std::string& n, std::vector<std::string> def) const {
  const Attribute* a = typed(*this, n, AttrType::kStrings);
  return a ? a->strings : def;
}
const Tensor* Node::attrTensor(const std::string& n) const {
  const Attribute* a = typed(*this, n, AttrType::kTensor);
  return a ? &a->t : nullptr;
}
const Graph* Node::attrGraph(const std::string& n) const {
  const Attribute* a = typed(*this, n, AttrType::kGraph);
  return a ? a->g.get() : nullptr;
}

int64_t Graph::opset(const std::string& d) const {
  // "" and "ai.onnx" name the same domain (the loader stores "").
  const bool onnx = d.empty() || d == "ai.onnx";
  auto it = opsetImports.find(onnx ? std::string() : d);
  if (it == opsetImports.end() && onnx) it = opsetImports.find("ai.onnx");
  return it == opsetImports.end() ? 0 : it->second;
}

const ValueInfo* Graph::findValue(const std::string& n) const {
  auto it = valueInfo.find(n);
  if (it != valueInfo.end()) return &it->second;
  for (const auto& v : inputs)
    if (v.name == n) return &v;
  for (const auto& v : outputs)
    if (v.name == n) return &v;
  return nullptr;
}

size_t Graph::weightBytes() const {
  size_t total = 0;
  for (const auto& [n, t] : initializers) total += t.nbytes();
  return total;
}

}  // namespace oinfer::ir
