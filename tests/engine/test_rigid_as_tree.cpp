// Free bodies run as joint trees (model.run_as "tree", engine/model/tree_from_rigid.hpp): the articulated
// engine must give today's free-body scenes their numbers, the step towards one model.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/sweep/device_problem.hpp"
#include "tests/engine/scene_helpers.hpp"

namespace {

// The shipped free-body scenes with MuJoCo's contact, smooth and DiffMJX collision included: all a tree
// can run.
std::vector<std::string> tree_runnable_scenes() {
  std::vector<std::string> out;
  sg::test::for_each_shipped_scene([&](const std::string& name, const sg::Problem& p) {
    if (p.data.type != sg::ModelType::rigid || p.data.rigid.contact != sg::ContactModel::mujoco) return;
    out.push_back(name);
  });
  std::sort(out.begin(), out.end());
  return out;
}

// The swept number and the first body's size, mass (or density), friction and the plane's time constant:
// derivatives through the start, the inertia, the inverse weights and the contact's parameters.
std::vector<std::string> compared_paths(const sg::Problem& p) {
  const sg::RigidBody<double>& b = p.data.rigid.bodies[0];
  std::vector<std::string> out = {p.sweep.parameter};
  for (const std::string path :
       {"model.bodies.0.size.0", b.mass > 0.0 ? "model.bodies.0.mass" : "model.bodies.0.density",
        "model.bodies.0.friction.0", "model.plane.solref.0"})
    if (path != p.sweep.parameter) out.push_back(path);
  return out;
}

double relative(double a, double b) {
  return std::fabs(a - b) / std::max(std::fabs(b), 1e-3);
}

// The largest relative difference of b from a in the loss and every gradient component.
double worst_difference(const sg::ObjectiveGradient& a, const sg::ObjectiveGradient& b) {
  double worst = relative(b.loss, a.loss);
  for (std::size_t j = 0; j < a.grad.size(); ++j) worst = std::max(worst, relative(b.grad[j], a.grad[j]));
  return worst;
}

// Both evaluators' forward-mode runs at `points` points across p's sweep, its ends included (the swept
// number first in the paths): f(x, free bodies' result, tree's result) at each.
template <class F>
void across_sweep(const sg::Problem& p, int points, sg::ParameterGradient& gr, sg::ParameterGradient& gt,
                  F&& f) {
  for (int k = 0; k < points; ++k) {
    std::vector<double> x = gr.initial_values();
    x[0] = p.sweep.from + (p.sweep.to - p.sweep.from) * k / (points - 1.0);
    CAPTURE(x[0]);
    const sg::ObjectiveGradient a = gr.forward(x), b = gt.forward(x);
    REQUIRE(a.status == "ok");
    REQUIRE(b.status == "ok");
    f(x, a, b);
  }
}

// The shipped scenes that tree_runnable_scenes lists, split so that each test case stays short under the
// sanitizers: "toss" (toss_*), "billiards" (billiards*), "identify" (identify_*) or "cube" (the others).
std::vector<std::string> runnable_scenes(const std::string& group) {
  std::vector<std::string> out;
  for (const std::string& name : tree_runnable_scenes()) {
    std::string of = "cube";
    for (const std::string prefix : {"toss", "billiards", "identify"})
      if (name.rfind(prefix, 0) == 0) of = prefix;
    if (of == group) out.push_back(name);
  }
  return out;
}

// Both engines on `scenes` at their own settings.
void check_scenes_keep_numbers(const std::vector<std::string>& scenes) {
  // Two implementations of the same MuJoCo laws: the free bodies' rows in body coordinates and the tree's
  // mj_forward pipeline in joint coordinates, so the same numbers up to rounding. At 7 points across each
  // scene's sweep, the loss and the forward-mode gradient in up to five numbers (the swept one, size, mass or
  // density, friction, the plane's solref) are compared. Billiards' cue is a timed force (xfrc_applied on
  // the tree).
  // - Fixed steps (MJX's Euler): tolerance 1e-7 relative (measured 1e-12 at worst, but 4.6e-10 for the MJX
  //   box toss's gradient in the box's size and 2.9e-8 for the ellipsoid, the one scene whose rounding grows
  //   that much over its run; both engines call the same plane-ellipsoid collider).
  // - Adaptive steps: a rounding-size difference can flip one step's accept or reject, and a run's gradient
  //   then moves by the integrator's error. Measured on the free bodies alone, nudging the swept number by
  //   one ulp moves the gradient by up to ~1e-4 relative (toss_box_diffmjx at rtol 1e-10: 0.4432, 0.4429,
  //   0.4428 for v_z = -3 and its next two doubles). The tree must stay within 10 times that spread (the free
  //   bodies' own, over the same 7 points, largest of one ulp up and one down) plus 1e-9.
  for (const std::string& name : scenes) {
    CAPTURE(name);
    const sg::Problem rigid = sg::test::shipped(name, {sg::test::kFreeBodyKernel});
    const sg::Problem tree = sg::test::shipped(name, {"model.run_as=tree"});
    REQUIRE(tree.data.rigid.as_tree);
    const std::vector<std::string> paths = compared_paths(rigid);
    sg::ParameterGradient gr(rigid, paths, nullptr), gt(tree, paths, nullptr);
    const bool fixed = !sg::is_adaptive(rigid.integrator.method);
    double tree_worst = 0.0, self_spread = 0.0;
    across_sweep(rigid, 7, gr, gt, [&](const std::vector<double>& x, const auto& a, const auto& b) {
      tree_worst = std::max(tree_worst, worst_difference(a, b));
      if (fixed) return;
      for (const double toward : {-INFINITY, INFINITY}) {
        std::vector<double> nudged = x;
        nudged[0] = std::nextafter(x[0], toward);
        const sg::ObjectiveGradient c = gr.forward(nudged);
        REQUIRE(c.status == "ok");
        self_spread = std::max(self_spread, worst_difference(a, c));
      }
    });
    MESSAGE(name << ": tree against free bodies " << tree_worst << " relative at worst"
                 << (fixed ? std::string(" (fixed steps)")
                           : "; the free bodies' own spread under one ulp " + std::to_string(self_spread)));
    CHECK(tree_worst < (fixed ? 1e-7 : 10.0 * self_spread + 1e-9));
  }
}

// Both engines on the adaptive ones of `scenes` under fixed RK4 steps.
void check_scenes_under_rk4(const std::vector<std::string>& scenes,
                            const std::vector<std::string>& extra = {}) {
  // The adaptive scenes' comparison above is only as tight as their step decisions are steady. With the
  // step decisions out of the way (RK4, 10 substeps per output step) the two engines' right-hand sides,
  // contacts and timed forces must give the same numbers up to rounding grown over the run: tolerance 1e-7
  // relative at both ends and the middle of each sweep (measured: see the messages).
  for (const std::string& name : scenes) {
    const sg::Problem scene = sg::test::shipped(name);
    if (!sg::is_adaptive(scene.integrator.method)) continue;
    CAPTURE(name);
    std::vector<std::string> rk4 = {"integrator.type=rk4", "integrator.substeps=10"};
    rk4.insert(rk4.end(), extra.begin(), extra.end());
    std::vector<std::string> as_tree = rk4;
    as_tree.push_back("model.run_as=tree");
    rk4.push_back(sg::test::kFreeBodyKernel);
    const sg::Problem rigid = sg::test::shipped(name, rk4), tree = sg::test::shipped(name, as_tree);
    const std::vector<std::string> paths = compared_paths(rigid);
    sg::ParameterGradient gr(rigid, paths, nullptr), gt(tree, paths, nullptr);
    double worst = 0.0;
    across_sweep(rigid, 3, gr, gt, [&](const std::vector<double>&, const auto& a, const auto& b) {
      worst = std::max(worst, worst_difference(a, b));
    });
    MESSAGE(name << " under RK4: tree against free bodies " << worst << " relative at worst");
    CHECK(worst < 1e-7);
  }
}

}  // namespace

