// The intra-op thread pool kernels parallelise over.
//
// parallelFor splits [0, n) into chunks of at least `grain` items; the calling
// thread works too, so a pool of size 1 runs inline with no synchronisation.
// Idle workers sleep on a condition variable (no spinning). Calls from several
// threads at once are safe: each call waits only for its own chunks.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace oinfer {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);  // total threads including the caller; <= 0 = hardware
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }
  void parallelFor(int64_t n, const std::function<void(int64_t begin, int64_t end)>& fn,
                   int64_t grain = 1);

 private:
  void workerLoop();
  int size_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool stop_ = false;
};

}  // namespace oinfer
