// Floating bases: a free joint at the root of a joint tree (model.tree.bodies.N.joints.M.type "free"), as
// MuJoCo's humanoid has; its import, its start velocity conventions and the humanoid's fall next to mj_step.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/load_problem.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/import.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;

namespace {

constexpr const char* kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";

sg::Problem load(const std::string& file, const std::vector<std::string>& sets = {}) {
  return sg::test::load_scene(file, sets);
}

}  // namespace

TEST_CASE("MuJoCo's humanoid falls and lands as mj_step has it, 300 Euler steps to 1e-9") {
  // libmujoco-samples (scripts/install-deps) installs the model; without it the scene cannot load.
  REQUIRE_MESSAGE(std::filesystem::exists(kHumanoid), kHumanoid << " is missing: run scripts/install-deps");
  // The free root, 21 limited hinges with springs, damping and armature, up to 12 contacts (condim 1 body
  // geoms, condim 3 floor), Newton's solve: measured 2.6e-13 in qpos, 2.2e-11 in qvel and 1e-13 in the body
  // positions over 300 steps of 5 ms. Tolerance 1e-9 (positions) and 1e-7 (velocities, which carry the
  // contact stiffness: a round-off difference in a 1e-3 m penetration is 1e4 times larger in qvel).
  for (const double push : {0.0, 0.6, -0.8}) {
    CAPTURE(push);
    const sg::Problem p = load(sg::test::source_path("scenes/humanoid_fall.json"),
                               {"model.tree.bodies.0.joints.0.free_vel.0=" + std::to_string(push)});
    CHECK(p.data.tree.tree.nv == 27);
    const auto c = sg::mjcf::compare_tree_with_mj_step(p.data.tree, kHumanoid, 300, p.integrator.dt, false);
    MESSAGE("humanoid, push " << push << ": max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel << ", |dxpos| "
                              << c.xpos << ", up to " << c.max_contacts << " contacts");
    CHECK(c.max_contacts >= 8);
    CHECK(c.qpos < 1e-9);
    CHECK(c.xpos < 1e-9);
    CHECK(c.qvel < 1e-7);
  }
}

TEST_CASE("the humanoid's gradient: reverse equals forward, and FD agrees away from contact switches") {
  // At the scene's start (no push), w.r.t. the root's start velocity and height, an angular kick, a motor's
  // control and the floor's friction: reverse mode differentiates the same discrete run as forward mode
  // (tolerance 1e-9 relative), central FD (eps 1e-6) agrees to 3e-5 measured (tolerance 1e-4).
  const sg::Problem p = load(sg::test::source_path("scenes/humanoid_fall.json"));
  const std::vector<std::string> paths = {
      "model.tree.bodies.0.joints.0.free_vel.0", "model.tree.bodies.0.pos.2",
      "model.tree.bodies.0.joints.0.ball_qvel.1", "model.tree.actuators.3.ctrl",
      "model.tree.world_geoms.0.friction.0"};
  // Each parameter moves the run (its gradient is nonzero).
  sg::test::check_reverse_and_fd(p, paths, 1e-9, 1e-4);
}

TEST_CASE("a free joint imports next to other joints, its body's pose is the start") {
  const json keys = sg::test::imported("free_and_hinge", sg::test::mjcf_model(R"(
    <geom type="plane" size="1 1 0.1"/>
    <body name="arm" pos="0 0 1"><joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03" contype="0" conaffinity="0"/></body>
    <body name="box" pos="0.3 0.2 0.1" euler="0 0 30"><freejoint name="lid"/>
      <geom type="box" size="0.05 0.05 0.05"/></body>)"));
  CHECK(keys["model"]["type"] == "tree");
  const json& box = keys["model"]["tree"]["bodies"][1];
  CHECK(box["joints"][0]["type"] == "free");
  CHECK(box["joints"][0]["name"] == "lid");
  CHECK(box["pos"] == json({0.3, 0.2, 0.1}));
  CHECK(box["quat"][0].get<double>() == doctest::Approx(std::cos(M_PI / 12)).epsilon(1e-12));
}
