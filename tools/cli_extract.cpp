#include "cli_extract.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>

#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace oinfer::cli {

namespace {

using Names = std::vector<std::string>;

std::string joined(const Names& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// Protobuf refuses messages of 2 GiB and more.
constexpr uint64_t kProtoLimit = INT_MAX;

// The oinfer loader accepted the file already (nesting, sizes), so this parse
// only needs limits high enough for what it accepted.
onnx::ModelProto readModel(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) throw std::runtime_error(path + ": cannot read the file");
  google::protobuf::io::CodedInputStream stream(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                static_cast<int>(std::min<size_t>(bytes.size(), INT_MAX)));
  stream.SetRecursionLimit(1000);
  stream.SetTotalBytesLimit(INT_MAX);
  onnx::ModelProto model;
  if (!model.ParseFromCodedStream(&stream)) throw std::runtime_error(path + ": not a valid ONNX model");
  return model;
}

// Names a graph defines for its own nodes: inputs, initializers, node outputs.
std::set<std::string> definedIn(const onnx::GraphProto& g) {
  std::set<std::string> defined;
  for (const auto& v : g.input()) defined.insert(v.name());
  for (const auto& t : g.initializer()) defined.insert(t.name());
  for (const auto& t : g.sparse_initializer()) defined.insert(t.values().name());
  for (const auto& n : g.node())
    for (const auto& out : n.output()) defined.insert(out);
  return defined;
}

void outerNamesOfNode(const onnx::NodeProto& n, std::set<std::string>& out);

// The names `g` reads without defining them (its outer-scope references),
// nested subgraphs included.
void outerNames(const onnx::GraphProto& g, std::set<std::string>& out) {
  const std::set<std::string> defined = definedIn(g);
  std::set<std::string> read;
  for (const auto& n : g.node()) {
    for (const auto& in : n.input())
      if (!in.empty()) read.insert(in);
    outerNamesOfNode(n, read);
  }
  for (const auto& v : g.output()) read.insert(v.name());
  for (const auto& name : read)
    if (!defined.count(name)) out.insert(name);
}

// What a node's subgraph attributes read from the scope the node is in.
void outerNamesOfNode(const onnx::NodeProto& n, std::set<std::string>& out) {
  for (const auto& a : n.attribute()) {
    if (a.has_g()) outerNames(a.g(), out);
    for (const auto& g : a.graphs()) outerNames(g, out);
  }
}

// Every (domain, op type) a node list calls, subgraphs included.
void opsCalled(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
               std::set<std::pair<std::string, std::string>>& ops) {
  for (const auto& n : nodes) {
    ops.insert({n.domain(), n.op_type()});
    for (const auto& a : n.attribute()) {
      if (a.has_g()) opsCalled(a.g().node(), ops);
      for (const auto& g : a.graphs()) opsCalled(g.node(), ops);
    }
  }
}

// ---- types of the new graph inputs and outputs -------------------------------

bool hasType(const onnx::ValueInfoProto& v) { return v.has_type() && v.type().value_case() != onnx::TypeProto::VALUE_NOT_SET; }

void setTensorType(onnx::TypeProto_Tensor* t, const ValueInfo& v) {
  t->set_elem_type(static_cast<int32_t>(v.dtype));
  if (!v.hasShape) return;
  auto* shape = t->mutable_shape();
  for (const Dim& d : v.shape) {
    auto* dim = shape->add_dim();
    if (d.isStatic()) dim->set_dim_value(d.value);
    else if (!d.symbol.empty()) dim->set_dim_param(d.symbol);
  }
}

// oinfer's type of a value as a TypeProto; false for kinds it cannot state.
bool toTypeProto(const ValueInfo& v, onnx::TypeProto& tp) {
  if (v.dtype == DataType::kUndefined) return false;
  switch (v.kind) {
    case ValueKind::kTensor:
      setTensorType(tp.mutable_tensor_type(), v);
      return true;
    case ValueKind::kSequence:
      setTensorType(tp.mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type(), v);
      return true;
    case ValueKind::kOptional:
      setTensorType(tp.mutable_optional_type()->mutable_elem_type()->mutable_tensor_type(), v);
      return true;
    default:
      return false;
  }
}

// ---- external data -----------------------------------------------------------

struct ExternalData {
  bool inline_ = false;   // read into raw_data (else the references stay)
  fs::path modelDir;      // where the references point from
  size_t tensors = 0;     // external tensors met
  uint64_t bytes = 0;     // their bytes
  std::set<std::string> files;
};

std::string externalKey(const onnx::TensorProto& t, const std::string& key) {
  for (const auto& e : t.external_data())
    if (e.key() == key) return e.value();
  return "";
}

uint64_t parseSize(const std::string& s, const std::string& what) {
  if (s.empty()) return 0;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' || v > (UINT64_MAX - 9) / 10) throw std::runtime_error(what + ": '" + s + "' is not a byte count");
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

// Reads one external tensor's bytes into raw_data. The location must stay
// inside the model's folder (as the loader requires), so an extracted model
// never carries bytes from elsewhere.
void inlineTensor(onnx::TensorProto& t, ExternalData& ext) {
  const std::string what = "external data of '" + t.name() + "'";
  const std::string location = externalKey(t, "location");
  if (location.empty()) throw std::runtime_error(what + ": no location");
  const fs::path rel(location);
  if (rel.is_absolute()) throw std::runtime_error(what + ": location '" + location + "' is absolute");
  for (const auto& part : rel)
    if (part == "..") throw std::runtime_error(what + ": location '" + location + "' leaves the model's folder");
  std::error_code ec, ec2;
  const fs::path path = fs::weakly_canonical(ext.modelDir / rel, ec);
  const fs::path dir = fs::weakly_canonical(ext.modelDir, ec2);
  const std::string p = path.string(), d = dir.string();
  if (ec || ec2 || p.compare(0, d.size(), d) != 0 || (p.size() > d.size() && p[d.size()] != '/'))
    throw std::runtime_error(what + ": '" + location + "' is not inside the model's folder");
  if (!fs::is_regular_file(path, ec)) throw std::runtime_error(what + ": " + path.string() + ": no such file");
  const uint64_t fileSize = fs::file_size(path, ec);
  const uint64_t offset = parseSize(externalKey(t, "offset"), what + " offset");
  if (offset > fileSize) throw std::runtime_error(what + ": offset " + std::to_string(offset) + " is past the end of " + location);
  const std::string lengthText = externalKey(t, "length");
  const uint64_t length = lengthText.empty() ? fileSize - offset : parseSize(lengthText, what + " length");
  if (length > fileSize - offset)
    throw std::runtime_error(what + ": " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                             " run past the end of " + location);
  ext.bytes += length;
  if (ext.bytes >= kProtoLimit)
    throw std::runtime_error("the sub-model's weights with their external data inlined reach protobuf's 2 GiB limit; "
                             "write it into the model's folder (" + ext.modelDir.string() + ") to keep the references");
  std::string bytes(length, '\0');
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(length));
  if (!in) throw std::runtime_error(what + ": cannot read " + std::to_string(length) + " bytes from " + location);
  t.set_raw_data(std::move(bytes));
  t.clear_external_data();
  t.set_data_location(onnx::TensorProto::DEFAULT);
}

void visitTensor(onnx::TensorProto& t, ExternalData& ext) {
  if (t.data_location() != onnx::TensorProto::EXTERNAL) return;
  ++ext.tensors;
  if (ext.inline_) inlineTensor(t, ext);
  else ext.files.insert(externalKey(t, "location"));
}

void visitGraph(onnx::GraphProto& g, ExternalData& ext);

void visitNodes(google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, ExternalData& ext) {
  for (auto& n : nodes)
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_t()) visitTensor(*a.mutable_t(), ext);
      for (auto& t : *a.mutable_tensors()) visitTensor(t, ext);
      if (a.has_sparse_tensor()) {
        visitTensor(*a.mutable_sparse_tensor()->mutable_values(), ext);
        visitTensor(*a.mutable_sparse_tensor()->mutable_indices(), ext);
      }
      for (auto& s : *a.mutable_sparse_tensors()) {
        visitTensor(*s.mutable_values(), ext);
        visitTensor(*s.mutable_indices(), ext);
      }
      if (a.has_g()) visitGraph(*a.mutable_g(), ext);
      for (auto& g : *a.mutable_graphs()) visitGraph(g, ext);
    }
}

