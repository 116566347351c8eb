#include "oinfer/thread_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define OINFER_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define OINFER_CPU_RELAX() asm volatile("yield" ::: "memory")
#else
#define OINFER_CPU_RELAX() std::this_thread::yield()
#endif

namespace oinfer {

namespace {

using Clock = std::chrono::steady_clock;

// Polling spins on pause instructions for this long, then yields the core
// between checks (std::this_thread::yield) for the rest of the window. On an
// idle machine a yield returns at once, so nothing changes there (side by
// side, both orders: ResNet-50, SqueezeNet, MobileNetV2, EfficientNet-B0
// within 1%). Where another process shares the core, a worker that kept
// spinning spent its share of it polling, and the scheduler then took it
// away in the middle of a chunk, which the caller had to wait out: with a
// busy loop on one of the two cores, oinfer / onnxruntime went from ResNet-50
// 1.04, SqueezeNet 1.59, MobileNetV2 1.41, EfficientNet-B0 1.33 to 0.77,
// 0.98, 0.95, 0.75.
constexpr int kPausePollMicros = 50;

// Polls `ready` for up to `micros`: pauses for kPausePollMicros, then yields
// between checks; the clock is read every 64 pauses.
template <class Pred>
bool pollFor(int micros, Pred ready) {
  if (micros <= 0) return ready();
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::microseconds(micros);
  const auto politeFrom = start + std::chrono::microseconds(kPausePollMicros);
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      OINFER_CPU_RELAX();
    }
    const auto now = Clock::now();
    if (now >= deadline) return ready();
    if (now >= politeFrom) std::this_thread::yield();
  }
}

// The pool thread running this code: 0 for callers, 1..size-1 for the
// workers of `pool`. A thread calling parallelFor on a pool it is not a
// worker of (an application thread, or a worker of another pool running a
// Session on this one) is index 0 of this pool for the call, so within a
// call's body every index is below size() and held by one thread: kernels
// index per-thread scratch with it.
struct Self {
  const ThreadPool* pool = nullptr;
  int index = 0;
};
thread_local Self tlsSelf;

// Makes the calling thread this pool's caller (index 0) for a call, unless it
// is one of the pool's workers (a nested call keeps its index).
class AsCaller {
 public:
  explicit AsCaller(const ThreadPool* pool) : saved_(tlsSelf) {
    if (tlsSelf.pool != pool) tlsSelf = Self{pool, 0};
  }
  ~AsCaller() { tlsSelf = saved_; }
  AsCaller(const AsCaller&) = delete;
  AsCaller& operator=(const AsCaller&) = delete;

 private:
  Self saved_;
};

constexpr int kMaxRegions = 16;

}  // namespace

// Chunks are split into one contiguous region per thread; a thread claims
// from the front of its own region first and, when that is empty, steals
// from the back of the fullest other one. So the same thread takes the same
// part of consecutive ops' ranges when nobody is late (a layer's output
// rows are read by the thread that wrote them, from its own L2), and a late
// or descheduled thread's chunks still go to whoever is free.
struct ThreadPool::Job {
  RangeFn fn;
  int64_t n = 0, chunks = 0;
  int64_t claimed = 0;            // chunks claimed so far (under mu_)
  int regions = 1;
  int64_t rNext[kMaxRegions] = {}, rEnd[kMaxRegions] = {};  // each region's unclaimed chunks (under mu_)
  std::atomic<int64_t> done{0};   // chunks finished; the last access a worker makes to the job
  bool callerBlocked = false;     // the caller sleeps on doneCv_ (under mu_)
  std::exception_ptr error;       // first exception (under mu_)
  Job* link = nullptr;
  explicit Job(RangeFn f) : fn(f) {}
};

int ThreadPool::currentThread() { return tlsSelf.index; }

