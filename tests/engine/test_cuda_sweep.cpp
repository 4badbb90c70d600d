// GPU sweeps (engine/cuda) against the CPU's run_sweep on every shipped scene. Skipped, with the reason,
// where the build has no CUDA backend or the machine no CUDA device (CI has none).
//
// Tolerance: loss and gradients to 1e-10 relative (absolute below a 1e-12 scale), statuses and step counts
// identical. The kernel is compiled without fused multiply-adds (--fmad=false), so the arithmetic is the
// CPU's operation by operation; what may differ is the last bit of transcendental functions (exp, log, sqrt
// is exact, sin/cos of rotations, pow in the step-size controller), which the adaptive controller can turn
// into a different step sequence only at a tolerance boundary; 1e-10 leaves room for those bits and nothing
// else.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "engine/sweep/device_problem.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "point_match.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

bool available_or_skip() {
  const CudaDeviceInfo info = cuda_device_info();
  if (!info.available)
    std::printf("SOFTGRAD_TEST_SKIPPED: no GPU to check against: %s\n", info.reason.c_str());
  return info.available;
}

bool close_enough(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::abs(a - b) <= 1e-10 * std::max({std::abs(a), std::abs(b), 1e-2});
}

void compare(const Problem& problem) {
  const SweepResult cpu = run_sweep(problem);
  SweepResult gpu;
  std::string error;
  REQUIRE_MESSAGE(run_sweep_cuda(problem, {}, &gpu, &error), error);
  REQUIRE(gpu.points.size() == cpu.points.size());
  for (std::size_t i = 0; i < cpu.points.size(); ++i) {
    const PointResult& c = cpu.points[i];
    const PointResult& g = gpu.points[i];
    INFO(problem.name << " point " << i << " at " << c.value);
    CHECK(g.value == c.value);
    test::check_point_matches(g, c, close_enough);
  }
  CHECK(gpu.stats.steps_total == cpu.stats.steps_total);
}

}  // namespace

TEST_CASE("GPU and CPU sweeps agree on every shipped scene") {
  if (!available_or_skip()) return;
  int scenes = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(SOFTGRAD_SOURCE_DIR) + "/scenes")) {
    if (entry.path().extension() != ".json") continue;
    // 40 points keep the CPU side short; randomized smoothing stays on the CPU (refused on the device).
    ProblemLoad loaded =
        load_problem_file(entry.path().string(), {"sweep.points=40", "gradient.smoothing.samples=0"});
    if (!loaded.ok()) {
      MESSAGE(entry.path().filename().string() << " not checked: " << loaded.errors);
      continue;
    }
    compare(*loaded.problem);
    ++scenes;
  }
  CHECK(scenes >= 16);
}

TEST_CASE("GPU sweeps report failures, tight references and cancellation as the CPU does") {
  if (!available_or_skip()) return;
  compare(test::shipped("toy_point_mass.json",
                        {"integrator.type=tsit5", "integrator.rtol=1e-3", "integrator.atol=1e-3",
                         "integrator.dt_min=0.01", "sweep.points=8", "gradient.reference=ad_tight"}));
  compare(test::shipped("toss_box_diffmjx.json", {"integrator.max_steps=50", "sweep.points=8"}));
  std::atomic<bool> cancel{true};
  SweepControl control;
  control.cancel = &cancel;
  SweepResult cancelled;
  std::string error;
  REQUIRE(run_sweep_cuda(test::shipped("toy_point_mass.json"), control, &cancelled, &error));
  for (const PointResult& p : cancelled.points) CHECK(p.status == "cancelled");
}

TEST_CASE("a GPU sweep refuses what only the CPU runs, with the reason") {
  if (!available_or_skip()) return;
  SweepResult out;
  std::string error;
  CHECK_FALSE(run_sweep_cuda(test::shipped("falling_mass.json"), {}, &out, &error));
  CHECK(error.find("smoothing") != std::string::npos);
}
