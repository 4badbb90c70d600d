// Contacts over joints: tree geoms against the world and each other, stepped by softgrad next to MuJoCo
// 2.2.2's mj_step on the same MJCF file (the constraint stage's rows and Newton solve, then mj_Euler), the
// import of geoms and contact options, and the gradient through contact against finite differences.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/sweep/sweep.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/import.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

using nlohmann::json;

namespace {

sg::Problem load(const std::string& file, const std::vector<std::string>& sets = {}) {
  return sg::test::load_scene(file, sets);
}

sg::mjcf::TreeStepComparison euler_against_mj_step(const sg::Problem& p, const std::string& xml, long steps) {
  return sg::mjcf::compare_tree_with_mj_step(p.data.tree, xml, steps, p.integrator.dt, false);
}

// Every collider the tree's pairs reach: capsule, box (condim 1), sphere and ellipsoid on a two-hinge arm
// with a ball wrist, swinging into the floor and a static wall box; a cart on a rail with a cylinder wheel
// on the floor (priority, its own friction and solref) and a sphere bumper with margin, gap, solmix and its
// own solimp. contype/conaffinity keep the cylinder and the ellipsoid from the other solids (MuJoCo's convex
// collider, MPR, has its own test: test_tree_convex.cpp).
const char* kMixedContacts = R"(<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1" conaffinity="7" friction="0.7 0.005 0.0001"/>
    <geom name="wall" type="box" pos="0.75 0 0.3" size="0.05 0.5 0.3"/>
    <body name="arm" pos="0 0 0.6">
      <joint name="yaw" type="hinge" axis="0 0 1" damping="0.02"/>
      <joint name="pitch" type="hinge" axis="0 1 0" damping="0.02"/>
      <geom name="upper" type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" contype="2" conaffinity="2"/>
      <body name="hand" pos="0.4 0 0">
        <joint name="wrist" type="ball" damping="0.01"/>
        <geom name="palm" type="box" pos="0.08 0 0" size="0.08 0.04 0.03" condim="1"/>
        <geom name="knob" type="ellipsoid" pos="0.2 0 0" size="0.05 0.04 0.03" contype="4" conaffinity="0"/>
        <geom name="thumb" type="sphere" pos="0.1 0.06 0" size="0.03"/>
      </body>
    </body>
    <body name="cart" pos="-0.4 0 0.05">
      <joint name="rail" type="slide" axis="1 0 0"/>
      <geom name="wheel" type="cylinder" size="0.08 0.05" contype="4" conaffinity="0" priority="1"
            friction="0.3 0.005 0.0001" solref="0.01 1"/>
      <geom name="crate" type="box" pos="0 0 0.12" size="0.06 0.06 0.06"/>
      <geom name="bumper" type="sphere" pos="0.1 0 0.15" size="0.05" conaffinity="3" margin="0.01"
            gap="0.005" solmix="2" solimp="0.8 0.9 0.002 0.5 2"/>
    </body>
  </worldbody>
</mujoco>
)";