TEST_CASE("free bodies run as joint trees keep the toss scenes' loss and gradient") {
  const std::vector<std::string> scenes = runnable_scenes("toss");
  REQUIRE(scenes.size() >= 10);  // five primitives, MJX's Euler and DiffMJX's Tsit5
  check_scenes_keep_numbers(scenes);
}

TEST_CASE("free bodies run as joint trees keep the billiards scenes' loss and gradient") {
  const std::vector<std::string> scenes = runnable_scenes("billiards");
  REQUIRE(scenes.size() >= 2);  // the cue is a timed force (xfrc_applied on the tree)
  check_scenes_keep_numbers(scenes);
}

TEST_CASE("free bodies run as joint trees keep the identification scenes' loss and gradient") {
  const std::vector<std::string> scenes = runnable_scenes("identify");
  REQUIRE(scenes.size() >= 3);  // one toss, its rollouts, four cubes
  check_scenes_keep_numbers(scenes);
}

TEST_CASE("free bodies run as joint trees keep the cube scenes' loss and gradient") {
  const std::vector<std::string> scenes = runnable_scenes("cube");
  REQUIRE(scenes.size() >= 2);  // cube push, the ContactNets cube
  check_scenes_keep_numbers(scenes);
}

TEST_CASE("free bodies run as joint trees: adaptive tosses and billiards under fixed RK4 steps agree") {
  check_scenes_under_rk4(runnable_scenes("toss"));
  check_scenes_under_rk4(runnable_scenes("billiards"));
}

