// Hard contact on an MJCF joint tree (contact.model "hard" with Moreau's steps,
// engine/articulated/hard_contact.hpp): the finger pushes its box with the analytic-smoothing paper's
// impulses instead of MuJoCo's soft rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "tests/gradient_agreement.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

// The finger push at the file's 5 ms with Moreau steps and hard contact of stiffness `kappa`.
sg::Problem finger_hard(const std::string& kappa, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"contact.model=hard", "integrator.type=moreau",
                                   "contact.cfd.enabled=false", "contact.hard.kappa=" + kappa};
  sets.insert(sets.end(), more.begin(), more.end());
  return sg::test::load_scene(sg::test::source_path("scenes/finger_push.json"), sets);
}

// The box's final height as the loss (body 2: the box, after the two links).
const char* kBoxHeight =
    R"(loss.terms=[{"quantity": "position", "body": 2, "axis": "z", "kind": "value", "target": 0}])";

}  // namespace

TEST_CASE("hard contact on an MJCF tree: the box stands on the floor and is pushed") {
  // Hard (kappa inf) impulses keep the 10 cm box on the floor: its centre ends within 1 mm of 5 cm above it
  // (the midpoint scheme's detection lag is one half step of motion), where without contact it would fall
  // through. And the pushed box moves: the shoulder's target of 1.2 rad gives another loss than 0.3 rad,
  // which stops short of the box.
  for (const char* ctrl : {"model.tree.actuators.0.ctrl=0.3", "model.tree.actuators.0.ctrl=1.2"}) {
    CAPTURE(ctrl);
    const sg::Problem p = finger_hard("inf", {kBoxHeight, ctrl});
    sg::ParameterGradient g(p, {"model.tree.actuators.0.ctrl"}, nullptr);
    const sg::ObjectiveGradient r = g.forward(g.initial_values());
    REQUIRE(r.status == "ok");
    MESSAGE(std::string(ctrl) << ": the box's final height " << r.loss);
    CHECK(std::fabs(r.loss - 0.05) < 1e-3);
  }
  const sg::Problem short_of = finger_hard("inf", {"model.tree.actuators.0.ctrl=0.3"});
  const sg::Problem pushes = finger_hard("inf", {"model.tree.actuators.0.ctrl=1.2"});
  sg::ParameterGradient a(short_of, {"model.tree.actuators.0.ctrl"}, nullptr),
      b(pushes, {"model.tree.actuators.0.ctrl"}, nullptr);
  const sg::ObjectiveGradient ra = a.forward(a.initial_values()), rb = b.forward(b.initial_values());
  REQUIRE(ra.status == "ok");
  REQUIRE(rb.status == "ok");
  CHECK(std::fabs(ra.loss - rb.loss) > 1e-3);
}

TEST_CASE("hard contact on an MJCF tree: smoothed, AD equals central FD and reverse equals forward") {
  // kappa 300 makes the impulses a smooth function of the state: central FD (eps 1e-6) at three shoulder
  // targets that push the box, tolerance 1e-5 relative; reverse mode against forward mode 1e-10.
  const sg::Problem p = finger_hard("300");
  sg::ParameterGradient g(p, {"model.tree.actuators.0.ctrl", "model.tree.actuators.1.ctrl"}, nullptr);
  for (const double ctrl : {0.8, 1.0, 1.3}) {
    CAPTURE(ctrl);
    std::vector<double> x = g.initial_values();
    x[0] = ctrl;
    sg::test::check_forward_reverse_fd(g, x, 1e-6, 1e-5, "shoulder");
  }
}
