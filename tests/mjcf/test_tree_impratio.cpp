// impratio on joint trees (TreeConstraintModel::impratio): MuJoCo's ratio of frictional to normal impedance
// is a number of the model, so an MJCF scene sweeps it and AD differentiates it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/problem.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

TEST_CASE("a tree differentiates impratio: the finger push, AD against central FD across impratio") {
  // The finger pushes the box across the floor: the box slides, and the friction rows' regularisers
  // R_1 = R_0 / impratio set how much it slips, so the loss depends on impratio. The scene's Euler at the
  // file's 5 ms is a discrete map whose contacts do not switch under a small change of impratio, so central
  // FD (eps 1e-6) is smooth: tolerance 1e-5 relative at every one of 9 points over [0.5, 4], the shoulder's
  // target (0.9 rad) pushing the box hard. Without CFD, so that FD and AD differentiate the same model.
  const std::vector<std::string> sets = {"contact.cfd.enabled=false", "model.tree.actuators.0.ctrl=0.9",
                                         "sweep.parameter=contact.mujoco.impratio", "sweep.from=0.5",
                                         "sweep.to=4"};
  const sg::Problem p = sg::test::load_scene(sg::test::source_path("scenes/finger_push.json"), sets);
  sg::ParameterGradient g(p, {"contact.mujoco.impratio"}, nullptr);
  double worst = 0.0, largest = 0.0;
  for (int k = 0; k < 9; ++k) {
    const std::vector<double> x = {0.5 + 3.5 * k / 8.0};
    CAPTURE(x[0]);
    const sg::ObjectiveGradient ad = g.forward(x), fd = g.finite_difference(x, 1e-6);
    REQUIRE(ad.status == "ok");
    REQUIRE(fd.status == "ok");
    MESSAGE("impratio " << x[0] << ": loss " << ad.loss << ", AD " << ad.grad[0] << ", FD " << fd.grad[0]);
    worst = std::max(worst, std::fabs(ad.grad[0] - fd.grad[0]) / std::max(std::fabs(fd.grad[0]), 1e-8));
    largest = std::max(largest, std::fabs(fd.grad[0]));
  }
  MESSAGE("finger push, d loss / d impratio: AD against FD " << worst << " relative at worst; largest |FD| "
                                                             << largest);
  CHECK(largest > 1e-6);  // impratio matters here: the comparison is not of two zeros
  CHECK(worst < 1e-5);
}

TEST_CASE("a tree scene lists contact.mujoco.impratio among its differentiable paths") {
  const sg::Problem p = sg::test::load_scene(sg::test::source_path("scenes/finger_push.json"));
  const std::vector<std::string> params = sg::differentiable_parameters(p);
  CHECK(std::find(params.begin(), params.end(), "contact.mujoco.impratio") != params.end());
}
