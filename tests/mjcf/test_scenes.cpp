// model.type "mjcf" scenes end to end: the shipped cube scene against toss_box_diffmjx.json, the scene's keys
// over the MJCF's, and validate's mj_step comparison (mjcf/compare_steps.hpp, `softgrad validate`).
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cstdio>
#include <fstream>
#include <string>

#include "engine/gradient/point_eval.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/scene/scene.hpp"
#include "mjcf/compare_steps.hpp"
#include "tests/cli/cli_runner.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;

namespace {

sg::Problem load(const std::string& file, const std::vector<std::string>& sets = {}) {
  return sg::test::load_scene(file, sets);
}

using sg::test::write_scene;

// A box turned inside a turned body, or also placed off the body's origin (`offset`), with MuJoCo's
// defaults otherwise: the comparison moves the state between MuJoCo's body frame and softgrad's geom frame.
std::string box_in_body(double timestep, const char* offset) {
  return "<mujoco><option timestep=\"" + std::to_string(timestep) + R"("/><worldbody>
    <geom name="floor" type="plane" size="1 1 0.1" friction="0.8 0.005 0.0001"/>
    <body name="arm" pos="0.1 0.2 0.3" euler="20 -10 90">
      <freejoint/>
      <geom name="slab" type="box" size="0.03 0.05 0.1" pos=")" +
         offset + R"(" euler="30 45 0" density="800"/>
    </body>
  </worldbody></mujoco>)";
}

// The scene over such a file: thrown down and spinning.
sg::Problem spinning(const std::string& name, const std::string& xml) {
  const json scene = {{"model",
                       {{"type", "mjcf"},
                        {"file", sg::test::write_mjcf(name, xml)},
                        {"bodies", {{{"vel", {0.3, -0.2, -1.0}}, {"angvel", {2.0, -1.0, 3.0}}}}}}}};
  return load(write_scene(name, scene));
}

}  // namespace

TEST_CASE("the MJCF cube scene resolves to toss_box_diffmjx.json's configuration") {
  const sg::Problem mjcf = load(sg::test::scene("toss_box_mjcf.json"));
  const sg::Problem json_scene = load(sg::test::scene("toss_box_diffmjx.json"));
  json a = mjcf.config, b = json_scene.config;
  CHECK(a["model"]["type"] == "rigid");
  CHECK(a["model"]["file"] == "mjcf/cube.xml");
  for (json* c : {&a, &b}) {
    c->erase("name");
    c->erase("description");
    (*c)["model"].erase("file");
  }
  // Density 100 (not MuJoCo's mass 0.10000000000000002) and Euler 60 (not 59.99999999999999): every value,
  // bit for bit.
  CHECK_MESSAGE(a == b, json::diff(b, a).dump());
}

TEST_CASE("the MJCF cube scene reproduces toss_box_diffmjx.json's loss and gradient at v_z = -2") {
  sg::PointEvaluator mjcf(load(sg::test::scene("toss_box_mjcf.json")));
  sg::PointEvaluator json_scene(load(sg::test::scene("toss_box_diffmjx.json")));
  const sg::LossSample a = mjcf.loss_and_grad(-2.0), b = json_scene.loss_and_grad(-2.0);
  // The same configuration gives the same run; the tolerance only guards against a future rounding change.
  CHECK(a.loss == doctest::Approx(b.loss).epsilon(1e-12));
  CHECK(a.grad == doctest::Approx(b.grad).epsilon(1e-12));
  CHECK(a.stats.accepted == b.stats.accepted);
  // Had the mass been MuJoCo's (one bit larger), Tsit5 with events takes another step sequence: measured
  // 1.3e-7 in the loss, 4.5e-4 relative in the gradient (mjcf/map_model.cpp maps the density instead).
  sg::PointEvaluator mujoco_mass(
      load(sg::test::scene("toss_box_diffmjx.json"), {"model.bodies.0.mass=0.10000000000000002"}));
  const sg::LossSample c = mujoco_mass.loss_and_grad(-2.0);
  CHECK(std::fabs(c.loss - b.loss) < 1e-6);
  CHECK(std::fabs(c.grad - b.grad) < 1e-3 * std::fabs(b.grad));
}

TEST_CASE("the scene's keys win over the MJCF's, and --set reaches the imported bodies") {
  const sg::Problem p =
      load(sg::test::scene("toss_box_mjcf.json"),
           {"contact.mujoco.refsafe=true", "model.bodies.0.vel.2=-3", "model.gravity.2=-9.81"});
  CHECK(p.data.rigid.refsafe);
  CHECK(p.data.rigid.bodies[0].vel.z == -3.0);
  CHECK(p.data.rigid.gravity.z == -9.81);
  CHECK(p.data.rigid.bodies[0].pos.z == 0.2);  // the scene's start, not the XML's 0.1
  // integrator.dt comes from the MJCF's timestep unless the scene gives it.
  const std::string dir = sg::test::source_dir() + "/scenes/mjcf/cube.xml";
  const json own_dt = {{"model", {{"type", "mjcf"}, {"file", dir}}}, {"integrator", {{"dt", 0.005}}}};
  CHECK(load(write_scene("own_dt", own_dt)).integrator.dt == 0.005);
  const json xml_dt = {{"model", {{"type", "mjcf"}, {"file", dir}}}};
  CHECK(load(write_scene("xml_dt", xml_dt)).integrator.dt == 0.01);
}