std::string mixed_scene(const std::string& xml) {
  json scene = json::parse(R"({
    "model": {"type": "mjcf", "tree": {"bodies": [
      {"joints": [{"qvel": 2.5}, {"qpos": -0.3, "qvel": 1}]}, {"joints": [{"ball_qvel": [3, -2, 1]}]},
      {"joints": [{"qvel": 1.2}]}]}},
    "integrator": {"steps": 1500},
    "loss": {"terms": [{"body": 1, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.bodies.2.joints.0.qvel", "from": 0, "to": 2, "points": 11}})");
  scene["model"]["file"] = xml;
  return sg::test::write_scene("mixed_contacts", scene);
}

}  // namespace

TEST_CASE("the shipped pendulum_floor follows mj_step's Euler to round-off through its floor strike") {
  // The ball strikes the floor and skids at every start velocity of the sweep: contact rows, their
  // impedance and reference acceleration, the Newton solve and mj_Euler are MuJoCo's, in another order:
  // measured 1.3e-15 (qpos) and 1.9e-14 (qvel) over 750 steps. Tolerance 1e-10 and 1e-9.
  for (const double qvel : {-2.0, 0.0, 1.5}) {
    CAPTURE(qvel);
    const sg::Problem p = load(sg::test::source_path("scenes/pendulum_floor.json"),
                               {"model.tree.bodies.0.joints.0.qvel=" + std::to_string(qvel)});
    const auto c = euler_against_mj_step(p, sg::test::source_path("scenes/mjcf/pendulum_floor.xml"), 750);
    MESSAGE("pendulum_floor at qvel " << qvel << ": max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel
                                      << ", up to " << c.max_contacts << " contacts");
    CHECK(c.max_contacts >= 1);
    CHECK(c.qpos < 1e-10);
    CHECK(c.qvel < 1e-9);
  }
}

TEST_CASE("a tree colliding every supported pair type follows mj_step over 3 s") {
  // Plane against capsule, box, sphere, ellipsoid and cylinder, box-box and sphere-box against the wall,
  // sphere-capsule between the arm and the cart's bumper (margin and gap), mixed parameters: measured 5e-14
  // (qpos) and 9e-13 (qvel) over 1500 steps with up to 4 contacts at once. Tolerance 1e-10 and 1e-9.
  const std::string xml = sg::test::write_mjcf("mixed_contacts", kMixedContacts);
  const sg::Problem p = load(mixed_scene(xml));
  const auto c = euler_against_mj_step(p, xml, 1500);
  MESSAGE("mixed contacts: max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel << ", up to " << c.max_contacts
                                         << " contacts");
  CHECK(c.max_contacts >= 3);
  CHECK(c.qpos < 1e-10);
  CHECK(c.qvel < 1e-9);
}

TEST_CASE("the imported geoms carry MuJoCo's compiled numbers and contact switches to mujoco") {
  const json keys = sg::test::imported("mixed_contacts_keys", kMixedContacts);
  CHECK(keys["contact"]["model"] == "mujoco");
  CHECK(keys["contact"]["mujoco"]["refsafe"] == true);
  const json& world = keys["model"]["tree"]["world_geoms"];
  REQUIRE(world.size() == 2);
  CHECK(world[0]["type"] == "plane");
  CHECK(world[0]["conaffinity"] == 7);
  CHECK(world[1]["type"] == "box");
  const json& arm = keys["model"]["tree"]["bodies"][0]["geoms"];
  REQUIRE(arm.size() == 1);
  // fromto became a centred capsule along the body's x axis: half length 0.2 at x = 0.2.
  CHECK(arm[0]["size"][1].get<double>() == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(arm[0]["pos"][0].get<double>() == doctest::Approx(0.2).epsilon(1e-12));
  const json& cart = keys["model"]["tree"]["bodies"][2]["geoms"];
  REQUIRE(cart.size() == 3);
  CHECK(cart[0]["priority"] == 1);
  CHECK(cart[2]["gap"] == 0.005);
  CHECK(cart[2]["solmix"] == 2.0);
  CHECK(keys["model"]["tree"]["bodies"][1]["geoms"][0]["condim"] == 1);
  // With contacts disabled the geoms stay (they are drawn) and contact.model is none.
  const json off = sg::test::imported("no_contact_flag",
                                      sg::test::mjcf_model(R"(<geom type="plane" size="1 1 0.1"/>
        <body pos="0 0 1"><joint type="hinge"/><geom type="sphere" size="0.1"/></body>)",
                                                           R"(<option><flag contact="disable"/></option>)"));
  CHECK(off["contact"]["model"] == "none");
  CHECK(off["model"]["tree"]["bodies"][0]["geoms"].size() == 1);
}

TEST_CASE("every pair of primitives imports, and a plane on a moving body is refused by MuJoCo itself") {
  const std::string arm = R"(<body name="arm" pos="0 0 1"><joint type="hinge" axis="0 1 0"/>
      <geom name="rod" type="capsule" fromto="0 0 0 0.5 0 0" size="0.02"/>)";
  const auto errors = [&](const char* name, const std::string& world, const std::string& extra = "") {
    return sg::test::import_errors(name, sg::test::mjcf_model(world, extra));
  };
  const std::string wheel = R"(<body name="cart" pos="0 0 1"><joint type="slide" axis="1 0 0"/>
      <geom name="wheel" type="cylinder" size="0.05 0.02"/>)";
  CHECK(errors("cylinder_box", wheel + "</body><geom name=\"block\" type=\"box\" size=\"0.1 0.1 0.1\"/>")
            .empty());  // MPR's pair
  CHECK(errors("capsule_box", arm + "</body><geom name=\"block\" type=\"box\" size=\"0.1 0.1 0.1\"/>")
            .empty());  // capsule-box imports
  CHECK(errors("elliptic", arm + "</body><geom type=\"plane\" size=\"1 1 0.1\"/>",
               R"(<option cone="elliptic"/>)")
            .empty());  // elliptic cones import
  // An excluded body pair is never a pair.
  CHECK(errors("cylinder_box_excluded",
               wheel + "</body><body name=\"block\" pos=\"0.3 0 0.9\"><joint type=\"slide\"/>" +
                   "<geom type=\"box\" size=\"0.1 0.1 0.1\"/></body>",
               R"(<contact><exclude body1="cart" body2="block"/></contact>)")
            .empty());
  CHECK(errors("moving_plane", R"(<body name="arm" pos="0 0 1"><joint type="hinge"/>
      <geom name="tilt" type="plane" size="1 1 0.1"/><geom type="sphere" size="0.1"/></body>
      <geom name="ball" type="sphere" size="0.1" pos="0 0 -1"/>)")
            .find("plane and hfield only allowed in static bodies") != std::string::npos);  // MuJoCo's own
}

