// Hard contact on joint trees (contact.model "hard", engine/articulated/hard_contact.hpp): free bodies run as
// trees (model.run_as tree) under Moreau's midpoint with the analytic-smoothing paper's Gauss-Seidel impulses
// give the free bodies' own numbers, and their derivatives.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <utility>
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
// plane, box-box and box-plane contacts, the surfaces' friction 0.4, kappa 300.
std::vector<std::string> cube_push_hard() {
  return {"contact.model=hard",   "integrator.type=moreau", "integrator.dt=0.002",
          "integrator.steps=500", "contact.hard.kappa=300", "contact.cfd.enabled=false"};
}

// A box thrown onto the plane tumbling (two contact points or four), hard (kappa inf) or smoothed.
std::vector<std::string> box_toss_hard(const std::string& kappa) {
  return {"contact.model=hard",   "integrator.type=moreau",      "integrator.dt=0.002",
          "integrator.steps=500", "contact.hard.kappa=" + kappa, "contact.cfd.enabled=false"};
}

// The shipped scene with `sets`, as free bodies (first) and run as a tree (second).
std::pair<sg::Problem, sg::Problem> both_engines(const std::string& scene, std::vector<std::string> sets) {
  sets.push_back(sg::test::kFreeBodyKernel);
  sg::Problem rigid = sg::test::shipped(scene, sets);
  sets.back() = "model.run_as=tree";
  return {std::move(rigid), sg::test::shipped(scene, sets)};
}

