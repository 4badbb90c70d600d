// Control sequences (the scene's control section: knots per actuator over the run's output steps) and
// joint quantities in the loss (qpos, qvel of a named joint), on the crane imported from MJCF: against
// mj_step with the same per-step controls, against finite differences, and bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/model/tree_controls.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/scene/scene.hpp"
#include "engine/simulate/run.hpp"
#include "mjcf/compare_tree_steps.hpp"
#include "mjcf/import.hpp"
#include "tests/mjcf/mjcf_test_util.hpp"

namespace {

sg::ProblemLoad try_load(const std::vector<std::string>& sets) {
  sg::mjcf::register_importer();
  return sg::load_problem_file(sg::test::source_path("scenes/crane.json"), sets);
}

sg::Problem load(const std::vector<std::string>& sets) {
  sg::ProblemLoad loaded = try_load(sets);
  INFO(loaded.errors);
  REQUIRE(loaded.ok());
  return *loaded.problem;
}

double loss_of(const sg::Problem& p) {
  sg::SimWorkspace<double> ws;
  sg::NullObserver obs;
  const sg::RunOutput<double> out = sg::run_simulation(p.data, p.integrator, ws, obs);
  REQUIRE(out.stats.status == sg::Status::ok);
  return out.loss;
}

const std::vector<std::string> kKnots = {R"(control.actuators=[{"knots": [0.5, -0.5, 0.8, 0]},
                                                               {"knots": [0.3, -0.2]}])"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("control_at holds K spans of output steps, or interpolates knots at the steps' start times") {
  sg::TreeControls<double> c;
  c.steps = 10;
  c.count[0] = 3;
  c.total = 3;
  c.knot[0] = 1, c.knot[1] = 2, c.knot[2] = 4;
  const double constant[] = {1, 1, 1, 1, 2, 2, 2, 4, 4, 4};  // floor(3 i / 10)
  for (long i = 0; i < 10; ++i) CHECK(sg::control_at(c, 0, i) == constant[i]);
  CHECK(sg::control_at(c, 0, 12) == 4);  // past the end: the last knot
  CHECK(sg::controls_change_at(c, 4));
  CHECK_FALSE(sg::controls_change_at(c, 5));
  c.interpolation = sg::ControlInterpolation::linear;
  c.steps = 4;  // knots at t = 0, T/2, T; steps start at 0, T/4, T/2, 3T/4
  const double linear[] = {1, 1.5, 2, 3};
  for (long i = 0; i < 4; ++i) CHECK(sg::control_at(c, 0, i) == linear[i]);
  CHECK(sg::controls_change_at(c, 1));
}

TEST_CASE("knots that repeat the constant control give its run bit for bit") {
  const sg::Problem constant = load({"model.tree.actuators.0.ctrl=0.3"});
  const sg::Problem knots = load({R"(control.actuators=[{"knots": [0.3, 0.3, 0.3]}])"});
  CHECK(loss_of(knots) == loss_of(constant));
  const sg::Problem linear =
      load({"control.interpolation=linear", R"(control.actuators=[{"knots": [0.3, 0.3]}])"});
  CHECK(loss_of(linear) == loss_of(constant));
}

TEST_CASE("a control sequence follows mj_step with the same control in each step") {
  // RK4 at the crane's 5 ms, both interpolations, both actuators sequenced: measured 2e-16 in qpos over 400
  // steps. Tolerance 1e-12.
  for (const char* interpolation : {"constant", "linear"}) {
    CAPTURE(interpolation);
    const sg::Problem p = load(with(kKnots, {std::string("control.interpolation=") + interpolation}));
    const auto c = sg::mjcf::compare_tree_with_mj_step(
        p.data.tree, sg::test::source_path("scenes/mjcf/crane.xml"), 400, p.integrator.dt, true);
    CHECK(c.qpos < 1e-12);
    CHECK(c.qvel < 1e-12);
  }
}

