// MJCF keyframes: a file with <keyframe> imports (MuJoCo keeps keys beside the model and starts at qpos0),
// and the scene's model.keyframe starts the run at a key as mj_resetDataKeyframe does: every joint type's
// coordinates and velocities, the controls and the activations; then the run follows mj_step.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/model/tree_system.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/mujoco_sim.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// A free base with a hinged arm and a ball-jointed pendulum, a slider on the world; a motor and a filtered
// motor. Key "home" sets every coordinate, velocity, control and activation; key 1 is unnamed.
const char* const kRobot = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    <body name="base" pos="0 0 0.3" euler="0 0 30"><freejoint/>
      <geom type="box" size="0.1 0.08 0.04"/>
      <body name="arm" pos="0.1 0 0.05"><joint name="elbow" axis="0 1 0" damping="0.01"/>
        <geom type="capsule" fromto="0 0 0 0.15 0 0" size="0.02"/></body>
      <body name="bob" pos="-0.1 0 0"><joint name="swing" type="ball"/>
        <geom type="sphere" pos="0 0 -0.1" size="0.03"/></body>
    </body>
    <body name="cart" pos="1 0 0.05"><joint name="rail" type="slide" axis="1 0 0"/>
      <geom type="box" size="0.05 0.05 0.05"/></body>
  </worldbody>
  <actuator>
    <motor name="push" joint="rail"/>
    <general name="lift" joint="elbow" dyntype="filter" dynprm="0.05" gainprm="0.5"/>
  </actuator>
  <keyframe>
    <key name="home" qpos="0.2 -0.1 0.5 0.9238795325112867 0 0.3826834323650898 0  0.7  0.9950041652780258 0.0998334166468282 0 0  0.3"
         qvel="0.5 0 1 0 0.4 -2  1.5  0 3 0  -0.7" act="0.25" ctrl="0.8 -0.6"/>
    <key qpos="0 0 0.8 1 0 0 0  -0.3  1 0 0 0  -0.2"/>
  </keyframe>
</mujoco>
)";

struct Start {
  std::vector<double> qpos, qvel, act, ctrl;
};

// The scene's start as the tree system builds it, and its controls.
Start scene_start(const sg::Problem& p) {
  const sg::JointTreeModel<double>& model = p.data.tree;
  sg::TreeSystem<double> sys(&model, 0.0);
  std::vector<double> y(static_cast<std::size_t>(sys.dim()));
  sys.initial_state(y.data());
  Start s;
  s.qpos.assign(y.begin(), y.begin() + model.tree.nq);
  s.qvel.assign(y.begin() + model.vel_offset(), y.begin() + model.vel_offset() + model.tree.nv);
  s.act.assign(y.begin() + model.act_offset(), y.begin() + model.act_offset() + model.act.na);
  for (int i = 0; i < model.act.nu; ++i) s.ctrl.push_back(model.ctrl[i]);
  return s;
}

// The largest difference to MuJoCo's own start at keyframe k (mj_resetDataKeyframe), over qpos, qvel, act
// and ctrl.
double difference_to_mujoco_key(const Start& s, const std::string& file, int k) {
  std::string error;
  const auto sim = sg::mjcmp::load_mujoco_file(file, &error);
  REQUIRE(sim);
  mj_resetDataKeyframe(sim->m, sim->d, k);
  const mjData* d = sim->d;
  REQUIRE(s.qpos.size() == static_cast<std::size_t>(sim->m->nq));
  REQUIRE(s.act.size() == static_cast<std::size_t>(sim->m->na));
  double worst = 0.0;
  const auto compare = [&](const std::vector<double>& ours, const mjtNum* theirs) {
    for (std::size_t i = 0; i < ours.size(); ++i) worst = std::max(worst, std::fabs(ours[i] - theirs[i]));
  };
  compare(s.qpos, d->qpos), compare(s.qvel, d->qvel), compare(s.act, d->act), compare(s.ctrl, d->ctrl);
  return worst;
}

}  // namespace

TEST_CASE("a file with keyframes imports and starts at qpos0, as mj_resetData") {
  const std::string file = sg::test::write_mjcf("keyframes_robot", kRobot);
  const sg::Problem p = sg::test::load_scene(file);
  const Start s = scene_start(p);
  std::string error;
  const auto sim = sg::mjcmp::load_mujoco_file(file, &error);
  REQUIRE(sim);
  for (int i = 0; i < sim->m->nq; ++i) CHECK(s.qpos[static_cast<std::size_t>(i)] == sim->m->qpos0[i]);
  for (double v : s.qvel) CHECK(v == 0.0);
}

