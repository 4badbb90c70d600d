// Forward-mode AD equals central finite differences on smooth problems, for every integrator and contact
// model: 1e-7 relative for the fixed-step integrators; for the adaptive ones (rtol = atol = 1e-9), within
// 2e-4, since FD also sees the step sizes move while AD holds them fixed; differentiated through the
// controller, AD follows the step sizes too and comes within 2e-5.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/point_eval.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// A smooth setting for each contact model, as --set overrides on the penalty toy scene.
struct Case {
  const char* name;
  std::vector<std::string> sets;
  double x;          // where the gradient is taken
  bool force_model;  // works with every ODE integrator
};

std::vector<Case> smooth_cases() {
  return {
      // Always penetrating: a harmonic oscillator with damping.
      {"penalty",
       {"contact.model=penalty", "model.gravity=[0,0,-20]", "model.plane.height=10", "contact.penalty.k=4",
        "contact.penalty.c=0.3", "model.particles.0.vel=[0,0,0]", "sweep.from=3.5", "sweep.to=4.5"},
       4.0,
       true},
      // Deep in the impedance's flat part and critically damped: never leaves the contact.
      {"mujoco",
       {"contact.model=mujoco", "model.gravity=[0,0,-9.81]", "model.plane.height=0.05",
        "contact.mujoco.solimp=[0.9,0.95,0.001,0.5,2]", "contact.mujoco.refsafe=false",
        "model.particles.0.vel=[0,0,0]", "integrator.dt=0.01", "integrator.steps=10", "sweep.from=0.035",
        "sweep.to=0.045"},
       0.04,
       true},
      {"none", {"contact.model=none", "model.gravity=[0,0,-9.81]"}, 1.3, true},
      // Elastic impacts: piecewise linear, smooth away from the steps where the impact changes step.
      {"elastic naive", {"contact.model=elastic", "contact.elastic.restitution=0.8"}, 1.03, false},
      {"elastic toi",
       {"contact.model=elastic", "contact.elastic.restitution=0.8", "contact.elastic.toi=true"},
       1.03,
       false},
      // Hard contact smoothed by kappa = 30: sigmoid weights are smooth everywhere.
      {"hard kappa 30",
       {"contact.model=hard", "contact.hard.kappa=30", "model.gravity=[0,0,-9.81]", "integrator.type=moreau",
        "integrator.dt=0.01", "integrator.steps=50", "model.particles.0.vel=[0,0,0]"},
       0.9,
       false},
  };
}

double relative_gap(double a, double b) {
  return std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b));
}

// through_tolerance > 0: also the gradient through the step-size controller, against the same FD.
void check_case(const Case& c, const char* method, double tolerance, double fd_eps,
                double through_tolerance = 0) {
  std::vector<std::string> sets = c.sets;
  sets.push_back(std::string("integrator.type=") + method);
  sets.push_back("integrator.rtol=1e-9");
  sets.push_back("integrator.atol=1e-9");
  sets.push_back("gradient.fd_eps=" + std::to_string(fd_eps));
  const Problem p = test::shipped("toy_point_mass.json", sets);
  PointEvaluator eval(p);
  const PointResult r = eval.evaluate(c.x);
  INFO(c.name << " with " << method << ": AD " << r.grad << ", FD " << r.grad_fd << ", status " << r.status);
  REQUIRE(r.status == "ok");
  CHECK(std::fabs(r.grad) > 1e-3);  // a non-trivial derivative
  CHECK(relative_gap(r.grad, r.grad_fd) < tolerance);
  if (through_tolerance > 0.0) {
    Problem through = p;
    through.integrator.through_controller = true;
    const double g = PointEvaluator(through).loss_and_grad(c.x).grad;
    INFO("through the controller: AD " << g);
    CHECK(relative_gap(g, r.grad_fd) < through_tolerance);
  }
}

}  // namespace

TEST_CASE("AD equals FD to 1e-7 for the fixed-step integrators, every contact model") {
  for (const Case& c : smooth_cases()) {
    if (std::string(c.name).rfind("hard", 0) == 0) {
      check_case(c, "moreau", 1e-7, 1e-5);
    } else if (!c.force_model) {
      check_case(c, "euler", 1e-7, 1e-5);
    } else {
      for (const char* m : {"euler", "moreau", "rk4"}) check_case(c, m, 1e-7, 1e-5);
    }
  }
}

TEST_CASE("AD equals FD within the tolerance's order for the adaptive integrators") {
  for (const Case& c : smooth_cases()) {
    if (!c.force_model) continue;  // impulse models have their own stepping scheme
    // The MuJoCo case's frozen gaps are 1e-4 (Dopri5 1.03e-4 since the step after one clipped to an output
    // time grows from the clipped step, as in Diffrax; 5.3e-5 before; Tsit5 9.9e-5 both): what FD sees is
    // the steps moving with x, which the gradient through the controller follows (1e-7 to 1e-5).
    for (const char* m : {"bosh3", "dopri5", "tsit5"}) check_case(c, m, 2e-4, 1e-5, 2e-5);
  }
}

TEST_CASE("differentiating through the controller: same values, a different but consistent gradient") {
  // The smooth oscillator of the penalty case, with steps well below the output step so the controller
  // acts: both gradients stay within the tolerance's order of FD, and the simulation is bitwise equal.
  std::vector<std::string> sets = smooth_cases()[0].sets;
  for (const char* s : {"integrator.type=tsit5", "integrator.rtol=1e-8", "integrator.atol=1e-8"})
    sets.push_back(s);
  const Problem frozen = test::shipped("toy_point_mass.json", sets);
  Problem through = frozen;
  through.integrator.through_controller = true;
  PointEvaluator a(frozen), b(through);
  const LossSample fa = a.loss_and_grad(4.0), fb = b.loss_and_grad(4.0);
  const double fd = a.evaluate(4.0).grad_fd;
  CHECK(fa.loss == fb.loss);  // same simulation, bit for bit
  CHECK(fa.grad != fb.grad);  // but the controller's derivative enters
  CHECK(relative_gap(fa.grad, fd) < 1e-2);
  CHECK(relative_gap(fb.grad, fd) < 1e-2);
}