TEST_CASE("the gradient w.r.t. every knot: forward, reverse and backsolve agree, and so does FD") {
  // Tsit5 at 1e-9 (the solver ends a step wherever a control changes; the knots inside ctrlrange, whose
  // clamp would make FD straddle a kink at 1): reverse equals
  // forward to round-off (tolerance 1e-9 relative; measured 4e-14), backsolve to 1e-6 (measured 1e-9) and
  // central FD to 1e-6 (measured 5e-8).
  for (const char* interpolation : {"constant", "linear"}) {
    CAPTURE(interpolation);
    const sg::Problem p =
        load(with(kKnots, {std::string("control.interpolation=") + interpolation, "integrator.type=tsit5",
                           "integrator.rtol=1e-9", "integrator.atol=1e-9"}));
    std::vector<std::string> paths;
    for (const std::string& path : sg::differentiable_parameters(p))
      if (path.rfind("control.", 0) == 0) paths.push_back(path);
    REQUIRE(paths.size() == 6);
    sg::ParameterGradient g(p, paths, nullptr);
    const std::vector<double> x = g.initial_values();
    const auto fwd = g.forward(x), rev = g.reverse(x), back = g.backsolve(x),
               fd = g.finite_difference(x, 1e-6);
    REQUIRE(fwd.status == "ok");
    REQUIRE(rev.status == "ok");
    REQUIRE(back.status == "ok");
    REQUIRE(fd.status == "ok");
    double worst_rev = 0.0, worst_back = 0.0, worst_fd = 0.0;
    for (std::size_t j = 0; j < x.size(); ++j) {
      CAPTURE(paths[j]);
      const double scale = std::max(std::fabs(fwd.grad[j]), 1e-2);
      worst_rev = std::max(worst_rev, std::fabs(rev.grad[j] - fwd.grad[j]) / scale);
      worst_back = std::max(worst_back, std::fabs(back.grad[j] - fwd.grad[j]) / scale);
      worst_fd = std::max(worst_fd, std::fabs(fd.grad[j] - fwd.grad[j]) / scale);
      CHECK(std::fabs(fwd.grad[j]) > 1e-3);
      CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-9 * scale);
      CHECK(std::fabs(back.grad[j] - fwd.grad[j]) <= 1e-6 * scale);
      CHECK(std::fabs(fd.grad[j] - fwd.grad[j]) <= 1e-6 * scale);
    }
    MESSAGE(std::string(interpolation) << " knots: reverse " << worst_rev << ", backsolve " << worst_back
                                       << ", FD " << worst_fd << " off forward mode (relative)");
  }
}

TEST_CASE("a joint's qpos and qvel in the loss are the trolley's position and velocity along its rail") {
  // The trolley's body frame starts at x = 0 and its rail is a slide along x: qpos = x, qvel = x'.
  const sg::Problem x = load({"loss.terms.0.body=0", "loss.terms.0.axis=x"});
  const sg::Problem q = load({"loss.terms.0.quantity=qpos", "loss.terms.0.joint=rail"});
  CHECK(loss_of(q) == doctest::Approx(loss_of(x)).epsilon(1e-14));
  const sg::Problem v =
      load({"loss.terms.0.quantity=velocity", "loss.terms.0.body=0", "loss.terms.0.axis=x"});
  const sg::Problem qv = load({"loss.terms.0.quantity=qvel", "loss.terms.0.joint=rail"});
  CHECK(loss_of(qv) == doctest::Approx(loss_of(v)).epsilon(1e-12));
  // The swing angle: AD against central FD at three controls of the scene's sweep (tolerance 1e-6).
  const sg::Problem swing = load({"loss.terms.0.quantity=qpos", "loss.terms.0.joint=swing"});
  sg::ParameterGradient g(swing, {"model.tree.actuators.0.ctrl"}, nullptr);
  for (const double u : {-0.6, 0.1, 0.7}) {
    CAPTURE(u);
    const auto fwd = g.forward({u}), fd = g.finite_difference({u}, 1e-6);
    REQUIRE(fwd.status == "ok");
    CHECK(std::fabs(fwd.grad[0]) > 1e-3);
    CHECK(std::fabs(fd.grad[0] - fwd.grad[0]) <= 1e-6 * std::max(1.0, std::fabs(fwd.grad[0])));
  }
}

TEST_CASE("bad control sequences and joint terms are reported at their key paths") {
  const auto errors = [](const std::vector<std::string>& sets) {
    const sg::ProblemLoad p = try_load(sets);
    CHECK_FALSE(p.ok());
    return p.errors;
  };
  CHECK(errors({R"(control.actuators=[{}, {}, {"knots": [1]}])"})
            .find("control.actuators.2: no actuator 2 to drive (model.tree.actuators has 2)") !=
        std::string::npos);
  CHECK(errors(
            {"control.actuators=[{\"knots\": " + nlohmann::json(std::vector<double>(257, 0.0)).dump() + "}]"})
            .find("control.actuators.0.knots: expected an array of at most 256 numbers") !=
        std::string::npos);
  CHECK(errors({R"(control.actuators=[{"knots": [0, "x"]}])"}).find("control.actuators.0.knots.1") !=
        std::string::npos);
  CHECK(errors({"loss.terms.0.quantity=qpos", "loss.terms.0.joint=rial"})
            .find("loss.terms.0.joint: no joint called \"rial\"") != std::string::npos);
  CHECK(errors({"loss.terms.0.quantity=qvel", "loss.terms.0.joint=rail", "loss.terms.0.component=1"})
            .find("loss.terms.0.component: the joint \"rail\" has 1 velocity coordinate") !=
        std::string::npos);
  // Knots and joint terms on free bodies (model.type rigid): nothing to drive or name.
  const sg::ProblemLoad rigid = sg::load_problem_file(sg::test::source_path("scenes/toss_box_mjx.json"),
                                                      {R"(control.actuators=[{"knots": [1]}])"});
  CHECK(
      rigid.errors.find("control.actuators: only joint trees (model.type tree) have actuators to control") !=
      std::string::npos);
  const sg::ProblemLoad rigid_q = sg::load_problem_file(sg::test::source_path("scenes/toss_box_mjx.json"),
                                                        {"loss.terms.0.quantity=qpos"});
  CHECK(rigid_q.errors.find("loss.terms.0.quantity: qpos and qvel need a joint tree") != std::string::npos);
}
