// Reverse mode (engine/core/reverse.hpp through the templated engine): the tape's derivatives of elementary
// functions, and whole simulations whose all-parameter gradient from one taped run equals forward mode's.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "engine/core/mat3.hpp"
#include "engine/gradient/parameter_gradient.hpp"
#include "engine/gradient/point_eval.hpp"
#include "reverse_matches_forward.hpp"
#include "scene_helpers.hpp"

using namespace sg;

namespace {

// f(x, y) on any scalar: every operation kind the engine uses.
template <class S>
S mixed_function(const S& x, const S& y) {
  S r = sin(x) * y + x / y - 2.0 / y + exp(0.5 * x) * sqrt(y) + atan2(y, x) + pow(y, 1.5) + pow(x * x, y);
  r += tanh(x) - log1p(y) + abs(x - y) + max(x, y) * min(x, y) + atan(x) * cos(y) - tan(0.1 * x) + log(y);
  r -= 3.0 - x;
  r *= 1.0 + x * x;
  r /= y + 2.0;
  return r;
}

}  // namespace

TEST_CASE("the tape differentiates every elementary operation as forward mode does") {
  const double x = 0.7, y = 1.3;
  const Dual<2> fwd = mixed_function(seeded<Dual<2>>(x, 0), seeded<Dual<2>>(y, 1));
  RevTape& tape = RevTape::current();
  tape.clear();
  const Rev rx = Rev::variable(x), ry = Rev::variable(y);
  const Rev out = mixed_function(rx, ry);
  const std::vector<double> adj = reverse_sweep(tape, out.i);
  CHECK(out.v == fwd.v);  // the same values, bit for bit
  CHECK(adj[static_cast<std::size_t>(rx.i)] == doctest::Approx(fwd.d[0]).epsilon(1e-14));
  CHECK(adj[static_cast<std::size_t>(ry.i)] == doctest::Approx(fwd.d[1]).epsilon(1e-14));
  // Zero-filled memory is the constant 0 (scratch arrays of a run are read that way, as zero-filled duals).
  Rev zeroed[2]{};
  CHECK(tangent_free(zeroed[0]));
  CHECK(tangent_free(Rev(2.0) * zeroed[1] + 1.0));
  tape.clear();
}

namespace {

// Dot, cross and matrix products of vectors and matrices made of x and y (some entries constant, some a
// variable twice): the fused nodes of engine/core/reverse_vec3.hpp and reverse_mat3.hpp.
template <class S>
S linear_algebra_function(const S& x, const S& y) {
  const Vec3<S> a(x, S(2.0), x * y), b(sin(y), y, S(-0.5));
  const Mat3<S> m = Mat3<S>::from_columns(a, b, Vec3<S>(S(1.0), x, y * y));
  const Vec3<S> c = cross(a, b);
  return dot(c, m * a) + dot(mul_transpose(m, b), a) + (m * m).m[2][1] * norm2(c);
}

}  // namespace

TEST_CASE(
    "fused tape nodes (dot, cross, matrix products) give forward mode's derivatives and truncate cleanly") {
  const double x = 0.7, y = 1.3;
  const Dual<2> fwd = linear_algebra_function(seeded<Dual<2>>(x, 0), seeded<Dual<2>>(y, 1));
  RevTape& tape = RevTape::current();
  tape.clear();
  const Rev rx = Rev::variable(x), ry = Rev::variable(y);
  const int nodes_before = tape.size(), links_before = tape.link_count();
  const Rev out = linear_algebra_function(rx, ry);
  CHECK(tape.link_count() > links_before);  // fused nodes were recorded
  const std::vector<double> adj = reverse_sweep(tape, out.i);
  CHECK(out.v == fwd.v);  // the same values, bit for bit
  CHECK(adj[static_cast<std::size_t>(rx.i)] == doctest::Approx(fwd.d[0]).epsilon(1e-14));
  CHECK(adj[static_cast<std::size_t>(ry.i)] == doctest::Approx(fwd.d[1]).epsilon(1e-14));
  // A checkpointed adjoint truncates each segment after its sweep: the links go with their nodes, and the
  // tape records the same segment again exactly as the first time.
  const int nodes_after = tape.size(), links_after = tape.link_count();
  tape.truncate(nodes_before);
  CHECK(tape.size() == nodes_before);
  CHECK(tape.link_count() == links_before);
  const Rev again = linear_algebra_function(rx, ry);
  CHECK(tape.size() == nodes_after);
  CHECK(tape.link_count() == links_after);
  CHECK(reverse_sweep(tape, again.i)[static_cast<std::size_t>(ry.i)] == adj[static_cast<std::size_t>(ry.i)]);
  // With the tape off a fused operation records nothing.
  tape.set_recording(false);
  const Rev off = linear_algebra_function(rx, ry);
  tape.set_recording(true);
  CHECK(off.v == fwd.v);
  CHECK(off.i == 0);
  CHECK(tape.size() == nodes_after);
  tape.clear();
  CHECK(tape.link_count() == 0);
}

