#include "conformance/runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "graph/graph_access.h"
#include "oinfer/oinfer.h"

namespace fs = std::filesystem;

namespace oinfer::conformance {

const char* statusName(Status s) {
  switch (s) {
    case Status::kPass: return "pass";
    case Status::kFail: return "fail";
    case Status::kUnsupported: return "unsupported";
    case Status::kError: return "error";
    case Status::kExcluded: return "excluded";
  }
  return "?";
}

std::vector<std::string> listCases(const std::string& suiteDir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(suiteDir, ec))
    if (e.is_directory() && fs::exists(e.path() / "model.onnx")) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

double at(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kFloat: return t.data<float>()[i];
    case DataType::kDouble: return t.data<double>()[i];
    case DataType::kFloat16: return static_cast<float>(t.data<Float16>()[i]);
    case DataType::kBFloat16: return static_cast<float>(t.data<BFloat16>()[i]);
    default: return 0;
  }
}

bool isFloat(DataType d) {
  return d == DataType::kFloat || d == DataType::kDouble || d == DataType::kFloat16 || d == DataType::kBFloat16;
}

// Empty string when equal, else why not.
std::string compare(const Tensor& a, const Tensor& e, double rtol, double atol) {
  if (a.dtype() != e.dtype())
    return std::string("dtype ") + dataTypeName(a.dtype()) + ", expected " + dataTypeName(e.dtype());
  if (a.shape() != e.shape()) return "shape " + shapeToString(a.shape()) + ", expected " + shapeToString(e.shape());
  if (a.dtype() == DataType::kString) {
    for (int64_t i = 0; i < a.numel(); ++i)
      if (a.data<std::string>()[i] != e.data<std::string>()[i]) return "string element " + std::to_string(i) + " differs";
    return "";
  }
  if (!isFloat(a.dtype())) {
    if (a.nbytes() && std::memcmp(a.data(), e.data(), a.nbytes()) != 0) {
      for (size_t i = 0; i < a.nbytes(); ++i)
        if (static_cast<const uint8_t*>(a.data())[i] != static_cast<const uint8_t*>(e.data())[i])
          return "element " + std::to_string(i / dataTypeSize(a.dtype())) + " differs";
    }
    return "";
  }
  double worst = 0;
  int64_t bad = -1;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = at(a, i), y = at(e, i);
    bool ok = std::isnan(y) ? std::isnan(x) : (std::isinf(y) ? x == y : std::fabs(x - y) <= atol + rtol * std::fabs(y));
    if (!ok && bad < 0) bad = i;
    if (!std::isnan(x) && !std::isnan(y) && std::isfinite(y)) worst = std::max(worst, std::fabs(x - y));
  }
  if (bad < 0) return "";
  std::ostringstream os;
  os << "element " << bad << ": got " << at(a, bad) << ", expected " << at(e, bad) << " (max abs error " << worst << ")";
  return os.str();
}

// Any numeric or bool element as a double (strings and complex read as 0).
double num(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DataType::kInt8: return t.data<int8_t>()[i];
    case DataType::kInt16: return t.data<int16_t>()[i];
    case DataType::kInt32: return t.data<int32_t>()[i];
    case DataType::kInt64: return static_cast<double>(t.data<int64_t>()[i]);
    case DataType::kUInt8: return t.data<uint8_t>()[i];
    case DataType::kUInt16: return t.data<uint16_t>()[i];
    case DataType::kUInt32: return t.data<uint32_t>()[i];
    case DataType::kUInt64: return static_cast<double>(t.data<uint64_t>()[i]);
    case DataType::kBool: return t.data<bool>()[i] ? 1 : 0;
    default: return at(t, i);
  }
}

bool isNumeric(DataType d) {
  return d != DataType::kString && d != DataType::kComplex64 && d != DataType::kComplex128 &&
         dataTypeSize(d) != 0;
}

std::string sameDtypeAndShape(const Tensor& a, const Tensor& e) {
  if (a.dtype() != e.dtype())
    return std::string("dtype ") + dataTypeName(a.dtype()) + ", expected " + dataTypeName(e.dtype());
  if (a.shape() != e.shape()) return "shape " + shapeToString(a.shape()) + ", expected " + shapeToString(e.shape());
  return "";
}

// "" when |observed - expected| <= kStatZ * sd + 0.5, else the numbers.
std::string countWithinBound(const char* what, double observed, double expected, double variance) {
  const double bound = kStatZ * std::sqrt(std::max(variance, 0.0)) + 0.5;
  if (std::fabs(observed - expected) <= bound) return "";
  std::ostringstream os;
  os << what << " " << observed << ", expected " << expected << " +- " << bound;
  return os.str();
}

