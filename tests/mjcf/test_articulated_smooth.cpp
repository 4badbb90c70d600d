// engine/articulated/ against MuJoCo 2.2.2's smooth dynamics (mj_forward without contacts or constraints):
// body poses, the dense inertia matrix, bias and passive forces and qacc at random states, mj_integratePos,
// and the forward (Dual) and reverse (Rev) derivatives of qacc against finite differences.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/articulated/forward_smooth.hpp"
#include "engine/core/dual.hpp"
#include "engine/core/reverse.hpp"
#include "mjcf/tree_from_mjmodel.hpp"
#include "tests/mjcf/mujoco_models.hpp"

using namespace sg;
using sg::test::DataPtr;
using sg::test::kHumanoid;
using sg::test::load_xml_file;
using sg::test::load_xml_text;
using sg::test::make_reference_data;
using sg::test::ModelPtr;
using sg::test::NamedXml;
using sg::test::random_state;

namespace {

// Agreement with MuJoCo: the two compute the same formulas in a different order, so they differ by
// rounding, amplified by qM's conditioning for qacc.
constexpr double kRelTol = 1e-10;

// The models of the comparison: every joint type, joints with offset anchors and axes, bodies whose
// inertial frame is moved and turned, several joints in one body, branches, a jointless body inside a
// chain, two trees, nonzero armature, damping and stiffness (springref too) and non-default gravity.

const NamedXml kModels[] = {
    {"hinge chain", R"(
<mujoco>
  <option gravity="0.3 -0.2 -9.5"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0.1 0.2 1" quat="0.9 0.1 0.3 0.2">
      <joint type="hinge" pos="0 0 0.1" axis="0.2 1 0.3" armature="0.02" damping="0.3" stiffness="2"
             springref="10"/>
      <inertial pos="0.05 0.02 -0.2" quat="0.8 0.3 -0.2 0.4" mass="1.3" diaginertia="0.05 0.04 0.02"/>
      <body pos="0.02 0.01 -0.4" euler="10 20 30">
        <joint type="hinge" pos="0.01 0 0.05" axis="1 0.1 0"/>
        <inertial pos="0 0.03 -0.2" fullinertia="0.03 0.025 0.015 0.002 -0.001 0.003" mass="0.8"/>
        <body pos="0 0 -0.4">
          <joint type="hinge" axis="0 1 0" damping="0.1"/>
          <geom type="capsule" fromto="0 0 0 0 0.1 -0.3" size="0.03"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"cart-pole", R"(
<mujoco>
  <option gravity="0 0 -3"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0 0 0.5">
      <joint type="slide" axis="1 0.2 0" damping="0.5" armature="0.1" stiffness="1" springref="0.3"/>
      <geom type="box" size="0.2 0.1 0.05" mass="1"/>
      <body pos="0 0 0.05">
        <joint type="hinge" axis="0 1 0" stiffness="0.5"/>
        <geom type="capsule" fromto="0 0 0 0.1 0 0.6" size="0.02" mass="0.2"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"ball joint", R"(
<mujoco>
  <option><flag contact="disable"/></option>
  <worldbody>
    <body pos="0 0 1" euler="20 -10 40">
      <joint type="ball" pos="0 0 0.2" stiffness="3" damping="0.2" armature="0.01"/>
      <geom type="box" size="0.1 0.2 0.3" pos="0 0.05 -0.2" euler="10 0 20"/>
      <body pos="0.1 0 -0.5">
        <joint type="hinge" axis="0 1 1" pos="0 0 0.05"/>
        <geom type="ellipsoid" size="0.05 0.1 0.2" pos="0 0 -0.15"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"free body", R"(
<mujoco>
  <option gravity="1 0 -7"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0.3 -0.2 2" quat="0.7 0.1 -0.5 0.3">
      <joint type="free" stiffness="0.7" damping="0.05" armature="0.02"/>
      <inertial pos="0.1 -0.05 0.02" quat="0.6 0.2 0.1 -0.4" mass="2" diaginertia="0.1 0.07 0.03"/>
      <body pos="0.2 0 0.1">
        <joint type="hinge" axis="0 0 1" pos="0 0.05 0" damping="0.2"/>
        <geom type="box" size="0.1 0.05 0.02" pos="0.1 0 0"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"two hinges in one body", R"(
<mujoco>
  <option><flag contact="disable"/></option>
  <worldbody>
    <body pos="0 0 1">
      <joint type="hinge" axis="1 0 0" pos="0 0 0.1" stiffness="1" armature="0.05"/>
      <joint type="hinge" axis="0 1 0.3" pos="0.05 0 0" damping="0.4"/>
      <joint type="slide" axis="0 0 1" damping="0.1"/>
      <geom type="box" size="0.1 0.2 0.3" pos="0 0 -0.3"/>
      <body pos="0 0 -0.6">
        <joint type="hinge" axis="1 1 0"/>
        <joint type="hinge" axis="0 0 1" pos="0 0.02 0"/>
        <geom type="sphere" size="0.1" pos="0 0.1 -0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
    {"branched tree", R"(
<mujoco>
  <option gravity="0 -2 -9"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0 0 1">
      <geom type="box" size="0.2 0.1 0.1"/>
      <body pos="0.2 0 0">
        <joint type="hinge" axis="0 1 0" damping="0.3" armature="0.01"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
        <body pos="0.3 0 0" euler="0 30 0">
          <geom type="sphere" size="0.05"/>
          <body pos="0.1 0 0">
            <joint type="hinge" axis="1 0 1" stiffness="2" springref="-20"/>
            <geom type="capsule" fromto="0 0 0 0.2 0 -0.1" size="0.02"/>
          </body>
        </body>
      </body>
      <body pos="-0.2 0 0">
        <joint type="ball" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 -0.3 0 0" size="0.03"/>
        <body pos="-0.3 0 0">
          <joint type="slide" axis="-1 0 0"/>
          <geom type="box" size="0.05 0.04 0.03"/>
        </body>
      </body>
    </body>
    <body pos="1 1 0.5">
      <joint type="hinge" axis="0 0 1" pos="0.1 0 0"/>
      <geom type="box" size="0.3 0.05 0.05" pos="0.3 0 0"/>
      <body pos="0.6 0 0">
        <joint type="ball" pos="0 0 0.02" stiffness="0.5"/>
        <geom type="cylinder" size="0.04 0.1" pos="0 0 -0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>)"},
};

// The state (qpos, qvel, qfrc_applied) of d, over any scalar.
template <class S>
void copy_state(const mjModel* m, const mjData* d, TreeData<S>& t) {
  for (int i = 0; i < m->nq; ++i) t.qpos[i] = d->qpos[i];
  for (int i = 0; i < m->nv; ++i) t.qvel[i] = d->qvel[i], t.qfrc_applied[i] = d->qfrc_applied[i];
}

// max |a - b| / max |b|: the error relative to the quantity's own scale.
double rel_err(const double* a, const double* b, int n) {
  double diff = 0.0, scale = 0.0;
  for (int i = 0; i < n; ++i) {
    diff = std::fmax(diff, std::fabs(a[i] - b[i]));
    scale = std::fmax(scale, std::fabs(b[i]));
  }
  return scale > 0.0 ? diff / scale : diff;
}

struct Worst {
  double xpos = 0, xquat = 0, qM = 0, bias = 0, passive = 0, qacc = 0, integrate = 0;
};

// One state: ours against mj_forward's, the worst errors kept.
void compare_state(const mjModel* m, mjData* d, const TreeModel<double>& tree, TreeData<double>& t,
                   Worst& w) {
  mj_forward(m, d);
  copy_state(m, d, t);
  REQUIRE(tree_forward(tree, t));
  const int nb = m->nbody - 1, nv = m->nv;
  double xpos[3 * kMaxTreeBodies], xquat[4 * kMaxTreeBodies];
  for (int i = 1; i < m->nbody; ++i) {
    const Vec3<double>& p = t.xpos[i];
    Quat<double> q = t.xquat[i];
    const mjtNum* mq = d->xquat + 4 * i;
    // A quaternion and its negative are the same orientation.
    if (q.w * mq[0] + q.x * mq[1] + q.y * mq[2] + q.z * mq[3] < 0) q = {-q.w, -q.x, -q.y, -q.z};
    const double pv[3] = {p.x, p.y, p.z}, qv[4] = {q.w, q.x, q.y, q.z};
    for (int c = 0; c < 3; ++c) xpos[3 * (i - 1) + c] = pv[c];
    for (int c = 0; c < 4; ++c) xquat[4 * (i - 1) + c] = qv[c];
  }
  w.xpos = std::fmax(w.xpos, rel_err(xpos, d->xpos + 3, 3 * nb));
  w.xquat = std::fmax(w.xquat, rel_err(xquat, d->xquat + 4, 4 * nb));
  std::vector<mjtNum> full(static_cast<std::size_t>(nv * nv));
  mj_fullM(m, full.data(), d->qM);
  w.qM = std::fmax(w.qM, rel_err(t.qM, full.data(), nv * nv));
  w.bias = std::fmax(w.bias, rel_err(t.qfrc_bias, d->qfrc_bias, nv));
  w.passive = std::fmax(w.passive, rel_err(t.qfrc_passive, d->qfrc_passive, nv));
  w.qacc = std::fmax(w.qacc, rel_err(t.qacc, d->qacc, nv));
}

// One position step with a large dt (quaternions turn visibly): ours against mj_integratePos.
void compare_integrate(const mjModel* m, const mjData* d, const TreeModel<double>& tree, double dt,
                       Worst& w) {
  std::vector<mjtNum> qpos(d->qpos, d->qpos + m->nq);
  mj_integratePos(m, qpos.data(), d->qvel, dt);
  double ours[kMaxQpos], vel[kMaxDofs];
  for (int i = 0; i < m->nq; ++i) ours[i] = d->qpos[i];
  for (int i = 0; i < m->nv; ++i) vel[i] = d->qvel[i];
  tree_integrate_pos(tree, ours, vel, dt);
  w.integrate = std::fmax(w.integrate, rel_err(ours, qpos.data(), m->nq));
}

void compare_model(const std::string& name, mjModel* m, double vmax) {
  CAPTURE(name);
  TreeModel<double> tree;
  const std::string why = mjcf::tree_from_mjmodel(m, tree);
  INFO(why);
  REQUIRE(why.empty());
  DataPtr d = make_reference_data(m);
  auto t = std::make_unique<TreeData<double>>();
  std::mt19937 rng(35);
  Worst w;
  for (int s = 0; s < 20; ++s) {
    random_state(m, d.get(), rng, vmax);
    compare_state(m, d.get(), tree, *t, w);
    compare_integrate(m, d.get(), tree, m->opt.timestep, w);
    compare_integrate(m, d.get(), tree, 0.1, w);
  }
  MESSAGE(name << ": worst relative errors over 20 states: xpos " << w.xpos << ", xquat " << w.xquat
               << ", qM " << w.qM << ", qfrc_bias " << w.bias << ", qfrc_passive " << w.passive << ", qacc "
               << w.qacc << ", integratePos " << w.integrate);
  CHECK(w.xpos <= kRelTol);
  CHECK(w.xquat <= kRelTol);
  CHECK(w.qM <= kRelTol);
  CHECK(w.bias <= kRelTol);
  CHECK(w.passive <= kRelTol);
  CHECK(w.qacc <= kRelTol);
  CHECK(w.integrate <= kRelTol);
}

}  // namespace

TEST_CASE("articulated smooth dynamics match MuJoCo's mj_forward on inline models") {
  for (const NamedXml& nx : kModels) {
    std::string error;
    ModelPtr m = load_xml_text(nx.xml, error);
    INFO(nx.name << ": " << error);
    REQUIRE(m);
    compare_model(nx.name, m.get(), 2.0);
  }
}

TEST_CASE("articulated smooth dynamics match MuJoCo's mj_forward on the DeepMind humanoid") {
  if (!std::filesystem::exists(kHumanoid)) {
    std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (libmujoco-samples)\n", kHumanoid);
    return;
  }
  std::string error;
  ModelPtr m = load_xml_file(kHumanoid, error);
  INFO(error);
  REQUIRE(m);
  CHECK(m->nv == 27);
  compare_model("humanoid", m.get(), 1.0);
}

namespace {

// What the derivative checks differentiate by: the last dof's velocity (a leaf's: Coriolis, centrifugal and
// damping terms depend on it) and the mass of the first moving body (every dof's inertia does). qvel[0] is
// no good everywhere: a free joint's translational velocity leaves qacc unchanged.
struct Seeds {
  int dof, body;
};

Seeds seeds_of(const TreeModel<double>& tree) {
  return {tree.nv - 1, tree.dof_body[0]};
}

// Central differences of the double qacc in the seeded velocity (lane 0) and mass (lane 1).
void central_differences(const mjModel* m, const TreeModel<double>& tree, const mjData* d, double h,
                         std::vector<double> fd[2]) {
  const Seeds seed = seeds_of(tree);
  const int nv = tree.nv;
  auto t = std::make_unique<TreeData<double>>();
  for (int lane = 0; lane < 2; ++lane) {
    fd[lane].assign(static_cast<std::size_t>(nv), 0.0);
    for (int sign = -1; sign <= 1; sign += 2) {
      TreeModel<double> moved = tree;
      copy_state(m, d, *t);
      if (lane == 0) t->qvel[seed.dof] += sign * h;
      if (lane == 1) moved.body[seed.body].mass += sign * h;
      REQUIRE(tree_forward(moved, *t));
      for (int i = 0; i < nv; ++i) fd[lane][static_cast<std::size_t>(i)] += sign * t->qacc[i] / (2.0 * h);
    }
  }
}

// The derivative checks on one model at one random state.
void check_derivatives(const std::string& name, mjModel* m) {
  CAPTURE(name);
  TreeModel<double> tree;
  REQUIRE(mjcf::tree_from_mjmodel(m, tree).empty());
  DataPtr d = make_reference_data(m);
  std::mt19937 rng(7);
  random_state(m, d.get(), rng, 2.0);
  const int nv = tree.nv;

  const Seeds seed = seeds_of(tree);

  // Forward mode: lane 0 seeds the velocity, lane 1 the mass.
  using D = Dual<2>;
  auto dual_tree = std::make_unique<TreeModel<D>>();
  tree_convert(tree, *dual_tree);
  dual_tree->body[seed.body].mass.d[1] = 1.0;
  auto td = std::make_unique<TreeData<D>>();
  copy_state(m, d.get(), *td);
  td->qvel[seed.dof].d[0] = 1.0;
  REQUIRE(tree_forward(*dual_tree, *td));

  std::vector<double> fd[2];
  central_differences(m, tree, d.get(), 1e-4, fd);
  // Rounding dominates the differences' error (it grew as 1 / h from h = 1e-4 to 1e-7); at h = 1e-4 they
  // agree with the tangents to better than 1e-8 of the tangent's scale on every model: tolerance 1e-7.
  for (int lane = 0; lane < 2; ++lane) {
    std::vector<double> tangent(static_cast<std::size_t>(nv));
    for (int i = 0; i < nv; ++i) tangent[static_cast<std::size_t>(i)] = td->qacc[i].d[lane];
    const double err = rel_err(tangent.data(), fd[lane].data(), nv);
    double scale = 0.0;
    for (double x : fd[lane]) scale = std::fmax(scale, std::fabs(x));
    MESSAGE(name << ": dual tangent of qacc, lane " << lane << " (scale " << scale
                 << "), relative error against central differences " << err);
    CHECK(scale > 1e-3);  // the seed does move qacc: the comparison means something
    CHECK(err <= 1e-7);
  }

  // mj_integratePos on duals: the tangent of the next qpos in the seeded velocity against differences.
  const double dt = 0.1, h = 1e-6;
  D qnext[kMaxQpos];
  for (int i = 0; i < tree.nq; ++i) qnext[i] = td->qpos[i];
  tree_integrate_pos(*dual_tree, qnext, td->qvel, dt);
  double qplus[kMaxQpos], qminus[kMaxQpos], vel[kMaxDofs];
  for (int i = 0; i < tree.nq; ++i) qplus[i] = qminus[i] = td->qpos[i].v;
  for (int i = 0; i < nv; ++i) vel[i] = td->qvel[i].v;
  vel[seed.dof] += h;
  tree_integrate_pos(tree, qplus, vel, dt);
  vel[seed.dof] -= 2.0 * h;
  tree_integrate_pos(tree, qminus, vel, dt);
  double worst = 0.0;
  for (int i = 0; i < tree.nq; ++i)
    worst = std::fmax(worst, std::fabs(qnext[i].d[0] - (qplus[i] - qminus[i]) / (2.0 * h)));
  // Tangents of order dt = 0.1; the differences' rounding is 1e-16 / h = 1e-10.
  CHECK(worst <= 1e-8);

  // Reverse mode: the gradient of sum_i qacc_i taped, against the dual tangents' sum (same derivative,
  // different accumulation: agreement to rounding).
  RevTape& tape = RevTape::current();
  tape.clear();
  auto rev_tree = std::make_unique<TreeModel<Rev>>();
  tree_convert(tree, *rev_tree);
  const Rev mass = Rev::variable(tree.body[seed.body].mass);
  rev_tree->body[seed.body].mass = mass;
  auto tr = std::make_unique<TreeData<Rev>>();
  copy_state(m, d.get(), *tr);
  const Rev v0 = Rev::variable(d->qvel[seed.dof]);
  tr->qvel[seed.dof] = v0;
  REQUIRE(tree_forward(*rev_tree, *tr));
  Rev total = 0.0;
  for (int i = 0; i < nv; ++i) total = total + tr->qacc[i];
  const std::vector<double> adj = reverse_sweep(tape, total.i);
  double want[2] = {0.0, 0.0};
  for (int i = 0; i < nv; ++i) want[0] += td->qacc[i].d[0], want[1] += td->qacc[i].d[1];
  const double got[2] = {adj[static_cast<std::size_t>(v0.i)], adj[static_cast<std::size_t>(mass.i)]};
  for (int lane = 0; lane < 2; ++lane) {
    CAPTURE(lane);
    CHECK(got[lane] == doctest::Approx(want[lane]).epsilon(1e-10));
  }
  tape.clear();
}

}  // namespace

TEST_CASE("articulated qacc derivatives: Dual tangents match central differences, Rev gradients the duals") {
  for (const NamedXml& nx : kModels) {
    std::string error;
    ModelPtr m = load_xml_text(nx.xml, error);
    REQUIRE(m);
    check_derivatives(nx.name, m.get());
  }
  if (std::filesystem::exists(kHumanoid)) {
    std::string error;
    ModelPtr m = load_xml_file(kHumanoid, error);
    REQUIRE(m);
    check_derivatives("humanoid", m.get());
  }
}

TEST_CASE("articulated tree_from_mjmodel refuses what the smooth tree cannot represent") {
  struct Refused {
    const char* xml;
    const char* reason;
  };
  const Refused cases[] = {
      {R"(<mujoco><worldbody><body mocap="true"><geom size="0.1"/></body></worldbody></mujoco>)", "mocap"},
      {R"(<mujoco><option viscosity="0.1"/><worldbody><body><joint/>
          <geom size="0.1" fluidshape="ellipsoid"/></body></worldbody></mujoco>)",
       "ellipsoid fluid model"},
      {R"(<mujoco><worldbody><body><joint name="a"/><geom size="0.1"/></body></worldbody>
          <tendon><fixed stiffness="1"><joint joint="a" coef="1"/></fixed></tendon></mujoco>)",
       "tendon"},
  };
  for (const Refused& c : cases) {
    std::string error;
    ModelPtr m = load_xml_text(c.xml, error);
    INFO(error);
    REQUIRE(m);
    TreeModel<double> tree;
    const std::string why = mjcf::tree_from_mjmodel(m.get(), tree);
    CAPTURE(why);
    CHECK(why.find(c.reason) != std::string::npos);
  }
  // More bodies than the tree holds.
  std::string chain = "<mujoco><worldbody>";
  for (int i = 0; i < kMaxTreeBodies; ++i) chain += "<body><joint/><geom size=\"0.1\"/>";
  for (int i = 0; i < kMaxTreeBodies; ++i) chain += "</body>";
  chain += "</worldbody></mujoco>";
  std::string error;
  ModelPtr m = load_xml_text(chain, error);
  REQUIRE(m);
  TreeModel<double> tree;
  CHECK(mjcf::tree_from_mjmodel(m.get(), tree).find("too many bodies") != std::string::npos);
  CHECK(mjcf::tree_from_mjmodel(nullptr, tree) == "no model");
}
