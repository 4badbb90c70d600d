#include "cli/validate_mjcf.hpp"

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>

#include "cli/commands.hpp"
#include "engine/scene/mjcf_source.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/compare_steps.hpp"
#include "mjcf/compare_tree_steps.hpp"
#endif

namespace sg::cli {

#ifdef SOFTGRAD_HAVE_MJCF

namespace {

std::string format_g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Whether two colliding bodies form a pair whose contacts softgrad computes differently from MuJoCo 2.2.2.
bool has_box_pair(const RigidModel<double>& m) {
  if (!m.collide_bodies) return false;
  for (int i = 0; i < m.count; ++i)
    for (int j = i + 1; j < m.count; ++j) {
      const GeomType a = m.bodies[i].shape, b = m.bodies[j].shape;
      if ((a == GeomType::box && (b == GeomType::box || b == GeomType::sphere)) ||
          (b == GeomType::box && a == GeomType::sphere))
        return true;
    }
  return false;
}

// Hard contact is no MuJoCo model: a hard-contact scene is compared with MuJoCo's soft contacts instead.
void print_hard_contact_note() {
  std::printf(
      "  (the scene runs hard contact with Moreau's impulses, which MuJoCo has not: the comparison is of its "
      "model with MuJoCo's soft contacts)\n");
}

// A joint tree: the scene's own fixed-step method (RK4 or Euler) at its step, else Euler at the step.
int check_tree_against_mujoco(const Problem& problem, const std::string& file, const MujocoCheckArgs& args) {
  const IntegratorSettings& s = problem.integrator;
  const bool rk4 = s.method == Method::rk4;
  // CFD in the forward simulation adds virtual forces MuJoCo has not: compare the model without them (the
  // one an MPC scene with mpc.execute_cfd false acts on); straight-through CFD leaves the values MuJoCo's.
  // Hard contact (Moreau's impulses) is no MuJoCo model either: compare the model with MuJoCo's contacts.
  JointTreeModel<double> tree = problem.data.tree;
  const bool forward_cfd = tree.con.cfd.enabled && !tree.con.cfd.straight_through;
  const bool hard = tree.con.opt.hard;
  tree.con.cfd.enabled = false;
  if (hard) tree.con.opt.hard = false, tree.con.opt.contact = true;
  mjcf::TreeStepComparison c;
  try {
    c = mjcf::compare_tree_with_mj_step(forward_cfd || hard ? tree : problem.data.tree, file, args.steps,
                                        s.fixed_step(), rk4);
  } catch (const std::exception& e) {
    std::printf("mj_step comparison: not possible: %s\n", e.what());
    return kExitFailed;
  }
  const int version = mj_version();
  std::printf(
      "mj_step comparison with %s (MuJoCo %d.%d.%d): %ld %s steps of %g s from the scene's initial "
      "state\n",
      file.c_str(), version / 100, version / 10 % 10, version % 10, c.steps, rk4 ? "RK4" : "Euler",
      c.timestep);
  if (s.method != Method::rk4 && s.method != Method::euler)
    std::printf("  (the scene integrates with %s; the comparison uses Euler at its dt)\n",
                problem.config.at("integrator").at("type").get<std::string>().c_str());
  if (forward_cfd)
    std::printf(
        "  (the scene runs Contacts From Distance in the forward simulation, which MuJoCo has not: the "
        "comparison is of its model without CFD)\n");
  if (hard) print_hard_contact_note();
  const bool ok = c.qpos <= args.tolerance && c.qvel <= args.tolerance && c.xpos <= args.tolerance &&
                  c.act <= args.tolerance;
  const std::string act = tree.act.na > 0 ? ", activations |dact| " + format_g(c.act) : "";
  std::printf(
      "  max |dqpos| %.3g (step %ld), |dqvel| %.3g, body positions |dxpos| %.3g%s: %s (tolerance %g); "
      "MuJoCo found up to %d contacts in a step\n",
      c.qpos, c.worst_step, c.qvel, c.xpos, act.c_str(), ok ? "ok" : "DIFFERENT", args.tolerance,
      c.max_contacts);
  if (std::isnan(c.qpos) || std::isnan(c.qvel) || std::isnan(c.xpos) || std::isnan(c.act))
    std::printf("  (not finite: a run blew up; never \"ok\")\n");
  if (c.softgrad_stop > 0)
    std::printf("  (softgrad's run stopped at step %ld: %s)\n", c.softgrad_stop, c.softgrad_status);
  if (c.softgrad_capped > 0 || c.mujoco_capped > 0)
    std::printf(
        "  (the constraint solver ran to its cap of %d iterations in %ld of softgrad's steps "
        "without settling, and in %ld of MuJoCo's; both keep the last iterate, where rounding differences "
        "can grow: raise contact.mujoco.iterations to see whether they account for a difference)\n",
        c.iteration_cap, c.softgrad_capped, c.mujoco_capped);
  if (c.mujoco_reset > 0)
    std::printf(
        "  (MuJoCo's qacc was not finite at step %ld: it reset its state there and went on, as mj_step "
        "does; try a smaller timestep)\n",
        c.mujoco_reset);
  if (c.max_speed == 0.0)
    std::printf(
        "  (the model stays at rest from this start in MuJoCo: the comparison shows little; start it moving, "
        "e.g. --set model.tree.bodies.0.joints.0.qvel=0.5)\n");
  return ok ? kExitOk : kExitFailed;
}

}  // namespace

int check_against_mujoco(const Problem& problem, const std::string& scene_file, const MujocoCheckArgs& args) {
  const std::string file =
      scene::mjcf_file_path(scene_file, problem.config.at("model").at("file").get<std::string>());
  if (problem.data.type == ModelType::tree) return check_tree_against_mujoco(problem, file, args);
  // Hard contact is no MuJoCo model: compare the bodies with MuJoCo's contacts (as for trees above).
  RigidModel<double> bodies = problem.data.rigid;
  const bool hard = bodies.contact == ContactModel::hard;
  if (hard) bodies.contact = ContactModel::mujoco;
  mjcf::StepComparison c;
  try {
    c = mjcf::compare_with_mj_step(bodies, file, args.steps);
  } catch (const std::exception& e) {
    std::printf("mj_step comparison: not possible: %s\n", e.what());
    return kExitFailed;
  }
  const int version = mj_version();
  std::printf(
      "mj_step comparison with %s (MuJoCo %d.%d.%d): %ld Euler steps of %g s from the scene's initial "
      "state; MuJoCo's solver Newton to tolerance %g (at most %d iterations)\n",
      file.c_str(), version / 100, version / 10 % 10, version % 10, c.steps, c.timestep,
      mjcf::StepComparison::kTolerance, c.solver_iterations);
  if (problem.data.rigid.as_tree)
    std::printf("  (softgrad runs the bodies as joint trees of one free joint each: model.run_as tree)\n");
  if (hard) print_hard_contact_note();
  const IntegratorSettings& s = problem.integrator;
  if (s.method != Method::euler || s.dt != c.timestep || s.substeps != 1)
    std::printf(
        "  (the scene integrates with %s at dt %g; the comparison uses Euler at the MJCF's timestep "
        "regardless)\n",
        problem.config.at("integrator").at("type").get<std::string>().c_str(), s.dt);
  for (const auto& geom : c.offset_geoms)
    std::printf(
        "  (%s sits off its body's origin: MuJoCo's Euler step moves the body origin, softgrad's the "
        "geom's centre; a spinning body differs by O(timestep))\n",
        geom.c_str());
  if (has_box_pair(problem.data.rigid))
    std::printf(
        "  (box-box and sphere-box contacts differ from MuJoCo 2.2.2's by design: its box-box face contacts "
        "report half the depth and keep a corner beyond the face, its sphere-box -radius for a centre inside "
        "the box; docs/collision.md, \"What MuJoCo 2.2.2 does differently\")\n");
  const mjcmp::Deviation& d = c.deviation;
  const bool ok = d.pos <= args.tolerance && d.quat <= args.tolerance && d.vel <= args.tolerance &&
                  d.angvel <= args.tolerance;
  std::printf(
      "  max |dpos| %.3g m (step %ld), |dquat| %.3g, |dvel| %.3g m/s, |dangvel| %.3g rad/s: %s "
      "(tolerance %g)\n",
      d.pos, d.worst_pos_step, d.quat, d.vel, d.angvel, ok ? "ok" : "DIFFERENT", args.tolerance);
  if (std::isnan(d.pos) || std::isnan(d.quat) || std::isnan(d.vel) || std::isnan(d.angvel))
    std::printf("  (not finite, or one engine stopped before the last step: a run blew up; never \"ok\")\n");
  return ok ? kExitOk : kExitFailed;
}

#else

int check_against_mujoco(const Problem&, const std::string&, const MujocoCheckArgs&) {
  std::printf("mj_step comparison: skipped (built without libmujoco)\n");
  return kExitOk;
}

#endif

}  // namespace sg::cli