ThreadPool::ThreadPool(int threads, int spinMicros) : spinMicros_(std::max(0, spinMicros)) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  size_ = threads;
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { workerLoop(i); });
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
  if (job.claimed >= job.chunks) return false;
  int64_t c;
  const int own = tlsSelf.index % job.regions;
  if (job.rNext[own] < job.rEnd[own]) {
    c = job.rNext[own]++;
  } else {
    int victim = 0;
    for (int r = 1; r < job.regions; ++r)
      if (job.rEnd[r] - job.rNext[r] > job.rEnd[victim] - job.rNext[victim]) victim = r;
    c = --job.rEnd[victim];
  }
  if (++job.claimed == job.chunks) {
    // Fully claimed: unlink so no one touches it after its caller returns.
    for (Job** p = &head_; *p; p = &(*p)->link)
      if (*p == &job) {
        *p = job.link;
        queued_.fetch_sub(1, std::memory_order_relaxed);
        break;
      }
  }
  lock.unlock();
  // Balanced: chunk c is [c * n / chunks, (c + 1) * n / chunks), so every
  // region gets its share (ceil-sized chunks left the last ones empty: 17
  // items in 8 chunks of 3 gave one thread 12 and the other 5).
  const int64_t b = c * job.n / job.chunks, e = (c + 1) * job.n / job.chunks;
  std::exception_ptr err;
  try {
    if (b < e) job.fn(b, e);
  } catch (...) {
    err = std::current_exception();
  }
  lock.lock();
  if (err && !job.error) job.error = err;
  // The caller may return (destroying `job`) as soon as it sees the last
  // increment, so read what we need first.
  const bool notify = job.callerBlocked;
  if (job.done.fetch_add(1, std::memory_order_acq_rel) + 1 == job.chunks && notify) doneCv_.notify_all();
  return true;
}

void ThreadPool::pollForWork() const {
  pollFor(spinMicros_, [this] {
    return queued_.load(std::memory_order_acquire) > 0 || stop_.load(std::memory_order_relaxed);
  });
}

void ThreadPool::workerLoop(int self) {
  tlsSelf = Self{this, self};
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (head_) {
      runOneChunk(*head_, lock);
      continue;
    }
    if (stop_) return;
    if (spinMicros_ > 0) {
      lock.unlock();
      pollForWork();
      lock.lock();
      if (head_ || stop_) continue;
    }
    const uint64_t gen = wakeGen_;
    ++sleepers_;
    workCv_.wait(lock, [&] { return stop_ || head_ != nullptr || wakeGen_ != gen; });
    --sleepers_;
  }
}

void ThreadPool::wake() {
  if (spinMicros_ <= 0 || workers_.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (sleepers_ == 0) return;
  ++wakeGen_;
  workCv_.notify_all();
}

void ThreadPool::runJob(Job& job) {
  job.regions = int(std::min<int64_t>({int64_t{size_}, int64_t{kMaxRegions}, job.chunks}));
  for (int r = 0; r < job.regions; ++r) {
    job.rNext[r] = r * job.chunks / job.regions;
    job.rEnd[r] = (r + 1) * job.chunks / job.regions;
  }
  std::unique_lock<std::mutex> lock(mu_);
  job.link = head_;
  head_ = &job;
  queued_.fetch_add(1, std::memory_order_release);
  if (sleepers_ > 0) workCv_.notify_all();
  while (runOneChunk(job, lock)) {
  }
  // Every chunk is claimed; wait for the ones other threads run.
  if (job.done.load(std::memory_order_acquire) != job.chunks) {
    lock.unlock();
    const bool finished =
        pollFor(spinMicros_, [&] { return job.done.load(std::memory_order_acquire) == job.chunks; });
    lock.lock();
    if (!finished) {
      job.callerBlocked = true;
      doneCv_.wait(lock, [&] { return job.done.load(std::memory_order_acquire) == job.chunks; });
    }
  }
  if (job.error) std::rethrow_exception(job.error);
}

void ThreadPool::parallelFor(int64_t n, RangeFn fn, int64_t grain) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  // A few chunks per thread, claimed dynamically, so a thread that loses
  // its core for a moment does not stretch the op (TUNING.md, Runtime).
  const int64_t chunks = size_ <= 1 ? 1 : std::min<int64_t>(int64_t{4} * size_, (n + grain - 1) / grain);
  const AsCaller self(this);
  if (chunks <= 1) {
    fn(0, n);
    return;
  }
  Job job(fn);
  job.n = n;
  job.chunks = chunks;
  runJob(job);
}

void ThreadPool::runOnEachThread(RangeFn fn) {
  const AsCaller self(this);
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
  runJob(job);
}

}  // namespace oinfer