TEST_CASE("a dual run takes exactly the steps and values of a double run on every shipped scene") {
  // Divisions once rounded differently in duals (a * (1/b)); adaptive error estimates amplified the ulp into
  // different step sequences, so forward-mode AD differentiated a slightly different run than FD measured.
  test::for_each_shipped_scene([](const std::string&, const Problem& p) {
    PointEvaluator eval(p);
    const double x = p.sweep.value_at(p.sweep.points / 3);
    const LossSample dual = eval.loss_and_grad(x), plain = eval.loss_only(x);
    CHECK(dual.stats.accepted == plain.stats.accepted);
    CHECK(dual.stats.rejected == plain.stats.rejected);
    CHECK(dual.loss == plain.loss);
  });
}

TEST_CASE("reverse mode gives forward mode's gradient of every parameter on every shipped scene") {
  // One taped run against ceil(P / 4) forward runs. Tolerance 1e-10 relative (the target), measured
  // against at least 1e-3 (so absolute 1e-13 for derivatives below that): the tape applies the contact
  // solve's implicit derivative through an explicit H^-1, forward mode through the Cholesky factor; that
  // rounding, carried through hundreds of stiff contact steps, measured 6e-11 at most (billiards' size.0 of
  // ball 1).
  test::for_each_shipped_scene(
      [](const std::string&, const Problem& p) { test::check_reverse_matches_forward(p); });
}

TEST_CASE("reverse mode refuses step sizes differentiated through the controller") {
  const Problem p = test::shipped("toss_box_diffmjx.json", {"gradient.through_controller=true"});
  ParameterGradient g(p, {"model.bodies.0.vel.2"}, nullptr);
  const ObjectiveGradient rev = g.reverse(g.initial_values());
  CHECK(rev.status.find("gradient.through_controller=false") != std::string::npos);
  CHECK(std::isnan(rev.grad[0]));
}

TEST_CASE("gradient.mode = reverse gives the forward sweep's curve") {
  for (const char* name : {"toy_point_mass.json", "toss_box_diffmjx.json"}) {
    CAPTURE(name);
    const std::vector<std::string> few = {"sweep.points=12"};
    std::vector<std::string> rev = few;
    rev.push_back("gradient.mode=reverse");
    PointEvaluator forward(test::shipped(name, few)), reverse(test::shipped(name, rev));
    const Problem p = test::shipped(name, few);
    for (long i = 0; i < p.sweep.points; ++i) {
      const double x = p.sweep.value_at(i);
      const LossSample a = forward.loss_and_grad(x), b = reverse.loss_and_grad(x);
      REQUIRE(a.stats.status == Status::ok);
      REQUIRE(b.stats.status == Status::ok);
      CHECK(b.loss == a.loss);
      CHECK(std::fabs(b.grad - a.grad) <= 1e-10 * std::max(std::fabs(a.grad), 1e-3));
    }
  }
}

TEST_CASE("gradient.mode = reverse refuses settings that need tangents during the run") {
  for (const char* key : {"gradient.through_controller=true", "gradient.control_tangents=true"}) {
    const ProblemLoad loaded =
        load_problem_file(test::scene_path("toss_box_diffmjx.json"), {"gradient.mode=reverse", key});
    CHECK_FALSE(loaded.ok());
    CHECK(loaded.errors.find("needs gradient.mode = forward") != std::string::npos);
  }
}
