// A child made by fork() after the engine's threads ran (engine/core/forked_child.hpp): fork copies only the
// calling thread, so the child runs the parallel loops and the gradient helpers' work on that thread, with
// the parent's numbers. Before, a child that handed work to the helper threads it no longer had waited
// forever (Python's multiprocessing forks on Linux). The child reports through its exit status; the parent
// gives it 60 s (measured: milliseconds).
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>
#include <vector>

#include "engine/core/forked_child.hpp"
#include "engine/gradient/helper_threads.hpp"
#include "engine/sweep/sweep.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// Squares summed over for_each_index on `threads` threads (the helpers start when threads > 1).
long sum_of_squares(int count, int threads) {
  std::vector<long> out(static_cast<std::size_t>(count), 0);
  for_each_index(out.size(), threads, [&](std::size_t k, int) { out[k] = static_cast<long>(k * k); });
  long sum = 0;
  for (long v : out) sum += v;
  return sum;
}

std::vector<double> sweep_losses(const Problem& p) {
  SweepControl control;
  control.threads = 2;
  std::vector<double> losses;
  for (const PointResult& r : run_sweep(p, control).points) losses.push_back(r.loss);
  return losses;
}

// The child's exit status, or -1 if it had not ended after 60 s (it is killed then).
int wait_for(pid_t child) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > give_up) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("a forked child runs sweeps and helper loops on its own thread, with the parent's numbers") {
  const Problem p = test::shipped("toy_point_mass.json", {"sweep.points=16"});
  const long squares = sum_of_squares(64, 2);          // starts a helper thread
  const std::vector<double> losses = sweep_losses(p);  // starts oneTBB's workers
  REQUIRE(!in_forked_child());
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // no doctest in the child: its verdict is the exit status
    int code = 0;
    if (sum_of_squares(64, 2) != squares)
      code = 4;
    else if (sweep_losses(p) != losses)
      code = 5;
    else if (!in_forked_child())
      code = 3;
    _exit(code);
  }
  // 3: the child did not know it was one; 4, 5: other numbers; -1: it hung (before the fix: in the helpers).
  CHECK(wait_for(child) == 0);
}