// The loss and forward-mode gradients of both engines at `points` points across [from, to] of `wrt[0]`.
// Returns the largest relative difference (floor 1e-3), checking both runs are ok.
double tree_against_free_bodies(const std::string& scene, std::vector<std::string> sets,
                                const std::vector<std::string>& wrt, double from, double to, int points) {
  const auto [rigid, tree] = both_engines(scene, sets);
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
    const auto [rigid, tree] = both_engines("toss_box_diffmjx.json", sets);
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
  const auto [rigid, tree] = both_engines("cube_push.json", cube_push_hard());
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

TEST_CASE("hard contact: kappa is a differentiable number of free bodies and trees, AD equals central FD") {
  // The sigmoid weights sigmoid(kappa d) carry kappa's derivative through the Gauss-Seidel sweeps. Over the
  // cube push's kappa from 50 to 1000 (20 points), forward mode against central FD (step 1e-7 relative) at
  // every point: 1e-3 relative, with an absolute floor of 1e-10 for the points where the derivative crosses
  // zero (the derivatives run from 1e-8 to 1.3e-4). Larger FD steps straddle the kinks where a contact
  // enters the 10 / kappa look-ahead (at kappa 50, steps 1e-4 and 1e-5 relative give FD 1.34e-4 and 2.1e-4,
  // 1e-6 to 1e-8 give 1.2526e-4, 1.253984e-4, 1.253984e-4 against AD 1.253984e-4). The tree gives the free
  // bodies' loss and derivative to 1e-8 relative.
  const auto [rigid, tree] = both_engines("cube_push.json", cube_push_hard());
  sg::ParameterGradient gr(rigid, {"contact.hard.kappa"}, nullptr), gt(tree, {"contact.hard.kappa"}, nullptr);
  double worst_fd = 0.0, worst_tree = 0.0, largest = 0.0;
  for (int k = 0; k < 20; ++k) {
    const std::vector<double> x = {50.0 + 950.0 * k / 19.0};
    CAPTURE(x[0]);
    const sg::ObjectiveGradient a = gr.forward(x), fd = gr.finite_difference(x, 1e-7), b = gt.forward(x);
    REQUIRE(a.status == "ok");
    REQUIRE(fd.status == "ok");
    REQUIRE(b.status == "ok");
    const double gap = std::fabs(a.grad[0] - fd.grad[0]);
    CHECK(gap <= 1e-3 * std::fabs(fd.grad[0]) + 1e-10);
    worst_fd = std::max(worst_fd, gap / std::max(std::fabs(fd.grad[0]), 1e-10));
    worst_tree = std::max({worst_tree, relative(b.loss, a.loss),
                           std::fabs(b.grad[0] - a.grad[0]) / std::max(std::fabs(a.grad[0]), 1e-10)});
    largest = std::max(largest, std::fabs(a.grad[0]));
  }
  MESSAGE("d loss / d kappa: AD against FD " << worst_fd << " relative at worst; tree against free bodies "
                                             << worst_tree << "; largest |derivative| " << largest);
  CHECK(largest > 1e-5);  // the sweep is not all zeros
  CHECK(worst_tree < 1e-8);
}

TEST_CASE("hard contact: the trajectory's contact force is the impulses' average over each frame") {
  // Moreau's velocity update on a body that touches only the floor: m dv_z = p_normal - m g h (the floor's
  // normal is z; gravity is the only smooth force), so the force the trajectory records, the frame's normal
  // impulses over its 2 ms, must equal m (g + dv_z / h) from the trajectory's own velocities. Checked for
  // both boxes at every frame before the pushed one reaches the other (it covers the 10 cm gap in 0.076 s),
  // where the smoothed contact lets the boxes settle (the forces vary from 0.77 to 2.1 N): 1e-9 N. Trees and
  // free bodies record the same forces at every one of the 501 frames (1e-8 relative).
  const auto [rigid, tree] = both_engines("cube_push.json", cube_push_hard());
  const sg::Trajectory a = sg::simulate_trajectory(rigid, 1.0), b = sg::simulate_trajectory(tree, 1.0);
  REQUIRE(a.force.size() == 501);
  REQUIRE(b.force.size() == a.force.size());
  CHECK(a.force[0][0] == 0.0);  // no step yet: no impulse
  const double m = 0.1, g = 9.81, h = 0.002;
  double worst_balance = 0.0, worst_tree = 0.0, smallest = 1e300;
  for (std::size_t f = 1; f < 35; ++f)
    for (std::size_t i = 0; i < 2; ++i) {
      const double dvz = a.v[f][6 * i + 2] - a.v[f - 1][6 * i + 2];
      worst_balance = std::max(worst_balance, std::fabs(a.force[f][i] - m * (g + dvz / h)));
      smallest = std::min(smallest, a.force[f][i]);
    }
  for (std::size_t f = 0; f < a.force.size(); ++f)
    for (std::size_t i = 0; i < 2; ++i)
      worst_tree = std::max(worst_tree, relative(b.force[f][i], a.force[f][i]));
  MESSAGE("force against m (g + dv_z / h): " << worst_balance << " N at worst; tree against free bodies "
                                             << worst_tree);
  CHECK(smallest > 0.5);  // both boxes rest on the floor throughout
  CHECK(worst_balance < 1e-9);
  CHECK(worst_tree < 1e-8);
}

TEST_CASE(
    "hard contact: more touching contacts than the impulse solve holds fail the run, bodies and trees") {
  // The dense Delassus matrix holds 16 contacts. Five resting boxes make 20 corner contacts with the floor:
  // dropping four would leave a box sinking through it, so the step is made non-finite and the run fails,
  // in the free bodies' code as in the trees'. Four boxes (16 contacts) still run.
  for (const bool as_tree : {false, true}) {
    for (const int boxes : {4, 5}) {
      CAPTURE(as_tree);
      CAPTURE(boxes);
      std::ifstream in(sg::test::scene_path("cube_push.json"));
      nlohmann::json doc = nlohmann::json::parse(in);
      nlohmann::json& bodies = doc["model"]["bodies"];
      bodies[0]["vel"] = {0, 0, 0};
      for (int i = 2; i < boxes; ++i) {
        nlohmann::json extra = bodies[1];
        extra["pos"][0] = 0.2 * i;
        bodies.push_back(extra);
      }
      doc["contact"] = {{"model", "hard"}, {"hard", {{"kappa", 300}}}, {"cfd", {{"enabled", false}}}};
      doc["integrator"] = {{"type", "moreau"}, {"dt", 0.002}, {"steps", 50}};
      doc["sweep"]["parameter"] = "model.bodies.1.mass";
      doc["model"]["run_as"] = as_tree ? "tree" : "free_bodies";
      const sg::Problem p = sg::test::from_json(doc);
      sg::ParameterGradient g(p, {"model.bodies.1.mass"}, nullptr);
      const sg::ObjectiveGradient r = g.forward(g.initial_values());
      if (boxes == 4) {
        CHECK(r.status == "ok");
      } else {
        CHECK(r.status != "ok");
      }
    }
  }
}
