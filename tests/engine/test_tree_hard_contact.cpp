// Hard contact on joint trees (contact.model "hard", engine/articulated/hard_contact.hpp): free bodies run as
// trees (model.run_as tree) under Moreau's midpoint with the analytic-smoothing paper's Gauss-Seidel impulses
// give the free bodies' own numbers, and their derivatives.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/simulate/trajectory.hpp"
#include "tests/engine/scene_helpers.hpp"
#include "tests/gradient_agreement.hpp"

namespace {

double relative(double a, double b) {
  return std::fabs(a - b) / std::max(std::fabs(b), 1e-3);
}

// The cube push preset (gui "Cube push: smoothed hard contact"): one box slides into another; both on the
// plane, box-box and box-plane contacts, friction 0.4, kappa 300.
std::vector<std::string> cube_push_hard() {
  return {"contact.model=hard",       "integrator.type=moreau", "integrator.dt=0.002",
          "integrator.steps=500",     "contact.hard.kappa=300", "contact.hard.friction=0.4",
          "contact.cfd.enabled=false"};
}

// A box thrown onto the plane tumbling (two contact points or four), hard (kappa inf) or smoothed.
std::vector<std::string> box_toss_hard(const std::string& kappa) {
  return {"contact.model=hard",   "integrator.type=moreau",      "integrator.dt=0.002",
          "integrator.steps=500", "contact.hard.kappa=" + kappa, "contact.cfd.enabled=false"};
}

// The loss and forward-mode gradients of both engines at `points` points across [from, to] of `wrt[0]`.
// Returns the largest relative difference (floor 1e-3), checking both runs are ok.
double tree_against_free_bodies(const std::string& scene, std::vector<std::string> sets,
                                const std::vector<std::string>& wrt, double from, double to, int points) {
  const sg::Problem rigid = sg::test::shipped(scene, sets);
  sets.push_back("model.run_as=tree");
  const sg::Problem tree = sg::test::shipped(scene, sets);
  REQUIRE(tree.data.rigid.as_tree);
  sg::ParameterGradient gr(rigid, wrt, nullptr), gt(tree, wrt, nullptr);
  double worst = 0.0;
  for (int k = 0; k < points; ++k) {
    std::vector<double> x = gr.initial_values();
    x[0] = from + (to - from) * k / (points - 1.0);
    CAPTURE(x[0]);
    const sg::ObjectiveGradient a = gr.forward(x), b = gt.forward(x);
    REQUIRE(a.status == "ok");
    REQUIRE(b.status == "ok");
    worst = std::max(worst, relative(b.loss, a.loss));
    for (std::size_t j = 0; j < wrt.size(); ++j) worst = std::max(worst, relative(b.grad[j], a.grad[j]));
  }
  return worst;
}

}  // namespace

TEST_CASE("hard contact on a tree: the smoothed cube push keeps the free bodies' loss and gradient") {
  // The same Moreau steps and Gauss-Seidel sweeps in joint coordinates (Delassus matrix J M^-1 J' over the
  // dofs, contacts in the free bodies' order): the numbers differ by rounding grown over 500 steps. At 5
  // pushes across the preset's sweep, the loss and the gradient in the push, the pushed box's size, mass and
  // friction: tolerance 1e-8 relative (measured: see the message).
  const double worst = tree_against_free_bodies(
      "cube_push.json", cube_push_hard(),
      {"model.bodies.0.vel.0", "model.bodies.0.size.0", "model.bodies.0.mass", "model.bodies.0.friction.0"},
      1.0, 3.0, 5);
  MESSAGE("cube push, hard contact (kappa 300): tree against free bodies " << worst << " relative at worst");
  CHECK(worst < 1e-8);
}