TEST_CASE("free bodies run as joint trees: the identification scenes under fixed RK4 steps agree") {
  check_scenes_under_rk4(runnable_scenes("identify"));
}

TEST_CASE("free bodies run as joint trees: smooth collision under fixed RK4 steps agrees") {
  // The shipped scenes cover DiffMJX's soft box manifold (toss_box_diffmjx_softcol); the smooth proxies of
  // the softgrad detector (collision.softness 1 mm) on the box toss here. Same tolerance as above.
  check_scenes_under_rk4({"toss_box_diffmjx.json"}, {"collision.softness=0.001"});
}

TEST_CASE("free bodies run as a tree: reverse mode equals forward mode") {
  // The tree is built on the tape from the bodies' numbers (checkpointed_adjoint's prefix): every scene
  // number's derivative, the inertia's and inverse weights' included. Tolerance 1e-10 as the other
  // reverse-mode tests.
  for (const std::string name : {"toss_box_diffmjx.json", "toss_capsule_mjx.json"}) {
    CAPTURE(name);
    const sg::Problem p = sg::test::shipped(name, {"model.run_as=tree"});
    sg::ParameterGradient g(p, compared_paths(p), nullptr);
    const std::vector<double> x = g.initial_values();
    const sg::ObjectiveGradient fwd = g.forward(x), rev = g.reverse(x);
    REQUIRE(fwd.status == "ok");
    REQUIRE(rev.status == "ok");
    CHECK(rev.loss == doctest::Approx(fwd.loss).epsilon(1e-14));
    for (std::size_t j = 0; j < x.size(); ++j) {
      CAPTURE(g.paths()[j]);
      CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-10 * std::max(std::fabs(fwd.grad[j]), 1e-3));
    }
  }
}

TEST_CASE(
    "what only one engine runs is refused by key path: elliptic cones on free bodies, trees on the GPU") {
  const sg::ProblemLoad loaded =
      sg::load_problem_file(sg::test::scene_path("toss_box_diffmjx.json"),
                            {"contact.mujoco.cone=elliptic", sg::test::kFreeBodyKernel});
  REQUIRE_FALSE(loaded.ok());
  CAPTURE(loaded.errors);
  CHECK(loaded.errors.find("contact.mujoco.cone") != std::string::npos);
  // The GPU sweep refuses a tree (the default) with its reason rather than running the free bodies' kernel.
  for (const std::vector<std::string>& sets : {std::vector<std::string>{}, {"model.run_as=tree"}}) {
    const sg::Problem p = sg::test::shipped("toss_box_diffmjx.json", sets);
    CHECK(sg::device_path_refusal(p).find("model.run_as=free_bodies") != std::string::npos);
  }
  // Elliptic cones run by default, as trees.
  CHECK(sg::test::shipped("toss_box_diffmjx.json", {"contact.mujoco.cone=elliptic"}).data.rigid.elliptic);
}

