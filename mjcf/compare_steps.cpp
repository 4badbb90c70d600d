#include "mjcf/compare_steps.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "engine/core/quat.hpp"
#include "mjcf/free_bodies.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "mjcf/names.hpp"

namespace sg::mjcf {
namespace {

mjcmp::BodyFrame initial_frame(const RigidBody<double>& b) {
  const Quat<double> q = from_euler_xyz(b.euler_deg.x, b.euler_deg.y, b.euler_deg.z);
  return {{b.pos.x, b.pos.y, b.pos.z},
          {q.w, q.x, q.y, q.z},
          {b.vel.x, b.vel.y, b.vel.z},
          {b.angvel.x, b.angvel.y, b.angvel.z}};
}

}  // namespace

StepComparison compare_with_mj_step(const RigidModel<double>& model, const std::string& mjcf_path,
                                    long steps) {
  std::string error;
  const auto sim = mjcmp::load_mujoco_file(mjcf_path, &error);
  if (!sim) throw std::runtime_error(mjcf_path + ": " + error);
  mjModel* m = sim->m;
  const std::vector<FreeBody> fbs = free_bodies(m);
  if (static_cast<int>(fbs.size()) != model.count)
    throw std::runtime_error(mjcf_path + " has " + std::to_string(fbs.size()) + " free bodies, the scene " +
                             std::to_string(model.count));
  StepComparison out;
  out.timestep = m->opt.timestep;
  out.steps = steps;
  m->opt.integrator = mjINT_EULER;
  m->opt.solver = mjSOL_NEWTON;
  m->opt.iterations = std::max(m->opt.iterations, 100);
  m->opt.tolerance = StepComparison::kTolerance;
  out.solver_iterations = m->opt.iterations;
  for (const FreeBody& fb : fbs) {
    const mjtNum* p = m->geom_pos + 3 * fb.geom;
    if (p[0] != 0.0 || p[1] != 0.0 || p[2] != 0.0)
      out.offset_geoms.push_back(element(m, mjOBJ_GEOM, fb.geom, "geom"));
  }

  mj_resetData(m, sim->d);
  std::vector<int> body_ids;
  for (int i = 0; i < model.count; ++i) {
    set_free_joint(m, sim->d, fbs[i], initial_frame(model.bodies[i]));
    body_ids.push_back(fbs[i].body);
  }
  mjcmp::Trajectory theirs;
  theirs.bodies = model.count;
  auto record = [&] {
    for (const FreeBody& fb : fbs) theirs.frames.push_back(geom_frame(m, sim->d, fb));
  };
  record();
  for (long i = 0; i < steps; ++i) {
    mjcmp::apply_timed_forces(model, i, *sim, body_ids.data());
    mj_step(m, sim->d);
    record();
  }
  const mjcmp::Trajectory ours = mjcmp::our_trajectory(model, out.timestep, steps);
  out.deviation = mjcmp::deviation(ours, theirs);
  return out;
}

}  // namespace sg::mjcf
