#pragma once
// Trajectories of the same scene from both engines (state after every Euler step) and their largest
// deviation, per quantity. Ours runs through the generic fixed-step solve (engine/simulate/run.hpp), so the
// comparison also covers the solver loop, the timed-force bookkeeping and the observer interface. Shared by
// `softgrad validate` (mjcf/compare_steps.hpp) and the MuJoCo comparison tests.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "engine/simulate/run.hpp"
#include "mjcf/mujoco_sim.hpp"

namespace sg::mjcmp {

// One body at one instant: position, quaternion (w, x, y, z), linear velocity (world), angular (body).
struct BodyFrame {
  double pos[3], quat[4], vel[3], angvel[3];
};

// frames[step * bodies + body]; step 0 is the initial state.
struct Trajectory {
  int bodies = 0;
  std::vector<BodyFrame> frames;
  const BodyFrame& at(long step, int body) const { return frames[static_cast<size_t>(step * bodies + body)]; }
  long steps() const { return bodies ? static_cast<long>(frames.size()) / bodies - 1 : 0; }
};

inline BodyFrame frame_from_state(const double* s) {  // our ODE state of one body
  return {{s[0], s[1], s[2]}, {s[3], s[4], s[5], s[6]}, {s[10], s[11], s[12]}, {s[13], s[14], s[15]}};
}

// tree_velocities: the state is a tree of one free joint per body (model.run_as tree): qpos (pos, quat) per
// body, then phi, then qvel (world linear, body angular) per body from tree_velocities on.
struct RecordingObserver {
  Trajectory* out;
  int bodies;
  int tree_velocities = -1;
  void on_output(long, double, const double* y, int) {
    for (int b = 0; b < bodies; ++b) {
      if (tree_velocities < 0) {
        out->frames.push_back(frame_from_state(y + RigidModel<double>::kStride * b));
        continue;
      }
      const double* q = y + 7 * b;
      const double* v = y + tree_velocities + 6 * b;
      out->frames.push_back(
          {{q[0], q[1], q[2]}, {q[3], q[4], q[5], q[6]}, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}});
    }
  }
  void on_accept(double) {}
  void on_reject(double) {}
};

inline Trajectory our_trajectory(const RigidModel<double>& model, double timestep, long steps) {
  ProblemData<double> pd;
  pd.type = ModelType::rigid;
  pd.rigid = model;
  IntegratorSettings cfg;
  cfg.method = Method::euler;
  cfg.dt = timestep;
  cfg.steps = steps;
  Trajectory t;
  t.bodies = model.count;
  RecordingObserver obs{&t, model.count};
  if (model.as_tree) {  // the joint-tree engine runs the bodies (model.run_as tree)
    const auto tree = tree_of_rigid(model);
    obs.tree_velocities = tree->vel_offset();
    auto sys = std::make_unique<TreeSystem<double>>(tree.get(), timestep);
    auto ws = std::make_unique<RkWorkspace<TreeSystem<double>>>();
    std::vector<double> y(JointTreeModel<double>::kMaxDim);
    solve_system(*sys, pd, cfg, y.data(), *ws, obs);
    return t;
  }
  auto sys = std::make_unique<RigidSystem<double>>(&pd.rigid, timestep);
  auto ws = std::make_unique<RkWorkspace<RigidSystem<double>>>();
  std::vector<double> y(RigidModel<double>::kMaxDim);
  solve_system(*sys, pd, cfg, y.data(), *ws, obs);
  return t;
}

// Largest absolute deviation of each quantity over all steps and bodies; the quaternion distance is
// min(|q1 - q2|, |q1 + q2|) since q and -q are the same rotation.
struct Deviation {
  double pos = 0.0, quat = 0.0, vel = 0.0, angvel = 0.0;
  long worst_pos_step = 0;
};

// The larger of two deviations, NaN when either is: std::fmax drops a NaN, and a trajectory that blew up to
// NaN would then compare as "max |dpos| 0 ... ok".
inline double worse(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::nan("") : std::fmax(a, b);
}

inline double max_abs_diff(const double* a, const double* b, int n) {
  double m = 0.0;
  for (int k = 0; k < n; ++k) m = worse(m, std::fabs(a[k] - b[k]));
  return m;
}