namespace {

// A pendulum whose ball swings through a slider's ball; `exclude` adds <exclude> for the two bodies.
std::string crossing_balls(bool exclude) {
  return sg::test::mjcf_model(
      R"(<body name="pendulum" pos="0 0 1"><joint type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.02" contype="2" conaffinity="2"/>
        <geom type="sphere" pos="0 0 -0.5" size="0.08"/></body>
      <body name="slider" pos="0.3 0 0.5"><joint type="slide" axis="1 0 0" damping="0.1"/>
        <geom type="sphere" size="0.08"/></body>)",
      std::string(R"(<option timestep="0.002"/>)") +
          (exclude ? R"(<contact><exclude body1="slider" body2="pendulum"/></contact>)" : ""));
}

std::string crossing_scene(const std::string& name, bool exclude) {
  const std::string xml = sg::test::write_mjcf(name, crossing_balls(exclude));
  json scene = json::parse(R"({"model": {"type": "mjcf", "tree": {"bodies": [{"joints": [{"qpos": -0.8}]},
    {"joints": [{"qvel": -0.5}]}]}}, "integrator": {"steps": 1000}, "loss": {"terms": [{"body": 1, "axis": "x"}]},
    "sweep": {"parameter": "model.tree.bodies.1.joints.0.qvel", "from": -1, "to": 0, "points": 3}})");
  scene["model"]["file"] = xml;
  return sg::test::write_scene(name, scene);
}

}  // namespace

TEST_CASE("an excluded body pair never collides, as in mj_step, and imports as model.tree.excludes") {
  // The pendulum's ball swings through the slider's ball: without <exclude> they collide (contacts in both
  // simulators), with it they pass through each other in both. Measured: round-off (under 1e-13) either
  // way over 1000 steps. Tolerance 1e-10 (qpos) and 1e-9 (qvel).
  for (const bool exclude : {false, true}) {
    CAPTURE(exclude);
    const std::string name = exclude ? "crossing_excluded" : "crossing";
    const sg::Problem p = load(crossing_scene(name, exclude));
    CHECK(p.data.tree.con.nexclude == (exclude ? 1 : 0));
    const auto c = euler_against_mj_step(p, sg::test::mjcf_test_path(name), 1000);
    MESSAGE("crossing balls, exclude " << exclude << ": max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel
                                       << ", up to " << c.max_contacts << " contacts");
    CHECK(c.max_contacts == (exclude ? 0 : 1));
    CHECK(c.qpos < 1e-10);
    CHECK(c.qvel < 1e-9);
    // Forward mode runs the tree converted to dual numbers: the exclude comes along, so the loss is the
    // double run's (it once did not, and the balls collided in the derivative's run only). Tolerance 1e-12.
    sg::ParameterGradient g(p, {p.sweep.parameter}, nullptr);
    const std::vector<double> x = g.initial_values();
    const sg::ObjectiveGradient fwd = g.forward(x);
    REQUIRE(fwd.status == "ok");
    CHECK(fwd.loss == doctest::Approx(g.objective(x)).epsilon(1e-12));
  }
  const json keys = sg::test::imported("crossing_keys", crossing_balls(true));
  REQUIRE(keys["model"]["tree"]["excludes"].size() == 1);
  CHECK(keys["model"]["tree"]["excludes"][0]["body1"] == 0);  // the pendulum (MuJoCo's body 1)
  CHECK(keys["model"]["tree"]["excludes"][0]["body2"] == 1);
}