// Values of a graph output computed from random values by other ops: within
// the expected values' range.
std::string withinExpectedRange(const Tensor& a, const Tensor& e) {
  if (!isNumeric(a.dtype()) || e.numel() == 0) return "";
  double lo = num(e, 0), hi = lo;
  for (int64_t i = 1; i < e.numel(); ++i) lo = std::min(lo, num(e, i)), hi = std::max(hi, num(e, i));
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double v = num(a, i);
    if (!(v >= lo && v <= hi)) {
      std::ostringstream os;
      os << "element " << i << " is " << v << ", outside the expected values' range [" << lo << ", " << hi << "]";
      return os.str();
    }
  }
  return "";
}

// Ops whose outputs depend on the random number generator. Dropout is random
// from opset 12 when given a training_mode input; its value is read at run
// time (false makes the check an identity check).
bool isRandomNode(const Node& n, int64_t opset) {
  static const std::set<std::string> ops = {"RandomUniform",    "RandomUniformLike", "RandomNormal",
                                            "RandomNormalLike", "Bernoulli",         "Multinomial"};
  if (!n.domain.empty() || n.outputs.empty() || n.outputs[0].empty()) return false;
  if (ops.count(n.opType)) return true;
  return n.opType == "Dropout" && opset >= 12 && n.inputs.size() > 2 && !n.inputs[2].empty();
}

// One random node's outputs against its op's rule (dtype, shape, statistics).
std::string checkRandomNode(const Node& n, const std::map<std::string, Tensor>& values) {
  auto get = [&](const std::string& name) -> const Tensor& {
    auto it = values.find(name);
    if (it == values.end()) throw Error(ErrorCode::kInternal, "value '" + name + "' was not fetched");
    return it->second;
  };
  const std::string& op = n.opType;
  const Tensor& y = get(n.outputs[0]);
  if (op == "Dropout") {
    const bool training = num(get(n.inputs[2]), 0) != 0;
    const double ratio = n.inputs.size() > 1 && !n.inputs[1].empty() ? num(get(n.inputs[1]), 0) : 0.5;
    const Tensor* mask = n.outputs.size() > 1 && !n.outputs[1].empty() ? &get(n.outputs[1]) : nullptr;
    return checkDropout(get(n.inputs[0]), training ? ratio : 0.0, y, mask);
  }
  DataType want = DataType::kFloat;
  std::vector<int64_t> shape;
  const Tensor* in = n.inputs.empty() || n.inputs[0].empty() ? nullptr : &get(n.inputs[0]);
  if (op == "RandomUniform" || op == "RandomNormal") {
    shape = n.attrInts("shape");
  } else if (op == "Multinomial") {
    want = static_cast<DataType>(n.attrInt("dtype", 6));
    shape = {in && in->rank() == 2 ? in->shape()[0] : -1, n.attrInt("sample_size", 1)};
  } else {
    want = in->dtype();
    shape = in->shape();
  }
  if (n.hasAttr("dtype")) want = static_cast<DataType>(n.attrInt("dtype", 1));
  if (y.dtype() != want) return std::string("dtype ") + dataTypeName(y.dtype()) + ", expected " + dataTypeName(want);
  if (y.shape() != shape) return "shape " + shapeToString(y.shape()) + ", expected " + shapeToString(shape);
  if (op == "Bernoulli") return checkBernoulli(*in, y);
  if (op == "Multinomial") return checkMultinomial(y, in->shape()[1]);
  if (op == "RandomUniform" || op == "RandomUniformLike")
    return checkUniform(y, n.attrFloat("low", 0.0f), n.attrFloat("high", 1.0f));
  return checkNormal(y, n.attrFloat("mean", 0.0f), n.attrFloat("scale", 1.0f));
}

std::vector<std::string> sortedFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<std::pair<int, std::string>> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.rfind(prefix, 0) == 0 && n.size() > prefix.size() + 3 && n.substr(n.size() - 3) == ".pb")
      files.emplace_back(std::atoi(n.c_str() + prefix.size()), e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  for (auto& f : files) out.push_back(f.second);
  return out;
}

