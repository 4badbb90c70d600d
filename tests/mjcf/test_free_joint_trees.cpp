// Models with free joints only that softgrad's free bodies cannot hold (a body with several geoms, a body
// welded to another, static geoms other than one flat floor, free-joint damping, a mocap body) import as a
// joint tree of free joints, and step as mj_step does, contacts included.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/import.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

const std::string kFloor = R"(<geom name="floor" type="plane" size="2 2 0.1"/>)";

struct Model {
  const char* name;
  std::string xml;
  int min_contacts;  // what MuJoCo finds at most in one step, at least (the comparison covers contact)
};

std::vector<Model> models() {
  using sg::test::mjcf_model;
  return {
      {"dumbbell_on_floor",  // one body, three geoms, tumbling onto the floor
       mjcf_model(kFloor + R"(<body name="dumbbell" pos="0 0 0.3" euler="20 10 0"><freejoint/>
                   <geom type="sphere" size="0.05" pos="-0.15 0 0"/><geom type="sphere" size="0.05" pos="0.15 0 0"/>
                   <geom type="capsule" size="0.015" fromto="-0.15 0 0 0.15 0 0"/></body>)"),
       2},
      {"welded_child",  // a box carrying a welded sphere, landing on its edge
       mjcf_model(kFloor + R"(<body name="base" pos="0 0 0.3" euler="0 30 0"><freejoint/>
                   <geom type="box" size="0.05 0.05 0.05"/>
                   <body name="knob" pos="0 0 0.08"><geom type="sphere" size="0.03"/></body></body>)"),
       2},
      {"ball_on_cushion",  // a static box in the world, the ball dropped on its edge
       mjcf_model(kFloor + R"(<geom name="cushion" type="box" size="0.5 0.05 0.05" pos="0 0 0.05"/>
                   <body name="ball" pos="0 0.04 0.4"><joint type="free" damping="0.001"/>
                   <geom type="sphere" size="0.04"/></body>)"),
       1},
      {"ball_on_slope",  // a tilted plane: the ball lands and rolls down
       mjcf_model(R"(<geom name="slope" type="plane" size="2 2 0.1" euler="15 0 0"/>
                   <body name="ball" pos="0 0 0.2"><freejoint/><geom type="sphere" size="0.05"/></body>)"),
       1},
  };
}

}  // namespace

TEST_CASE("free-joint models beyond the free bodies' import are trees of free joints that follow mj_step") {
  // 300 Euler steps of 2 ms through landing and rolling. Tolerance 1e-9 in positions and 1e-7 in velocities
  // (the contact stiffness turns a round-off difference in a millimetre's penetration into a larger qvel one,
  // as for the humanoid: tests/mjcf/test_floating_base.cpp).
  for (const Model& model : models()) {
    CAPTURE(model.name);
    const std::string file = sg::test::write_mjcf(model.name, model.xml);
    const nlohmann::json keys = sg::test::imported(model.name, model.xml);
    CHECK(keys["model"]["type"] == "tree");
    // The model file is the scene (engine/scene/load.cpp).
    const sg::Problem p = sg::test::load_scene(file, {"integrator.dt=0.002"});
    const auto c = sg::mjcf::compare_tree_with_mj_step(p.data.tree, file, 300, 0.002, false);
    MESSAGE(std::string(model.name) << ": max |dqpos| " << c.qpos << ", |dqvel| " << c.qvel << ", |dxpos| "
                                    << c.xpos << ", up to " << c.max_contacts << " contacts");
    CHECK(c.max_contacts >= model.min_contacts);
    CHECK(c.qpos < 1e-9);
    CHECK(c.xpos < 1e-9);
    CHECK(c.qvel < 1e-7);
  }
}

TEST_CASE("DiffMJX's billiard table as published imports: static cushions, joint damping, a mocap target") {
  const std::string xml =
      sg::test::mjcf_model(R"(
    <geom name="table" type="plane" size="1.2 0.6 0.02" pos="0 0 -0.015" contype="1" conaffinity="2"/>
    <geom name="cushion1" type="box" size="1.25 0.05 0.05" pos="0 0.65 0.025"/>
    <geom name="cushion2" type="box" size="1.25 0.05 0.05" pos="0 -0.65 0.025"/>
    <body name="cue_ball" pos="-0.375 0 0.1">
      <joint type="free" damping="0.0001"/>
      <geom name="cue_geom" type="sphere" size="0.042" mass="0.17" contype="7" friction="0.2 0.01 0.01"/>
    </body>
    <body name="mocap_target" mocap="true">
      <geom type="sphere" size="0.025" contype="0" conaffinity="0"/>
    </body>)",
                           R"(<custom><numeric data="15" name="max_contact_points"/></custom>)");
  const nlohmann::json keys = sg::test::imported("billiard_full", xml);
  CHECK(keys["model"]["type"] == "tree");
  const std::string file = sg::test::mjcf_test_path("billiard_full");
  const sg::Problem p = sg::test::load_scene(file);
  const auto c = sg::mjcf::compare_tree_with_mj_step(p.data.tree, file, 300, p.integrator.dt, false);
  CHECK(c.max_contacts >= 1);  // the ball settles on the table
  CHECK(c.qpos < 1e-9);
  CHECK(c.qvel < 1e-7);
}