TEST_CASE("model.tree.excludes refuses a body past the last and a body paired with itself") {
  const std::string base = crossing_scene("crossing_bad", false);
  for (const auto& [set, why] : std::vector<std::pair<std::string, std::string>>{
           {"model.tree.excludes=[{\"body1\": 0, \"body2\": 5}]",
            "model.tree.excludes.0: body index 5 is past"},
           {"model.tree.excludes=[{\"body1\": 1, \"body2\": 1}]",
            "model.tree.excludes.0: body1 and body2 are the same"}}) {
    sg::mjcf::register_importer();
    const sg::ProblemLoad loaded = sg::load_problem_file(base, {set});
    INFO(loaded.errors);
    CHECK_FALSE(loaded.ok());
    CHECK(loaded.errors.find(why) != std::string::npos);
  }
}

TEST_CASE("AD through the floor strike matches central finite differences at every point of the sweep") {
  // Euler at a fixed step: the discrete map is piecewise smooth (a contact row turns on where J a = aref),
  // so central FD of the same simulation agrees with AD wherever no row switches within eps: measured
  // 4.8e-9 median and every point under 1e-5 (relative to max(|g|, 0.1)) at eps 1e-6. Tolerance 1e-4 at
  // every point.
  const sg::Problem p = load(sg::test::source_path("scenes/pendulum_floor.json"));
  const sg::SweepResult r = sg::run_sweep(p);
  REQUIRE(r.points.size() == 101);
  double worst = 0.0, lo = 1e300, hi = -1e300;
  for (const sg::PointResult& pt : r.points) {
    CAPTURE(pt.value);
    REQUIRE(pt.status == "ok");
    const double err = std::fabs(pt.grad - pt.grad_fd) / std::max(0.1, std::fabs(pt.grad));
    worst = std::max(worst, err);
    lo = std::min(lo, pt.loss), hi = std::max(hi, pt.loss);
    CHECK(err < 1e-4);
  }
  CHECK(hi - lo > 0.1);
  MESSAGE("pendulum_floor: worst relative AD-FD difference " << worst << "; loss " << lo << " to " << hi);
}

TEST_CASE("reverse mode gives forward mode's gradient w.r.t. contact parameters, and FD agrees") {
  // The floor's friction made different from the ball's, so that the pair's max picks one side. At a start
  // velocity of 0.5 rad/s: the skidding ball's contact turns on and off many times, and a row that turns on
  // one step earlier makes the loss jump (MuJoCo's damping acts at once); at 1 rad/s a central difference
  // of the floor height straddles such a jump (measured: +1e-6 m moves the loss 7e-7, -1e-6 m 4e-4).
  // Measured FD agreement at 0.5 rad/s: 4e-5 at worst (solimp's width, 0.001, perturbed by 1e-9).
  // Tolerance 2e-4.
  const sg::Problem p =
      load(sg::test::source_path("scenes/pendulum_floor.json"),
           {"model.tree.bodies.0.joints.0.qvel=0.5", "model.tree.world_geoms.0.friction=[0.6,0.005,0.0001]",
            "model.tree.bodies.2.geoms.0.friction=[0.9,0.005,0.0001]"});
  const std::vector<std::string> paths = {
      "model.tree.bodies.2.geoms.0.friction.0", "model.tree.world_geoms.0.solref.0",
      "model.tree.world_geoms.0.solimp.2",      "model.tree.bodies.2.geoms.0.size.0",
      "model.tree.bodies.2.geoms.0.pos.0",      "model.tree.bodies.1.joints.0.damping"};
  // Each parameter moves the run (its gradient is nonzero).
  sg::test::check_reverse_and_fd(p, paths, 1e-10, 2e-4);
}

namespace {

double final_loss(const sg::Problem& p) {
  sg::ParameterGradient g(p, {"model.tree.bodies.0.joints.1.qvel"}, nullptr);
  const sg::ObjectiveGradient out = g.forward(g.initial_values());
  REQUIRE(out.status == "ok");
  return out.loss;
}

}  // namespace

