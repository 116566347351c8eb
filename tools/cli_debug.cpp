#include "cli_debug.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <tuple>

#include "cli_json.h"

extern char** environ;

namespace fs = std::filesystem;

namespace oinfer::cli {

namespace {

std::string shapeText(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}

}  // namespace

int listOps(const Options& o, const Graph& g, const SessionOptions& so) {
  const std::vector<OpUse> ops = g.opsUsed(so);
  size_t nodes = 0;
  for (const auto& u : ops) nodes += u.nodes;
  auto domainName = [](const std::string& d) { return d.empty() ? std::string("ai.onnx") : d; };
  size_t unsupported = 0;
  Json list = Json::array();
  for (const auto& u : ops) {
    unsupported += !u.supported;
    Json e = Json::object();
    e.set("domain", domainName(u.domain));
    e.set("op_type", u.opType);
    e.set("opset", u.opset);
    e.set("nodes", static_cast<uint64_t>(u.nodes));
    e.set("supported", u.supported);
    list.push(std::move(e));
  }
  if (o.json) {
    Json out = Json::object();
    out.set("model", o.model);
    out.set("ops", std::move(list));
    std::printf("%s\n", out.dump().c_str());
    return 0;
  }
  std::printf("ops         %zu op types, %zu nodes, %zu unsupported\n", ops.size(), nodes, unsupported);
  std::printf("  %-16s %-24s %5s %6s  %s\n", "domain", "op type", "opset", "nodes", "supported");
  for (const auto& u : ops)
    std::printf("  %-16s %-24s %5lld %6zu  %s\n", domainName(u.domain).c_str(), u.opType.c_str(),
                static_cast<long long>(u.opset), u.nodes, u.supported ? "yes" : "NO");
  return 0;
}

void checkFetchNames(const Options& o, const Graph& g) {
  if (o.fetch.empty()) return;
  std::vector<std::string> values;
  for (const auto& v : g.inputs()) values.push_back(v.name);
  for (size_t i = 0; i < g.numNodes(); ++i)
    for (const auto& out : g.node(i).outputs)
      if (!out.empty()) values.push_back(out);
  for (const auto& name : o.fetch) {
    if (std::find(values.begin(), values.end(), name) != values.end()) continue;
    if (g.initializer(name)) throw std::runtime_error("--fetch " + name + ": '" + name + "' is a weight (initializer), not a computed value");
    const std::string near = g.closestValueName(name);
    throw std::runtime_error("--fetch " + name + ": the model has no value '" + name + "'" +
                             (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
}

Progress::Progress(bool on) : on_(on), tty_(isatty(2) != 0) {}

Progress::~Progress() {
  if (on_ && tty_ && shown_) std::fprintf(stderr, "\r\033[K");
}

void Progress::update(const std::string& text, bool last) {
  if (!on_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!last && shown_ && now - lastShown_ < std::chrono::milliseconds(500)) return;
  lastShown_ = now;
  shown_ = true;
  if (tty_) std::fprintf(stderr, "\r%s\033[K", text.c_str());
  else std::fprintf(stderr, "%s\n", text.c_str());
  std::fflush(stderr);
}

std::string dotEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string graphToDot(const Graph& file, const Graph& planned, const PlanInfo& plan,
                       const std::map<std::string, std::vector<int64_t>>& inputShapes) {
  const std::vector<NodeInfo> fileNodes = file.nodes();
  const std::vector<NodeInfo> nodes = planned.nodes();
  std::map<std::string, size_t> fileProducer, producer;
  for (size_t i = 0; i < fileNodes.size(); ++i)
    for (const auto& o : fileNodes[i].outputs)
      if (!o.empty()) fileProducer[o] = i;
  std::set<std::string> plannedValues;
  for (const auto& v : planned.inputs()) plannedValues.insert(v.name);
  for (const auto& w : planned.initializerNames()) plannedValues.insert(w);
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const auto& o : nodes[i].outputs)
      if (!o.empty()) producer[o] = i, plannedValues.insert(o);

  // The file's nodes a planned node stands for: back from its outputs through
  // values the passes removed.
  auto replaced = [&](const NodeInfo& n) {
    std::set<size_t> seen;
    std::vector<std::string> todo(n.outputs.begin(), n.outputs.end());
    while (!todo.empty()) {
      const std::string v = todo.back();
      todo.pop_back();
      auto it = fileProducer.find(v);
      if (v.empty() || it == fileProducer.end() || !seen.insert(it->second).second) continue;
      for (const auto& in : fileNodes[it->second].inputs)
        if (!in.empty() && !plannedValues.count(in)) todo.push_back(in);
    }
    std::string ops;
    for (size_t i : seen) ops += (ops.empty() ? "" : "+") + fileNodes[i].opType;
    if (seen.size() == 1 && fileNodes[*seen.begin()].opType == n.opType) return std::string();
    return ops;
  };

  std::map<std::string, std::string> shapeOf;  // value -> "[1,3,8,8]" (+ " NCHW16c")
  for (const auto& [name, s] : inputShapes) shapeOf[name] = shapeText(s);
  std::map<size_t, size_t> stepOfNode;  // planned node index -> step index
  for (size_t si = 0; si < plan.steps.size(); ++si) {
    const PlanStep& s = plan.steps[si];
    for (size_t j = 0; j < s.outputs.size(); ++j) {
      std::string shape = j < s.outputShapes.size() ? s.outputShapes[j] : "";
      if (j < s.outputLayouts.size() && !s.outputLayouts[j].empty()) shape += " " + s.outputLayouts[j];
      if (!s.isCopy) shapeOf[s.outputs[j]] = shape;
    }
    if (!s.isCopy && !s.outputs.empty())
      if (auto it = producer.find(s.outputs[0]); it != producer.end()) stepOfNode.emplace(it->second, si);
  }
  auto edgeLabel = [&](const std::string& v) {
    auto it = shapeOf.find(v);
    return dotEscape(v) + (it == shapeOf.end() || it->second.empty() ? "" : "\\n" + dotEscape(it->second));
  };

  std::string d = "digraph oinfer {\n";
  d += "  rankdir=TB;\n";
  d += "  node [fontname=\"Helvetica\", fontsize=10];\n";
  d += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  std::map<std::string, std::string> inputId;
  for (size_t i = 0; i < planned.inputs().size(); ++i) {
    const std::string& name = planned.inputs()[i].name;
    inputId[name] = "in" + std::to_string(i);
    d += "  in" + std::to_string(i) + " [shape=ellipse, style=filled, fillcolor=\"#d3f9d8\", label=\"" +
         dotEscape(name) + "\"];\n";
  }
  for (const auto& [ni, si] : stepOfNode) {
    const NodeInfo& n = nodes[ni];
    const bool fused = n.domain == "ai.oinfer";
    const std::string from = replaced(n);
    std::string label = dotEscape(n.opType) + "\\n" + dotEscape(n.name);
    if (!from.empty()) label += "\\n(" + dotEscape(from) + ")";
    d += "  s" + std::to_string(si) + " [shape=box, style=\"" + (fused ? "rounded,filled,bold" : "filled") +
         "\", fillcolor=\"" + (fused ? "#ffd8a8" : "#e7f5ff") + "\", label=\"" + label + "\"];\n";
  }
  for (const auto& [ni, si] : stepOfNode) {
    const NodeInfo& n = nodes[ni];
    std::set<std::string> drawn;
    for (const auto& in : n.inputs) {
      if (in.empty() || !drawn.insert(in).second) continue;
      std::string from;
      if (auto it = inputId.find(in); it != inputId.end()) {
        from = it->second;
      } else if (auto p = producer.find(in); p != producer.end()) {
        auto st = stepOfNode.find(p->second);
        if (st == stepOfNode.end()) continue;  // folded at plan time
        from = "s" + std::to_string(st->second);
      } else {
        continue;  // a weight
      }
      d += "  " + from + " -> s" + std::to_string(si) + " [label=\"" + edgeLabel(in) + "\"];\n";
    }
  }
  for (size_t i = 0; i < planned.outputs().size(); ++i) {
    const std::string& name = planned.outputs()[i].name;
    d += "  out" + std::to_string(i) + " [shape=ellipse, style=filled, fillcolor=\"#fff3bf\", label=\"" +
         dotEscape(name) + "\"];\n";
    std::string from;
    if (auto it = inputId.find(name); it != inputId.end()) {
      from = it->second;
    } else if (auto p = producer.find(name); p != producer.end() && stepOfNode.count(p->second)) {
      from = "s" + std::to_string(stepOfNode[p->second]);
    }
    if (!from.empty()) d += "  " + from + " -> out" + std::to_string(i) + " [label=\"" + edgeLabel(name) + "\"];\n";
  }
  d += "}\n";
  return d;
}

namespace {

void writeText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("--dot " + path + ": cannot write (" + std::strerror(errno) + ")");
  f << text;
  f.close();
  if (!f) throw std::runtime_error("--dot " + path + ": write failed");
}

// Runs `dot -Tsvg -o svg dotFile`; false when dot is not on PATH.
bool runDot(const std::string& dotFile, const std::string& svg) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args = {"dot", "-Tsvg", "-o", svg, dotFile};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "dot", &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc == ENOENT) return false;
  if (rc != 0) throw std::runtime_error("--dot: cannot run dot: " + std::string(std::strerror(rc)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("--dot: waiting for dot failed");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("--dot " + svg + ": dot failed (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  return true;
}

}  // namespace

std::string writeDot(const std::string& path, const std::string& text, std::string& format) {
  fs::path p(path);
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext != ".svg") {
    writeText(path, text);
    format = "dot";
    return path;
  }
  const std::string tmp = path + ".tmp.dot";
  writeText(tmp, text);
  bool rendered = false;
  try {
    rendered = runDot(tmp, path);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  fs::remove(tmp, ec);
  if (rendered) {
    format = "svg";
    return path;
  }
  const std::string dotPath = fs::path(path).replace_extension(".dot").string();
  writeText(dotPath, text);
  format = "dot";
  return dotPath;
}

}  // namespace oinfer::cli
