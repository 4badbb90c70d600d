#pragma once
// A oneTBB task arena whose threads run no higher than the thread that made it (engine/core/
// thread_priority.hpp). Pooled worker threads do not inherit the priority of whoever hands them work, so
// each lowers itself to the maker's on entering the arena: the engine's parallel loops (sweeps, 2-D maps,
// descents) started from a lowered thread (a GUI job) leave the UI thread its core, and started from the
// command line keep full priority.
//
// The arenas are pooled and reused, never destroyed: oneTBB 2021.8 (Debian 12) keeps about 7 KB for every
// task_arena created and destroyed, which a GUI re-sweeping on every knob change or a Python loop of sweeps
// would accumulate without bound (tests/python/test_runs.py, resident memory over 1000 sweeps). Each user
// still has an arena of its own while it holds one: a second loop running at the same time takes another.
#include <utility>

#include <tbb/task_arena.h>

namespace sg {

struct PooledArena;  // engine/core/caller_priority_arena.cpp

class CallerPriorityArena {
 public:
  // threads beyond what oneTBB grants are capped (arena_threads): the one place every parallel loop goes
  // through.
  explicit CallerPriorityArena(int threads);
  ~CallerPriorityArena();
  CallerPriorityArena(const CallerPriorityArena&) = delete;
  CallerPriorityArena& operator=(const CallerPriorityArena&) = delete;

  template <class F>
  void execute(F&& f) {
    arena().execute(std::forward<F>(f));
  }

  // Arenas made so far (in use or free), for tests.
  static int pooled();

 private:
  tbb::task_arena& arena();
  PooledArena* slot_;
};

}  // namespace sg
