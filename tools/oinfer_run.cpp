// oinfer-run: load an ONNX model, run it, and report (see usageText()).
//
// Every failure ends up in main()'s catch blocks as one "oinfer-run: ..." line
// on stderr and exit status 2; only a --test-data mismatch or a --compare
// divergence exits 1. With --json, stdout holds a single JSON object and
// nothing else.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "cli_compare.h"
#include "cli_debug.h"
#include "cli_extract.h"
#include "cli_json.h"
#include "cli_options.h"
#include "cli_tensor.h"
#include "oinfer/oinfer.h"

namespace fs = std::filesystem;
using namespace oinfer;
using namespace oinfer::cli;

namespace {

struct Fatal {
  std::string message;
};

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::string num(double v) { return fmt("%.6g", v); }

std::string bytesText(size_t b) {
  if (b < 1024) return std::to_string(b) + " B";
  if (b < (size_t(1) << 20)) return fmt("%.1f KiB", b / 1024.0);
  if (b < (size_t(1) << 30)) return fmt("%.1f MiB", b / 1048576.0);
  return fmt("%.2f GiB", b / 1073741824.0);
}

Json shapeJson(bool hasShape, const Shape& s) {
  if (!hasShape) return nullptr;
  Json a = Json::array();
  for (const Dim& d : s) a.push(d.isStatic() ? Json(d.value) : Json(d.symbol));
  return a;
}
Json shapeJson(const std::vector<int64_t>& s) {
  Json a = Json::array();
  for (int64_t d : s) a.push(d);
  return a;
}

std::string pad(std::string s, size_t w) {
  if (s.size() < w) s.append(w - s.size(), ' ');
  return s;
}

// The Session decides: without the backend or a usable device its
// constructor throws Error(kDevice) with one line, and main exits 2 with it.
void checkDevice(const Options& o, SessionOptions& so) {
  if (o.device == "cuda") so.device = Device::kCUDA;
  so.fp16 = o.fp16;
  so.cudaGraphs = o.cudaGraphs;
}

// ---- inputs ----------------------------------------------------------------

struct Input {
  std::string name;
  Tensor tensor;
  std::string source;  // "random", a file path
};

std::vector<std::string> testDataFiles(const std::string& dir, const char* stem) {
  std::vector<std::string> files;
  for (int k = 0;; ++k) {
    fs::path p = fs::path(dir) / (std::string(stem) + "_" + std::to_string(k) + ".pb");
    std::error_code ec;
    if (!fs::exists(p, ec)) break;
    files.push_back(p.string());
  }
  return files;
}

std::vector<Input> makeInputs(const Options& o, const Graph& g) {
  std::set<std::string> names;
  std::string list;
  for (const auto& v : g.inputs()) {
    names.insert(v.name);
    list += (list.empty() ? "" : ", ") + v.name;
  }
  if (list.empty()) list = "none";
  std::map<std::string, std::string> files;
  for (const auto& [name, file] : o.inputs) {
    if (!names.count(name)) throw Fatal{"--input " + name + "=" + file + ": the model has no input '" + name + "' (inputs: " + list + ")"};
    if (files.count(name)) throw Fatal{"--input " + name + " given twice"};
    files[name] = file;
  }
  for (const auto& [name, dims] : o.shapes)
    if (!names.count(name)) throw Fatal{"--shape " + name + ": the model has no input '" + name + "' (inputs: " + list + ")"};

  std::vector<std::string> testInputs;
  if (!o.testDataDir.empty()) {
    std::error_code ec;
    if (!fs::is_directory(o.testDataDir, ec)) throw Fatal{"--test-data " + o.testDataDir + ": no such directory"};
    testInputs = testDataFiles(o.testDataDir, "input");
    size_t needed = 0;
    for (const auto& v : g.inputs()) needed += !files.count(v.name);
    if (testInputs.size() < g.inputs().size() && needed > 0)
      throw Fatal{"--test-data " + o.testDataDir + ": " + std::to_string(testInputs.size()) +
                  " input_<k>.pb files for " + std::to_string(g.inputs().size()) + " graph inputs"};
  }

  std::vector<Input> inputs;
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const ValueInfo& v = g.inputs()[i];
    Input in{v.name, {}, "random"};
    std::string file = files.count(v.name) ? files[v.name] : (i < testInputs.size() ? testInputs[i] : "");
    if (!file.empty()) {
      try {
        in.tensor = loadTensorFile(file);
      } catch (const Error& e) {
        throw Fatal{"input '" + v.name + "': " + e.what()};
      }
      in.source = file;
      if (v.dtype != DataType::kUndefined && in.tensor.dtype() != v.dtype)
        throw Fatal{"input '" + v.name + "' is " + dataTypeName(v.dtype) + " but " + file + " holds " +
                    dataTypeName(in.tensor.dtype())};
    } else {
      std::vector<int64_t> shape;
      if (auto it = o.shapes.find(v.name); it != o.shapes.end()) {
        shape = it->second;
      } else {
        if (!v.hasShape)
          throw Fatal{"input '" + v.name + "' has no declared shape; give one with --shape " + v.name + "=DIMS"};
        for (const Dim& d : v.shape) shape.push_back(d.isStatic() ? d.value : 1);
      }
      if (v.dtype == DataType::kUndefined) throw Fatal{"input '" + v.name + "' has no declared type; give it with --input"};
      try {
        in.tensor = randomTensor(v.dtype, shape, v.name);
      } catch (const Error& e) {  // a declared shape too large to make (Tensor's own message names no input)
        throw Fatal{"input '" + v.name + "': cannot make a random tensor of shape " + shapeToString(shape) + ": " +
                    e.what()};
      } catch (const std::bad_alloc&) {
        throw Fatal{"input '" + v.name + "': out of memory making a random tensor of shape " + shapeToString(shape)};
      }
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

// ---- reports ---------------------------------------------------------------

// The model as its file describes it (the summary), taken before the
// Session rewrites the graph (what --print-plan shows is the optimized one).
struct FileSummary {
  std::string producer, producerVersion;
  int64_t irVersion = 0;
  std::map<std::string, int64_t> opsets;
  size_t nodes = 0, initializers = 0, weightBytes = 0;
  std::vector<ValueInfo> inputs, outputs;
};

FileSummary summarise(const Graph& g) {
  FileSummary f;
  f.producer = g.producerName();
  f.producerVersion = g.producerVersion();
  f.irVersion = g.irVersion();
  f.opsets = g.opsetImports();
  f.nodes = g.numNodes();
  f.initializers = g.initializerNames().size();
  f.weightBytes = g.weightBytes();
  f.inputs = g.inputs();
  f.outputs = g.outputs();
  return f;
}

Json summaryJson(const Options& o, const FileSummary& g) {
  Json m = Json::object();
  m.set("path", o.model);
  m.set("producer", g.producer);
  m.set("producer_version", g.producerVersion);
  m.set("ir_version", g.irVersion);
  Json opsets = Json::object();
  for (const auto& [d, v] : g.opsets) opsets.set(d.empty() ? "ai.onnx" : d, v);
  m.set("opsets", std::move(opsets));
  m.set("nodes", static_cast<int64_t>(g.nodes));
  m.set("initializers", static_cast<int64_t>(g.initializers));
  m.set("weight_bytes", static_cast<uint64_t>(g.weightBytes));
  for (auto [key, list] : {std::pair{"inputs", &g.inputs}, std::pair{"outputs", &g.outputs}}) {
    Json a = Json::array();
    for (const auto& v : *list) {
      Json e = Json::object();
      e.set("name", v.name);
      e.set("dtype", dataTypeName(v.dtype));
      e.set("shape", shapeJson(v.hasShape, v.shape));
      a.push(std::move(e));
    }
    m.set(key, std::move(a));
  }
  return m;
}

void printSummary(const Options& o, const FileSummary& g) {
  std::string opsets;
  for (const auto& [d, v] : g.opsets) opsets += (opsets.empty() ? "" : ", ") + (d.empty() ? std::string("ai.onnx") : d) + " " + std::to_string(v);
  std::printf("model       %s\n", o.model.c_str());
  std::printf("producer    %s%s%s\n", g.producer.empty() ? "(none)" : g.producer.c_str(),
              g.producerVersion.empty() ? "" : " ", g.producerVersion.c_str());
  std::printf("ir_version  %lld\n", static_cast<long long>(g.irVersion));
  std::printf("opsets      %s\n", opsets.empty() ? "(none)" : opsets.c_str());
  std::printf("graph       %zu nodes, %zu initializers (%s)\n", g.nodes, g.initializers, bytesText(g.weightBytes).c_str());
  for (auto [title, list] : {std::pair{"inputs", &g.inputs}, std::pair{"outputs", &g.outputs}}) {
    std::printf("%s\n", title);
    for (const auto& v : *list)
      std::printf("  %s %-8s %s\n", pad(v.name, 20).c_str(), dataTypeName(v.dtype), describeShape(v.hasShape, v.shape).c_str());
  }
}

struct BenchResult {
  std::vector<double> ms;
  double min = 0, median = 0, p90 = 0, max = 0, mean = 0;
};

BenchResult benchStats(std::vector<double> ms) {
  BenchResult r;
  r.ms = ms;
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  r.min = ms.front();
  r.max = ms.back();
  r.median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  size_t rank = static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n)));  // nearest-rank p90
  r.p90 = ms[std::max<size_t>(rank, 1) - 1];
  double sum = 0;
  for (double v : ms) sum += v;
  r.mean = sum / static_cast<double>(n);
  return r;
}