TEST_CASE("--set model.file picks another MJCF file") {
  const std::string other = sg::test::write_mjcf(
      "other_ball",
      sg::test::mjcf_model(R"(<body pos="0 0 2"><freejoint/><geom type="sphere" size="0.2"/></body>)"));
  const sg::Problem p = load(sg::test::scene("toss_box_mjcf.json"), {"model.file=" + other});
  CHECK(p.data.rigid.bodies[0].shape == sg::GeomType::sphere);
  CHECK(p.data.rigid.bodies[0].size.x == 0.2);
  CHECK(p.data.rigid.bodies[0].pos.z == 0.2);  // the scene's start still applies
  CHECK(p.data.rigid.gravity.z == -9.81);      // MuJoCo's default, from the other file
}

TEST_CASE("load errors name the scene, model.file, the MJCF file and the element") {
  sg::mjcf::register_importer();
  const std::string xml = sg::test::write_mjcf(
      "hinged",
      sg::test::mjcf_model(R"(<body name="arm"><joint name="ball1" type="hinge"/>
                                         <geom type="capsule" size="0.02 0.1"/></body>)",
                           R"(<actuator><general name="custom" joint="ball1" dyntype="user"/></actuator>)"));
  const std::string scene = write_scene("hinged", {{"model", {{"type", "mjcf"}, {"file", "hinged.xml"}}}});
  const sg::scene::LoadResult r = sg::scene::load_scene_file(scene);
  REQUIRE(r.errors.size() == 1);  // the actuator's user dynamics; nothing about the rest of the scene
  CHECK(r.format_errors().find(scene + ": model.file: " + xml +
                               ": actuator 'custom': user actuator dynamics are not supported") == 0);
  // A body entry the MJCF does not have.
  const std::string extra =
      write_scene("extra_body", {{"model",
                                  {{"type", "mjcf"},
                                   {"file", sg::test::source_dir() + "/scenes/mjcf/cube.xml"},
                                   {"bodies", json::array({json::object(), json::object()})}}}});
  const sg::scene::LoadResult e = sg::scene::load_scene_file(extra);
  INFO(e.format_errors());
  REQUIRE(e.errors.size() == 1);
  CHECK(e.errors[0].path == "model.bodies.1");
  CHECK(e.errors[0].message.find("the MJCF model has 1 free bodies") == 0);
}

TEST_CASE("validate's mj_step comparison: the cube matches MuJoCo over 100 Euler steps") {
  const sg::Problem p = load(sg::test::scene("toss_box_mjcf.json"));
  const auto c =
      sg::mjcf::compare_with_mj_step(p.data.rigid, sg::test::source_path("scenes/mjcf/cube.xml"), 100);
  sg::mjcmp::print_deviation("cube, scenes/mjcf/cube.xml", c.deviation);
  CHECK(c.timestep == 0.01);
  // As tests/mujoco (c), from the XML instead of a written-out model: measured 4e-14 m, 4e-13, 6e-14 m/s,
  // 1.2e-12 rad/s.
  CHECK(c.deviation.pos < 1e-9);
  CHECK(c.deviation.quat < 1e-8);
  CHECK(c.deviation.vel < 1e-8);
  CHECK(c.deviation.angvel < 1e-7);
}

TEST_CASE("validate's mj_step comparison: a geom turned inside its turned body, spinning onto the floor") {
  const sg::Problem p = spinning("turned_box", box_in_body(0.002, "0 0 0"));
  const auto c = sg::mjcf::compare_with_mj_step(p.data.rigid, sg::test::mjcf_test_path("turned_box"), 300);
  sg::mjcmp::print_deviation("turned box", c.deviation);
  CHECK(c.offset_geoms.empty());
  // It lands at about 0.2 s and tumbles on the floor with friction: measured 1e-16 m, 1e-15 m/s, 2e-14 rad/s.
  CHECK(c.deviation.pos < 1e-12);
  CHECK(c.deviation.quat < 1e-12);
  CHECK(c.deviation.vel < 1e-12);
  CHECK(c.deviation.angvel < 1e-10);
}

