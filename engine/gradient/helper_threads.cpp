#include "engine/gradient/helper_threads.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/core/forked_child.hpp"
#include "engine/core/thread_priority.hpp"

namespace sg {
namespace {

class HelperPool {
 public:
  ~HelperPool() {
    if (in_forked_child()) {  // the threads are the parent's: none to stop or join here
      for (std::thread& t : threads_) t.detach();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void run(int helpers, const std::function<void(int)>& task, const std::function<void()>& own) {
    if (in_forked_child()) {  // no helpers (engine/core/forked_child.hpp): own() does all the work
      own();
      return;
    }
    std::unique_lock<std::mutex> owner(busy_, std::try_to_lock);
    const int n = owner.owns_lock() ? start(helpers, task) : 0;
    own();
    if (n == 0) return;
    std::unique_lock<std::mutex> lock(m_);
    done_.wait(lock, [&] { return pending_ == 0; });
    task_ = nullptr;
  }

 private:
  // Hands the task to the first `helpers` threads (starting those missing); returns how many took it.
  int start(int helpers, const std::function<void(int)>& task) {
    std::lock_guard<std::mutex> lock(m_);
    try {
      if (static_cast<int>(threads_.size()) < helpers) note_engine_threads_started();
      while (static_cast<int>(threads_.size()) < helpers) {
        const int id = static_cast<int>(threads_.size());
        threads_.emplace_back([this, id] { serve(id); });
      }
    } catch (...) {  // no more threads: those started do it
    }
    const int n = std::min(helpers, static_cast<int>(threads_.size()));
    if (n <= 0) return 0;
    task_ = &task;
    count_ = n;
    pending_ = n;
    ++generation_;
    wake_.notify_all();
    return n;
  }

  void serve(int id) {
    long seen = 0;
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (id >= count_) continue;
      const std::function<void(int)>* task = task_;
      lock.unlock();
      (*task)(id);
      lock.lock();
      if (--pending_ == 0) done_.notify_all();
    }
  }

  std::mutex busy_;  // held by the caller whose task the helpers run
  std::mutex m_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  const std::function<void(int)>* task_ = nullptr;
  long generation_ = 0;
  int count_ = 0, pending_ = 0;
  bool stop_ = false;
};

}  // namespace

void run_beside_helpers(int helpers, const std::function<void(int)>& task, const std::function<void()>& own) {
  static HelperPool pool;
  // Helpers run no higher than their caller (a GUI job lowers itself): they may have been started by another.
  const int caller_niceness = this_thread_niceness();
  pool.run(
      helpers,
      [&](int id) {
        follow_priority(caller_niceness);
        task(id);
      },
      own);
}

void for_each_index(std::size_t count, int threads, const std::function<void(std::size_t, int)>& job) {
  const int n =
      static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), count));
  if (n <= 1) {
    for (std::size_t k = 0; k < count; ++k) job(k, 0);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex m;
  std::exception_ptr error;
  const auto work = [&](int thread) {
    try {
      for (std::size_t k; (k = next.fetch_add(1)) < count;) job(k, thread);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m);
      if (!error) error = std::current_exception();
      next = count;
    }
  };
  run_beside_helpers(
      n - 1, [&](int h) { work(h + 1); }, [&] { work(0); });
  if (error) std::rethrow_exception(error);
}

}  // namespace sg
