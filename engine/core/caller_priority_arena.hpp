#pragma once
// A oneTBB task arena whose threads run no higher than the thread that made it (engine/core/
// thread_priority.hpp). Pooled worker threads do not inherit the priority of whoever hands them work, so
// each lowers itself to the maker's on entering the arena: the engine's parallel loops (sweeps, 2-D maps,
// descents) started from a lowered thread (a GUI job) leave the UI thread its core, and started from the
// command line keep full priority.
#include <utility>

#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

#include "engine/core/available_cores.hpp"
#include "engine/core/thread_priority.hpp"

namespace sg {

class CallerPriorityArena {
 public:
  // threads beyond what oneTBB grants are capped (arena_threads): the one place every parallel loop goes
  // through.
  explicit CallerPriorityArena(int threads)
      : arena_(arena_threads(threads)), follower_(arena_, this_thread_niceness()) {}
  template <class F>
  void execute(F&& f) {
    arena_.execute(std::forward<F>(f));
  }

 private:
  class Follower : public tbb::task_scheduler_observer {
   public:
    Follower(tbb::task_arena& arena, int niceness)
        : tbb::task_scheduler_observer(arena), niceness_(niceness) {
      arena.initialize();
      observe(true);
    }
    ~Follower() override { observe(false); }
    void on_scheduler_entry(bool) override { follow_priority(niceness_); }

   private:
    int niceness_;
  };

  tbb::task_arena arena_;
  Follower follower_;  // after arena_: observes it, and stops before it goes
};

}  // namespace sg
