// oinfer_bench_shim: a tiny C ABI over oinfer's C++ API for tools/bench/bench.py
// (loaded with ctypes), plus the fp32 FMA peak micro-benchmark.
//
// Why a C ABI and not a Python extension: ctypes needs no build-time Python
// headers, so the benchmark works with whatever interpreter runs it.
// Every function catches exceptions and reports them through obs_last_error().
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define OBS_X86 1
#endif

#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "oinfer/tensor.h"

namespace {

thread_local std::string g_error;

struct Handle {
  std::unique_ptr<oinfer::Session> session;
  std::vector<std::string> inputNames;
  std::vector<oinfer::Tensor> outputs;
  std::string text;  // backing store for strings returned to the caller
};

template <class F>
int guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    g_error = e.what();
  } catch (...) {
    g_error = "unknown exception";
  }
  return -1;
}

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// ---- fp32 peak --------------------------------------------------------------
// Many independent accumulator chains hide the FMA latency (4 cycles, 2 ports
// on AVX-512 server cores: 8+ chains in flight), so the loop is bound only by
// FMA throughput. Returns the flops done.
#ifdef OBS_X86
__attribute__((target("avx512f"))) double fmaLoopAvx512(int64_t iters) {
  // Distinct starting values, or the compiler merges the identical chains.
  __m512 a0 = _mm512_set1_ps(1.00f), a1 = _mm512_set1_ps(1.01f), a2 = _mm512_set1_ps(1.02f),
         a3 = _mm512_set1_ps(1.03f), a4 = _mm512_set1_ps(1.04f), a5 = _mm512_set1_ps(1.05f),
         a6 = _mm512_set1_ps(1.06f), a7 = _mm512_set1_ps(1.07f), a8 = _mm512_set1_ps(1.08f),
         a9 = _mm512_set1_ps(1.09f), a10 = _mm512_set1_ps(1.10f), a11 = _mm512_set1_ps(1.11f);
  const __m512 m = _mm512_set1_ps(0.9999999f), c = _mm512_set1_ps(1e-7f);
  for (int64_t i = 0; i < iters; ++i) {
    a0 = _mm512_fmadd_ps(a0, m, c); a1 = _mm512_fmadd_ps(a1, m, c);
    a2 = _mm512_fmadd_ps(a2, m, c); a3 = _mm512_fmadd_ps(a3, m, c);
    a4 = _mm512_fmadd_ps(a4, m, c); a5 = _mm512_fmadd_ps(a5, m, c);
    a6 = _mm512_fmadd_ps(a6, m, c); a7 = _mm512_fmadd_ps(a7, m, c);
    a8 = _mm512_fmadd_ps(a8, m, c); a9 = _mm512_fmadd_ps(a9, m, c);
    a10 = _mm512_fmadd_ps(a10, m, c); a11 = _mm512_fmadd_ps(a11, m, c);
  }
  __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                           _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
  s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)));
  volatile float sink = _mm512_reduce_add_ps(s);
  (void)sink;
  return static_cast<double>(iters) * 12 * 16 * 2;
}

__attribute__((target("avx2,fma"))) double fmaLoopAvx2(int64_t iters) {
  // Distinct starting values, or the compiler merges the identical chains.
  __m256 a0 = _mm256_set1_ps(1.00f), a1 = _mm256_set1_ps(1.01f), a2 = _mm256_set1_ps(1.02f),
         a3 = _mm256_set1_ps(1.03f), a4 = _mm256_set1_ps(1.04f), a5 = _mm256_set1_ps(1.05f),
         a6 = _mm256_set1_ps(1.06f), a7 = _mm256_set1_ps(1.07f), a8 = _mm256_set1_ps(1.08f),
         a9 = _mm256_set1_ps(1.09f), a10 = _mm256_set1_ps(1.10f), a11 = _mm256_set1_ps(1.11f);
  const __m256 m = _mm256_set1_ps(0.9999999f), c = _mm256_set1_ps(1e-7f);
  for (int64_t i = 0; i < iters; ++i) {
    a0 = _mm256_fmadd_ps(a0, m, c); a1 = _mm256_fmadd_ps(a1, m, c);
    a2 = _mm256_fmadd_ps(a2, m, c); a3 = _mm256_fmadd_ps(a3, m, c);
    a4 = _mm256_fmadd_ps(a4, m, c); a5 = _mm256_fmadd_ps(a5, m, c);
    a6 = _mm256_fmadd_ps(a6, m, c); a7 = _mm256_fmadd_ps(a7, m, c);
    a8 = _mm256_fmadd_ps(a8, m, c); a9 = _mm256_fmadd_ps(a9, m, c);
    a10 = _mm256_fmadd_ps(a10, m, c); a11 = _mm256_fmadd_ps(a11, m, c);
  }
  __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                           _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
  s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, s);
  volatile float sink = lanes[0];
  (void)sink;
  return static_cast<double>(iters) * 12 * 8 * 2;
}
#endif

// Scalar fallback; the compiler may vectorise it, which only helps.
double fmaLoopScalar(int64_t iters) {
  float a[12];
  for (int k = 0; k < 12; ++k) a[k] = 1.0f + 0.01f * k;
  for (int64_t i = 0; i < iters; ++i)
    for (float& x : a) x = x * 0.9999999f + 1e-7f;
  volatile float sink = a[0] + a[11];
  (void)sink;
  return static_cast<double>(iters) * 12 * 2;
}

using LoopFn = double (*)(int64_t);

LoopFn pickLoop(std::string* isa) {
#ifdef OBS_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    *isa = "avx512f";
    return fmaLoopAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    *isa = "avx2+fma";
    return fmaLoopAvx2;
  }
#endif
  *isa = "scalar";
  return fmaLoopScalar;
}

