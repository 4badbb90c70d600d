// MuJoCo's convex collider (engine/collision/collide_convex.hpp: MPR for an ellipsoid or a cylinder against
// another solid) on joint trees: a two-link finger with a capsule and a cylinder pad knocking an ellipsoid, a
// cylinder can and a ball about a static post and block, stepped next to MuJoCo 2.2.2's mj_step on the same
// file, pyramidal and elliptic; and the gradient through MPR's contacts against FD.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;

namespace {

std::string playground_xml(const std::string& option) {
  return R"(<mujoco><option timestep="0.002" )" + option + R"(/><worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    <geom name="post" type="cylinder" pos="0.3 0 0.1" size="0.04 0.1"/>
    <geom name="block" type="box" pos="-0.32 0 0.08" size="0.08 0.1 0.08" euler="0 0 20"/>
    <body name="finger" pos="0 0 0.4">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom name="link" type="capsule" fromto="0 0 0 0 0 -0.25" size="0.025"/>
      <body name="tip" pos="0 0 -0.25">
        <joint name="knuckle" type="hinge" axis="0 1 0" damping="0.02" stiffness="0.5"/>
        <geom name="pad" type="cylinder" fromto="0 -0.04 -0.08 0 0.04 -0.08" size="0.04"/>
      </body>
    </body>
    <body name="egg" pos="0.1 0.01 0.045" euler="10 0 30"><freejoint/>
      <geom name="egg" type="ellipsoid" size="0.07 0.05 0.04"/></body>
    <body name="can" pos="-0.14 -0.01 0.07"><freejoint/>
      <geom name="can" type="cylinder" size="0.05 0.07"/></body>
    <body name="ball" pos="0.25 0.02 0.35"><freejoint/>
      <geom name="ball" type="sphere" size="0.035"/></body>
  </worldbody></mujoco>)";
}

std::string playground_scene(const std::string& name, const std::string& xml) {
  json scene = json::parse(R"({
    "model": {"type": "mjcf", "tree": {"bodies": [{"joints": [{"qvel": -5}]}]}},
    "integrator": {"steps": 150},
    "loss": {"terms": [{"quantity": "position", "body": 2, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.bodies.0.joints.0.qvel", "from": -7, "to": -3, "points": 9}})");
  scene["model"]["file"] = xml;
  return sg::test::write_scene(name, scene);
}

// The geom-type pairs of the contacts MuJoCo finds over `steps` steps of the file from its start state with
// the shoulder at `qvel`.
std::set<std::string> mujoco_pairs(const std::string& xml, double qvel, int steps) {
  std::string error;
  auto sim = sg::mjcmp::load_mujoco_file(xml, &error);
  REQUIRE(sim);
  sim->d->qvel[0] = qvel;
  std::set<std::string> pairs;
  const char* names[] = {"plane", "hfield", "sphere", "capsule", "ellipsoid", "cylinder", "box", "mesh"};
  for (int s = 0; s < steps; ++s) {
    mj_step(sim->m, sim->d);
    for (int i = 0; i < sim->d->ncon; ++i) {
      const mjContact& c = sim->d->contact[i];
      pairs.insert(std::string(names[sim->m->geom_type[c.geom1]]) + "-" + names[sim->m->geom_type[c.geom2]]);
    }
  }
  return pairs;
}

}  // namespace

TEST_CASE("a finger knocking an ellipsoid about a post and a ball follows mj_step through the strike") {
  // The pad (a cylinder on a hinge) strikes the egg (ellipsoid-cylinder) at about step 30; the ball falls on
  // the post and the egg (sphere-cylinder, sphere-ellipsoid). MuJoCo's Newton runs to tolerance 1e-15 (at its
  // default 1e-8 it stops early on the elliptic cones: 1.3e-8 in qvel). Over the first 50 steps: measured
  // qpos 2.6e-15 and qvel 8.4e-14 (pyramidal), 1.1e-15 and 5.7e-14 (elliptic); tolerance 1e-9. Later the runs
  // part at MPR's tolerance (1e-6 m of depth where MPR's iterations change with the last bit of a pose: 3e-5
  // in qpos by step 100), as MuJoCo's own run does from a start moved by 1e-15
  // (tests/mujoco/test_trajectories.cpp, case f).
  for (const std::string cone : {"pyramidal", "elliptic"}) {
    CAPTURE(cone);
    const std::string name = "convex_playground_" + cone;
    const std::string xml =
        sg::test::write_mjcf(name, playground_xml("cone=\"" + cone + "\" tolerance=\"1e-15\""));
    const sg::Problem p = sg::test::load_scene(playground_scene(name, xml));
    const auto c = sg::test::check_follows_mj_step(name.c_str(), p, xml, 50, p.integrator.dt, 1.0);
    CHECK(c.max_contacts >= 4);
    const std::set<std::string> pairs = mujoco_pairs(xml, -5.0, 500);
    std::string seen;
    for (const std::string& s : pairs) seen += s + " ";
    MESSAGE(cone << ": MuJoCo's contact pairs: " << seen);
    for (const char* pair : {"ellipsoid-cylinder", "sphere-cylinder", "sphere-ellipsoid"}) {
      CAPTURE(pair);
      CHECK(pairs.count(pair) == 1);
    }
  }
}

TEST_CASE("AD through MPR's contacts matches central FD across a sweep, and reverse equals forward") {
  // The egg's final x against the finger's swing speed, 9 points, 150 Euler steps: measured 1.1e-7 relative
  // at worst (tolerance 1e-5); reverse equals forward (1e-9) w.r.t. the swing, the pad's radius and the egg's
  // semi-axis.
  const std::string xml = sg::test::write_mjcf("convex_playground_sweep", playground_xml(""));
  const sg::Problem p = sg::test::load_scene(playground_scene("convex_playground_sweep", xml));
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 9, 1e-5);
  MESSAGE("worst relative AD-FD " << worst);
  sg::test::check_reverse_equals_forward(
      "convex playground", p,
      {"model.tree.bodies.0.joints.0.qvel", "model.tree.bodies.1.geoms.0.size.0",
       "model.tree.bodies.2.geoms.0.size.0"},
      0, true, 1e-5);
}
