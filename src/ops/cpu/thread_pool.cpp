#include "ops/cpu/thread_pool.h"

#include <algorithm>

namespace oinfer {

struct ThreadPool::Job {
  RangeFn fn;
  int64_t n = 0, per = 0, chunks = 0;
  int64_t next = 0;               // next chunk to claim (under mu_)
  std::atomic<int64_t> done{0};   // chunks finished
  std::exception_ptr error;       // first exception (under mu_)
  Job* link = nullptr;
  explicit Job(RangeFn f) : fn(f) {}
};

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  size_ = threads;
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  workCv_.notify_all();
  for (auto& t : workers_) t.join();
}

bool ThreadPool::runOneChunk(Job& job, std::unique_lock<std::mutex>& lock) {
  if (job.next >= job.chunks) return false;
  const int64_t c = job.next++;
  if (job.next == job.chunks) {
    // Fully claimed: unlink so no one touches it after its caller returns.
    for (Job** p = &head_; *p; p = &(*p)->link)
      if (*p == &job) {
        *p = job.link;
        break;
      }
  }
  lock.unlock();
  const int64_t b = c * job.per, e = std::min(job.n, b + job.per);
  std::exception_ptr err;
  try {
    if (b < e) job.fn(b, e);
  } catch (...) {
    err = std::current_exception();
  }
  lock.lock();
  if (err && !job.error) job.error = err;
  if (job.done.fetch_add(1) + 1 == job.chunks) doneCv_.notify_all();
  return true;
}

void ThreadPool::workerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    workCv_.wait(lock, [this] { return stop_ || head_ != nullptr; });
    if (stop_ && !head_) return;
    runOneChunk(*head_, lock);
  }
}

void ThreadPool::parallelFor(int64_t n, RangeFn fn, int64_t grain) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t chunks = std::min<int64_t>(size_, (n + grain - 1) / grain);
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  Job job(fn);
  job.n = n;
  job.chunks = chunks;
  job.per = (n + chunks - 1) / chunks;
  std::unique_lock<std::mutex> lock(mu_);
  job.link = head_;
  head_ = &job;
  workCv_.notify_all();
  while (runOneChunk(job, lock)) {
  }
  doneCv_.wait(lock, [&] { return job.done.load() == job.chunks; });
  if (job.error) std::rethrow_exception(job.error);
}

void ThreadPool::runOnEachThread(RangeFn fn) {
  if (size_ <= 1) {
    fn(0, 1);
    return;
  }
  // One chunk per thread; a chunk holds its thread until every chunk has
  // started, so no thread can take two.
  std::atomic<int> started{0};
  std::atomic<int> next{0};
  const int n = size_;
  auto body = [&](int64_t, int64_t) {
    const int t = next.fetch_add(1);
    started.fetch_add(1);
    while (started.load() < n) std::this_thread::yield();
    fn(t, t + 1);
  };
  Job job{RangeFn(body)};
  job.n = n;
  job.chunks = n;
  job.per = 1;
  std::unique_lock<std::mutex> lock(mu_);
  job.link = head_;
  head_ = &job;
  workCv_.notify_all();
  while (runOneChunk(job, lock)) {
  }
  doneCv_.wait(lock, [&] { return job.done.load() == job.chunks; });
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace oinfer
