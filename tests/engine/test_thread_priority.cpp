// Background sweeps (the GUI's) run their workers below the priority of the host's own threads
// (engine/core/thread_priority.hpp), so that the UI thread gets a core whenever it wants one.
#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include "engine/core/thread_priority.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

TEST_CASE("a background sweep computes every point on threads below the host's priority") {
#if !defined(__linux__)
  WARN_MESSAGE(false, "thread priorities are only set on Linux");
#else
  const int host = this_thread_niceness();
  const Problem p = test::shipped("toy_point_mass.json", {"sweep.points=64"});
  std::mutex m;
  int lowest = 1000;  // the smallest nice value seen in on_point (the highest priority a worker ran at)
  long seen = 0;
  SweepControl control;
  control.threads = 2;
  control.background = true;
  control.on_point = [&](long, const PointResult&) {
    const int nice = this_thread_niceness();
    std::lock_guard lock(m);
    lowest = std::min(lowest, nice);
    ++seen;
  };
  // From a thread of its own: the sweep's caller computes too and is lowered with the workers.
  SweepResult result;
  std::thread caller([&] { result = run_sweep(p, control); });
  caller.join();
  CHECK(seen == 64);
  CHECK(result.stats.failed == 0);
  CHECK(lowest >= std::max(host, 10));    // nice 10, or the host's if it already ran lower
  CHECK(this_thread_niceness() == host);  // the host's own thread is untouched
#endif
}
