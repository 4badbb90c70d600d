// Forces and torques applied to bodies of a joint tree (MuJoCo's xfrc_applied, mj_xfrcAccumulate: the
// free bodies' timed forces when they run as a tree) against mj_step with the same xfrc_applied.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/simulate/run.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// A slide, a hinge and a ball joint in a chain, with offset and turned inertial frames, so that a body's
// force moves every dof on its path through the Jacobian at its centre of mass.
const char* kChain = R"(<mujoco>
  <option timestep="0.002" gravity="0.5 -0.3 -9.81"><flag contact="disable"/></option>
  <worldbody>
    <body name="base" pos="0 0 1">
      <joint name="lift" type="slide" axis="0 0.2 1" damping="0.4"/>
      <inertial pos="0 0 0" mass="2" diaginertia="0.02 0.02 0.02"/>
      <body name="arm" pos="0.1 0 -0.05">
        <joint name="shoulder" type="hinge" pos="0 0 0.02" axis="0.3 1 0"/>
        <inertial pos="0.1 0.02 -0.15" quat="0.9 0.1 0.2 0.3" mass="0.8" diaginertia="0.01 0.008 0.003"/>
        <body name="hand" pos="0.2 0 -0.3">
          <joint name="wrist" type="ball"/>
          <inertial pos="0 0.01 -0.08" mass="0.3" diaginertia="0.002 0.0015 0.001"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)";

struct Recorder {
  int nq = 0, nv = 0, vel_offset = 0;
  std::vector<std::vector<double>> qpos, qvel;
  void on_output(long, double, const double* y, int) {
    qpos.emplace_back(y, y + nq);
    qvel.emplace_back(y + vel_offset, y + vel_offset + nv);
  }
  void on_accept(double) {}
  void on_reject(double) {}
  void on_event(double, const sg::EventId&) {}
};

}  // namespace

TEST_CASE("forces applied to a tree's bodies (xfrc_applied) follow mj_step over 400 Euler steps") {
  // Two forces on the arm and the hand during steps [50, 250) and [120, 400), a third on the arm that acts
  // for one step only. softgrad's Euler at MuJoCo's timestep (semi-implicit, implicit damping) against
  // mj_step with d->xfrc_applied set per step. Tolerance 1e-10 in qpos and 1e-9 in qvel, as the other
  // trajectory comparisons (measured: see the message).
  nlohmann::json scene = {{"model", {{"type", "mjcf"}}},
                          {"integrator", {{"type", "euler"}, {"steps", 400}}},
                          {"loss", {{"terms", {{{"body", 2}, {"axis", "x"}}}}}},
                          {"sweep", {{"parameter", "model.tree.bodies.0.joints.0.qpos"}}}};
  const std::string xml = sg::test::write_mjcf("xfrc_chain", kChain);
  scene["model"]["file"] = xml;
  sg::Problem p = sg::test::load_scene(sg::test::write_scene("xfrc_chain", scene));
  sg::JointTreeModel<double>& tree = p.data.tree;
  REQUIRE(tree.tree.nbody == 4);
  struct Applied {
    int body;
    double force[3], torque[3];
    int from, to;
  };
  const Applied applied[] = {{2, {1.5, -0.7, 3.0}, {0.2, 0.1, -0.3}, 50, 250},
                             {3, {-0.4, 2.0, 0.5}, {0.0, -0.05, 0.08}, 120, 400},
                             {2, {0.0, 0.0, 40.0}, {0.0, 0.0, 0.0}, 300, 301}};
  for (const Applied& a : applied)
    tree.force[tree.nforce++] = {
        a.body, {a.force[0], a.force[1], a.force[2]}, {a.torque[0], a.torque[1], a.torque[2]}, a.from, a.to};
  Recorder rec{tree.tree.nq, tree.tree.nv, tree.vel_offset(), {}, {}};
  sg::SimWorkspace<double> ws;
  REQUIRE(sg::run_simulation(p.data, p.integrator, ws, rec).stats.status == sg::Status::ok);

  std::string error;
  const auto sim = sg::mjcmp::load_mujoco_file(xml, &error);
  INFO(error);
  REQUIRE(sim);
  mjModel* m = sim->m;
  mjData* d = sim->d;
  mj_resetData(m, d);
  for (int i = 0; i < m->nq; ++i) d->qpos[i] = rec.qpos[0][static_cast<std::size_t>(i)];
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = rec.qvel[0][static_cast<std::size_t>(i)];
  double worst_q = 0.0, worst_v = 0.0, moved = 0.0;
  for (std::size_t k = 1; k < rec.qpos.size(); ++k) {
    const int step = static_cast<int>(k) - 1;
    mju_zero(d->xfrc_applied, 6 * m->nbody);
    for (const Applied& a : applied)
      if (step >= a.from && step < a.to)
        for (int c = 0; c < 3; ++c)
          d->xfrc_applied[6 * a.body + c] += a.force[c], d->xfrc_applied[6 * a.body + 3 + c] += a.torque[c];
    mj_step(m, d);
    for (int i = 0; i < m->nq; ++i)
      worst_q = std::max(worst_q, std::fabs(d->qpos[i] - rec.qpos[k][static_cast<std::size_t>(i)]));
    for (int i = 0; i < m->nv; ++i)
      worst_v = std::max(worst_v, std::fabs(d->qvel[i] - rec.qvel[k][static_cast<std::size_t>(i)]));
  }
  // The forces matter: the same run without them ends elsewhere.
  sg::Problem plain = sg::test::load_scene(sg::test::write_scene("xfrc_chain", scene));
  Recorder free_rec{tree.tree.nq, tree.tree.nv, tree.vel_offset(), {}, {}};
  REQUIRE(sg::run_simulation(plain.data, plain.integrator, ws, free_rec).stats.status == sg::Status::ok);
  for (int i = 0; i < m->nq; ++i)
    moved = std::max(moved, std::fabs(free_rec.qpos.back()[static_cast<std::size_t>(i)] - d->qpos[i]));
  MESSAGE("xfrc_applied against mj_step: qpos " << worst_q << ", qvel " << worst_v
                                                << "; the forces move qpos by " << moved);
  CHECK(moved > 1e-2);
  CHECK(worst_q < 1e-10);
  CHECK(worst_v < 1e-9);
}
