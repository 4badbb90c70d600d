// Step rate of our semi-implicit Euler sphere drop (double) against MuJoCo 2.2.2's mj_step on the same scene
// (tests/mujoco/comparison_scenes.hpp: a ball dropped onto a plane, which lands after about 145 steps and
// then rests in contact), measured in the same run: 10000 steps, best of several rounds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/simulate/run.hpp"
#include "tests/mujoco/comparison_scenes.hpp"
#include "tests/mujoco/mujoco_scene.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Steps per second of our generic fixed-step solve (the path every scene run takes).
double our_rate(const sg::RigidModel<double>& model, double timestep, long steps, int rounds,
                double* final_z) {
  sg::ProblemData<double> pd;
  pd.type = sg::ModelType::rigid;
  pd.rigid = model;
  sg::IntegratorSettings cfg;
  cfg.method = sg::Method::euler;
  cfg.dt = timestep;
  cfg.steps = steps;
  auto ws = std::make_unique<sg::RkWorkspace<sg::RigidSystem<double>>>();
  std::vector<double> y(sg::RigidModel<double>::kMaxDim);
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    const Clock::time_point t0 = Clock::now();
    auto sys = std::make_unique<sg::RigidSystem<double>>(&pd.rigid, timestep);  // as run_simulation does
    sg::NullObserver obs;
    sg::solve_system(*sys, pd, cfg, y.data(), *ws, obs);
    best = std::min(best, seconds_since(t0));
  }
  *final_z = y[2];
  return static_cast<double>(steps) / best;
}

double mujoco_rate(const sg::RigidModel<double>& model, double timestep, long steps, int rounds,
                   double* final_z) {
  const sg::mjcmp::MujocoSolver defaults{100, 1e-8};  // MuJoCo's own defaults: what a MuJoCo user runs
  auto sim = sg::mjcmp::make_mujoco(model, timestep, defaults);
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    mj_resetData(sim->m, sim->d);
    sg::mjcmp::set_initial_velocities(model, *sim);
    const Clock::time_point t0 = Clock::now();
    for (long i = 0; i < steps; ++i) mj_step(sim->m, sim->d);
    best = std::min(best, seconds_since(t0));
  }
  *final_z = sim->d->qpos[2];
  return static_cast<double>(steps) / best;
}

}  // namespace

int main(int argc, char** argv) {
  const long steps = argc > 1 ? std::atol(argv[1]) : 10000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  const sg::mjcmp::ComparisonScene scene = sg::mjcmp::sphere_drop();
  std::printf("sphere drop on a plane (condim 1), %ld steps of %g s, best of %d rounds, MuJoCo %s\n", steps,
              scene.timestep, rounds, mj_versionString());

  double z_mujoco = 0.0;
  const double mujoco = mujoco_rate(scene.model, scene.timestep, steps, rounds, &z_mujoco);
  std::printf("%-36s %12.0f steps/s  %8.1f ns/step  final z %.9f\n", "MuJoCo mj_step (Newton, defaults)",
              mujoco, 1e9 / mujoco, z_mujoco);
  for (int iterations : {200, 100, 10}) {
    sg::RigidModel<double> model = scene.model;
    model.iterations = iterations;
    double z = 0.0;
    const double ours = our_rate(model, scene.timestep, steps, rounds, &z);
    char label[64];
    std::snprintf(label, sizeof label, "softgrad Euler (solver cap %d iter.)", iterations);
    std::printf("%-36s %12.0f steps/s  %8.1f ns/step  final z %.9f  ours/MuJoCo %.2f\n", label, ours,
                1e9 / ours, z, ours / mujoco);
  }
  return 0;
}