TEST_CASE("model.keyframe starts the run at the key as mj_resetDataKeyframe, then follows mj_step (1e-9)") {
  const std::string file = sg::test::write_mjcf("keyframes_home", kRobot);
  for (const std::string& which : {std::string("home"), std::string("0")}) {
    CAPTURE(which);
    const sg::Problem p = sg::test::load_scene(file, {"model.keyframe=" + which});
    // Every coordinate as the key gives it; the free joint's orientation passes through the body's rest
    // orientation and back (conj(body quat) key quat, then body quat times that), so within rounding.
    CHECK(difference_to_mujoco_key(scene_start(p), file, 0) <= 1e-15);
    const sg::mjcf::TreeStepComparison c =
        sg::test::check_follows_mj_step("from keyframe home", p, file, 500, 0.002, 1.0);
    CHECK(c.max_contacts >= 1);
    CHECK(c.act <= 1e-9);
  }
  // The unnamed key by its index, a number on the command line.
  const sg::Problem second = sg::test::load_scene(file, {"model.keyframe=1"});
  CHECK(difference_to_mujoco_key(scene_start(second), file, 1) <= 1e-15);
  CHECK(second.data.tree.ctrl[0] == 0.0);
}

TEST_CASE("the scene's own start keys win over the keyframe's") {
  const std::string file = sg::test::write_mjcf("keyframes_override", kRobot);
  const sg::Problem p = sg::test::load_scene(
      file,
      {"model.keyframe=home", "model.tree.bodies.1.joints.0.qpos=-0.4", "model.tree.actuators.0.ctrl=0.1"});
  const Start s = scene_start(p);
  CHECK(s.qpos[7] == -0.4);  // elbow (after the free joint's 7)
  CHECK(s.qpos[0] == 0.2);   // the rest still from the key
  CHECK(s.qvel[6] == 1.5);
  CHECK(s.ctrl[0] == 0.1);
  CHECK(s.ctrl[1] == -0.6);
}

TEST_CASE("free bodies imported from a file with a keyframe start at the key") {
  const std::string xml = R"(<mujoco><worldbody><geom type="plane" size="2 2 0.1"/>
    <body name="a" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>
    <body name="b" pos="1 0 1"><freejoint/><geom type="sphere" size="0.1"/></body></worldbody>
    <keyframe><key name="drop" qpos="0.3 0 0.5 1 0 0 0  1 0.2 2 1 0 0 0" qvel="0 0 -1 0 0 0  0.5 0 0 0 0 0"/></keyframe>
  </mujoco>)";
  const nlohmann::json plain = sg::test::imported("keyframes_free", xml);
  CHECK(plain["model"].contains("bodies"));  // the free-body import (a tree's keys are model.tree)
  const sg::Problem p =
      sg::test::load_scene(sg::test::write_mjcf("keyframes_free", xml), {"model.keyframe=drop"});
  const sg::RigidModel<double>& m = p.data.rigid;
  REQUIRE(m.count == 2);
  CHECK(m.bodies[0].pos.x == doctest::Approx(0.3).epsilon(1e-15));
  CHECK(m.bodies[0].pos.z == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(m.bodies[0].vel.z == doctest::Approx(-1.0).epsilon(1e-15));
  CHECK(m.bodies[1].pos.y == doctest::Approx(0.2).epsilon(1e-15));
  CHECK(m.bodies[1].pos.z == doctest::Approx(2.0).epsilon(1e-15));
  CHECK(m.bodies[1].vel.x == doctest::Approx(0.5).epsilon(1e-15));
}

TEST_CASE("model.keyframe: a key the file lacks, a wrong type, or no MJCF file is an error naming the key") {
  const std::string file = sg::test::write_mjcf("keyframes_bad", kRobot);
  sg::mjcf::register_importer();
  const std::string missing = sg::load_problem_file(file, {"model.keyframe=away"}).errors;
  CHECK(missing.find("model.keyframe: ") != std::string::npos);
  CHECK(missing.find("no keyframe 'away'") != std::string::npos);
  CHECK(missing.find("the file's keyframes: 0 'home', 1 (unnamed)") != std::string::npos);
  for (const char* absent : {"2", "1.5", "-1", "true"}) {  // --set gives a text key its text
    CAPTURE(absent);
    CHECK(sg::load_problem_file(file, {std::string("model.keyframe=") + absent})
              .errors.find("no keyframe '" + std::string(absent) + "'") != std::string::npos);
  }
  // In a scene file: a whole number is an index; anything else but text is an error.
  const auto scene_with = [&](const nlohmann::json& keyframe) {
    nlohmann::json doc = {
        {"model", {{"type", "mjcf"}, {"file", "keyframes_bad.xml"}, {"keyframe", keyframe}}}};
    return sg::load_problem_file(sg::test::write_scene("keyframes_typed", doc));
  };
  const sg::ProblemLoad by_number = scene_with(1);
  INFO(by_number.errors);
  REQUIRE(by_number.ok());
  CHECK(difference_to_mujoco_key(scene_start(*by_number.problem), file, 1) <= 1e-15);
  for (const nlohmann::json& bad : {nlohmann::json(1.5), nlohmann::json(-1), nlohmann::json(true)}) {
    CAPTURE(bad.dump());
    CHECK(scene_with(bad).errors.find("model.keyframe: expected a keyframe's name or its index") !=
          std::string::npos);
  }
  const std::string scene = sg::test::write_scene(
      "keyframes_hand_written",
      nlohmann::json::parse(R"({"model": {"type": "tree", "keyframe": "home", "tree": {"bodies": [
        {"joints": [{"type": "hinge"}]}]}}})"));
  const std::string hand = sg::load_problem_file(scene).errors;
  CHECK(hand.find("model.keyframe: only a model imported from MJCF") != std::string::npos);
}