// The body that runs in the child. Returns the result line "status\tmessage".
CaseResult runInProcess(const std::string& caseDir, const RunOptions& opt) {
  CaseResult r;
  r.name = fs::path(caseDir).filename().string();
  Graph model;
  try {
    model = Graph::loadFromONNX((fs::path(caseDir) / "model.onnx").string());
  } catch (const Error& e) {
    r.status = Status::kError;
    r.message = std::string("load: ") + e.what();
    return r;
  }
  // The runner edits the graph (symbolic input dims): it works on the IR.
  ir::Graph& g = detail::GraphAccess::ir(model);
  std::set<std::string> ops;
  for (const auto& n : g.nodes) {
    ops.insert(n.opType);
    if (!n.domain.empty() && n.domain != "ai.onnx.ml") {
      r.status = Status::kExcluded;
      r.message = "uses domain " + n.domain;
    }
  }
  r.ops.assign(ops.begin(), ops.end());
  for (const auto& v : g.inputs)
    if (v.kind != ValueKind::kTensor) { r.status = Status::kExcluded; r.message = "non-tensor input " + v.name; }
  for (const auto& v : g.outputs)
    if (v.kind != ValueKind::kTensor) { r.status = Status::kExcluded; r.message = "non-tensor output " + v.name; }
  if (r.status == Status::kExcluded) return r;
  if (const auto missing = model.unsupportedOps(); !missing.empty()) {
    r.status = Status::kUnsupported;
    r.message = missing.front();
    return r;
  }
  if (opt.dynamic) {
    for (size_t i = 0; i < g.inputs.size(); ++i)
      if (g.inputs[i].hasShape)
        for (size_t k = 0; k < g.inputs[i].shape.size(); ++k)
          g.inputs[i].shape[k] = Dim::sym("in" + std::to_string(i) + "_d" + std::to_string(k));
    for (auto& o : g.outputs) {
      o.hasShape = false;
      o.shape.clear();
    }
    g.valueInfo.clear();
  }
  // Statistical mode: the random nodes, and every value computed from theirs.
  std::vector<Node> randomNodes;
  std::set<std::string> rngValues, randomOutputs;
  if (opt.statistical) {
    for (const auto& n : g.nodes)
      if (isRandomNode(n, g.opset(n.domain))) {
        randomNodes.push_back(n);
        for (const auto& o : n.outputs) randomOutputs.insert(o);
      }
    rngValues = randomOutputs;
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& n : g.nodes)
        if (std::any_of(n.inputs.begin(), n.inputs.end(), [&](const std::string& i) { return rngValues.count(i); }))
          for (const auto& o : n.outputs)
            if (!o.empty()) grew |= rngValues.insert(o).second;
    }
  }
  try {
    SessionOptions so;
    so.threads = 1;
    Session session(std::move(model), so);
    const ir::Graph& sg = detail::GraphAccess::ir(session.graph());
    std::vector<fs::path> sets;
    for (const auto& e : fs::directory_iterator(caseDir))
      if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
    std::sort(sets.begin(), sets.end());
    for (const auto& set : sets) {
      auto inFiles = sortedFiles(set, "input_");
      auto outFiles = sortedFiles(set, "output_");
      TensorMap inputs;
      if (inFiles.size() != sg.inputs.size()) {
        r.status = Status::kFail;
        r.message = set.filename().string() + ": " + std::to_string(inFiles.size()) + " input files for " +
                    std::to_string(sg.inputs.size()) + " graph inputs";
        return r;
      }
      for (size_t i = 0; i < inFiles.size(); ++i) inputs[sg.inputs[i].name] = loadTensorProto(inFiles[i]);
      // Besides the graph outputs, fetch the random nodes' inputs and outputs.
      std::vector<std::string> fetch;
      for (const auto& o : sg.outputs) fetch.push_back(o.name);
      std::map<std::string, Tensor> values(inputs.begin(), inputs.end());
      for (const auto& [name, t] : sg.initializers) values.emplace(name, t);
      for (const auto& n : randomNodes)
        for (const auto* names : {&n.inputs, &n.outputs})
          for (const auto& name : *names)
            if (!name.empty() && !values.count(name) && std::find(fetch.begin(), fetch.end(), name) == fetch.end())
              fetch.push_back(name);
      auto outs = session.run(inputs, fetch);
      for (size_t i = 0; i < fetch.size(); ++i) values.emplace(fetch[i], outs[i]);
      outs.resize(sg.outputs.size());
      if (outFiles.size() != outs.size()) {
        r.status = Status::kFail;
        r.message = set.filename().string() + ": " + std::to_string(outFiles.size()) + " expected outputs, got " +
                    std::to_string(outs.size());
        return r;
      }
      for (size_t i = 0; i < outs.size(); ++i) {
        Tensor expected = loadTensorProto(outFiles[i]);
        const std::string& name = sg.outputs[i].name;
        std::string why;
        if (!rngValues.count(name)) why = compare(outs[i], expected, opt.rtol, opt.atol);
        else if ((why = sameDtypeAndShape(outs[i], expected)).empty() && !randomOutputs.count(name))
          why = withinExpectedRange(outs[i], expected);
        if (!why.empty()) {
          r.status = Status::kFail;
          r.message = set.filename().string() + " output '" + sg.outputs[i].name + "': " + why;
          return r;
        }
      }
      for (const auto& n : randomNodes)
        if (std::string why = checkRandomNode(n, values); !why.empty()) {
          r.status = Status::kFail;
          r.message = set.filename().string() + " " + n.describe() + " statistical check: " + why;
          return r;
        }
    }
    r.status = Status::kPass;
  } catch (const Error& e) {
    r.status = e.code() == ErrorCode::kUnsupportedOp || e.code() == ErrorCode::kNotImplemented ? Status::kUnsupported
                                                                                                 : Status::kFail;
    r.message = e.what();
  } catch (const std::exception& e) {
    r.status = Status::kFail;
    r.message = std::string("std::exception: ") + e.what();
  }
  return r;
}

}  // namespace