int runTool(const Options& o) {
  std::error_code ec;
  if (!fs::exists(o.model, ec)) throw Fatal{o.model + ": no such file"};
  if (fs::is_directory(o.model, ec)) throw Fatal{o.model + ": is a directory, not an .onnx file"};
  if (!o.outputDir.empty() && fs::exists(o.outputDir, ec) && !fs::is_directory(o.outputDir, ec))
    throw Fatal{"--output-dir " + o.outputDir + ": exists and is not a directory"};

  SessionOptions so;
  so.threads = o.threads;
  if (o.memoryLimit != UINT64_MAX) so.memoryLimitBytes = o.memoryLimit == 0 ? SIZE_MAX : static_cast<size_t>(o.memoryLimit);
  so.runTimeoutSeconds = o.timeout;
  if (!o.logLevel.empty()) so.logLevel = o.logLevel;
  so.profiling = o.profile;
  so.optimizationLevel = o.optLevel;
  so.keepValues = o.fetch;
  so.customOpLibraries = o.customOps;
  checkDevice(o, so);

  Json out = Json::object();
  auto t0 = Clock::now();
  LoadOptions lo;
  lo.mapExternalData = o.mapExternalData;
  lo.allowExternalDataSymlinks = o.allowExternalSymlinks;
  Graph graph = Graph::loadFromONNX(o.model, lo);
  if (o.listOps) return listOps(o, graph, so);
  if (!o.extractTo.empty()) {
    extractModel(o, graph, out);
    if (o.json) std::printf("%s\n", out.dump().c_str());
    return 0;
  }
  checkFetchNames(o, graph);
  const FileSummary file = summarise(graph);
  Graph fileGraph;  // for --dot: the ops the fused nodes replaced
  if (!o.dotFile.empty()) fileGraph = graph;
  Graph compareGraph;  // for --compare: the file's nodes in execution order, every value kept
  if (o.compare) {
    compareGraph = graph;
    compareGraph.topologicalSort();
    for (const auto& name : compareValueNames(compareGraph))
      if (std::find(so.keepValues.begin(), so.keepValues.end(), name) == so.keepValues.end()) so.keepValues.push_back(name);
  }
  Session session(std::move(graph), so);
  double loadMs = msSince(t0);
  const Graph& g = session.graph();
  out.set("model", summaryJson(o, file));
  if (!o.json) printSummary(o, file);

  std::vector<Input> inputs = makeInputs(o, g);
  TensorMap feeds;
  std::map<std::string, std::vector<int64_t>> inputShapes;
  Json inJson = Json::array();
  if (!o.json) std::printf("run inputs\n");
  for (const auto& in : inputs) {
    feeds[in.name] = in.tensor;
    inputShapes[in.name] = in.tensor.shape();
    Json e = Json::object();
    e.set("name", in.name);
    e.set("dtype", dataTypeName(in.tensor.dtype()));
    e.set("shape", shapeJson(in.tensor.shape()));
    e.set("source", in.source);
    inJson.push(std::move(e));
    if (!o.json)
      std::printf("  %s %-8s %-16s %s\n", pad(in.name, 20).c_str(), dataTypeName(in.tensor.dtype()),
                  shapeToString(in.tensor.shape()).c_str(), in.source == "random" ? "random (fixed seed)" : in.source.c_str());
  }
  out.set("inputs", std::move(inJson));

  std::vector<std::string> names;
  for (const auto& v : g.outputs()) names.push_back(v.name);
  const size_t numOutputs = names.size();
  names.insert(names.end(), o.fetch.begin(), o.fetch.end());
  auto t1 = Clock::now();
  std::vector<Tensor> outputs = o.fetch.empty() ? session.run(feeds) : session.run(feeds, names);
  double firstMs = msSince(t1);
  std::vector<Tensor> fetched(outputs.begin() + static_cast<std::ptrdiff_t>(std::min(numOutputs, outputs.size())), outputs.end());
  outputs.resize(std::min(numOutputs, outputs.size()));
  Json timing = Json::object();
  timing.set("load_ms", loadMs);
  timing.set("first_run_ms", firstMs);
  out.set("timing", std::move(timing));

  // ---- outputs and --fetch values
  auto report = [&](const char* title, const std::vector<Tensor>& tensors, size_t firstName) {
    Json list = Json::array();
    if (!o.json) std::printf("%s\n", title);
    for (size_t i = 0; i < tensors.size(); ++i) {
      const Tensor& t = tensors[i];
      const std::string& name = names[firstName + i];
      Stats s = computeStats(t);
      Json e = Json::object();
      e.set("name", name);
      e.set("dtype", dataTypeName(t.dtype()));
      e.set("shape", shapeJson(t.shape()));
      e.set("min", s.valid ? Json(s.min) : Json());
      e.set("max", s.valid ? Json(s.max) : Json());
      e.set("mean", s.valid ? Json(s.mean) : Json());
      e.set("nan_count", s.nanCount);
      if (!o.json) {
        std::printf("  %s %-8s %-16s", pad(name, 20).c_str(), dataTypeName(t.dtype()), shapeToString(t.shape()).c_str());
        if (s.valid)
          std::printf(" min %s  max %s  mean %s", num(s.min).c_str(), num(s.max).c_str(), num(s.mean).c_str());
        else if (t.numel() == 0)
          std::printf(" (empty)");
        else if (!isNumeric(t.dtype()))
          std::printf(" (%lld elements)", static_cast<long long>(t.numel()));
        if (s.nanCount) std::printf("  NaN %lld", static_cast<long long>(s.nanCount));
        std::printf("\n");
      }
      if (o.topK > 0) {
        Json top = Json::array();
        auto best = topK(t, o.topK);
        if (!o.json) std::printf("    top-%d:", o.topK);
        for (auto [idx, val] : best) {
          Json te = Json::object();
          te.set("index", idx);
          te.set("value", val);
          top.push(std::move(te));
          if (!o.json) std::printf(" [%lld] %s", static_cast<long long>(idx), num(val).c_str());
        }
        if (!o.json) std::printf("%s\n", best.empty() ? " (no numeric entries)" : "");
        e.set("top_k", std::move(top));
      }
      list.push(std::move(e));
    }
    return list;
  };
  out.set("outputs", report("outputs", outputs, 0));
  if (!o.fetch.empty()) out.set("fetched", report("fetched", fetched, numOutputs));

  // ---- --output-dir
  if (!o.outputDir.empty()) {
    fs::create_directories(o.outputDir, ec);
    if (ec) throw Fatal{"--output-dir " + o.outputDir + ": " + ec.message()};
    std::set<std::string> used;
    Json files = Json::array();
    for (size_t i = 0; i < outputs.size() + fetched.size(); ++i) {
      std::string base = sanitizeFileName(names[i]), name = base;
      for (int k = 1; used.count(name); ++k) name = base + "_" + std::to_string(k);
      used.insert(name);
      std::string path = (fs::path(o.outputDir) / (name + ".npy")).string();
      saveNpy(path, i < outputs.size() ? outputs[i] : fetched[i - outputs.size()]);
      files.push(path);
      if (!o.json) std::printf("wrote %s\n", path.c_str());
    }
    out.set("output_files", std::move(files));
  }

  // ---- --test-data
  int status = 0;
  if (!o.testDataDir.empty()) {
    std::vector<std::string> expectedFiles = testDataFiles(o.testDataDir, "output");
    if (expectedFiles.empty()) throw Fatal{"--test-data " + o.testDataDir + ": no output_0.pb"};
    if (expectedFiles.size() > outputs.size())
      throw Fatal{"--test-data " + o.testDataDir + ": " + std::to_string(expectedFiles.size()) +
                  " output_<k>.pb files for " + std::to_string(outputs.size()) + " graph outputs"};
    Json td = Json::object();
    td.set("dir", o.testDataDir);
    td.set("rtol", o.rtol);
    td.set("atol", o.atol);
    Json results = Json::array();
    int bad = 0;
    if (!o.json) std::printf("test-data %s (rtol %g, atol %g)\n", o.testDataDir.c_str(), o.rtol, o.atol);
    for (size_t k = 0; k < expectedFiles.size(); ++k) {
      Tensor expected = loadTensorProto(expectedFiles[k]);
      Comparison c = compareTensors(outputs[k], expected, o.rtol, o.atol);
      bad += !c.match;
      Json r = Json::object();
      r.set("name", g.outputs()[k].name);
      r.set("match", c.match);
      r.set("max_abs_error", c.maxAbsError);
      r.set("max_rel_error", c.maxRelError);
      r.set("mismatches", c.mismatches);
      if (!c.match) r.set("message", c.message);
      results.push(std::move(r));
      if (!o.json)
        std::printf("  %s %-8s max abs err %-12s max rel err %s%s%s\n", pad(g.outputs()[k].name, 20).c_str(),
                    c.match ? "OK" : "MISMATCH", num(c.maxAbsError).c_str(), num(c.maxRelError).c_str(),
                    c.match ? "" : "  ", c.message.c_str());
    }
    td.set("outputs", std::move(results));
    td.set("passed", bad == 0);
    out.set("test_data", std::move(td));
    if (!o.json) {
      if (bad == 0) std::printf("test-data: all %zu outputs match\n", expectedFiles.size());
      else std::printf("test-data: %d of %zu outputs MISMATCH\n", bad, expectedFiles.size());
    }
    status = bad ? 1 : 0;
  }

  // ---- --compare
  if (o.compare) status = std::max(status, compareRun(o, session, compareGraph, feeds, out));

  // ---- --bench / --profile
  if (o.bench > 0 || o.benchSeconds > 0) {
    const int requested = o.bench > 0 ? o.bench : 1000000;
    const bool budget = o.benchSeconds > 0;
    int warmup = o.warmup >= 0 ? o.warmup : 1;
    Progress progress(o.progress || isatty(2));
    for (int i = 0; i < warmup; ++i) {
      progress.update("bench warmup " + std::to_string(i + 1) + "/" + std::to_string(warmup), false);
      session.run(feeds);
    }
    if (o.profile) session.resetProfile();
    std::vector<double> ms;
    if (o.bench > 0) ms.reserve(static_cast<size_t>(o.bench));
    const auto tStart = Clock::now();
    bool budgetReached = false;
    for (int i = 0; i < requested; ++i) {
      if (budget && i > 0 && msSince(tStart) >= o.benchSeconds * 1000.0) {
        budgetReached = true;
        break;
      }
      auto tb = Clock::now();
      session.run(feeds);
      ms.push_back(msSince(tb));
      std::string line = "bench " + std::to_string(ms.size()) + (o.bench > 0 ? "/" + std::to_string(o.bench) : "") +
                         " runs, " + fmt("%.1f", msSince(tStart) / 1000.0) +
                         (budget ? "/" + fmt("%g", o.benchSeconds) : "") + " s, last " + fmt("%.3f", ms.back()) + " ms";
      progress.update(line, i + 1 == requested);
    }
    if (budgetReached)
      progress.update("bench " + std::to_string(ms.size()) + " runs: time budget of " + fmt("%g", o.benchSeconds) +
                          " s reached",
                      true);
    BenchResult r = benchStats(ms);
    Json b = Json::object();
    b.set("runs", static_cast<int64_t>(ms.size()));
    if (o.bench > 0) b.set("requested_runs", o.bench);
    if (budget) b.set("budget_s", o.benchSeconds);
    b.set("budget_reached", budgetReached);
    b.set("warmup", warmup);
    b.set("threads", o.threads);
    b.set("load_ms", loadMs);
    b.set("first_run_ms", firstMs);
    b.set("min_ms", r.min);
    b.set("median_ms", r.median);
    b.set("p90_ms", r.p90);
    b.set("max_ms", r.max);
    b.set("mean_ms", r.mean);
    out.set("bench", std::move(b));
    if (!o.json) {
      std::printf("bench       %zu runs after %d warmup%s\n", ms.size(), warmup,
                  budgetReached ? (" (time budget of " + fmt("%g", o.benchSeconds) + " s reached)").c_str() : "");
      std::printf("  load %s ms   first run (plan) %s ms\n", fmt("%.3f", loadMs).c_str(), fmt("%.3f", firstMs).c_str());
      std::printf("  latency ms  min %s  median %s  p90 %s  max %s\n", fmt("%.3f", r.min).c_str(),
                  fmt("%.3f", r.median).c_str(), fmt("%.3f", r.p90).c_str(), fmt("%.3f", r.max).c_str());
    }
  }
  if (o.profile) {
    std::vector<NodeProfile> prof = session.profile();
    std::stable_sort(prof.begin(), prof.end(), [](const auto& a, const auto& b) { return a.totalMs > b.totalMs; });
    double total = 0;
    for (const auto& p : prof) total += p.totalMs;
    std::map<std::string, double> byOp;
    Json pj = Json::array();
    for (const auto& p : prof) {
      byOp[p.opType] += p.totalMs;
      Json e = Json::object();
      e.set("op_type", p.opType);
      e.set("node", p.nodeName);
      e.set("calls", p.calls);
      e.set("mean_ms", p.calls ? p.totalMs / static_cast<double>(p.calls) : 0.0);
      e.set("total_ms", p.totalMs);
      e.set("share", total > 0 ? p.totalMs / total : 0.0);
      pj.push(std::move(e));
    }
    out.set("profile", std::move(pj));
    if (!o.json) {
      std::printf("profile     %zu nodes, %s ms per run\n", prof.size(),
                  fmt("%.3f", prof.empty() || prof[0].calls == 0 ? 0.0 : total / static_cast<double>(prof[0].calls)).c_str());
      std::printf("  %-18s %-30s %10s %7s\n", "op type", "node", "mean ms", "share");
      const size_t kRows = 40;
      for (size_t i = 0; i < prof.size() && i < kRows; ++i) {
        const auto& p = prof[i];
        std::printf("  %-18s %-30s %10s %6.1f%%\n", p.opType.c_str(), p.nodeName.c_str(),
                    fmt("%.4f", p.calls ? p.totalMs / static_cast<double>(p.calls) : 0.0).c_str(),
                    total > 0 ? 100.0 * p.totalMs / total : 0.0);
      }
      if (prof.size() > kRows) std::printf("  ... %zu more nodes (all of them in --json)\n", prof.size() - kRows);
      std::vector<std::pair<std::string, double>> ops(byOp.begin(), byOp.end());
      std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      std::printf("  by op type:");
      for (const auto& [op, ms] : ops) std::printf(" %s %.1f%%", op.c_str(), total > 0 ? 100.0 * ms / total : 0.0);
      std::printf("\n");
    }
  }

  // ---- --print-plan
  if (o.printPlan) {
    PlanInfo plan = session.plan(inputShapes);
    Json steps = Json::array();
    if (!o.json) std::printf("plan        %zu steps\n", plan.steps.size());
    for (size_t i = 0; i < plan.steps.size(); ++i) {
      const PlanStep& s = plan.steps[i];
      Json e = Json::object();
      e.set("node", s.nodeName);
      e.set("op_type", s.opType);
      Json outs = Json::array();
      std::string text;
      for (size_t j = 0; j < s.outputs.size(); ++j) {
        std::string shape = j < s.outputShapes.size() ? s.outputShapes[j] : "?";
        const std::string layout = j < s.outputLayouts.size() ? s.outputLayouts[j] : "";
        Json oe = Json::object();
        oe.set("name", s.outputs[j]);
        oe.set("shape", shape);
        if (!layout.empty()) oe.set("layout", layout);
        outs.push(std::move(oe));
        text += (j ? ", " : "") + s.outputs[j] + " " + shape + (layout.empty() ? "" : " " + layout);
      }
      e.set("outputs", std::move(outs));
      e.set("view", s.isView);
      e.set("device", s.device == Device::kCUDA ? "cuda" : "cpu");
      if (!s.algorithm.empty()) e.set("algorithm", s.algorithm);
      steps.push(std::move(e));
      if (!o.json)
        std::printf("  %4zu  %s%-18s %-30s -> %s%s%s%s\n", i,
                    o.device != "cuda" ? "" : s.device == Device::kCUDA ? "cuda " : "cpu  ", s.opType.c_str(),
                    s.nodeName.c_str(), text.c_str(), s.isView ? "  (view)" : "", s.algorithm.empty() ? "" : "  [",
                    s.algorithm.empty() ? "" : (s.algorithm + "]").c_str());
    }
    Json mem = Json::object();
    mem.set("arena_bytes", static_cast<uint64_t>(plan.memory.arenaBytes));
    mem.set("lower_bound_bytes", static_cast<uint64_t>(plan.memory.lowerBoundBytes));
    mem.set("weight_bytes", static_cast<uint64_t>(plan.memory.weightBytes));
    mem.set("device_arena_bytes", static_cast<uint64_t>(plan.memory.deviceArenaBytes));
    mem.set("scratch_bytes", static_cast<uint64_t>(plan.memory.scratchBytes));
    Json pj = Json::object();
    pj.set("steps", std::move(steps));
    pj.set("memory", std::move(mem));
    out.set("plan", std::move(pj));
    if (!o.json) {
      const double ratio = plan.memory.lowerBoundBytes
                               ? static_cast<double>(plan.memory.arenaBytes) / static_cast<double>(plan.memory.lowerBoundBytes)
                               : 1.0;
      std::printf("memory      arena %s, lower bound %s (arena / bound %.2f), weights %s, scratch %s\n",
                  bytesText(plan.memory.arenaBytes).c_str(), bytesText(plan.memory.lowerBoundBytes).c_str(), ratio,
                  bytesText(plan.memory.weightBytes).c_str(), bytesText(plan.memory.scratchBytes).c_str());
    }
    if (!o.json && o.device == "cuda")
      std::printf("            device arena %s\n", bytesText(plan.memory.deviceArenaBytes).c_str());
  }

  // ---- --dot
  if (!o.dotFile.empty()) {
    const PlanInfo plan = session.plan(inputShapes);
    std::string format, written;
    try {
      written = writeDot(o.dotFile, graphToDot(fileGraph, g, plan, inputShapes), format);
    } catch (const std::runtime_error& e) {
      throw Fatal{e.what()};
    }
    Json d = Json::object();
    d.set("file", written);
    d.set("format", format);
    out.set("dot", std::move(d));
    if (!o.json) {
      if (format == "svg") std::printf("wrote %s (the plan's graph, rendered by Graphviz dot)\n", written.c_str());
      else if (written != o.dotFile) std::printf("wrote %s (the plan's graph; dot is not on PATH, no SVG)\n", written.c_str());
      else std::printf("wrote %s (the plan's graph in Graphviz form)\n", written.c_str());
    }
  }

  if (o.json) std::printf("%s\n", out.dump().c_str());
  std::fflush(stdout);
  return status;
}

// One line, whatever the message holds.
std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

int fail(const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "oinfer-run: %s\n", oneLine(message).c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o = parseArgs(argc, argv);
    if (o.help) {
      std::fputs(usageText(), stdout);
      return 0;
    }
    if (o.version) {
#ifdef OINFER_HAVE_CUDA
      const char* cuda = "with CUDA";
#else
      const char* cuda = "CPU only";
#endif
      std::printf("oinfer-run %s (%s)\n", oinfer::version(), cuda);
      return 0;
    }
    return runTool(o);
  } catch (const UsageError& e) {
    return fail(e.message);
  } catch (const Fatal& e) {
    return fail(e.message);
  } catch (const Error& e) {
    return fail(e.what());
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  } catch (const std::exception& e) {
    return fail(e.what());
  } catch (...) {
    return fail("unknown error");
  }
}
