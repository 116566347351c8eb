// The intra-op thread pool: coverage of [0, n), exceptions, concurrent
// callers, and a pool supplied by the host and shared by two sessions.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <chrono>
#include <ctime>

#include "../models/model_test_util.h"
#include "oinfer/thread_pool.h"

namespace oinfer {
namespace {

TEST(ThreadPool, CoversEveryIndexOnce) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (int64_t n : {1, 2, 3, 7, 1000}) {
      std::vector<std::atomic<int>> hits(n);
      pool.parallelFor(n, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) hits[i]++;
      });
      for (int64_t i = 0; i < n; ++i) EXPECT_EQ(hits[i].load(), 1) << "threads " << threads << " n " << n << " i " << i;
    }
  }
}

TEST(ThreadPool, GrainLimitsChunks) {
  ThreadPool pool(4);
  std::atomic<int> calls{0};
  pool.parallelFor(10, [&](int64_t, int64_t) { calls++; }, 100);
  EXPECT_EQ(calls.load(), 1) << "10 items with grain 100 run as one chunk";
}

TEST(ThreadPool, AtMostFourChunksPerThread) {
  for (int threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    std::atomic<int> calls{0};
    std::atomic<int64_t> covered{0};
    pool.parallelFor(1000, [&](int64_t b, int64_t e) {
      calls++;
      covered += e - b;
    });
    EXPECT_EQ(covered.load(), 1000);
    EXPECT_LE(calls.load(), threads == 1 ? 1 : 4 * threads) << threads << " threads";
  }
}

// Chunks are split into a region per thread, each thread claiming its own
// region first: the caller starts with chunk 0. A thread whose region is
// empty steals from the back of another's, so a job finishes even while
// one thread is stuck in a chunk: here a worker holds chunk 4 (the front of
// its region) until the other 7 are done, which needs the caller to take
// 5..7 from that region.
TEST(ThreadPool, RegionsPerThreadAndStealing) {
  ThreadPool pool(2, 100000);  // workers keep polling: they take their chunks
  const std::thread::id caller = std::this_thread::get_id();
  for (int round = 0; round < 20; ++round) {
    std::vector<std::thread::id> ranOn(8);
    std::atomic<int> done{0};
    std::atomic<bool> timedOut{false};
    pool.parallelFor(8, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c) {
        ranOn[c] = std::this_thread::get_id();
        if (c == 4 && ranOn[c] != caller) {
          const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
          while (done.load() < 7)
            if (std::chrono::steady_clock::now() > deadline) {
              timedOut = true;
              break;
            }
        }
        done++;
      }
    });
    ASSERT_FALSE(timedOut.load()) << "round " << round << ": nobody stole the held worker's chunks";
    EXPECT_EQ(done.load(), 8);
    EXPECT_EQ(ranOn[0], caller) << "round " << round << ": the caller's region starts at chunk 0";
  }
}

TEST(ThreadPool, ExceptionReachesTheCaller) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallelFor(100, [&](int64_t b, int64_t) {
    if (b > 0) throw std::runtime_error("chunk failed");
  }),
               std::runtime_error);
  // The pool still works afterwards.
  std::atomic<int64_t> sum{0};
  pool.parallelFor(100, [&](int64_t b, int64_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 100);
}

TEST(ThreadPool, ConcurrentCallersEachGetTheirOwnWork) {
  ThreadPool pool(3);
  std::vector<std::thread> callers;
  std::vector<int64_t> sums(4, 0);
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&, c] {
      for (int rep = 0; rep < 200; ++rep) {
        std::atomic<int64_t> s{0};
        pool.parallelFor(64, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) s += i;
        });
        sums[c] += s.load();
      }
    });
  for (auto& t : callers) t.join();
  for (int c = 0; c < 4; ++c) EXPECT_EQ(sums[c], 200 * (63 * 64 / 2));
}

double processCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Workers poll for spinMicros after their last chunk, then sleep: over an
// idle stretch well past the window the process burns (almost) no CPU, for
// the default window, after wake(), and with polling off.
TEST(ThreadPool, IdleWorkersSleepAfterTheSpinWindow) {
  for (int spin : {ThreadPool::kDefaultSpinMicros, 0}) {
    ThreadPool pool(3, spin);
    EXPECT_EQ(pool.spinMicros(), spin);
    std::atomic<int64_t> sum{0};
    pool.parallelFor(1000, [&](int64_t b, int64_t e) { sum += e - b; });
    EXPECT_EQ(sum.load(), 1000);
    for (bool woken : {false, true}) {
      if (woken) pool.wake();
      std::this_thread::sleep_for(std::chrono::milliseconds(30));  // past the window
      const double t0 = processCpuSeconds();
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const double used = processCpuSeconds() - t0;
      // Two polling workers would burn ~0.4 s of CPU here.
      EXPECT_LT(used, 0.02) << "spin " << spin << (woken ? " after wake()" : "") << ": " << used
                            << " s of CPU over 0.2 s idle";
    }
  }
}

TEST(ThreadPool, RunOnEachThreadVisitsEveryThreadOnce) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    for (int rep = 0; rep < 20; ++rep) {
      std::mutex mu;
      std::vector<std::thread::id> ids;
      std::vector<int64_t> slots;
      pool.runOnEachThread([&](int64_t t, int64_t) {
        std::lock_guard<std::mutex> lock(mu);
        ids.push_back(std::this_thread::get_id());
        slots.push_back(t);
      });
      ASSERT_EQ(ids.size(), static_cast<size_t>(threads));
      std::sort(ids.begin(), ids.end());
      EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end()) << "a thread ran twice";
      std::sort(slots.begin(), slots.end());
      for (int t = 0; t < threads; ++t) EXPECT_EQ(slots[t], t);
    }
  }
}

// A thread calling parallelFor on a pool it is not a worker of (here the
// workers of another pool) is that call's index 0: inside the body every
// index is below the pool's size and held by one thread at a time, as the
// kernels' per-thread scratch needs. Outside, each keeps its own index.
TEST(ThreadPool, IndicesStayWithinThePoolRunningTheCall) {
  ThreadPool outer(3), inner(2);
  std::atomic<int> bad{0}, innerCalls{0}, restored{0};
  outer.parallelFor(3, [&](int64_t, int64_t) {
    const int mine = ThreadPool::currentThread();
    std::vector<std::atomic<int>> holders(2);
    inner.parallelFor(64, [&](int64_t, int64_t) {
      const int t = ThreadPool::currentThread();
      if (t < 0 || t >= inner.size()) {
        bad++;
        return;
      }
      if (holders[t].fetch_add(1) != 0) bad++;  // two threads on one index at once
      std::this_thread::sleep_for(std::chrono::microseconds(50));
      holders[t].fetch_sub(1);
      innerCalls++;
    });
    if (ThreadPool::currentThread() == mine) restored++;
  }, 1);
  EXPECT_EQ(bad.load(), 0) << "an index outside [0, inner.size()) or shared inside one call";
  EXPECT_GT(innerCalls.load(), 0);
  EXPECT_EQ(restored.load(), 3) << "each thread has its outer index back after the inner call";
}

TEST(ThreadPool, SuppliedPoolIsSharedBySessions) {
  using namespace modeltest;
  auto pool = std::make_shared<ThreadPool>(2);
  SessionOptions opts;
  opts.threadPool = pool;
  Session a(Graph::loadFromONNX(modelPath("resnet_bn")), opts);
  Session b(Graph::loadFromONNX(modelPath("mobilenetv2")), opts);
  const auto sa = loadNumberedDataSets("resnet_bn");
  const auto sb = loadNumberedDataSets("mobilenetv2");
  std::thread ta([&] { runAndCompare(a, sa[0], "resnet_bn on the shared pool"); });
  runAndCompare(b, sb[0], "mobilenetv2 on the shared pool");
  ta.join();
  EXPECT_GE(pool.use_count(), 3) << "both sessions hold the host's pool";
}

}  // namespace
}  // namespace oinfer
