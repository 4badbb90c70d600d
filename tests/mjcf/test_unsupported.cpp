// Everything softgrad's rigid model cannot express is an error that names the MJCF element.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/mjcf/mjcf_test_util.hpp"

using sg::test::import_errors;
using sg::test::mjcf_model;

namespace {

const char* const kBall =
    R"(<body name="ball" pos="0 0 1"><freejoint/><geom name="ball" type="sphere" size="0.1"/></body>)";
const char* const kArm = R"(<body name="arm" pos="0 0 1"><joint name="hinge1" type="hinge"/>
                              <geom type="capsule" size="0.02 0.1"/></body>)";

struct Case {
  const char* name;
  std::string xml;
  std::vector<std::string> expected;  // substrings of the errors
};

std::vector<Case> cases() {
  const std::string ball = kBall, arm = kArm;
  return {
      // A model with hinge, slide or ball joints imports as a joint tree (a free body next to them is a
      // floating base: tests/mjcf/test_floating_base.cpp); what a tree cannot express is refused.
      {"tendon",
       mjcf_model(
           arm + ball,
           R"(<tendon><fixed name="cable" limited="true" range="0 1"><joint joint="hinge1" coef="1"/></fixed></tendon>)"),
       {"tendon 'cable': tendon limits are not supported"}},
      {"actuator",
       mjcf_model(arm + ball,
                  R"(<actuator><general name="drive" joint="hinge1" dyntype="integrator"/></actuator>)"),
       {"actuator 'drive': actuator dynamics other than a muscle's are not supported"}},
      {"mesh",
       mjcf_model(
           R"(<body name="rock" pos="0 0 1"><freejoint/><geom name="rock" type="mesh" mesh="tet"/></body>)",
           R"(<asset><mesh name="tet" vertex="0 0 0  1 0 0  0 1 0  0 0 1"/></asset>)"),
       {"mesh 'tet': meshes are not supported", "geom 'rock' (mesh) on a free body is not supported"}},
      {"hfield",
       mjcf_model(R"(<geom name="terrain" type="hfield" hfield="hills"/>)" + ball,
                  R"(<asset><hfield name="hills" nrow="2" ncol="2" size="1 1 0.1 0.1"/></asset>)"),
       {"hfield 'hills': height fields are not supported", "geom 'terrain' (hfield) is static"}},
      {"equality",
       mjcf_model(ball + R"(<body name="b2" pos="1 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>)",
                  R"(<equality><weld name="glue" body1="ball" body2="b2"/></equality>)"),
       {"equality 'glue': equality constraints are not supported"}},
      {"sensor",
       mjcf_model(ball, R"(<sensor><framepos name="where" objtype="body" objname="ball"/></sensor>)"),
       {"sensor 'where': sensors are not supported"}},
      {"keyframe",
       mjcf_model(ball, R"(<keyframe><key name="start" qpos="0 0 2 1 0 0 0"/></keyframe>)"),
       {"keyframe 'start': keyframes are not supported", "model.bodies.N.pos"}},
      {"pair_exclude",
       mjcf_model(
           ball +
               R"(<body name="b2" pos="1 0 1"><freejoint/><geom name="g2" type="sphere" size="0.1"/></body>)",
           R"(<contact><pair name="touch" geom1="ball" geom2="g2"/><exclude name="apart" body1="ball" body2="b2"/></contact>)"),
       {"contact pair 'touch'", "contact exclude 'apart'"}},
      {"nested",
       mjcf_model(R"(<body name="parent" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/>
                      <body name="child" pos="0.2 0 0"><geom type="sphere" size="0.05"/></body></body>)"),
       {"body 'child' is nested in body 'parent'"}},
      {"two_geoms",
       mjcf_model(
           R"(<body name="dumbbell" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1" pos="-0.2 0 0"/>
                      <geom type="sphere" size="0.1" pos="0.2 0 0"/></body>)"),
       {"body 'dumbbell' has 2 geoms: a softgrad body carries exactly one geom"}},
      {"no_geom",
       mjcf_model(R"(<body name="ghost" pos="0 0 1"><freejoint/><inertial pos="0 0 0" mass="1"
                                  diaginertia="1 1 1"/></body>)"),
       {"body 'ghost' has 0 geoms"}},
      {"static_box",
       mjcf_model(R"(<geom name="cushion" type="box" size="1 0.05 0.05"/>)" + ball),
       {"geom 'cushion' (box) is static (fixed to the world): softgrad's only static geom is the ground "
        "plane"}},
      {"static_body",
       mjcf_model(R"(<body name="shelf"><geom name="board" type="box" size="1 1 0.01"/></body>)" + ball),
       {"geom 'board' (box) is static"}},
      {"tilted_plane",
       mjcf_model(R"(<geom name="slope" type="plane" size="1 1 0.1" euler="10 0 0"/>)" + ball),
       {"geom 'slope' (plane) is tilted"}},
      {"two_planes",
       mjcf_model(R"(<geom name="floor" type="plane" size="1 1 0.1"/><geom name="ceiling" type="plane"
                      size="1 1 0.1" pos="0 0 3"/>)" +
                  ball),
       {"geom 'ceiling' (plane) is a second plane"}},
      {"condim",
       mjcf_model(R"(<body name="top" pos="0 0 1"><freejoint/><geom name="top" type="sphere" size="0.1"
                                 condim="6"/></body>)"),
       {"geom 'top' (sphere): condim 6 is not supported (1 or 3)"}},
      {"gap",
       mjcf_model(R"(<body pos="0 0 1"><freejoint/><geom name="g" type="sphere" size="0.1" margin="0.1"
                              gap="0.05"/></body>)"),
       {"geom 'g' (sphere): gap is not supported"}},
      {"priority",
       mjcf_model(R"(<geom name="floor" type="plane" size="1 1 0.1"/><body pos="0 0 1"><freejoint/>
                      <geom name="vip" type="sphere" size="0.1" priority="1"/></body>)"),
       {"geom 'vip': priority 1 differs from geom 'floor'"}},
      {"solmix",
       mjcf_model(R"(<geom name="floor" type="plane" size="1 1 0.1"/><body pos="0 0 1"><freejoint/>
                      <geom name="mixer" type="sphere" size="0.1" solmix="2"/></body>)"),
       {"geom 'mixer': solmix 2 differs from geom 'floor'"}},
      {"damping",
       mjcf_model(R"(<body name="cue" pos="0 0 1"><joint name="free_cue" type="free" damping="0.0001"/>
                      <geom type="sphere" size="0.1"/></body>)"),
       {"joint 'free_cue' (free) on body 'cue': damping 0.0001 is not supported"}},
      {"armature",
       mjcf_model(R"(<body name="heavy" pos="0 0 1"><joint name="j" type="free" armature="0.1"/>
                      <geom type="sphere" size="0.1"/></body>)"),
       {"joint 'j' (free) on body 'heavy': armature and frictionloss are not supported"}},
      {"stiffness",
       mjcf_model(R"(<body name="spring" pos="0 0 1"><joint name="s" type="free" stiffness="10"/>
                      <geom type="sphere" size="0.1"/></body>)"),
       {"joint 's' (free) on body 'spring': joint stiffness is not supported"}},
      {"mocap",
       mjcf_model(ball + R"(<body name="target" mocap="true"><geom type="sphere" size="0.02" contype="0"
                              conaffinity="0"/></body>)"),
       {"body 'target': mocap bodies are not supported"}},
      {"implicit",
       mjcf_model(ball, R"(<option integrator="implicit"/>)"),
       {"option integrator \"implicit\" is not supported"}},
      {"collision_pair",
       mjcf_model(ball, R"(<option collision="predefined"/>)"),
       {"option collision \"pair\" is not supported"}},
      {"fluid", mjcf_model(ball, R"(<option density="1.2"/>)"), {"option density and viscosity"}},
      {"noslip", mjcf_model(ball, R"(<option noslip_iterations="3"/>)"), {"option noslip_iterations"}},
      {"override",
       mjcf_model(ball, R"(<option><flag override="enable"/></option>)"),
       {"option flag override"}},
      {"plane_mixed",
       mjcf_model(R"(<geom name="floor" type="plane" size="1 1 0.1"/>)" + ball +
                  R"(<body pos="1 0 1"><freejoint/><geom name="floater" type="sphere" size="0.1" contype="2"
                      conaffinity="2"/></body>)"),
       {"geom 'floater' does not collide with geom 'floor' (contype/conaffinity) unlike geom 'ball'"}},
      {"pairs_mixed",
       mjcf_model(ball + R"(<body pos="1 0 1"><freejoint/><geom name="b" type="sphere" size="0.1"/></body>
                      <body pos="2 0 1"><freejoint/><geom name="c" type="sphere" size="0.1" contype="2"
                      conaffinity="2"/></body>)"),
       {"geom 'ball' and geom 'c' do not collide (contype/conaffinity) unlike other body pairs"}},
      {"inertia",
       mjcf_model(
           R"(<body name="odd" pos="0 0 1"><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
                      <geom name="shell" type="sphere" size="0.1"/></body>)"),
       {"body 'odd': its inertia differs from that of geom 'shell' (sphere) with the body's mass 1 kg"}},
      {"centre_of_mass",
       mjcf_model(R"(<body name="lopsided" pos="0 0 1"><freejoint/><inertial pos="0.01 0 0" mass="1"
                      diaginertia="0.004 0.004 0.004"/><geom name="shell" type="sphere" size="0.1"/></body>)"),
       {"body 'lopsided': its centre of mass is 0.01 m from the centre of geom 'shell'"}},
      {"no_free_body",
       mjcf_model(R"(<geom name="floor" type="plane" size="1 1 0.1"/>)"),
       {"the model has no free body"}},
      {"unnamed",
       mjcf_model(R"(<body pos="0 0 1"><freejoint/><geom type="sphere" size="0.1" condim="4"/></body>)"),
       {"geom #0 (sphere): condim 4"}},
  };
}

}  // namespace

