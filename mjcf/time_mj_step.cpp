#include "mjcf/time_mj_step.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "engine/model/tree_system.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "mjcf/scene_solver_options.hpp"

namespace sg::mjcf {
namespace {

// The scene's initial state, as softgrad's run starts from it (phi is zero at the start).
void set_initial_state(const JointTreeModel<double>& model, const mjModel* m, mjData* d, double timestep) {
  const auto sys = std::make_unique<TreeSystem<double>>(&model, timestep);
  std::vector<double> y(static_cast<std::size_t>(sys->dim()));
  sys->initial_state(y.data());
  mj_resetData(m, d);
  for (int i = 0; i < m->nq; ++i) d->qpos[i] = y[static_cast<std::size_t>(i)];
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = y[static_cast<std::size_t>(model.vel_offset() + i)];
  for (int i = 0; i < model.act.nu; ++i) d->ctrl[i] = model.ctrl[i];
}

}  // namespace

MjStepTiming time_mj_step(const JointTreeModel<double>& model, const std::string& mjcf_path, long steps,
                          double timestep, int rounds) {
  std::string error;
  const auto sim = mjcmp::load_mujoco_file(mjcf_path, &error);
  if (!sim) throw std::runtime_error(mjcf_path + ": " + error);
  mjModel* m = sim->m;
  mjData* d = sim->d;
  if (m->nq != model.tree.nq || m->nv != model.tree.nv || m->nu != model.act.nu)
    throw std::runtime_error("the MJCF's qpos, qvel or actuator count differs from the scene's tree");
  m->opt.timestep = timestep;
  m->opt.integrator = mjINT_EULER;
  apply_scene_solver_options(model.con, m);
  MjStepTiming t;
  t.seconds = 1e300;
  t.version = mj_version();
  for (int r = 0; r < rounds; ++r) {
    set_initial_state(model, m, d, timestep);
    int most = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (long s = 0; s < steps; ++s) {
      mj_step(m, d);
      most = std::max(most, d->ncon);  // one load and compare a step: noise next to mj_step
    }
    t.seconds =
        std::min(t.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    t.max_contacts = most;
  }
  t.qpos.assign(d->qpos, d->qpos + m->nq);
  return t;
}

}  // namespace sg::mjcf