void visitGraph(onnx::GraphProto& g, ExternalData& ext) {
  for (auto& t : *g.mutable_initializer()) visitTensor(t, ext);
  for (auto& s : *g.mutable_sparse_initializer()) {
    visitTensor(*s.mutable_values(), ext);
    visitTensor(*s.mutable_indices(), ext);
  }
  visitNodes(*g.mutable_node(), ext);
}

fs::path folderOf(const std::string& file) {
  fs::path dir = fs::path(file).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::path canon = fs::weakly_canonical(dir, ec);
  return ec ? dir : canon;
}

}  // namespace

void extractModel(const Options& o, const Graph& file, Json& out) {
  onnx::ModelProto model = readModel(o.model);
  onnx::GraphProto src;
  src.Swap(model.mutable_graph());
  google::protobuf::RepeatedPtrField<onnx::FunctionProto> functions;
  functions.Swap(model.mutable_functions());

  // ---- the names: values of the main graph (inputs and node outputs)
  std::set<std::string> weights;
  for (const auto& t : src.initializer()) weights.insert(t.name());
  for (const auto& t : src.sparse_initializer()) weights.insert(t.values().name());
  std::map<std::string, int> producer;
  for (int i = 0; i < src.node_size(); ++i)
    for (const auto& v : src.node(i).output())
      if (!v.empty()) producer.emplace(v, i);
  Names modelInputs;
  for (const auto& v : src.input())
    if (!weights.count(v.name())) modelInputs.push_back(v.name());
  auto checkName = [&](const char* opt, const std::string& name) {
    if (producer.count(name) || std::find(modelInputs.begin(), modelInputs.end(), name) != modelInputs.end()) return;
    if (weights.count(name))
      throw std::runtime_error(std::string(opt) + " " + name + ": '" + name + "' is a weight (initializer), not a computed value");
    const std::string near = file.closestValueName(name);
    throw std::runtime_error(std::string(opt) + " " + name + ": the model has no value '" + name + "'" +
                             (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  };
  for (const auto& n : o.extractInputs) checkName("--extract-inputs", n);
  for (const auto& n : o.extractOutputs) checkName("--extract-outputs", n);

  // ---- walk back from each output
  const bool defaultInputs = o.extractInputs.empty();
  const std::set<std::string> stopAt = defaultInputs ? std::set<std::string>(modelInputs.begin(), modelInputs.end())
                                                     : std::set<std::string>(o.extractInputs.begin(), o.extractInputs.end());
  std::vector<bool> keep(static_cast<size_t>(src.node_size()), false);
  std::set<std::string> usedWeights, reachedInputs, seen;
  for (const auto& output : o.extractOutputs) {
    std::vector<std::string> stack{output};
    while (!stack.empty()) {
      const std::string v = stack.back();
      stack.pop_back();
      if (!seen.insert(v).second) continue;
      if (stopAt.count(v)) {
        reachedInputs.insert(v);
        continue;
      }
      if (weights.count(v)) {
        usedWeights.insert(v);
        continue;
      }
      auto it = producer.find(v);
      if (it == producer.end())
        throw std::runtime_error("--extract-outputs " + output + ": cannot be computed from " +
                                 (defaultInputs ? "the model's inputs" : "--extract-inputs " + joined(o.extractInputs)) +
                                 ": it needs '" + v + "'" +
                                 (defaultInputs ? " (not a value of the model)" : " (add it to --extract-inputs)"));
      const onnx::NodeProto& n = src.node(it->second);
      keep[static_cast<size_t>(it->second)] = true;
      for (const auto& in : n.input())
        if (!in.empty()) stack.push_back(in);
      std::set<std::string> outer;
      outerNamesOfNode(n, outer);
      for (const auto& name : outer) stack.push_back(name);
    }
  }
  Names inputs;
  if (defaultInputs) {
    for (const auto& n : modelInputs)
      if (reachedInputs.count(n)) inputs.push_back(n);
  } else {
    inputs = o.extractInputs;
  }

  // ---- the new graph
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name(src.name().empty() ? "extracted" : "extracted from " + src.name());
  if (src.has_doc_string()) g->set_doc_string(src.doc_string());
  std::set<std::string> nodeValues;  // read or written by the kept nodes
  size_t kept = 0;
  for (int i = 0; i < src.node_size(); ++i) {
    if (!keep[static_cast<size_t>(i)]) continue;
    ++kept;
    const onnx::NodeProto& n = src.node(i);
    for (const auto& v : n.input()) nodeValues.insert(v);
    for (const auto& v : n.output()) nodeValues.insert(v);
    *g->add_node() = n;
  }
  for (const auto& t : src.initializer())
    if (usedWeights.count(t.name())) *g->add_initializer() = t;
  for (const auto& t : src.sparse_initializer())
    if (usedWeights.count(t.values().name())) *g->add_sparse_initializer() = t;

  // Declared types (inputs, outputs, value_info), then oinfer's inference.
  std::map<std::string, const onnx::ValueInfoProto*> declared;
  for (const auto* list : {&src.input(), &src.output(), &src.value_info()})
    for (const auto& v : *list)
      if (hasType(v)) declared.emplace(v.name(), &v);
  Graph inferred = file;
  std::string inferError;
  try {
    inferred.inferShapes();
  } catch (const std::exception& e) {
    inferError = e.what();
  }
  auto typed = [&](const std::string& name, onnx::ValueInfoProto* dst) {
    if (auto it = declared.find(name); it != declared.end()) {
      *dst = *it->second;
      dst->set_name(name);
      return;
    }
    dst->set_name(name);
    const ValueInfo* v = inferError.empty() ? inferred.findValue(name) : nullptr;
    if (v && toTypeProto(*v, *dst->mutable_type())) return;
    throw std::runtime_error("'" + name + "': no type known (the file declares none" +
                             (inferError.empty() ? std::string(" and shape inference found none)")
                                                 : "; shape inference failed: " + inferError + ")"));
  };
  // Before IR version 4 every initializer is also a graph input.
  if (model.ir_version() < 4)
    for (const auto& t : g->initializer()) typed(t.name(), g->add_input());
  for (const auto& n : inputs) typed(n, g->add_input());
  for (const auto& n : o.extractOutputs) typed(n, g->add_output());
  std::set<std::string> io(inputs.begin(), inputs.end());
  io.insert(o.extractOutputs.begin(), o.extractOutputs.end());
  for (const auto& v : src.value_info())
    if (nodeValues.count(v.name()) && !io.count(v.name())) *g->add_value_info() = v;

  // Model functions the kept nodes call, and those they call in turn.
  std::set<std::pair<std::string, std::string>> ops;
  opsCalled(g->node(), ops);
  std::vector<bool> usedFunction(static_cast<size_t>(functions.size()), false);
  for (bool more = true; more;) {
    more = false;
    for (int i = 0; i < functions.size(); ++i) {
      const auto& f = functions.Get(i);
      if (usedFunction[static_cast<size_t>(i)] || !ops.count({f.domain(), f.name()})) continue;
      usedFunction[static_cast<size_t>(i)] = more = true;
      opsCalled(f.node(), ops);
    }
  }
  size_t functionCount = 0;
  for (int i = 0; i < functions.size(); ++i)
    if (usedFunction[static_cast<size_t>(i)]) {
      *model.add_functions() = functions.Get(i);
      ++functionCount;
    }

  // ---- external data: kept as references in the model's folder, else inlined
  std::error_code ec, ec2;
  const fs::path modelDir = folderOf(o.model), outDir = folderOf(o.extractTo);
  if (fs::weakly_canonical(o.extractTo, ec) == fs::weakly_canonical(o.model, ec2) && !ec && !ec2)
    throw std::runtime_error("--extract " + o.extractTo + ": that is the model itself");
  {
    // Never write over one of the model's external data files (in either mode).
    ExternalData all;
    all.modelDir = modelDir;
    visitGraph(src, all);
    for (auto& f : functions) visitNodes(*f.mutable_node(), all);
    const fs::path target = fs::weakly_canonical(o.extractTo, ec);
    for (const auto& location : all.files)
      if (!ec && fs::weakly_canonical(modelDir / location, ec2) == target && !ec2)
        throw std::runtime_error("--extract " + o.extractTo + ": that is the model's external data file " + location);
  }
  ExternalData ext;
  ext.modelDir = modelDir;
  ext.inline_ = modelDir != outDir;
  visitGraph(*g, ext);
  for (auto& f : *model.mutable_functions()) visitNodes(*f.mutable_node(), ext);
  if (model.ByteSizeLong() >= kProtoLimit)
    throw std::runtime_error("the sub-model is 2 GiB or more, over protobuf's limit");

  {
    std::string bytes;
    if (!model.SerializeToString(&bytes)) throw std::runtime_error("--extract " + o.extractTo + ": cannot serialize the sub-model");
    std::ofstream f(o.extractTo, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.close();
    if (!f) throw std::runtime_error("--extract " + o.extractTo + ": cannot write the file");
  }
  // What it wrote must load (a bug here would otherwise surface later).
  try {
    (void)Graph::loadFromONNX(o.extractTo);
  } catch (const std::exception& e) {
    throw std::runtime_error("--extract " + o.extractTo + ": the sub-model does not load back: " + e.what());
  }

  std::string externalText = "none";
  if (ext.tensors && ext.inline_)
    externalText = "inlined (" + std::to_string(ext.tensors) + (ext.tensors == 1 ? " tensor, " : " tensors, ") +
                   std::to_string(ext.bytes) + " bytes)";
  else if (ext.tensors) {
    Names files(ext.files.begin(), ext.files.end());
    externalText = "referenced (" + std::to_string(ext.tensors) + (ext.tensors == 1 ? " tensor" : " tensors") + " in " +
                   joined(files) + ", the same folder)";
  }
  Json e = Json::object();
  e.set("file", o.extractTo);
  Json ji = Json::array(), jo = Json::array();
  for (const auto& n : inputs) ji.push(n);
  for (const auto& n : o.extractOutputs) jo.push(n);
  e.set("inputs", std::move(ji));
  e.set("outputs", std::move(jo));
  e.set("nodes", static_cast<uint64_t>(kept));
  e.set("model_nodes", static_cast<int64_t>(src.node_size()));
  e.set("initializers", static_cast<uint64_t>(usedWeights.size()));
  e.set("functions", static_cast<uint64_t>(functionCount));
  e.set("external_data", ext.tensors == 0 ? "none" : ext.inline_ ? "inlined" : "referenced");
  e.set("external_tensors", static_cast<uint64_t>(ext.tensors));
  out.set("extract", std::move(e));
  if (!o.json) {
    std::printf("extract     %s -> %s\n", inputs.empty() ? "(no inputs)" : joined(inputs).c_str(), joined(o.extractOutputs).c_str());
    std::printf("  nodes          %zu of %d\n", kept, src.node_size());
    std::printf("  initializers   %zu\n", usedWeights.size());
    std::printf("  functions      %zu\n", functionCount);
    std::printf("  external data  %s\n", externalText.c_str());
    std::printf("wrote %s\n", o.extractTo.c_str());
  }
}

}  // namespace oinfer::cli
