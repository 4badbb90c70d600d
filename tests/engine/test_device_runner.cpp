// The device path (engine/sweep/device_runner.hpp: what a GPU thread runs, in memory given to it) compiled
// for the host: on every shipped scene it gives the CPU's PointEvaluator's numbers bit for bit, its
// statuses and step counts included, both as one runner's evaluate_point and as the GPU does it (each of a
// point's runs on its own runner, through the kernel of its system and scalar type, combined by
// combine_point).
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <filesystem>
#include <memory>

#include "engine/gradient/point_eval.hpp"
#include "engine/sweep/device_grid.hpp"
#include "engine/sweep/device_problem.hpp"
#include "point_match.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// Both NaN, or equal to the last bit.
bool same(double a, double b) {
  return (a != a && b != b) || a == b;
}

// Run k of the point at x as the GPU's kernels run it: a kernel per system and scalar type.
LossSample run_as_kernel(DeviceRunner& runner, ModelType type, const RunSpec& r, double x, double y) {
  if (type == ModelType::rigid)
    return r.ad ? runner.run_spec<RigidSystem<Dual<1>>>(r, x, y)
                : runner.run_spec<RigidSystem<double>>(r, x, y);
  return r.ad ? runner.run_spec<ParticleSystem<Dual<1>>>(r, x, y)
              : runner.run_spec<ParticleSystem<double>>(r, x, y);
}

void check_scene(const Problem& problem, int points) {
  auto device = prepare_device_problem(problem);
  auto scratch = std::make_unique<DeviceScratch>();
  PointEvaluator cpu(problem);
  for (int i = 0; i < points; ++i) {
    const double x = problem.sweep.value_at(i * (problem.sweep.points - 1) / std::max(1, points - 1));
    DeviceRunner runner(device->view, scratch.get());
    const PointResult d =
        point_result(evaluate_point(runner, x, device->view.settings), problem.gradient, problem.integrator);
    const PointResult c = cpu.evaluate(x);
    INFO(problem.name << " at " << x);
    test::check_point_matches(d, c, same);
    // As the GPU runs a point: each run on its own runner and memory (its own thread), combined afterwards.
    const PointSettings& settings = device->view.settings;
    RunSpec specs[5];
    const int count = point_run_specs(settings, specs);
    LossSample runs[5];
    for (int k = 0; k < count; ++k) {
      auto own = std::make_unique<DeviceScratch>();
      DeviceRunner one(device->view, own.get());
      runs[specs[k].slot] = run_as_kernel(one, problem.data.type, specs[k], x, 0.0);
    }
    INFO("runs on separate runners, combined");
    test::check_point_matches(
        point_result(combine_point(x, settings, runs, count), problem.gradient, problem.integrator), c, same);
  }
}

}  // namespace

TEST_CASE("the device path gives the CPU's numbers on every shipped scene") {
  int scenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(sg::test::source_dir() + "/scenes")) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    // Randomized smoothing stays on the CPU: the falling mass runs its hard contact without it.
    ProblemLoad loaded = load_problem_file(entry.path().string(), {"gradient.smoothing.samples=0"});
    if (!loaded.ok()) {  // an MJCF scene in a build without libmujoco's importer (this test links none)
      MESSAGE(name << " not checked: " << loaded.errors);
      continue;
    }
    if (loaded.problem->data.type == ModelType::tree) {  // joint trees stay on the CPU, and say so
      CHECK(device_path_refusal(*loaded.problem).find("joint trees") != std::string::npos);
      continue;
    }
    if (loaded.problem->data.type == ModelType::rigid) {  // free bodies run as trees unless told otherwise
      CHECK(device_path_refusal(*loaded.problem).find("model.run_as") != std::string::npos);
      loaded =
          load_problem_file(entry.path().string(), {"gradient.smoothing.samples=0", test::kFreeBodyKernel});
      REQUIRE(loaded.ok());
    }
    REQUIRE(device_path_refusal(*loaded.problem).empty());
    check_scene(*loaded.problem, 3);
    ++scenes;
  }
  CHECK(scenes >= 16);
}

