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
  Graph g;
  try {
    g = Graph::loadFromONNX((fs::path(caseDir) / "model.onnx").string());
  } catch (const Error& e) {
    r.status = Status::kError;
    r.message = std::string("load: ") + e.what();
    return r;
  }
  std::set<std::string> ops;
  for (const auto& n : g.nodes) {
    ops.insert(n.opType);
    if (!n.domain.empty()) {
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
  if (!g.unsupportedOps().empty()) {
    r.status = Status::kUnsupported;
    r.message = g.unsupportedOps().front();
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
  try {
    SessionOptions so;
    so.threads = 1;
    Session session(std::move(g), so);
    const Graph& sg = session.graph();
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
      auto outs = session.run(inputs);
      if (outFiles.size() != outs.size()) {
        r.status = Status::kFail;
        r.message = set.filename().string() + ": " + std::to_string(outFiles.size()) + " expected outputs, got " +
                    std::to_string(outs.size());
        return r;
      }
      for (size_t i = 0; i < outs.size(); ++i) {
        Tensor expected = loadTensorProto(outFiles[i]);
        std::string why = compare(outs[i], expected, opt.rtol, opt.atol);
        if (!why.empty()) {
          r.status = Status::kFail;
          r.message = set.filename().string() + " output '" + sg.outputs[i].name + "': " + why;
          return r;
        }
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
    while (ss >> opt) {
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