std::string checkBernoulli(const Tensor& p, const Tensor& y) {
  if (y.shape() != p.shape()) return "shape " + shapeToString(y.shape()) + ", expected the input's " + shapeToString(p.shape());
  if (!isNumeric(y.dtype())) return std::string("dtype ") + dataTypeName(y.dtype()) + " is not numeric";
  double ones = 0, expected = 0, variance = 0;
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double v = num(y, i), q = num(p, i);
    if (v != 0 && v != 1) return "element " + std::to_string(i) + " is " + std::to_string(v) + ", not 0 or 1";
    if ((q == 0 && v != 0) || (q == 1 && v != 1))
      return "element " + std::to_string(i) + " is " + std::to_string(v) + " with probability " + std::to_string(q);
    ones += v;
    expected += q;
    variance += q * (1 - q);
  }
  return countWithinBound("ones", ones, expected, variance);
}

std::string checkDropout(const Tensor& x, double ratio, const Tensor& y, const Tensor* mask) {
  if (auto why = sameDtypeAndShape(y, x); !why.empty()) return "output 0: " + why;
  if (mask && mask->shape() != x.shape())
    return "mask shape " + shapeToString(mask->shape()) + ", expected " + shapeToString(x.shape());
  const double scale = 1.0 / (1.0 - ratio);
  int64_t seen = 0, kept = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double xi = num(x, i), yi = num(y, i), kept_value = xi * scale;
    const bool looksKept = std::fabs(yi - kept_value) <= 1e-3 * std::fabs(kept_value);
    const bool looksDropped = yi == 0;
    if (!looksKept && !looksDropped) {
      std::ostringstream os;
      os << "element " << i << " is " << yi << ", neither 0 nor x / (1 - ratio) = " << kept_value;
      return os.str();
    }
    if (mask) {
      const bool m = num(*mask, i) != 0;
      if (m ? !looksKept : !looksDropped)
        return "element " + std::to_string(i) + ": mask " + (m ? "true" : "false") + " but output " + std::to_string(yi);
      ++seen;
      kept += m;
    } else if (kept_value != 0) {
      ++seen;
      kept += looksKept;
    }
  }
  return countWithinBound("kept", static_cast<double>(kept), seen * (1 - ratio), seen * ratio * (1 - ratio));
}

std::string checkUniform(const Tensor& y, double low, double high) {
  if (!isFloat(y.dtype())) return std::string("dtype ") + dataTypeName(y.dtype()) + " is not a floating type";
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double v = at(y, i);
    if (!(low == high ? v == low : (v >= low && v < high))) {
      std::ostringstream os;
      os << "element " << i << " is " << v << ", outside [" << low << ", " << high << ")";
      return os.str();
    }
  }
  return "";
}

std::string checkNormal(const Tensor& y, double mean, double scale) {
  if (!isFloat(y.dtype())) return std::string("dtype ") + dataTypeName(y.dtype()) + " is not a floating type";
  if (y.numel() == 0) return "";
  double sum = 0;
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double v = at(y, i);
    if (!std::isfinite(v)) return "element " + std::to_string(i) + " is not finite";
    sum += v;
  }
  const double m = sum / static_cast<double>(y.numel()), bound = kStatZ * std::fabs(scale) / std::sqrt(y.numel());
  if (std::fabs(m - mean) <= bound) return "";
  std::ostringstream os;
  os << "mean " << m << ", expected " << mean << " +- " << bound;
  return os.str();
}

