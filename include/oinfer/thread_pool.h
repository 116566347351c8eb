// The intra-op thread pool kernels parallelise over. A host application may
// make one and hand it to several sessions (SessionOptions::threadPool).
//
// parallelFor splits [0, n) into at most 4 * size() balanced chunks of about
// `grain` items or more, one contiguous region of them per thread. Each
// thread (the calling one too) claims its own region's chunks first, so
// consecutive calls give a thread the same part of their ranges, then steals
// from the back of others', so a thread slowed down (a busy shared core)
// leaves its share to the rest; a pool of size 1 runs inline with no
// synchronisation. Calls from several threads at once are safe: each call
// waits only for its own chunks. A call allocates nothing: the callable is
// passed by reference (RangeFn) and the call's bookkeeping lives on the
// caller's stack, so a Session run can be allocation-free.
//
// Waiting: waking a thread that sleeps on a condition variable takes tens to
// hundreds of microseconds (measured 100-500 us on these VMs; after 2-4 ms
// with both cores idle, ~1.1 ms, and the waking thread itself was held ~1 ms
// in the notify), longer than many kernels, so a second thread woken per
// kernel helps little. A worker
// therefore keeps polling for `spinMicros` after its last chunk before it
// sleeps (pause instructions for the first 50 us, then yielding the core
// between checks, so a process sharing the core gets it back), and a caller
// polls for its chunks to finish for as long before it blocks. Within one inference the kernels come back to
// back, so the workers stay awake through it; once the window has passed with
// no work every worker sleeps: an idle pool uses no CPU. wake() sets the
// sleeping workers polling ahead of a burst of work (Session::run calls it as
// a run starts). spinMicros = 0: never poll (each call pays the wake-up).
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
  static constexpr int kDefaultSpinMicros = 1000;
  // threads: total threads including the caller; <= 0 = hardware concurrency.
  explicit ThreadPool(int threads, int spinMicros = kDefaultSpinMicros);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }
  void parallelFor(int64_t n, RangeFn fn, int64_t grain = 1);
  // Inside a parallelFor body: the calling thread's index in [0, size())
  // of the pool running the call (0: the thread that called parallelFor,
  // unless it is a worker of that pool calling it nested, which keeps its
  // own; 1..size()-1: the workers), one thread per index, so a kernel can
  // give each thread its own part of a scratch buffer. Outside any call:
  // the thread's index in the pool it works for, 0 for other threads.
  static int currentThread();
  // Runs fn(t, t + 1) once on each of the size() threads (t = 0 is the
  // caller), each on a different thread: kernels size their per-thread
  // scratch here at plan time, so no run grows it later on whichever thread
  // happens to take a chunk first.
  void runOnEachThread(RangeFn fn);
  // Sets sleeping workers polling for work for the next spinMicros, so the
  // next parallelFor does not wait for them to wake. Cheap when they already are.
  void wake();
  int spinMicros() const { return spinMicros_; }

 private:
  struct Job;
  void workerLoop(int self);
  // Claims one chunk of `job` (under mu_) and runs it; false when none is left.
  bool runOneChunk(Job& job, std::unique_lock<std::mutex>& lock);
  // Queues `job`, works on it with the caller's thread, and returns once all
  // its chunks are done (rethrowing the first exception).
  void runJob(Job& job);
  // Polls (without mu_) until a job is queued, stop, or the spin window ends.
  void pollForWork() const;

  int size_;
  int spinMicros_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable workCv_;  // a job was queued, or stop
  std::condition_variable doneCv_;  // a job finished its last chunk
  Job* head_ = nullptr;             // jobs with unclaimed chunks (intrusive list)
  std::atomic<int> queued_{0};      // jobs on that list: what polling workers watch
  std::atomic<bool> stop_{false};
  int sleepers_ = 0;                // workers blocked on workCv_ (under mu_)
  uint64_t wakeGen_ = 0;            // bumped by wake() (under mu_)
};

}  // namespace oinfer