TEST_CASE("the device path reports failures and tight references as the CPU does") {
  // A reference run that cannot finish, and a tight FD reference.
  check_scene(test::shipped("toy_point_mass.json",
                            {"integrator.type=tsit5", "integrator.rtol=1e-3", "integrator.atol=1e-3",
                             "integrator.dt_min=0.01", "sweep.points=3", "gradient.reference=ad_tight"}),
              3);
  check_scene(test::shipped("toss_box_diffmjx.json",
                            {test::kFreeBodyKernel, "gradient.reference=fd_tight", "sweep.points=2"}),
              2);
  check_scene(test::shipped("toss_box_diffmjx.json", {test::kFreeBodyKernel, "integrator.max_steps=50"}), 2);
}

TEST_CASE("randomized smoothing and reverse mode are refused on the device path, with the reason") {
  CHECK(device_path_refusal(test::shipped("falling_mass.json")).find("smoothing") != std::string::npos);
  CHECK(
      device_path_refusal(test::shipped("toy_point_mass.json", {"gradient.mode=reverse"})).find("reverse") !=
      std::string::npos);
  CHECK(device_path_refusal(test::shipped("toy_point_mass.json")).empty());
}

namespace {

// A few points of a 2-D grid as the GPU runs them (grid_run_specs, each run on its own runner, combined by
// combine_grid_point) against run_sweep2d's, bit for bit: the Dual<1> runs along x and along y carry the
// CPU's Dual<4> lanes.
// Returns how many of the CPU's points failed.
int check_grid_points(const Problem& problem, const GridAxis& x, const GridAxis& y) {
  int failed = 0;
  const Grid2dResult cpu = run_sweep2d(problem, x, y);
  auto device = prepare_device_grid(problem, x.path, y.path);
  RunSpec specs[kGridRuns];
  grid_run_specs(problem.gradient.fd_eps, specs);
  for (long i = 0; i < x.points * y.points; ++i) {
    const long ix = i % x.points, iy = i / x.points;
    LossSample runs[kGridRuns];
    for (const RunSpec& r : specs) {
      auto own = std::make_unique<DeviceScratch>();
      DeviceRunner one(device->view, own.get());
      runs[r.slot] = run_as_kernel(one, problem.data.type, r, x.value_at(ix), y.value_at(iy));
    }
    const GridPoint d = combine_grid_point(runs, problem.gradient.fd_eps);
    const GridPoint& c = cpu.at(ix, iy);
    failed += c.status != "ok";
    INFO(problem.name << " at (" << x.value_at(ix) << ", " << y.value_at(iy) << ")");
    CHECK(d.status == c.status);
    CHECK(same(d.loss, c.loss));
    CHECK(same(d.gx, c.gx));
    CHECK(same(d.gy, c.gy));
    CHECK(same(d.gx_fd, c.gx_fd));
    CHECK(same(d.gy_fd, c.gy_fd));
  }
  return failed;
}

}  // namespace

TEST_CASE("the device path's 2-D grid points are run_sweep2d's, failures included") {
  check_grid_points(test::shipped("toy_point_mass.json", {"integrator.type=tsit5"}),
                    {"model.particles.0.pos.2", 0.2, 2.0, 3}, {"model.particles.0.vel.2", -2.0, -0.5, 3});
  check_grid_points(test::shipped("toss_box_diffmjx.json", {test::kFreeBodyKernel}),
                    {"model.bodies.0.vel.2", -3.0, -1.0, 2}, {"model.plane.solref.0", 0.004, 0.006, 2});
  CHECK(check_grid_points(
            test::shipped("toss_box_diffmjx.json", {test::kFreeBodyKernel, "integrator.max_steps=50"}),
            {"model.bodies.0.vel.2", -3.0, -1.0, 2}, {"model.plane.solref.0", 0.004, 0.006, 2}) == 4);
  CHECK(device_grid_refusal(test::shipped("pendulum_chain.json")).find("joint trees") != std::string::npos);
  CHECK(device_grid_refusal(test::shipped("falling_mass.json")).empty());
}