std::string g_isa;

}  // namespace

extern "C" {

const char* obs_last_error() { return g_error.c_str(); }

// The ISA the peak loop uses on this machine ("avx512f", "avx2+fma", "scalar").
const char* obs_peak_isa() {
  pickLoop(&g_isa);
  return g_isa.c_str();
}

// Measured fp32 peak in GFLOP/s with `threads` threads running the FMA loop at
// once, each for about `seconds`. The best of `repeats` trials is returned,
// since a shared machine can only make a trial slower, never faster.
double obs_peak_gflops(int threads, double seconds, int repeats) {
  std::string isa;
  LoopFn loop = pickLoop(&isa);
  threads = std::max(threads, 1);
  // Calibrate the iteration count on one thread.
  int64_t iters = 1 << 16;
  for (;;) {
    auto t0 = std::chrono::steady_clock::now();
    loop(iters);
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (dt > 0.02) {
      iters = static_cast<int64_t>(iters * seconds / dt) + 1;
      break;
    }
    iters *= 4;
  }
  double best = 0;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<double> flops(threads, 0.0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        ready.fetch_add(1);
        while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
        flops[t] = loop(iters);
      });
    while (ready.load() < threads) std::this_thread::yield();
    auto t0 = std::chrono::steady_clock::now();
    go.store(true, std::memory_order_release);
    for (auto& th : pool) th.join();
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double total = 0;
    for (double f : flops) total += f;
    best = std::max(best, total / dt / 1e9);
  }
  return best;
}

// Loads the model, makes a Session and, when `ninputs` > 0, the first plan for
// the given input shapes (dims flattened, `ranks[i]` per input). Null on error.
void* obs_load(const char* path, int threads, int profiling, int optLevel, int ninputs,
               const char* const* names, const int* ranks, const int64_t* dims) {
  Handle* out = nullptr;
  guarded([&] {
    auto h = std::make_unique<Handle>();
    oinfer::Graph graph = oinfer::Graph::loadFromONNX(path);
    oinfer::SessionOptions opts;
    opts.threads = threads;
    opts.profiling = profiling != 0;
    if (optLevel >= 0) opts.optimizationLevel = optLevel;
    // A/B runs of the blocked layout from the tuning scripts (SessionOptions::blockedLayout).
    if (const char* v = std::getenv("OINFER_BENCH_BLOCKED_LAYOUT")) opts.blockedLayout = std::atoi(v) != 0;
    h->session = std::make_unique<oinfer::Session>(std::move(graph), opts);
    std::map<std::string, std::vector<int64_t>> shapes;
    for (int i = 0, k = 0; i < ninputs; ++i) {
      shapes[names[i]] = std::vector<int64_t>(dims + k, dims + k + ranks[i]);
      k += ranks[i];
    }
    if (ninputs > 0) h->session->plan(shapes);
    out = h.release();
  });
  return out;
}

void obs_free(void* handle) { delete static_cast<Handle*>(handle); }

// Runs once on caller-owned input buffers (wrapped, not copied); keeps the
// outputs in the handle until the next run. Returns the number of outputs, -1
// on error.
int obs_run(void* handle, int ninputs, const char* const* names, const int* dtypes,
            const int* ranks, const int64_t* dims, void* const* data) {
  auto* h = static_cast<Handle*>(handle);
  int n = -1;
  guarded([&] {
    oinfer::TensorMap inputs;
    for (int i = 0, k = 0; i < ninputs; ++i) {
      std::vector<int64_t> shape(dims + k, dims + k + ranks[i]);
      k += ranks[i];
      inputs.emplace(names[i], oinfer::Tensor::wrap(static_cast<oinfer::DataType>(dtypes[i]),
                                                    std::move(shape), data[i]));
    }
    h->outputs = h->session->run(inputs);
    n = static_cast<int>(h->outputs.size());
  });
  return n;
}

// Output `i` of the last run: dtype (ONNX TensorProto value), rank, dims (up
// to `maxRank`), and a pointer to its elements (valid until the next run).
const void* obs_output(void* handle, int i, int* dtype, int* rank, int64_t* dims, int maxRank) {
  auto* h = static_cast<Handle*>(handle);
  if (i < 0 || i >= static_cast<int>(h->outputs.size())) {
    g_error = "output index out of range";
    return nullptr;
  }
  const oinfer::Tensor& t = h->outputs[i];
  *dtype = static_cast<int>(t.dtype());
  *rank = static_cast<int>(t.rank());
  for (int d = 0; d < std::min(*rank, maxRank); ++d) dims[d] = t.dim(d);
  return t.data();
}

// Names of the graph outputs, '\n'-separated, in run() order.
const char* obs_output_names(void* handle) {
  auto* h = static_cast<Handle*>(handle);
  h->text.clear();
  for (const auto& v : h->session->graph().outputs()) h->text += v.name + "\n";
  return h->text.c_str();
}

// Per-node profile accumulated so far as a JSON array of
// {"op","node","ms","calls"}; empty array unless the session was made with
// profiling on.
const char* obs_profile_json(void* handle) {
  auto* h = static_cast<Handle*>(handle);
  h->text = "[";
  guarded([&] {
    bool first = true;
    for (const auto& p : h->session->profile()) {
      if (!first) h->text += ",";
      first = false;
      h->text += "{\"op\":\"" + jsonEscape(p.opType) + "\",\"node\":\"" + jsonEscape(p.nodeName) +
                 "\",\"ms\":" + std::to_string(p.totalMs) + ",\"calls\":" + std::to_string(p.calls) +
                 "}";
    }
  });
  h->text += "]";
  return h->text.c_str();
}

void obs_reset_profile(void* handle) { static_cast<Handle*>(handle)->session->resetProfile(); }

}  // extern "C"
