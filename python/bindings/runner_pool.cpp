#include "python/bindings/runner_pool.hpp"

#include <pthread.h>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace sg::python {
namespace {

struct Pool {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> jobs;
  int idle = 0;

  void work() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      ++idle;
      wake.wait(lock, [&] { return !jobs.empty(); });
      --idle;
      std::function<void()> job = std::move(jobs.front());
      jobs.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }
};

Pool* the_pool = nullptr;

// A child made by fork() has none of the parent's threads: it starts a pool of its own (the parent's, with
// threads counted as idle that the child does not have, would never run a job: multiprocessing's fork).
void new_pool_in_child() {
  the_pool = new Pool;
}

// Never destroyed: its threads live as long as the process (they wait without using the CPU).
Pool& pool() {
  static const bool registered = [] {
    the_pool = new Pool;
    return pthread_atfork(nullptr, nullptr, &new_pool_in_child) == 0;
  }();
  (void)registered;
  return *the_pool;
}

}  // namespace

void run_pooled(std::function<void()> job) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.jobs.push_back(std::move(job));
  if (p.idle >= static_cast<int>(p.jobs.size())) {
    p.wake.notify_one();
  } else {
    std::thread([&p] { p.work(); }).detach();
  }
}

}  // namespace sg::python
