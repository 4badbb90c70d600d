// Many-parameter derivatives (engine/gradient/parameter_gradient): forward-mode lanes against the sweep's
// single-lane runs (the same arithmetic: agreement to 1e-12) and against central finite differences at
// tight tolerance; paths that cannot be differentiated are refused with the reason.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"
#include "scene_helpers.hpp"

using namespace sg;
using sg::test::shipped;

namespace {

double relative(double a, double b) {
  const double scale = std::max(std::fabs(a), std::fabs(b));
  return scale > 0.0 ? std::fabs(a - b) / scale : 0.0;
}

// Puts the sweep parameter at lane `lane` of chunk `chunk` among other parameters and compares its derivative
// with the sweep's Dual<1> run at the scene's value.
void expect_matches_sweep(const Problem& p, int position) {
  std::vector<std::string> paths = all_gradient_paths(p, true);
  paths.erase(std::find(paths.begin(), paths.end(), p.sweep.parameter));
  paths.resize(std::min<std::size_t>(paths.size(), 7));
  paths.insert(paths.begin() + position, p.sweep.parameter);
  ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x);
  REQUIRE(fwd.status == "ok");
  CHECK(fwd.runs == static_cast<long>((paths.size() + 3) / 4));
  PointEvaluator single(p);
  const LossSample s = single.loss_and_grad(x[static_cast<std::size_t>(position)]);
  CHECK(relative(fwd.loss, s.loss) < 1e-12);
  CHECK(relative(fwd.grad[static_cast<std::size_t>(position)], s.grad) < 1e-12);
}

}  // namespace

TEST_CASE("forward-mode lanes give the sweep's derivative in any lane of any chunk") {
  for (const char* name : {"toy_point_mass.json", "toss_box_diffmjx.json"}) {
    CAPTURE(name);
    const Problem p = shipped(name);
    for (int position : {0, 3, 5}) {
      CAPTURE(position);
      expect_matches_sweep(p, position);
    }
  }
}

TEST_CASE("forward mode agrees with central differences on every parameter of a smooth scene") {
  // The toy's penalty contact, started inside the contact region, under Tsit5 1e-12 with contact events: the
  // loss is then a smooth function of every parameter (fixed steps are not: a stage crossing the force's
  // jump makes the fixed-step loss jump, the toys' gradient oscillation). Central differences with step
  // 1e-5 |x| carry about 1e-12 / 1e-5 of solver noise and 1e-10 of truncation: measured within 4e-7 of
  // forward mode; the test allows 1e-5 relative (absolute below 1).
  const Problem p =
      shipped("toy_point_mass.json", {"integrator.type=tsit5", "integrator.rtol=1e-12",
                                      "integrator.atol=1e-12", "model.particles.0.pos=[0,0,0.5]"});
  const std::vector<std::string> paths = all_gradient_paths(p, true);
  REQUIRE(paths.size() >= 8);
  ParameterGradient g(p, paths, nullptr);
  const std::vector<double> x = g.initial_values();
  const ObjectiveGradient fwd = g.forward(x);
  const ObjectiveGradient fd = g.finite_difference(x, 1e-5);
  REQUIRE(fwd.status == "ok");
  REQUIRE(fd.status == "ok");
  int nonzero = 0;
  for (std::size_t j = 0; j < paths.size(); ++j) {
    CAPTURE(paths[j]);
    CAPTURE(fwd.grad[j]);
    CAPTURE(fd.grad[j]);
    CHECK(std::fabs(fwd.grad[j] - fd.grad[j]) <= 1e-5 * std::max(1.0, std::fabs(fd.grad[j])));
    nonzero += fwd.grad[j] != 0.0;
  }
  CHECK(nonzero >= 3);  // the comparison is not all zeros
}

TEST_CASE("paths that are not differentiable numbers are refused with the reason") {
  const Problem p = shipped("toss_box_diffmjx.json");
  auto message = [&](const std::vector<std::string>& paths) {
    try {
      ParameterGradient g(p, paths, nullptr);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message({"model.bodies.0.frction.0"}).find("nearest: model.bodies.0.friction.0") !=
        std::string::npos);
  CHECK(message({"integrator.rtol"}).find("not a differentiable number") != std::string::npos);
  CHECK(message({"model.bodies.0.vel.2", "model.bodies.0.vel.2"}).find("given twice") != std::string::npos);
  CHECK(message({"model.bodies.0.mass"}).find("comes from the shape and the density") != std::string::npos);
  CHECK(message({}).find("no parameter") != std::string::npos);
  CHECK(message({"model.bodies.0.vel.2"}) == "accepted");
  // `all` leaves out the derived mass.
  const std::vector<std::string> all = all_gradient_paths(p, true);
  CHECK(std::find(all.begin(), all.end(), "model.bodies.0.mass") == all.end());
  CHECK(std::find(all.begin(), all.end(), "model.bodies.0.density") != all.end());
}
