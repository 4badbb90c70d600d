#include "mjcf/compare_tree_steps.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>

#include "engine/integrate/fixed_solve.hpp"
#include "engine/model/tree_system.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "mjcf/scene_solver_options.hpp"

namespace sg::mjcf {
namespace {

// The larger of a running maximum and a new difference; NaN sticks (a run that blew up is never "ok").
double worse(double so_far, double diff) {
  return std::isnan(so_far) || std::isnan(diff) ? NAN : std::max(so_far, diff);
}

}  // namespace

TreeStepComparison compare_tree_with_mj_step(const JointTreeModel<double>& model,
                                             const std::string& mjcf_path, long steps, double timestep,
                                             bool rk4) {
  std::string error;
  const auto sim = mjcmp::load_mujoco_file(mjcf_path, &error);
  if (!sim) throw std::runtime_error(mjcf_path + ": " + error);
  mjModel* m = sim->m;
  mjData* d = sim->d;
  const TreeModel<double>& t = model.tree;
  if (m->nq != t.nq || m->nv != t.nv)
    throw std::runtime_error("the MJCF's qpos or qvel size differs from the scene's tree");
  if (m->nu != model.act.nu && !(m->opt.disableflags & mjDSBL_ACTUATION))
    throw std::runtime_error("the MJCF's actuators differ from the scene's tree");
  if (m->na != model.act.na && !(m->opt.disableflags & mjDSBL_ACTUATION))
    throw std::runtime_error("the MJCF's activations differ from the scene's tree");
  m->opt.timestep = timestep;
  m->opt.integrator = rk4 ? mjINT_RK4 : mjINT_EULER;
  apply_scene_solver_options(model.con, m);
  const auto sys = std::make_unique<TreeSystem<double>>(&model, timestep);
  const auto ws = std::make_unique<RkWorkspace<TreeSystem<double>>>();
  std::vector<double> y(static_cast<std::size_t>(sys->dim()));
  sys->initial_state(y.data());
  const double* v = y.data() + model.vel_offset();
  mj_resetData(m, d);
  for (int i = 0; i < t.nq; ++i) d->qpos[i] = y[static_cast<std::size_t>(i)];
  for (int i = 0; i < t.nv; ++i) d->qvel[i] = v[i];
  const double* act = y.data() + model.act_offset();
  for (int i = 0; i < model.act.na && i < m->na; ++i) d->act[i] = act[i];
  IntegratorSettings all;
  all.method = rk4 ? Method::rk4 : Method::euler;
  all.dt = timestep;
  all.steps = steps;
  TreeStepComparison c;
  c.rk4 = rk4, c.timestep = timestep, c.steps = steps;
  c.iteration_cap = m->opt.iterations;
  NullObserver obs;
  // One solve stepped one output at a time, so that the controls follow the scene's sequences.
  FixedSolve<TreeSystem<double>, NullObserver> solve(*sys, all, y.data(), *ws, obs);
  solve.start();
  const std::unique_ptr<mjData, void (*)(mjData*)> poses(mj_makeData(m), &mj_deleteData);
  if (!poses) throw std::runtime_error("out of memory for MuJoCo's data");
  for (long s = 1; s <= steps; ++s) {
    for (int i = 0; i < model.act.nu; ++i)  // the scene's controls in this step, as the system sets them
      d->ctrl[i] = model.controls.count[i] > 0 ? control_at(model.controls, i, s - 1) : model.ctrl[i];
    mj_step(m, d);
    c.max_contacts = std::max(c.max_contacts, d->ncon);
    if (d->nefc > 0 && d->solver_iter >= m->opt.iterations) ++c.mujoco_capped;
    if (c.mujoco_reset == 0 && d->warning[mjWARN_BADQACC].number > 0) c.mujoco_reset = s;
    if (const Status status = solve.advance(s).status; status != Status::ok) {
      c.qpos = c.qvel = c.xpos = c.act = NAN;
      c.softgrad_stop = s, c.softgrad_status = status_name(status);
      return c;
    }
    if (const TreeConstraintData<double>* cd = sys->constraint_data();
        cd && cd->nefc > 0 && !cd->solver_settled)
      ++c.softgrad_capped;
    double dq = 0.0;
    for (int i = 0; i < t.nq; ++i) dq = worse(dq, std::fabs(d->qpos[i] - y[static_cast<std::size_t>(i)]));
    for (int i = 0; i < t.nv; ++i) {
      c.qvel = worse(c.qvel, std::fabs(d->qvel[i] - v[i]));
      c.max_speed = std::max(c.max_speed, std::fabs(d->qvel[i]));
    }
    for (int i = 0; i < model.act.na && i < m->na; ++i) c.act = worse(c.act, std::fabs(d->act[i] - act[i]));
    // xpos of the new state (mj_step leaves the previous one's), on a copy: mj_kinematics on d itself
    // moves MuJoCo's next steps by 1e-13.
    mj_copyData(poses.get(), m, d);
    mj_kinematics(m, poses.get());
    for (int b = 1; b < m->nbody; ++b)
      for (int k = 0; k < 3; ++k)
        c.xpos = worse(c.xpos, std::fabs(poses->xpos[3 * b + k] - sys->coordinate(y.data(), 0, b - 1, k)));
    if (!(dq <= c.qpos)) c.worst_step = s;
    c.qpos = worse(c.qpos, dq);
  }
  return c;
}

}  // namespace sg::mjcf