TEST_CASE("free bodies run as a tree: impratio is a differentiable number") {
  // impratio scales the friction rows' regularisers (R_1 = R_0 / impratio): a number of the tree's model in
  // the run's scalar, as it is of the free bodies'. The box toss slides, so the loss depends on it. Under RK4
  // (no step decisions) across impratio in [0.5, 2], the tree's loss and gradient in impratio and the throw
  // equal the free bodies' (tolerance 1e-7 relative, as the RK4 comparisons above), the gradient in impratio
  // is not negligible, and the elliptic cone (tree only) gives AD equal to central FD (eps 1e-6, fixed
  // steps: tolerance 5e-5 relative, floor 1e-6; measured 8e-6 where the gradient is 3e-4, FD's own error).
  const std::vector<std::string> sets = {"integrator.type=rk4", "integrator.substeps=10",
                                         "sweep.parameter=contact.mujoco.impratio", "sweep.from=0.5",
                                         "sweep.to=2"};
  std::vector<std::string> as_tree = sets, elliptic = sets;
  as_tree.push_back("model.run_as=tree");
  elliptic.insert(elliptic.end(), {"model.run_as=tree", "contact.mujoco.cone=elliptic"});
  std::vector<std::string> free_bodies = sets;
  free_bodies.push_back(sg::test::kFreeBodyKernel);
  const sg::Problem rigid = sg::test::shipped("toss_box_diffmjx.json", free_bodies);
  const sg::Problem tree = sg::test::shipped("toss_box_diffmjx.json", as_tree);
  const sg::Problem cone = sg::test::shipped("toss_box_diffmjx.json", elliptic);
  const std::vector<std::string> paths = {"contact.mujoco.impratio", "model.bodies.0.vel.2"};
  sg::ParameterGradient gr(rigid, paths, nullptr), gt(tree, paths, nullptr), ge(cone, paths, nullptr);
  double worst = 0.0, scale = 0.0, cone_worst = 0.0;
  across_sweep(rigid, 5, gr, gt, [&](const std::vector<double>& x, const auto& a, const auto& b) {
    worst = std::max(worst, worst_difference(a, b));
    scale = std::max(scale, std::fabs(a.grad[0]));
    const sg::ObjectiveGradient e = ge.forward(x), fd = ge.finite_difference(x, 1e-6);
    REQUIRE(e.status == "ok");
    REQUIRE(fd.status == "ok");
    MESSAGE("impratio " << x[0] << ": dloss/dimpratio free bodies " << a.grad[0] << ", tree " << b.grad[0]
                        << "; elliptic " << e.grad[0] << " (FD " << fd.grad[0] << ")");
    cone_worst =
        std::max(cone_worst, std::fabs(e.grad[0] - fd.grad[0]) / std::max(std::fabs(fd.grad[0]), 1e-6));
  });
  MESSAGE("impratio under RK4: tree against free bodies " << worst << "; elliptic AD against FD "
                                                          << cone_worst);
  CHECK(worst < 1e-7);
  CHECK(scale > 1e-4);
  CHECK(cone_worst < 5e-5);
  // Reverse mode takes it too (tolerance 1e-10, as above).
  const std::vector<double> x = gt.initial_values();
  const sg::ObjectiveGradient fwd = gt.forward(x), rev = gt.reverse(x);
  REQUIRE(rev.status == "ok");
  for (std::size_t j = 0; j < x.size(); ++j)
    CHECK(std::fabs(rev.grad[j] - fwd.grad[j]) <= 1e-10 * std::max(std::fabs(fwd.grad[j]), 1e-3));
}

TEST_CASE("free bodies run as a tree take elliptic friction cones") {
  // The free bodies' own rows are pyramidal only; as a tree the box toss takes MuJoCo's elliptic cone. The
  // run is ok, differs from the pyramidal one (the cones differ while the box slides), and its gradient
  // matches central FD (eps 1e-5) over 7 throws at Tsit5 1e-12 with events, where FD is steady (at 1e-10 the
  // pyramidal toss's own AD and FD differ by a median of 1.6e-4 over 21 points, FD's noise). Tolerance: a
  // median of 1e-4 (the issue's) and 1e-3 at every point.
  std::vector<double> rel;
  for (int k = 0; k < 7; ++k) {
    const double vz = -0.5 - 0.4 * k;
    CAPTURE(vz);
    const std::vector<std::string> sets = {"model.run_as=tree", "integrator.rtol=1e-12",
                                           "integrator.atol=1e-12", "integrator.max_steps=1000000",
                                           "model.bodies.0.vel.2=" + std::to_string(vz)};
    std::vector<std::string> elliptic = sets;
    elliptic.push_back("contact.mujoco.cone=elliptic");
    const sg::Problem pe = sg::test::shipped("toss_box_diffmjx.json", elliptic);
    const sg::Problem pp = sg::test::shipped("toss_box_diffmjx.json", sets);
    REQUIRE(pe.data.rigid.elliptic);
    sg::ParameterGradient ge(pe, {"model.bodies.0.vel.2"}, nullptr),
        gp(pp, {"model.bodies.0.vel.2"}, nullptr);
    const sg::ObjectiveGradient e = ge.forward(ge.initial_values()), p = gp.forward(gp.initial_values());
    REQUIRE(e.status == "ok");
    REQUIRE(p.status == "ok");
    const sg::ObjectiveGradient fd = ge.finite_difference(ge.initial_values(), 1e-5);
    REQUIRE(fd.status == "ok");
    MESSAGE("v_z " << vz << ": elliptic loss " << e.loss << " (pyramidal " << p.loss << "), gradient "
                   << e.grad[0] << " (FD " << fd.grad[0] << ")");
    CHECK(e.loss != p.loss);
    rel.push_back(relative(e.grad[0], fd.grad[0]));
    CHECK(rel.back() < 1e-3);
  }
  std::sort(rel.begin(), rel.end());
  MESSAGE("elliptic cone, AD against FD: median " << rel[rel.size() / 2] << ", worst " << rel.back());
  CHECK(rel[rel.size() / 2] < 1e-4);
}
