#pragma once
// MuJoCo 2.2.2's length range of a muscle (mj_setLengthRange in engine_setconst.c, as its compiler calls it
// from mjCModel::LengthRange): the muscle's force-length curve spans the actuator lengths the joints allow,
// found by simulation. From qpos0 a force along the actuator's moment, scaled to a fixed acceleration
// (accel / |qM^-1 moment|), first shortens and then lengthens it for inttotal seconds, velocities decaying
// with timeconst; the extreme lengths over the last inteval seconds are the range, refused when either side
// has not settled (tolrange of the range) or the range is empty. The compiler's model for it: no gravity,
// passive forces (the fluid's included), friction loss, contacts or actuation, joint limits kept, and the
// dofs' damping still in Euler's implicit update (mj_Euler reads dof_damping whatever the flags). Runs once
// when a model is built, in double.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "engine/articulated/forward_actuated.hpp"
#include "engine/articulated/implicit_damping.hpp"
#include "engine/articulated/implicit_solve.hpp"
#include "engine/model/joint_tree_model.hpp"

namespace sg {

// mjLROpt's defaults.
struct LengthRangeOptions {
  double accel = 20.0, timeconst = 1.0, timestep = 0.01, inttotal = 10.0, inteval = 2.0, tolrange = 0.05;
};

namespace lengthrange_detail {

struct Setup {
  TreeModel<double> forces;  // gravity, joint springs and dof damping off: no passive or gravity forces
  TreeModel<double> damped;  // the same with the dofs' damping, for Euler's implicit update
  TreeConstraintModel<double> con;
  TreeActuatorModel<double> act;
  TreeData<double> d;
  TreeConstraintData<double> cd;
  TreeActuatorData<double> ad;
  TreeNewtonWorkspace ws;
};

inline std::unique_ptr<Setup> setup(const JointTreeModel<double>& m, double timestep) {
  auto s = std::make_unique<Setup>();
  s->forces = m.tree;
  s->forces.gravity = Vec3<double>{0.0, 0.0, 0.0};
  s->forces.density = s->forces.viscosity = 0.0;  // passive forces off: the fluid's too
  for (int j = 0; j < m.tree.njnt; ++j) {
    s->forces.joint[j].stiffness = 0.0;
    const TreeJoint<double>& jn = m.tree.joint[j];
    for (int k = 0; k < joint_dof_count(jn.type); ++k)
      s->forces.armature[jn.dof_adr + k] = m.joint[j].armature, s->forces.damping[jn.dof_adr + k] = 0.0;
  }
  s->damped = s->forces;
  for (int j = 0; j < m.tree.njnt; ++j)
    for (int k = 0; k < joint_dof_count(m.tree.joint[j].type); ++k)
      s->damped.damping[m.tree.joint[j].dof_adr + k] = m.joint[j].damping;
  s->con = m.con;
  s->con.opt.contact = false;
  s->con.opt.frictionloss = false;
  s->con.opt.timestep = timestep;
  s->act = m.act;
  s->act.opt.actuation = false;
  for (int i = 0; i < s->act.ten.ntendon; ++i)
    s->act.ten.tendon[i].stiffness = s->act.ten.tendon[i].damping = 0.0;
  return s;
}

// evalAct: decay the velocities, push along actuator `index`'s moment (shortening for side 0), take one
// Euler step; `length` is the actuator's length before it. False when the step failed or is not finite.
inline bool step(Setup& s, int index, int side, const LengthRangeOptions& o, double* length) {
  const TreeModel<double>& m = s.forces;
  const int nv = m.nv;
  const double h = o.timestep;
  const double decay = std::exp(-h / std::max(0.01, o.timeconst));
  for (int i = 0; i < nv; ++i) s.d.qvel[i] *= decay, s.d.qfrc_applied[i] = 0.0;
  tree_fwd_position(m, s.d);
  tree_fwd_velocity(m, s.d);
  tree_actuation(m, s.act, s.d, s.ad);
  *length = s.ad.actuator_length[index];
  const double* moment = s.ad.actuator_moment + index * nv;
  double x[kMaxDofs];
  for (int i = 0; i < nv; ++i) x[i] = moment[i];
  for (int k = 0; k < nv * nv; ++k) s.d.qLD[k] = s.d.qM[k];
  if (nv > 0 && !envelope_factor(s.d.qLD, nv, s.d.qLD_envelope)) return false;
  cholesky_solve_mixed(s.d.qLD, nv, s.d.qLD_envelope, x);
  double norm = 0.0;
  for (int i = 0; i < nv; ++i) norm += x[i] * x[i];
  const double scale = (2 * side - 1) * o.accel / std::max(1e-15, std::sqrt(norm));
  for (int i = 0; i < nv; ++i) s.d.qfrc_applied[i] = moment[i] * scale;
  if (tree_forward_constrained(m, s.con, s.act, s.d, s.cd, s.ad, s.ws) != TreeForwardStatus::kOk)
    return false;
  if (!tree_damp_implicitly(s.damped, s.d, h)) return false;
  for (int i = 0; i < nv; ++i) s.d.qvel[i] += h * s.d.qacc[i];
  tree_integrate_pos(m, s.d.qpos, s.d.qvel, h);
  bool finite = std::isfinite(*length);
  for (int i = 0; i < m.nq; ++i) finite = finite && std::isfinite(s.d.qpos[i]);
  return finite;
}

inline std::string range_text(double lo, double hi) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "(%g, %g)", lo, hi);
  return buf;
}

}  // namespace lengthrange_detail

// range of actuator `index` of m as MuJoCo's compiler computes it; "" when done, else why not (MuJoCo's
// reasons: an unstable simulation, an empty range, a side that did not settle).
inline std::string tree_lengthrange(const JointTreeModel<double>& m, int index, double range[2],
                                    const LengthRangeOptions& o = {}) {
  using namespace lengthrange_detail;
  const auto s = setup(m, o.timestep);
  double lmin[2] = {0.0, 0.0}, lmax[2] = {0.0, 0.0};
  for (int side = 0; side < 2; ++side) {
    tree_reset(s->forces, s->d);
    double time = 0.0;  // accumulated as mjData's time is, so the step count is MuJoCo's
    bool updated = false;
    while (time < o.inttotal) {
      double len = 0.0;
      if (!step(*s, index, side, o, &len)) return "the simulation that finds it is unstable";
      time += o.timestep;
      if (time > o.inttotal - o.inteval) {
        if (len < lmin[side] || !updated) lmin[side] = len;
        if (len > lmax[side] || !updated) lmax[side] = len;
        updated = true;
      }
    }
    range[side] = side == 0 ? lmin[side] : lmax[side];
  }
  const double dif = range[1] - range[0];
  if (dif <= 0.0) return "the range found is empty " + range_text(range[0], range[1]);
  for (int side = 0; side < 2; ++side)
    if (lmax[side] - lmin[side] > o.tolrange * dif)
      return "the computation did not converge: lengths " + range_text(lmin[side], lmax[side]) +
             " at the end of one side, range " + range_text(range[0], range[1]);
  return {};
}

}  // namespace sg
