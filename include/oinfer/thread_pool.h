// The intra-op thread pool kernels parallelise over. A host application may
// make one and hand it to several sessions (SessionOptions::threadPool).
//
// parallelFor splits [0, n) into at most size() chunks of at least `grain`
// items; the calling thread works too, so a pool of size 1 runs inline with no
// synchronisation. Idle workers sleep on a condition variable (no spinning).
// Calls from several threads at once are safe: each call waits only for its
// own chunks. A call allocates nothing: the callable is passed by reference
// (RangeFn) and the call's bookkeeping lives on the caller's stack, so a
// Session run can be allocation-free.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace oinfer {

// A non-owning reference to a callable `void(int64_t begin, int64_t end)`.
class RangeFn {
 public:
  template <class F>
  RangeFn(const F& f)  // NOLINT(implicit): lambdas convert at call sites
      : obj_(static_cast<const void*>(&f)),
        call_([](const void* o, int64_t b, int64_t e) { (*static_cast<const F*>(o))(b, e); }) {}
  RangeFn(const RangeFn&) = default;
  void operator()(int64_t b, int64_t e) const { call_(obj_, b, e); }

 private:
  const void* obj_;
  void (*call_)(const void*, int64_t, int64_t);
};

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // total threads including the caller; <= 0 = hardware
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }
  void parallelFor(int64_t n, RangeFn fn, int64_t grain = 1);
  // Runs fn(t, t + 1) once on each of the size() threads (t = 0 is the
  // caller), each on a different thread: kernels size their per-thread
  // scratch here at plan time, so no run grows it later on whichever thread
  // happens to take a chunk first.
  void runOnEachThread(RangeFn fn);

 private:
  struct Job;
  void workerLoop();
  // Claims one chunk of `job` (under mu_) and runs it; false when none is left.
  bool runOneChunk(Job& job, std::unique_lock<std::mutex>& lock);

  int size_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable workCv_;  // a job was queued, or stop
  std::condition_variable doneCv_;  // a job finished its last chunk
  Job* head_ = nullptr;             // jobs with unclaimed chunks (intrusive list)
  bool stop_ = false;
};

}  // namespace oinfer