TEST_CASE("hard contact on a tree: a tumbling box toss keeps the free bodies' loss and gradient") {
  // The smoothed contact (kappa 300) is a smooth map: same tolerance as above over 5 throws. Hard contact
  // (kappa inf) switches each contact's impulse on where its depth crosses 0, so a rounding-size difference
  // can land on either side of a switch: the losses are compared at 1e-6.
  const double smooth =
      tree_against_free_bodies("toss_box_diffmjx.json", box_toss_hard("300"),
                               {"model.bodies.0.vel.2", "model.bodies.0.size.0"}, -3.0, -0.5, 5);
  MESSAGE("box toss, hard contact (kappa 300): tree against free bodies " << smooth << " relative at worst");
  CHECK(smooth < 1e-8);
  for (const double vz : {-2.5, -1.0}) {
    CAPTURE(vz);
    std::vector<std::string> sets = box_toss_hard("inf");
    sets.push_back("model.bodies.0.vel.2=" + std::to_string(vz));
    const sg::Problem rigid = sg::test::shipped("toss_box_diffmjx.json", sets);
    sets.push_back("model.run_as=tree");
    const sg::Problem tree = sg::test::shipped("toss_box_diffmjx.json", sets);
    sg::ParameterGradient gr(rigid, {"model.bodies.0.vel.2"}, nullptr),
        gt(tree, {"model.bodies.0.vel.2"}, nullptr);
    const sg::ObjectiveGradient a = gr.forward(gr.initial_values()), b = gt.forward(gt.initial_values());
    REQUIRE(a.status == "ok");
    REQUIRE(b.status == "ok");
    MESSAGE("v_z " << vz << ", kappa inf: loss free bodies " << a.loss << ", tree " << b.loss);
    CHECK(relative(b.loss, a.loss) < 1e-6);
  }
}

TEST_CASE("hard contact on a tree: reverse mode equals forward mode, AD equals central FD") {
  // The impulses' derivatives flow through M^-1 J' (implicit differentiation of the mass matrix's solve)
  // and the unrolled Gauss-Seidel sweeps. Reverse against forward: 1e-10 (as the other reverse-mode tests).
  // Central FD (eps 1e-6): 1e-5 relative at two pushes where the map is smooth. kappa 300 smooths the
  // contact but leaves kinks: a contact entering the 10 / kappa look-ahead starts at weight sigmoid(-10) =
  // 4.5e-5, and the friction cone's prox switches between sticking and sliding; FD across one is no
  // derivative (at a push of 2.0 both engines give AD -0.0083 and FD -0.064, the free bodies as the tree).
  std::vector<std::string> sets = cube_push_hard();
  sets.push_back("model.run_as=tree");
  const sg::Problem p = sg::test::shipped("cube_push.json", sets);
  sg::ParameterGradient g(p, {"model.bodies.0.vel.0", "model.bodies.0.mass"}, nullptr);
  for (const double push : {1.2, 2.8}) {
    CAPTURE(push);
    std::vector<double> x = g.initial_values();
    x[0] = push;
    sg::test::check_forward_reverse_fd(g, x, 1e-6, 1e-5, "push");
  }
}

TEST_CASE("hard contact on a tree: the trajectory draws the free bodies' contacts at every frame") {
  // The impulses' contacts are made inside the Moreau step; the recorder collects the touching pairs itself.
  // Before, a hard-contact tree's 3-D view showed none.
  const sg::Problem rigid = sg::test::shipped("cube_push.json", cube_push_hard());
  std::vector<std::string> sets = cube_push_hard();
  sets.push_back("model.run_as=tree");
  const sg::Problem tree = sg::test::shipped("cube_push.json", sets);
  const sg::Trajectory a = sg::simulate_trajectory(rigid, 1.0), b = sg::simulate_trajectory(tree, 1.0);
  REQUIRE(a.contacts.size() == b.contacts.size());
  std::size_t drawn = 0;
  double worst = 0.0;
  for (std::size_t f = 0; f < a.contacts.size(); ++f) {
    CAPTURE(f);
    REQUIRE(a.contacts[f].size() == b.contacts[f].size());
    drawn += b.contacts[f].size();
    for (const sg::ContactMark& m : a.contacts[f]) {
      double nearest = 1e300;  // the engines may list a frame's contacts in different orders
      for (const sg::ContactMark& n : b.contacts[f]) {
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k) d2 += (m.pos[k] - n.pos[k]) * (m.pos[k] - n.pos[k]);
        nearest = std::min(nearest, std::sqrt(d2));
      }
      worst = std::max(worst, nearest);
    }
  }
  CHECK(drawn >= 6 * a.contacts.size());  // both boxes rest on the plane throughout: at least 6 corners
  CHECK(worst < 1e-9);                    // metres; measured 3e-17
}
