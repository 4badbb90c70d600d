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
//
// In a child made by fork() after the parent's loops ran (engine/core/forked_child.hpp) oneTBB's workers are
// gone and its scheduler's locks are as the fork found them: there the loops run on the calling thread and
// never enter oneTBB.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
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

  // body(begin, end) over pieces of [0, n) of at least grain indices, on the arena's threads; in a forked
  // child body(0, n) on the calling thread.
  template <class Index, class Body>
  void parallel_ranges(Index n, Index grain, const Body& body) {
    if (n <= 0) return;
    if (!slot_) {
      body(Index{0}, n);
      return;
    }
    arena().execute([&] {
      tbb::parallel_for(tbb::blocked_range<Index>(Index{0}, n, grain),
                        [&](const tbb::blocked_range<Index>& r) { body(r.begin(), r.end()); });
    });
  }

  // The threads a loop should plan for: requested (> 0, capped at what oneTBB grants) or oneTBB's default;
  // 1 in a forked child.
  static int loop_threads(int requested);

  // Arenas made so far (in use or free), for tests.
  static int pooled();

 private:
  tbb::task_arena& arena();
  PooledArena* slot_ = nullptr;  // null in a forked child
};

}  // namespace sg