TEST_CASE("each unsupported MJCF element is an error naming it") {
  for (const Case& c : cases()) {
    CAPTURE(c.name);
    const std::string errors = import_errors(c.name, c.xml);
    INFO(errors);
    CHECK(!errors.empty());
    // Every message starts with the file.
    CHECK(errors.find(sg::test::mjcf_test_path(c.name) + ": ") == 0);
    for (const auto& e : c.expected) CHECK_MESSAGE(errors.find(e) != std::string::npos, e);
  }
}

TEST_CASE("DiffMJX's billiard table as published: cushions, joint damping and the mocap target are named") {
  const std::string errors = import_errors(
      "billiard_full", mjcf_model(R"(
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
                                  R"(<custom><numeric data="15" name="max_contact_points"/></custom>)"));
  INFO(errors);
  CHECK(errors.find("geom 'cushion1' (box) is static") != std::string::npos);
  CHECK(errors.find("geom 'cushion2' (box) is static") != std::string::npos);
  CHECK(errors.find("on body 'cue_ball': damping 0.0001") != std::string::npos);
  CHECK(errors.find("body 'mocap_target': mocap bodies") != std::string::npos);
  CHECK(errors.find("max_contact_points") == std::string::npos);  // custom numbers are only data
}

TEST_CASE("MuJoCo's loader errors name the file, element and line, with a hint for MuJoCo 3 attributes") {
  // DiffMJX's XMLs are written for MuJoCo 3.3.1: option ls_iterations and flag eulerdamp.
  const std::string newer =
      import_errors("mujoco3", mjcf_model(kBall, R"(<option iterations="4" ls_iterations="10"/>)"));
  INFO(newer);
  CHECK(newer.find(sg::test::mjcf_test_path("mujoco3") + ": ") == 0);
  CHECK(newer.find("unrecognized attribute: 'ls_iterations'; Element 'option', line 2") != std::string::npos);
  CHECK(newer.find("ls_iterations is MuJoCo 3's") != std::string::npos);
  const std::string damp =
      import_errors("eulerdamp", mjcf_model(kBall, R"(<option><flag eulerdamp="disable"/></option>)"));
  CHECK(damp.find("eulerdamp is MuJoCo 3's") != std::string::npos);
  const std::string missing = sg::mjcf::import_mjcf("/nonexistent/missing.xml").errors.at(0);
  CHECK(missing.find("/nonexistent/missing.xml: ") == 0);
}