TEST_CASE("validate's mj_step comparison: a geom off its body's origin differs by O(h), no more") {
  // Free flight for 0.1 s (it lands at about 0.2 s). MuJoCo's Euler step moves the body origin, ours the
  // geom's centre; with the body spinning at 3.7 rad/s the two first-order methods part by O(h) while the
  // rotation stays equal to rounding. A wrong frame conversion would not shrink with h.
  double previous = 0.0;
  for (const double h : {0.004, 0.002, 0.001}) {
    CAPTURE(h);
    const std::string name = "offset_box_" + std::to_string(static_cast<int>(1e3 * h));
    const sg::Problem p = spinning(name, box_in_body(h, "0.05 -0.02 0.01"));
    const auto c = sg::mjcf::compare_with_mj_step(p.data.rigid, sg::test::mjcf_test_path(name),
                                                  static_cast<long>(0.1 / h + 0.5));
    sg::mjcmp::print_deviation(name.c_str(), c.deviation);
    REQUIRE(c.offset_geoms.size() == 1);
    CHECK(c.offset_geoms[0] == "geom 'slab'");
    CHECK(c.deviation.pos < 1e-2 * h);  // measured 4.8e-3 h
    CHECK(c.deviation.quat < 1e-14);
    CHECK(c.deviation.angvel < 1e-13);
    if (previous > 0.0) CHECK(previous / c.deviation.pos == doctest::Approx(2.0).epsilon(0.05));
    previous = c.deviation.pos;
  }
}

TEST_CASE("validate's mj_step comparison: the billiards-like table with a push on the cue ball") {
  const std::string xml = sg::test::source_path("tests/data/mjcf/billiard_like.xml");
  const json scene = {
      {"model",
       {{"type", "mjcf"},
        {"file", xml},
        {"bodies", {{{"forces", {{{"force", {4.0, 0.5, 0.0}}, {"from_step", 0}, {"to_step", 1}}}}}}}}}};
  const sg::Problem p = load(write_scene("billiard_like", scene));
  const auto c = sg::mjcf::compare_with_mj_step(p.data.rigid, xml, 100);
  sg::mjcmp::print_deviation("billiards-like", c.deviation);
  CHECK(c.deviation.pos < 1e-6);
  CHECK(c.deviation.vel < 1e-6);
}

TEST_CASE("softgrad validate on the MJCF cube scene prints the mj_step comparison and passes") {
  const auto r = sg::test::run_softgrad("validate " + sg::test::scene("toss_box_mjcf.json"));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("mj_step comparison with") != std::string::npos);
  CHECK(r.output.find("100 Euler steps of 0.01 s") != std::string::npos);
  CHECK(r.output.find("the scene integrates with tsit5") != std::string::npos);
  CHECK(r.output.find(": ok (tolerance 1e-06)") != std::string::npos);
  // An impossible tolerance fails with the numerical-failure code.
  const auto strict =
      sg::test::run_softgrad("validate " + sg::test::scene("toss_box_mjcf.json") + " --mujoco-tol 1e-300");
  CHECK(strict.exit_code == 1);
  CHECK(strict.output.find("DIFFERENT") != std::string::npos);
}

TEST_CASE("softgrad validate on two pressed boxes says why box-box contacts differ from MuJoCo 2.2.2's") {
  const std::string xml =
      sg::test::write_mjcf("pressed_boxes", R"(<mujoco><option timestep="0.002"/><worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body pos="0 0 0.0249"><freejoint/><geom type="box" size="0.025 0.025 0.025" mass="0.1"/></body>
    <body pos="0.049 0.01 0.0249"><freejoint/><geom type="box" size="0.025 0.025 0.025" mass="0.1"/></body>
  </worldbody></mujoco>)");
  const std::string scene = write_scene("pressed_boxes", {{"model", {{"type", "mjcf"}, {"file", xml}}}});
  const auto r = sg::test::run_softgrad("validate " + scene);
  INFO(r.output);
  // MuJoCo's box-box face contacts carry half the depth, so the two engines part within the first steps.
  CHECK(r.exit_code == 1);
  CHECK(r.output.find("DIFFERENT") != std::string::npos);
  CHECK(r.output.find("box-box and sphere-box contacts differ from MuJoCo 2.2.2's by design") !=
        std::string::npos);
  // A single box has no such pair and no such line.
  const auto single = sg::test::run_softgrad("validate " + sg::test::scene("toss_box_mjcf.json"));
  CHECK(single.output.find("by design") == std::string::npos);
}

TEST_CASE(
    "softgrad validate on a model file at rest says the comparison shows little, and not once it moves") {
  // A pendulum hanging straight down: both engines keep it there to the bit.
  const std::string xml = sg::test::write_mjcf("hanging_pendulum", R"(<mujoco><worldbody>
    <body pos="0 0 1"><joint name="swing" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size="0.02" fromto="0 0 0 0 0 -0.5"/></body>
  </worldbody></mujoco>)");
  const auto still = sg::test::run_softgrad("validate " + xml);
  INFO(still.output);
  CHECK(still.exit_code == 0);
  CHECK(still.output.find("stays at rest from this start") != std::string::npos);
  const auto moving =
      sg::test::run_softgrad("validate " + xml + " --set model.tree.bodies.0.joints.0.qvel=0.5");
  INFO(moving.output);
  CHECK(moving.exit_code == 0);
  CHECK(moving.output.find(": ok (tolerance 1e-06)") != std::string::npos);
  CHECK(moving.output.find("stays at rest") == std::string::npos);
}
