#pragma once
// MuJoCo's side of the comparison tests: the trajectory of a scene written as MJCF from a RigidModel
// (tests/mujoco/mujoco_scene.hpp), recorded like ours (mjcf/trajectory_compare.hpp).
#include "mjcf/trajectory_compare.hpp"
#include "tests/mujoco/mujoco_scene.hpp"

namespace sg::mjcmp {

inline BodyFrame frame_from_mujoco(const MujocoSim& sim, int body) {
  const mjtNum* q = sim.d->qpos + 7 * body;
  const mjtNum* v = sim.d->qvel + 6 * body;
  return {{q[0], q[1], q[2]}, {q[3], q[4], q[5], q[6]}, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
}

inline Trajectory mujoco_trajectory(const RigidModel<double>& model, double timestep, long steps,
                                    const MujocoSolver& solver = {}) {
  auto sim = make_mujoco(model, timestep, solver);
  Trajectory t;
  t.bodies = model.count;
  auto record = [&] {
    for (int b = 0; b < model.count; ++b) t.frames.push_back(frame_from_mujoco(*sim, b));
  };
  record();
  for (long i = 0; i < steps; ++i) {
    apply_timed_forces(model, i, *sim);
    mj_step(sim->m, sim->d);
    record();
  }
  return t;
}

}  // namespace sg::mjcmp