TEST_CASE("torsional and rolling friction (condim 4 and 6) follow mj_step over 1.5 s") {
  // The carriage's ball presses into the floor while it slides and spins, the free ball is thrown rolling
  // with a spin about the vertical: condim 4 adds the torsional edge pair (the spin slows), 6 the two rolling
  // pairs (the roll slows). softgrad's Euler against mj_step on the same file; MuJoCo's contacts have 6 and
  // 10 rows each. Measured: qpos 3.5e-15 or less. Tolerance 1e-9; and the rows must act: the spin stops
  // under torsion, the roll slows under rolling friction.
  std::vector<double> final_spin, final_x;
  for (const int condim : {3, 4, 6}) {
    CAPTURE(condim);
    const std::string name = "rolling_" + std::to_string(condim);
    const std::string xml = sg::test::write_mjcf(name, sg::test::rolling_balls(condim));
    json scene = json::parse(R"({
      "model": {"type": "mjcf", "tree": {"bodies": [
        {"joints": [{"qvel": 0.5}, {"qvel": 8}]}, {"joints": [{"free_vel": [-1.0, 0.2, 0], "ball_qvel": [1, -3, 6]}]}]}},
      "integrator": {"steps": 750},
      "loss": {"terms": [{"quantity": "qvel", "joint": "spin", "component": 0}]},
      "sweep": {"parameter": "model.tree.bodies.0.joints.1.qvel", "from": 4, "to": 12, "points": 5}})");
    scene["model"]["file"] = xml;
    const std::string path = sg::test::write_scene(name, scene);
    const sg::Problem p = load(path);
    const auto c = euler_against_mj_step(p, xml, 750);
    MESSAGE("condim " << condim << ": max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel << ", up to "
                      << c.max_contacts << " contacts");
    CHECK(c.max_contacts == 2);
    CHECK(c.qpos < 1e-9);
    CHECK(c.qvel < 1e-7);
    // The carriage's spin rate and the free ball's x at the end (the loss, then the loss set to it).
    final_spin.push_back(final_loss(p));
    final_x.push_back(final_loss(
        load(path, {"loss.terms.0.quantity=position", "loss.terms.0.body=1", "loss.terms.0.axis=x"})));
  }
  MESSAGE("final spin rate: " << final_spin[0] << ", " << final_spin[1] << ", " << final_spin[2]
                              << " rad/s; the free ball's final x: " << final_x[0] << ", " << final_x[1]
                              << ", " << final_x[2] << " m");
  CHECK(final_spin[0] > 7.9);              // condim 3: nothing resists the spin about the normal
  CHECK(std::fabs(final_spin[1]) < 1e-6);  // condim 4: torsional friction stops it
  CHECK(std::fabs(final_spin[2]) < 1e-6);
  CHECK(final_x[2] > final_x[1] + 1e-3);  // condim 6: rolling friction slows the ball rolling towards -x
}

TEST_CASE("AD through torsional and rolling friction matches central FD across a sweep") {
  // The free ball's final x against its throw speed (5 points) with condim 4 and 6, so the gradient passes
  // through the torsional and rolling rows (their Jacobians are the relative rotation's). Forward-mode AD
  // against central FD (eps 1e-6) of the same Euler steps, relative to max(|AD|, 1e-3): measured 2.3e-9 and
  // 1.0e-9 at worst; tolerance 1e-5 at every point.
  struct Case {
    int condim;
    const char* loss;
    const char* parameter;
    double from, to;
    int steps;
  };
  const Case cases[] = {{4, R"({"quantity": "position", "body": 1, "axis": "x"})",
                         "model.tree.bodies.1.joints.0.free_vel.0", -1.5, -0.5, 400},
                        {6, R"({"quantity": "position", "body": 1, "axis": "x"})",
                         "model.tree.bodies.1.joints.0.free_vel.0", -1.5, -0.5, 400}};
  for (const Case& k : cases) {
    CAPTURE(k.condim);
    CAPTURE(std::string(k.parameter));
    const std::string name = "rolling_sweep_" + std::to_string(k.condim);
    const std::string xml = sg::test::write_mjcf(name, sg::test::rolling_balls(k.condim));
    json scene = json::parse(R"({
      "model": {"type": "mjcf", "tree": {"bodies": [
        {"joints": [{"qvel": 0.5}, {"qvel": 8}]}, {"joints": [{"free_vel": [-1.0, 0.2, 0], "ball_qvel": [1, -3, 6]}]}]}},
      "integrator": {}})");
    scene["integrator"]["steps"] = k.steps;
    scene["model"]["file"] = xml;
    scene["loss"]["terms"] = json::array({json::parse(k.loss)});
    scene["sweep"] = {{"parameter", k.parameter}, {"from", k.from}, {"to", k.to}, {"points", 5}};
    const sg::SweepResult r = sg::run_sweep(load(sg::test::write_scene(name, scene)));
    const double worst = sg::test::check_sweep_ad_fd(r, 5, 1e-5, true);
    MESSAGE("condim " << k.condim << ", " << std::string(k.parameter) << ": worst relative AD-FD difference "
                      << worst << ", gradient at the first point " << r.points[0].grad);
  }
}
