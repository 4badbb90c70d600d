#include "engine/core/caller_priority_arena.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include <tbb/task_scheduler_observer.h>

#include "engine/core/available_cores.hpp"
#include "engine/core/forked_child.hpp"
#include "engine/core/thread_priority.hpp"

namespace sg {

namespace {

// Lowers each thread entering the arena to the niceness of the thread that made it.
class Follower : public tbb::task_scheduler_observer {
 public:
  Follower(tbb::task_arena& arena, int niceness) : tbb::task_scheduler_observer(arena), niceness_(niceness) {
    arena.initialize();
    observe(true);
  }
  ~Follower() override { observe(false); }
  void on_scheduler_entry(bool) override { follow_priority(niceness_); }

 private:
  int niceness_;
};

}  // namespace

struct PooledArena {
  PooledArena(int threads_, int niceness_)
      : threads(threads_), niceness(niceness_), arena(threads_), follower(arena, niceness_) {}
  const int threads, niceness;
  bool in_use = false;
  tbb::task_arena arena;
  Follower follower;  // after arena: observes it
};

namespace {

struct ArenaPool {
  std::mutex mutex;
  std::vector<std::unique_ptr<PooledArena>> arenas;
};

// Made once and never destroyed: arenas must not be torn down during static destruction, after oneTBB's own.
ArenaPool& pool() {
  static ArenaPool* p = new ArenaPool;
  return *p;
}

}  // namespace

CallerPriorityArena::CallerPriorityArena(int threads) {
  if (in_forked_child()) return;
  note_engine_threads_started();
  const int n = arena_threads(threads);
  const int niceness = this_thread_niceness();
  ArenaPool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (const std::unique_ptr<PooledArena>& a : p.arenas)
    if (!a->in_use && a->threads == n && a->niceness == niceness) {
      a->in_use = true;
      slot_ = a.get();
      return;
    }
  p.arenas.push_back(std::make_unique<PooledArena>(n, niceness));
  slot_ = p.arenas.back().get();
  slot_->in_use = true;
}

CallerPriorityArena::~CallerPriorityArena() {
  if (!slot_) return;
  std::lock_guard<std::mutex> lock(pool().mutex);
  slot_->in_use = false;
}

tbb::task_arena& CallerPriorityArena::arena() {
  return slot_->arena;
}

int CallerPriorityArena::loop_threads(int requested) {
  if (in_forked_child()) return 1;
  return requested > 0 ? arena_threads(requested) : tbb::this_task_arena::max_concurrency();
}

int CallerPriorityArena::pooled() {
  std::lock_guard<std::mutex> lock(pool().mutex);
  return static_cast<int>(pool().arenas.size());
}

}  // namespace sg
