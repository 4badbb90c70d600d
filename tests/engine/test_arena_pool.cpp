// The engine's task arenas are pooled (engine/core/caller_priority_arena.hpp): oneTBB keeps about 7 KB for
// every arena created and destroyed, so one arena per sweep grew a GUI's or a Python loop's memory without
// bound. Sweeps one after another reuse one arena; loops at the same time still get arenas of their own.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "engine/core/caller_priority_arena.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

TEST_CASE("sweeps one after another reuse their task arena instead of making a new one each") {
  const Problem p = test::shipped("toy_point_mass.json", {"sweep.points=8"});
  SweepControl control;
  control.threads = 2;
  run_sweep(p, control);
  const int after_first = CallerPriorityArena::pooled();
  for (int i = 0; i < 200; ++i) run_sweep(p, control);
  CHECK(CallerPriorityArena::pooled() == after_first);
}

TEST_CASE("arenas held at the same time are distinct, and free ones are taken again") {
  const int before = CallerPriorityArena::pooled();
  std::atomic<int> inside{0};
  std::atomic<bool> both{false};
  auto hold = [&] {
    CallerPriorityArena arena(1);
    arena.parallel_ranges(1, 1, [&](int, int) {
      ++inside;
      // Both arenas in use at once (with one shared arena of one slot the second would wait: time out).
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (inside.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
      if (inside.load() >= 2) both = true;
    });
  };
  std::thread a(hold), b(hold);
  a.join();
  b.join();
  CHECK(both.load());
  const int grown = CallerPriorityArena::pooled() - before;
  CHECK(grown <= 2);             // free arenas of one thread from earlier tests may have been taken
  std::thread c(hold), d(hold);  // the same two again: nothing new
  c.join();
  d.join();
  CHECK(CallerPriorityArena::pooled() - before == grown);
}