std::string checkMultinomial(const Tensor& y, int64_t classes) {
  if (y.dtype() != DataType::kInt32 && y.dtype() != DataType::kInt64)
    return std::string("dtype ") + dataTypeName(y.dtype()) + ", expected int32 or int64";
  for (int64_t i = 0; i < y.numel(); ++i) {
    const double v = num(y, i);
    if (!(v >= 0 && v < static_cast<double>(classes)))
      return "element " + std::to_string(i) + " is " + std::to_string(v) + ", not a class in [0, " +
             std::to_string(classes) + ")";
  }
  return "";
}

CaseResult runCase(const std::string& caseDir, const RunOptions& opt) {
  int fds[2];
  CaseResult r;
  r.name = fs::path(caseDir).filename().string();
  if (pipe(fds) != 0) {
    r.message = "pipe failed";
    return r;
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    CaseResult c = runInProcess(caseDir, opt);
    std::string msg = c.message.substr(0, c.message.find('\n'));
    if (msg.size() > 400) msg = msg.substr(0, 400) + "...";
    std::string line = std::to_string(static_cast<int>(c.status)) + "\t";
    for (size_t i = 0; i < c.ops.size(); ++i) line += (i ? "," : "") + c.ops[i];
    line += "\t" + msg + "\n";
    ssize_t w = write(fds[1], line.data(), line.size());
    (void)w;
    _exit(0);
  }
  close(fds[1]);
  std::string buf;
  char tmp[4096];
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(opt.timeoutSeconds);
  int wstatus = 0;
  bool exited = false;
  while (!exited) {
    ssize_t n;
    while ((n = read(fds[0], tmp, sizeof tmp)) > 0) buf.append(tmp, n);
    pid_t w = waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) {
      exited = true;
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      close(fds[0]);
      r.status = Status::kFail;
      r.message = "timed out after " + std::to_string(opt.timeoutSeconds) + " s";
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ssize_t n;
  while ((n = read(fds[0], tmp, sizeof tmp)) > 0) buf.append(tmp, n);
  close(fds[0]);
  if (!WIFEXITED(wstatus) || buf.empty()) {
    r.status = Status::kFail;
    r.message = WIFSIGNALED(wstatus) ? std::string("crashed with signal ") + strsignal(WTERMSIG(wstatus))
                                     : std::string("child exited without a result");
    return r;
  }
  size_t t1 = buf.find('\t'), t2 = buf.find('\t', t1 + 1);
  r.status = static_cast<Status>(std::atoi(buf.substr(0, t1).c_str()));
  std::string ops = buf.substr(t1 + 1, t2 - t1 - 1);
  std::stringstream ss(ops);
  std::string op;
  while (std::getline(ss, op, ','))
    if (!op.empty()) r.ops.push_back(op);
  r.message = buf.substr(t2 + 1);
  if (!r.message.empty() && r.message.back() == '\n') r.message.pop_back();
  return r;
}

std::map<std::string, ManifestEntry> readManifest(const std::string& path) {
  std::map<std::string, ManifestEntry> out;
  std::ifstream in(path);
  if (!in) throw Error(ErrorCode::kIO, "cannot read manifest " + path);
  std::string line;
  while (std::getline(in, line)) {
    std::string reason;
    if (auto h = line.find('#'); h != std::string::npos) {
      reason = line.substr(h + 1);
      line = line.substr(0, h);
    }
    std::stringstream ss(line);
    std::string name, modes, opt;
    if (!(ss >> name)) continue;
    ManifestEntry e;
    e.reason = reason;
    ss >> modes;
    e.isStatic = modes.find("static") != std::string::npos;
    e.isDynamic = modes.find("dynamic") != std::string::npos;
    e.knownFailure = modes == "fails";
    while (ss >> opt) {
      if (opt == "stat") e.statistical = true;
      if (opt.rfind("rtol=", 0) == 0) e.rtol = std::atof(opt.c_str() + 5);
      if (opt.rfind("atol=", 0) == 0) e.atol = std::atof(opt.c_str() + 5);
    }
    out[name] = e;
  }
  return out;
}

std::string findTestData() {
  if (const char* env = std::getenv("ONNX_TEST_DATA"); env && *env && fs::exists(env)) return env;
#ifdef OINFER_ONNX_TEST_DATA
  if (fs::exists(OINFER_ONNX_TEST_DATA)) return OINFER_ONNX_TEST_DATA;
#endif
  return "";
}

}  // namespace oinfer::conformance
