// Everything softgrad cannot express, as free bodies or as a joint tree, is an error that names the MJCF
// element (free-joint models the free bodies cannot hold import as trees: test_free_joint_trees.cpp).
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

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

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
      {"friction loss",
       mjcf_model(arm + ball,
                  "<tendon>" +
                      repeated(R"(<fixed frictionloss="0.1"><joint joint="hinge1" coef="1"/></fixed>)", 17) +
                      "</tendon>"),
       {"17 friction-loss rows (dofs and tendons with frictionloss); a tree scene holds at most 16"}},
      {"actuator",
       mjcf_model(arm + ball,
                  R"(<actuator><general name="drive" joint="hinge1" dyntype="user"/></actuator>)"),
       {"actuator 'drive': user actuator dynamics are not supported (none, integrator, filter, muscle)"}},
      {"equality",
       mjcf_model(ball + R"(<body name="b2" pos="1 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>)",
                  "<equality>" + repeated(R"(<weld body1="ball" body2="b2"/>)", 17) + "</equality>"),
       {"17 equality constraints; a tree scene holds at most 16"}},
      {"implicit",
       mjcf_model(ball, R"(<option integrator="implicit"/>)"),
       {"option integrator \"implicit\" is not supported"}},
      {"fluid_ellipsoid",
       mjcf_model(R"(<body name="fish" pos="0 0 1"><freejoint/>
                       <geom name="fin" type="ellipsoid" size="0.1 0.05 0.01" fluidshape="ellipsoid"/></body>)",
                  R"(<option density="1000"/>)"),
       {"geom 'fin': fluidshape \"ellipsoid\" (MuJoCo's ellipsoid fluid model) is not supported"}},
      {"noslip",
       mjcf_model(ball, R"(<option noslip_iterations="3"/>)"),
       {"option noslip_iterations: the noslip solver is not supported"}},
      {"override",
       mjcf_model(ball, R"(<option><flag override="enable"/></option>)"),
       {"option flag override"}},
      // MPR's settings other than MuJoCo's defaults, for free bodies and for a tree; multiccd's extra
      // contacts.
      {"mpr_free",
       mjcf_model(ball, R"(<option mpr_tolerance="1e-8"/>)"),
       {"option mpr_tolerance and mpr_iterations: softgrad's convex collider"}},
      {"mpr_tree",
       mjcf_model(arm, R"(<option mpr_iterations="20"/>)"),
       {"option mpr_tolerance and mpr_iterations: softgrad's convex collider"}},
      {"multiccd",
       mjcf_model(arm, R"(<option><flag multiccd="enable"/></option>)"),
       {"option flag multiccd: not supported"}},
      {"no_body",
       mjcf_model(R"(<geom name="floor" type="plane" size="1 1 0.1"/>)"),
       {"the model has no free body"}},
      {"too_many_dofs",  // eleven free balls: 66 dofs
       mjcf_model([] {
         std::string balls;
         for (int i = 0; i < 11; ++i)
           balls += "<body pos=\"" + std::to_string(i) +
                    " 0 1\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>";
         return balls;
       }()),
       {"66 degrees of freedom; a tree scene holds at most 64"}},
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