inline double quat_distance(const double* a, const double* b) {
  double minus = 0.0, plus = 0.0;
  for (int k = 0; k < 4; ++k) {
    minus += (a[k] - b[k]) * (a[k] - b[k]);
    plus += (a[k] + b[k]) * (a[k] + b[k]);
  }
  return std::sqrt(std::fmin(minus, plus));
}

// Over steps [0, last] (last < 0: all).
inline Deviation deviation(const Trajectory& a, const Trajectory& b, long last = -1) {
  Deviation d;
  // A run that stopped early (ours blows up and records no more steps) is no agreement over the steps it
  // did not take: NaN, which never compares as within the tolerance.
  if (last < 0 && a.steps() != b.steps()) {
    d.pos = d.quat = d.vel = d.angvel = std::nan("");
    d.worst_pos_step = std::min(a.steps(), b.steps()) + 1;
    return d;
  }
  const long n = last < 0 ? a.steps() : last;
  for (long i = 0; i <= n; ++i)
    for (int k = 0; k < a.bodies; ++k) {
      const BodyFrame &fa = a.at(i, k), &fb = b.at(i, k);
      const double p = max_abs_diff(fa.pos, fb.pos, 3);
      if ((p > d.pos || std::isnan(p)) && !std::isnan(d.pos)) d.pos = p, d.worst_pos_step = i;
      d.quat = worse(d.quat, quat_distance(fa.quat, fb.quat));
      d.vel = worse(d.vel, max_abs_diff(fa.vel, fb.vel, 3));
      d.angvel = worse(d.angvel, max_abs_diff(fa.angvel, fb.angvel, 3));
    }
  return d;
}

// Both trajectories side by side, for investigating a poor agreement (every `stride` steps).
inline void print_trajectories(const char* title, const Trajectory& ours, const Trajectory& theirs,
                               long stride) {
  std::printf("%s\n step body | ours: pos, vel | mujoco: pos, vel\n", title);
  for (long i = 0; i <= ours.steps(); i += stride)
    for (int k = 0; k < ours.bodies; ++k) {
      const BodyFrame &a = ours.at(i, k), &b = theirs.at(i, k);
      std::printf("%5ld %d | %+.6e %+.6e %+.6e  %+.6e %+.6e %+.6e | %+.6e %+.6e %+.6e  %+.6e %+.6e %+.6e\n",
                  i, k, a.pos[0], a.pos[1], a.pos[2], a.vel[0], a.vel[1], a.vel[2], b.pos[0], b.pos[1],
                  b.pos[2], b.vel[0], b.vel[1], b.vel[2]);
    }
}

inline void print_deviation(const char* title, const Deviation& d) {
  std::printf("%s: max |dpos| %.3e m (step %ld), |dquat| %.3e, |dvel| %.3e m/s, |dangvel| %.3e rad/s\n",
              title, d.pos, d.worst_pos_step, d.quat, d.vel, d.angvel);
}

// Writes the timed forces acting during output step `step` into xfrc_applied (world force, world torque).
// MuJoCo applies them at the body's centre of mass, ours at the geom's centre: the import checks that the two
// coincide. body_ids[i] is our body i's MuJoCo body (null: i + 1, body 0 being the world).
inline void apply_timed_forces(const RigidModel<double>& model, long step, MujocoSim& sim,
                               const int* body_ids = nullptr) {
  for (int i = 0; i < model.count; ++i) {
    mjtNum* xfrc = sim.d->xfrc_applied + 6 * (body_ids ? body_ids[i] : i + 1);
    for (int k = 0; k < 6; ++k) xfrc[k] = 0.0;
    const RigidBody<double>& b = model.bodies[i];
    for (int f = 0; f < b.force_count; ++f) {
      const TimedForce<double>& tf = b.forces[f];
      if (step < tf.from_step || step >= tf.to_step) continue;
      for (int k = 0; k < 3; ++k) {
        xfrc[k] += tf.force[k];
        xfrc[3 + k] += tf.torque[k];
      }
    }
  }
}

}  // namespace sg::mjcmp
