// A tree at softgrad's capacity (engine/articulated: 63 bodies besides the world, 64 dofs): a free torso with
// four fourteen-link legs, a two-hinge neck and a head, 59 joints, 58 motors and 66 geoms, about the size of
// the DeepMind Control Suite's CMU humanoid (31 bodies, 57 joints, 56 motors). It falls onto the floor driven
// by motors past the 32nd, stepped next to MuJoCo 2.2.2's mj_step on the same file, and differentiated.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

constexpr int kLegs = 4, kLinks = 14;

// One leg: a chain of kLinks capsules, each on a hinge (axes alternating), ending in a welded foot ball.
// Every other link collides, so that the floor holds up to about 40 contacts.
std::string leg(int l) {
  const char* dirs[kLegs] = {"0.05 0 -0.01", "-0.05 0 -0.01", "0 0.05 -0.01", "0 -0.05 -0.01"};
  std::string xml, close;
  for (int k = 0; k < kLinks; ++k) {
    const std::string name = "l" + std::to_string(l) + "_" + std::to_string(k);
    const char* axis = (k % 2 == 0) ? "0 1 0" : "1 0 0";
    const char* collide = (k % 2 == 1) ? "" : R"( contype="0" conaffinity="0")";
    xml += "<body name=\"" + name + "\" pos=\"" + (k == 0 ? std::string("0 0 0") : dirs[l]) + "\">";
    xml += "<joint name=\"" + name + "\" axis=\"" + axis + "\" range=\"-40 40\" limited=\"true\"/>";
    xml += "<geom type=\"capsule\" size=\"0.015\" fromto=\"0 0 0 " + std::string(dirs[l]) + "\"" + collide +
           "/>";
    close += "</body>";
  }
  xml += "<body name=\"foot" + std::to_string(l) + "\" pos=\"" + dirs[l] + "\"><geom size=\"0.02\"/></body>";
  return xml + close;
}

std::string big_tree_xml() {
  std::string xml = R"(<mujoco><option timestep="0.002"/>
  <default><joint damping="0.02" armature="0.002"/><motor ctrlrange="-1 1" ctrllimited="true" gear="0.2"/></default>
  <worldbody><geom name="floor" type="plane" size="3 3 0.1"/>
    <body name="torso" pos="0 0 0.45" euler="5 3 0"><freejoint/>
      <geom type="box" size="0.08 0.08 0.03"/><geom type="sphere" pos="0 0 0.04" size="0.04"/>
      <geom type="capsule" fromto="-0.06 0 -0.03 0.06 0 -0.03" size="0.02"/>)";
  for (int l = 0; l < kLegs; ++l) xml += leg(l);
  xml += R"(<body name="neck" pos="0 0 0.06"><joint name="nod" axis="0 1 0"/><joint name="turn" axis="0 0 1"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.06" size="0.015"/>
        <body name="head" pos="0 0 0.08"><geom size="0.03"/></body></body>
    </body></worldbody><actuator>)";
  for (int l = 0; l < kLegs; ++l)
    for (int k = 0; k < kLinks; ++k) {
      const std::string name = "l" + std::to_string(l) + "_" + std::to_string(k);
      xml += "<motor joint=\"" + name + "\"/>";
    }
  return xml + R"(<motor joint="nod"/><motor joint="turn"/></actuator></mujoco>)";
}

// Motors past the 32nd (the old capacity) drive the last two legs and the neck.
const std::vector<std::string> kControls = {
    "model.tree.actuators.30.ctrl=0.8", "model.tree.actuators.45.ctrl=-0.7", "model.tree.actuators.55.ctrl=1",
    "model.tree.actuators.57.ctrl=0.9"};

}  // namespace

TEST_CASE(
    "a tree at capacity (63 bodies, 59 joints, 64 dofs, 58 motors, 66 geoms) follows mj_step (tol 1e-9)") {
  const std::string xml = big_tree_xml();
  const nlohmann::json keys = sg::test::imported("large_tree", xml);
  CHECK(keys["model"]["tree"]["bodies"].size() == sg::kMaxTreeBodies - 1);
  CHECK(keys["model"]["tree"]["actuators"].size() == 58);
  const std::string file = sg::test::write_mjcf("large_tree", xml);
  const sg::Problem p = sg::test::load_scene(file, kControls);
  CHECK(p.data.tree.tree.nv == 64);
  CHECK(p.data.tree.tree.njnt == 59);
  CHECK(p.data.tree.con.ngeom == 66);
  CHECK(p.data.tree.con.ngeom > 64);  // more than the geoms a tree held before
  const sg::mjcf::TreeStepComparison c =
      sg::test::check_follows_mj_step("capacity tree", p, file, 400, 0.002, 0.5);
  CHECK(c.max_contacts >= 8);
}

TEST_CASE("a tree at capacity differentiates: forward = reverse = FD w.r.t. motors past the 32nd") {
  // The last leg's foot (body 60) and the head (body 62): the motors past the old capacity move them (each
  // gradient above 1e-4, so those motors act in the run that follows mj_step above).
  const std::string file = sg::test::write_mjcf("large_tree_grad", big_tree_xml());
  const sg::Problem p =
      sg::test::load_scene(file, sg::test::with_sets(kControls, {"integrator.steps=150", R"(loss.terms=[
          {"quantity": "position", "body": 60, "axis": "x"}, {"quantity": "position", "body": 62, "axis": "y"}])"}));
  sg::test::check_reverse_and_fd(p, {"model.tree.actuators.45.ctrl", "model.tree.actuators.57.ctrl"}, 1e-9,
                                 1e-4);
}

TEST_CASE("a tree at capacity: AD matches central FD across a sweep of a motor past the 32nd") {
  // The head's x against the neck's nodding motor (actuator 56), 7 points over [-0.9, 0.9] (inside its
  // ctrlrange: the clamp is a kink), 150 Euler steps through the landing: every point within 1e-4 of FD
  // (measured 2.4e-9 at worst).
  const std::string file = sg::test::write_mjcf("large_tree_sweep", big_tree_xml());
  const sg::Problem p = sg::test::load_scene(
      file,
      sg::test::with_sets(kControls, {"integrator.steps=150",
                                      R"(loss.terms=[{"quantity": "position", "body": 62, "axis": "x"}])",
                                      "sweep.parameter=model.tree.actuators.56.ctrl", "sweep.from=-0.9",
                                      "sweep.to=0.9", "sweep.points=7"}));
  const double worst = sg::test::check_sweep_ad_fd(sg::run_sweep(p), 7, 1e-4, true);
  MESSAGE("capacity tree sweep: worst relative AD-FD " << worst);
}
