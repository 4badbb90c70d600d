// The engine's parallel loops run their workers no higher than the thread that starts them
// (engine/core/thread_priority.hpp): the GUI's job threads lower themselves, so that the UI thread gets a
// core whenever it wants one, and a sweep started from the command line keeps every core at full priority.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include "engine/core/thread_priority.hpp"
#include "engine/gradient/helper_threads.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// The smallest nice value any point of a 2-thread sweep ran at (the highest priority a worker had), with the
// sweep called from a thread of its own that first lowers itself when `lowered`.
int highest_priority_of_sweep(bool lowered) {
  const Problem p = test::shipped("toy_point_mass.json", {"sweep.points=64"});
  std::mutex m;
  int lowest = 1000;
  long seen = 0;
  SweepControl control;
  control.threads = 2;
  control.on_point = [&](long, const PointResult&) {
    const int nice = this_thread_niceness();
    std::lock_guard lock(m);
    lowest = std::min(lowest, nice);
    ++seen;
  };
  SweepResult result;
  std::thread caller([&] {
    if (lowered) lower_this_thread_priority();
    result = run_sweep(p, control);
  });
  caller.join();
  CHECK(seen == 64);
  CHECK(result.stats.failed == 0);
  return lowest;
}

}  // namespace

TEST_CASE("a sweep's workers run no higher than the thread that started it") {
#if !defined(__linux__)
  WARN_MESSAGE(false, "thread priorities are only set on Linux");
#else
  const int host = this_thread_niceness();
  // Unlowered first: the pool's threads start at the host's priority and keep it.
  CHECK(highest_priority_of_sweep(false) == host);
  // From a lowered thread (a GUI job): the same pooled workers lower themselves for its points.
  CHECK(highest_priority_of_sweep(true) >= std::max(host, 10));
  CHECK(this_thread_niceness() == host);  // the host's own thread is untouched
#endif
}

TEST_CASE("gradient helper threads run no higher than their caller") {
#if !defined(__linux__)
  WARN_MESSAGE(false, "thread priorities are only set on Linux");
#else
  const int host = this_thread_niceness();
  int helper_nice = -1000;
  // Started from the host: the helper runs at its priority.
  run_beside_helpers(
      1, [&](int) { helper_nice = this_thread_niceness(); }, [] {});
  CHECK(helper_nice == host);
  std::thread lowered([&] {
    lower_this_thread_priority();
    run_beside_helpers(
        1, [&](int) { helper_nice = this_thread_niceness(); }, [] {});
  });
  lowered.join();
  CHECK(helper_nice >= std::max(host, 10));
#endif
}
