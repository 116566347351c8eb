#include "cli_compare.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_tensor.h"
#include "oinfer/tensor_io.h"

namespace fs = std::filesystem;

namespace oinfer::cli {

namespace {

// The reference run in ONNX Runtime: argv[1] the model, argv[2] the work
// folder holding request.json ({"values": [...], "inputs": [{"name", "file"}]})
// and the inputs as .npy. Every requested value that is a node output of the
// main graph becomes a graph output; ref_<k>.npy is value k of the request
// (absent: not in the reference), version.txt names the runtime. The graph
// runs as the file has it (ONNX Runtime's own graph optimizations off).
const char* kReferenceScript = R"PY(
import json, os, sys
import numpy as np
import onnx
import onnxruntime as ort

model_path, work = sys.argv[1], sys.argv[2]
with open(os.path.join(work, "request.json")) as f:
    request = json.load(f)
model = onnx.load(model_path)
produced = {name for node in model.graph.node for name in node.output if name}
outputs = {o.name for o in model.graph.output}
wanted = [(k, name) for k, name in enumerate(request["values"]) if name in produced]
for _, name in wanted:
    if name not in outputs:
        model.graph.output.append(onnx.ValueInfoProto(name=name))
options = ort.SessionOptions()
options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
options.log_severity_level = 3
try:
    data = model.SerializeToString()
except ValueError:  # 2 GiB and more: through a file with external data
    path = os.path.join(work, "model.onnx")
    onnx.save(model, path, save_as_external_data=True, location="model.data")
    data = path
session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
feeds = {i["name"]: np.load(os.path.join(work, i["file"])) for i in request["inputs"]}
results = session.run([name for _, name in wanted], feeds)
for (k, _), value in zip(wanted, results):
    if isinstance(value, np.ndarray) and value.dtype != object:
        np.save(os.path.join(work, "ref_%d.npy" % k), np.array(value, order="C"))  # keeps 0-d as 0-d
with open(os.path.join(work, "version.txt"), "w") as f:
    f.write(ort.__version__)
)PY";

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string pad(std::string s, size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

std::string readText(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::string lastLine(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

// A temporary folder, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/oinfer_compare.XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("--compare: cannot make a temporary folder in " + tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Runs argv (PATH searched) with stdout and stderr to files ("" = /dev/null);
// its exit status, 127 when it could not start, -1 when killed by a signal.
int runProcess(const std::vector<std::string>& args, const std::string& outFile, const std::string& errFile) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int out = open(outFile.empty() ? "/dev/null" : outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err = open(errFile.empty() ? "/dev/null" : errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (out < 0 || err < 0 || in < 0) {
    for (int fd : {out, err, in})
      if (fd >= 0) close(fd);
    throw std::runtime_error("--compare: cannot open files for the reference process");
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(out);
  close(err);
  close(in);
  if (pid < 0) throw std::runtime_error("--compare: cannot start " + args[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Reference {
  std::string kind;    // "onnxruntime" or "oinfer"
  std::string detail;  // how it was made, for the report
  std::map<std::string, Tensor> values;
};

Reference onnxruntimeReference(const Options& o, const std::string& python, const std::vector<std::string>& names,
                               const TensorMap& feeds) {
  TempDir dir;
  Json request = Json::object();
  Json values = Json::array();
  for (const auto& n : names) values.push(n);
  request.set("values", std::move(values));
  Json inputs = Json::array();
  int k = 0;
  for (const auto& [name, tensor] : feeds) {
    const std::string file = "input_" + std::to_string(k++) + ".npy";
    saveNpy((dir.path() / file).string(), tensor);
    Json e = Json::object();
    e.set("name", name);
    e.set("file", file);
    inputs.push(std::move(e));
  }
  request.set("inputs", std::move(inputs));
  {
    std::ofstream f(dir.path() / "request.json");
    f << request.dump();
    std::ofstream s(dir.path() / "reference.py");
    s << kReferenceScript;
    if (!f || !s) throw std::runtime_error("--compare: cannot write into " + dir.path().string());
  }
  const std::string errFile = (dir.path() / "stderr.txt").string();
  const int status = runProcess({python, (dir.path() / "reference.py").string(), o.model, dir.path().string()}, "", errFile);
  if (status != 0) {
    std::string why = lastLine(readText(errFile));
    throw std::runtime_error("--compare: the onnxruntime reference failed (" + python + ", exit status " +
                             std::to_string(status) + ")" + (why.empty() ? "" : ": " + why));
  }
  Reference r;
  r.kind = "onnxruntime";
  r.detail = "onnxruntime " + lastLine(readText(dir.path() / "version.txt")) + " through " + python +
             ", its graph optimizations off";
  for (size_t i = 0; i < names.size(); ++i) {
    const fs::path p = dir.path() / ("ref_" + std::to_string(i) + ".npy");
    std::error_code ec;
    if (fs::exists(p, ec)) r.values[names[i]] = loadNpy(p.string());
  }
  return r;
}

Reference oinferReference(const Options& o, const Graph& file, const std::vector<std::string>& names,
                          const TensorMap& feeds, const std::string& why) {
  SessionOptions so;
  so.threads = o.threads;
  if (!o.logLevel.empty()) so.logLevel = o.logLevel;
  so.optimizationLevel = 0;
  so.keepValues = names;
  Session s(file, so);
  std::vector<Tensor> got = s.run(feeds, names);
  Reference r;
  r.kind = "oinfer";
  r.detail = "oinfer --opt-level 0 on the CPU" + why;
  for (size_t i = 0; i < names.size() && i < got.size(); ++i) r.values[names[i]] = std::move(got[i]);
  return r;
}

// Test-only (OINFER_COMPARE_PERTURB): +1 on the first element.
void perturb(Tensor& t, const std::string& name) {
  if (t.numel() == 0) return;
  switch (t.dtype()) {
    case DataType::kFloat: t.data<float>()[0] += 1.0f; break;
    case DataType::kDouble: t.data<double>()[0] += 1.0; break;
    case DataType::kInt32: t.data<int32_t>()[0] += 1; break;
    case DataType::kInt64: t.data<int64_t>()[0] += 1; break;
    case DataType::kBool: t.data<bool>()[0] = !t.data<bool>()[0]; break;
    default:
      throw std::runtime_error("OINFER_COMPARE_PERTURB: cannot perturb '" + name + "' (" + dataTypeName(t.dtype()) + ")");
  }
}

struct Checked {
  std::string name;
  std::vector<int64_t> shape;
  Comparison c;
};

struct NodeResult {
  size_t index = 0;  // in execution order
  NodeInfo node;
  std::vector<Checked> diverging;
};

Json checkedJson(const Checked& v) {
  Json e = Json::object();
  e.set("output", v.name);
  Json s = Json::array();
  for (int64_t d : v.shape) s.push(d);
  e.set("shape", std::move(s));
  e.set("max_abs_error", v.c.maxAbsError);
  e.set("max_rel_error", v.c.maxRelError);
  e.set("mismatches", v.c.mismatches);
  e.set("message", v.c.message);
  return e;
}

}  // namespace

std::vector<std::string> compareValueNames(const Graph& file) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (size_t i = 0; i < file.numNodes(); ++i)
    for (const auto& v : file.node(i).outputs)
      if (!v.empty() && seen.insert(v).second) names.push_back(v);
  return names;
}

int compareRun(const Options& o, Session& session, const Graph& file, const TensorMap& feeds, Json& out) {
  // ---- oinfer's values (tensors only: sequences and optionals have no .npy form)
  std::vector<std::string> names, skippedKind;
  for (const auto& n : compareValueNames(file)) {
    const ValueInfo* v = session.graph().findValue(n);
    if (v && v->kind != ValueKind::kTensor) skippedKind.push_back(n);
    else names.push_back(n);
  }
  std::vector<Tensor> got = session.run(feeds, names);
  std::map<std::string, Tensor> actual;
  for (size_t i = 0; i < names.size() && i < got.size(); ++i) actual[names[i]] = std::move(got[i]);

  // ---- the reference
  const char* env = std::getenv("OINFER_COMPARE_REFERENCE");
  const std::string want = env ? env : "";
  if (!want.empty() && want != "onnxruntime" && want != "oinfer")
    throw std::runtime_error("OINFER_COMPARE_REFERENCE: '" + want + "' is not a reference (onnxruntime or oinfer)");
  const char* py = std::getenv("OINFER_PYTHON");
  const std::string python = py && *py ? py : "python3";
  Reference ref;
  if (want == "oinfer") {
    ref = oinferReference(o, file, names, feeds, " (OINFER_COMPARE_REFERENCE=oinfer)");
  } else {
    const bool usable = runProcess({python, "-c", "import onnxruntime, onnx, numpy"}, "", "") == 0;
    if (usable) ref = onnxruntimeReference(o, python, names, feeds);
    else if (want == "onnxruntime")
      throw std::runtime_error("OINFER_COMPARE_REFERENCE=onnxruntime: " + python +
                               " cannot import onnxruntime, onnx and numpy (set OINFER_PYTHON to a Python that can)");
    else ref = oinferReference(o, file, names, feeds, " (" + python + " cannot import onnxruntime, onnx and numpy)");
  }
  if (const char* p = std::getenv("OINFER_COMPARE_PERTURB"); p && *p) {
    std::string list = p;
    for (size_t start = 0; start <= list.size();) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      const std::string name = list.substr(start, comma - start);
      if (auto it = ref.values.find(name); it != ref.values.end()) perturb(it->second, name);
      else if (!name.empty())
        throw std::runtime_error("OINFER_COMPARE_PERTURB: '" + name + "' is not a compared value");
      start = comma + 1;
    }
  }

  // ---- node by node, in execution order
  std::vector<std::string> skippedRef;
  std::map<std::string, Checked> checked;
  std::vector<NodeResult> diverging;
  size_t compared = 0;
  for (size_t i = 0; i < file.numNodes(); ++i) {
    NodeResult r;
    r.index = i;
    r.node = file.node(i);
    for (const auto& v : r.node.outputs) {
      auto a = actual.find(v);
      if (v.empty() || a == actual.end() || checked.count(v)) continue;
      auto e = ref.values.find(v);
      if (e == ref.values.end()) {
        skippedRef.push_back(v);
        continue;
      }
      Checked c{v, a->second.shape(), compareTensors(a->second, e->second, o.rtol, o.atol)};
      ++compared;
      checked[v] = c;
      if (!c.c.match) r.diverging.push_back(c);
    }
    if (!r.diverging.empty()) diverging.push_back(std::move(r));
  }

  // ---- report
  const size_t kShown = 5;
  Json cj = Json::object();
  cj.set("reference", ref.kind);
  cj.set("reference_detail", ref.detail);
  cj.set("rtol", o.rtol);
  cj.set("atol", o.atol);
  cj.set("nodes", static_cast<uint64_t>(file.numNodes()));
  cj.set("compared", static_cast<uint64_t>(compared));
  Json sk = Json::array();
  for (const auto& n : skippedKind) {
    Json e = Json::object();
    e.set("name", n);
    e.set("reason", "not a tensor");
    sk.push(std::move(e));
  }
  for (const auto& n : skippedRef) {
    Json e = Json::object();
    e.set("name", n);
    e.set("reason", "not in the reference");
    sk.push(std::move(e));
  }
  cj.set("skipped", std::move(sk));
  cj.set("diverging_nodes", static_cast<uint64_t>(diverging.size()));
  Json dj = Json::array();
  for (size_t k = 0; k < diverging.size(); ++k) {  // all of them; the text shows kShown
    const NodeResult& r = diverging[k];
    Json e = Json::object();
    e.set("index", static_cast<uint64_t>(r.index));
    e.set("node", r.node.name);
    e.set("op_type", r.node.opType);
    Json outs = Json::array();
    for (const auto& c : r.diverging) outs.push(checkedJson(c));
    e.set("outputs", std::move(outs));
    dj.push(std::move(e));
  }
  cj.set("divergences", std::move(dj));
  Json oj = Json::array();
  for (const auto& v : file.outputs()) {
    Json e = Json::object();
    e.set("name", v.name);
    auto it = checked.find(v.name);
    e.set("status", it == checked.end() ? "not compared" : it->second.c.match ? "match" : "mismatch");
    if (it != checked.end()) {
      e.set("max_abs_error", it->second.c.maxAbsError);
      e.set("max_rel_error", it->second.c.maxRelError);
    }
    oj.push(std::move(e));
  }
  cj.set("outputs", std::move(oj));
  cj.set("passed", diverging.empty());
  out.set("compare", std::move(cj));
  if (o.json) return diverging.empty() ? 0 : 1;

  const size_t skipped = skippedKind.size() + skippedRef.size();
  std::printf("compare     reference: %s\n", ref.detail.c_str());
  std::printf("            %zu values of %zu nodes compared, %zu skipped; rtol %g, atol %g\n", compared,
              file.numNodes(), skipped, o.rtol, o.atol);
  auto listSome = [](const std::vector<std::string>& v) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < 5; ++i) s += (i ? ", " : "") + v[i];
    if (v.size() > 5) s += ", ... (" + std::to_string(v.size() - 5) + " more)";
    return s;
  };
  if (!skippedKind.empty())
    std::printf("  skipped   %zu not tensors: %s\n", skippedKind.size(), listSome(skippedKind).c_str());
  if (!skippedRef.empty())
    std::printf("  skipped   %zu not in the reference: %s\n", skippedRef.size(), listSome(skippedRef).c_str());
  if (!diverging.empty()) {
    const NodeResult& f = diverging.front();
    std::printf("first divergence: node %zu of %zu in execution order\n", f.index + 1, file.numNodes());
    std::printf("  node        %s\n", f.node.name.c_str());
    std::printf("  op          %s\n", f.node.opType.c_str());
    for (const auto& c : f.diverging) {
      std::printf("  output      %s\n", c.name.c_str());
      std::printf("  shape       %s\n", shapeToString(c.shape).c_str());
      std::printf("  max abs err %s\n", num(c.c.maxAbsError).c_str());
      std::printf("  max rel err %s\n", num(c.c.maxRelError).c_str());
      std::printf("  tolerance   |actual - expected| <= atol + rtol * |expected|, rtol %g, atol %g\n", o.rtol, o.atol);
      std::printf("  mismatch    %s\n", c.c.message.c_str());
    }
    if (diverging.size() > 1) {
      std::printf("next divergences\n");
      for (size_t k = 1; k < diverging.size() && k < kShown; ++k) {
        const NodeResult& r = diverging[k];
        for (const auto& c : r.diverging)
          std::printf("  %4zu  %s %s -> %s %s  max abs err %s  max rel err %s\n", r.index + 1,
                      pad(r.node.opType, 12).c_str(), r.node.name.c_str(), c.name.c_str(),
                      shapeToString(c.shape).c_str(), num(c.c.maxAbsError).c_str(), num(c.c.maxRelError).c_str());
      }
      if (diverging.size() > kShown) std::printf("  ... %zu more nodes (all in --json)\n", diverging.size() - kShown);
    }
  }
  std::printf("compared outputs\n");
  for (const auto& v : file.outputs()) {
    auto it = checked.find(v.name);
    if (it == checked.end()) {
      std::printf("  %s not compared\n", pad(v.name, 20).c_str());
      continue;
    }
    const Comparison& c = it->second.c;
    std::printf("  %s %-8s max abs err %-12s max rel err %s\n", pad(v.name, 20).c_str(), c.match ? "OK" : "MISMATCH",
                num(c.maxAbsError).c_str(), num(c.maxRelError).c_str());
  }
  if (diverging.empty())
    std::printf("compare: all %zu values match\n", compared);
  else
    std::printf("compare: %zu of %zu nodes diverge, the first at node '%s' (%s)\n", diverging.size(), file.numNodes(),
                diverging.front().node.name.c_str(), diverging.front().node.opType.c_str());
  return diverging.empty() ? 0 : 1;
}

}  // namespace oinfer::cli
