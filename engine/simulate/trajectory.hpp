#pragma once
// One recorded trajectory at a given sweep value: states at every output time, the accepted internal step
// sizes, the contact force on each particle, and the loss with its forward-mode gradient.
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg {

// A contact at one output time, for display: where, along which normal (from geom 1 to geom 2), how far apart
// (negative: penetrating). Virtual contacts exist only for Contacts From Distance (separated pairs).
struct ContactMark {
  double pos[3];
  double normal[3];
  double dist;
  bool is_virtual;
};

// A contact switch the adaptive integrator located (integrator.events): when, what (onset, separation,
// row_on, row_off, graze, lift, press; a straight-through CFD surrogate's own switches prefixed "cfd_"),
// between which bodies (-1: the plane or ground) and which feature of the pair, and for row switches which
// row.
struct EventMark {
  double t;
  std::string kind;
  int a, b, feature, row;
  bool tangential = false;
};

struct Trajectory {
  std::string title;                 // what it shows when not a sweep point (e.g. "MPC: gradient"); "": one
  double value = 0.0;                // the swept parameter
  std::vector<double> t;             // output times
  std::string layout = "particles";  // "particles", "rigid" or "tree"
  // Per output time. particles: q and v have 3 entries per particle; rigid: q has pos (3) and quat (4,
  // w x y z) per body, v has linear (3, world) and angular (3, body frame) velocity per body; tree: q as
  // rigid for each body frame, v the frame origin's linear and the body's angular velocity, both world.
  std::vector<std::vector<double>> q, v;
  std::vector<std::vector<double>> qpos,
      qvel;  // tree: MuJoCo's qpos (quaternions folded) and qvel per output time
  std::vector<std::vector<double>> force;          // per output time: contact force per particle or body
  std::vector<std::vector<ContactMark>> contacts;  // per output time (rigid bodies and joint trees)
  std::vector<double> dt;                          // accepted internal step sizes
  std::vector<EventMark> events;                   // located contact switches, in time order
  double loss = 0.0, grad = 0.0;
  std::string status = "ok";
  long accepted = 0, rejected = 0;
};

Trajectory simulate_trajectory(const Problem& problem, double value);

// The display trajectory (body poses and velocities, contact forces and marks) of a joint tree passing
// through the states y = [qpos, phi, qvel] at times t, state i under the actuators' controls ctrl[i] (the
// last entry for any later state; none: the scene's): the executed motion of an MPC run. loss and grad NaN.
Trajectory tree_states_trajectory(const Problem& problem, const std::vector<double>& t,
                                  const std::vector<std::vector<double>>& y,
                                  const std::vector<std::vector<double>>& ctrl);

nlohmann::json trajectory_to_json(const Trajectory& tr);

}  // namespace sg
