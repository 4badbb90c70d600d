// engine/articulated/'s actuation (actuation.hpp, MuJoCo 2.2.2 mj_transmission and mj_fwdActuation)
// against mj_forward: actuator lengths, moments, velocities and forces, qfrc_actuator and qacc at random
// states and random controls (many outside ctrlrange, forces beyond forcerange), on inline models with
// every supported actuator shortcut and joint type and on the DeepMind humanoid's motors; the Dual
// tangents of qacc in a control and in a position actuator's kp against central differences, the Rev
// gradient against the duals; and the refusals of tree_actuators_from_mjmodel.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/articulated/forward_actuated.hpp"
#include "engine/core/dual.hpp"
#include "engine/core/reverse.hpp"
#include "mjcf/tree_actuators_from_mjmodel.hpp"
#include "mjcf/tree_constraints_from_mjmodel.hpp"
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

namespace {

// Lengths, velocities, forces and qfrc_actuator are the same products in the same order as MuJoCo's (a
// ball's rotation vector and dot products over several dofs aside): rounding only, measured at most 1.3e-15
// relative. qacc goes through qM's Cholesky factor, whose rounding differs from mj_factorM's: at most 8e-14
// (the humanoid).
constexpr double kActTol = 1e-12;
constexpr double kQaccTol = 1e-12;
// The constrained qacc: MuJoCo's Newton iterations stop at opt.tolerance (see test_articulated_constraints).
constexpr double kSolveTol = 1e-6;

// Slide and hinge with geared motors (one ctrl-limited, one force-limited, one both); two position
// actuators, a velocity actuator and an affine <general> sharing joints; ball and free joints with 6D gears,
// in the joint's and the parent's frame; and the clampctrl and actuation disable flags.
const NamedXml kModels[] = {
    {"geared motors on a cart-pole", R"(
<mujoco>
  <option gravity="0 0 -3"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0 0 0.5">
      <joint name="cart" type="slide" axis="1 0.2 0" damping="0.5" armature="0.1"/>
      <geom type="box" size="0.2 0.1 0.05" mass="1"/>
      <body pos="0 0 0.05">
        <joint name="pole" type="hinge" axis="0 1 0" stiffness="0.5"/>
        <geom type="capsule" fromto="0 0 0 0.1 0 0.6" size="0.02" mass="0.2"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="cart" gear="2.5" ctrllimited="true" ctrlrange="-1 0.5"/>
    <motor joint="pole" gear="-0.7" forcelimited="true" forcerange="-0.4 0.9"/>
    <motor joint="pole" gear="1.3" ctrllimited="true" ctrlrange="-0.3 0.8" forcelimited="true"
           forcerange="-0.2 0.25"/>
  </actuator>
</mujoco>)"},
    {"position, velocity and general on shared joints", R"(
<mujoco>
  <option gravity="0.3 -0.2 -9.5"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0.1 0.2 1" quat="0.9 0.1 0.3 0.2">
      <joint name="h1" type="hinge" pos="0 0 0.1" axis="0.2 1 0.3" armature="0.02" damping="0.3"/>
      <inertial pos="0.05 0.02 -0.2" quat="0.8 0.3 -0.2 0.4" mass="1.3" diaginertia="0.05 0.04 0.02"/>
      <body pos="0.02 0.01 -0.4" euler="10 20 30">
        <joint name="s1" type="slide" axis="1 0.1 0"/>
        <inertial pos="0 0.03 -0.2" fullinertia="0.03 0.025 0.015 0.002 -0.001 0.003" mass="0.8"/>
        <body pos="0 0 -0.4">
          <joint name="h2" type="hinge" axis="0 1 0" damping="0.1"/>
          <geom type="capsule" fromto="0 0 0 0 0.1 -0.3" size="0.03"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position joint="h1" kp="20" gear="1.5"/>
    <velocity joint="h1" kv="3"/>
    <position joint="h2" kp="7" ctrllimited="true" ctrlrange="-0.5 1"/>
    <general joint="s1" gaintype="affine" gainprm="1 0.5 -0.2" biastype="affine" biasprm="0.3 -2 -0.4"
             gear="0.8"/>
    <general joint="h2" gaintype="affine" gainprm="2 0 0.3" forcelimited="true" forcerange="-1 1.5"/>
    <general joint="s1" gainprm="0.6" biastype="affine" biasprm="-0.1 0 0"/>
  </actuator>
</mujoco>)"},
    {"ball and free joints", R"(
<mujoco>
  <option gravity="1 0 -7"><flag contact="disable"/></option>
  <worldbody>
    <body pos="0.3 -0.2 2" quat="0.7 0.1 -0.5 0.3">
      <joint name="free" type="free" damping="0.05" armature="0.02"/>
      <inertial pos="0.1 -0.05 0.02" quat="0.6 0.2 0.1 -0.4" mass="2" diaginertia="0.1 0.07 0.03"/>
      <body pos="0.2 0 0.1">
        <joint name="ball" type="ball" pos="0 0 0.05" damping="0.2"/>
        <geom type="box" size="0.1 0.05 0.02" pos="0.1 0 0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="free" gear="1 0 0.5 0.2 -0.3 1"/>
    <general jointinparent="free" gear="0 0.4 0 1 0.5 -0.2"/>
    <motor joint="ball" gear="0.3 -1 0.5 0 0 0" ctrllimited="true" ctrlrange="-1 1"/>
    <position jointinparent="ball" kp="4" gear="0.2 0.7 -0.4 0 0 0"/>
  </actuator>
</mujoco>)"},
    {"ctrl clamping disabled", R"(
<mujoco>
  <option><flag contact="disable" clampctrl="disable"/></option>
  <worldbody>
    <body pos="0 0 1">
      <joint name="a" type="hinge" axis="1 0 0"/>
      <geom type="box" size="0.1 0.2 0.3" pos="0 0 -0.3"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="a" gear="2" ctrllimited="true" ctrlrange="-0.1 0.1"/>
    <position joint="a" kp="3" ctrllimited="true" ctrlrange="0 0.2" forcelimited="true" forcerange="-5 5"/>
  </actuator>
</mujoco>)"},
    {"actuation disabled", R"(
<mujoco>
  <option><flag contact="disable" actuation="disable"/></option>
  <worldbody>
    <body pos="0 0 1">
      <joint name="a" type="slide" axis="0 0 1"/>
      <geom type="sphere" size="0.1"/>
    </body>
  </worldbody>
  <actuator><motor joint="a" gear="3"/></actuator>
</mujoco>)"},
};

// The shared random state (tests/mjcf/mujoco_models.hpp), then controls in (-3, 3): most ranges here are
// narrower, so most limited controls are clamped.
void random_state(const mjModel* m, mjData* d, std::mt19937& rng, double vmax) {
  sg::test::random_state(m, d, rng, vmax);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < m->nu; ++i) d->ctrl[i] = 3.0 * u(rng);
}

// The state and controls of d, over any scalar.
template <class S>
void copy_state(const mjModel* m, const mjData* d, TreeData<S>& t, TreeActuatorData<S>& ta) {
  for (int i = 0; i < m->nq; ++i) t.qpos[i] = d->qpos[i];
  for (int i = 0; i < m->nv; ++i) t.qvel[i] = d->qvel[i], t.qfrc_applied[i] = d->qfrc_applied[i];
  for (int i = 0; i < m->nu; ++i) ta.ctrl[i] = d->ctrl[i];
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
  double length = 0, moment = 0, velocity = 0, force = 0, qfrc = 0, qacc = 0;
  int clamped_ctrl = 0, clamped_force = 0;  // how often the ranges bit: the clamps were exercised
};

// How many controls and forces of d lie outside their ranges before MuJoCo's clamps.
void count_clamps(const mjModel* m, const mjData* d, Worst& w) {
  for (int i = 0; i < m->nu; ++i) {
    const mjtNum* cr = m->actuator_ctrlrange + 2 * i;
    const mjtNum* fr = m->actuator_forcerange + 2 * i;
    if (m->actuator_ctrllimited[i] && (d->ctrl[i] < cr[0] || d->ctrl[i] > cr[1])) w.clamped_ctrl++;
    if (m->actuator_forcelimited[i] && (d->actuator_force[i] == fr[0] || d->actuator_force[i] == fr[1]))
      w.clamped_force++;
  }
}

struct Mapped {
  TreeModel<double> tree;
  TreeActuatorModel<double> act;
};

std::unique_ptr<Mapped> map_model(const mjModel* m) {
  auto out = std::make_unique<Mapped>();
  std::string why = mjcf::tree_from_mjmodel(m, out->tree);
  if (why.empty()) why = mjcf::tree_actuators_from_mjmodel(m, out->tree, out->act);
  INFO(why);
  REQUIRE(why.empty());
  return out;
}

// One state: ours against mj_forward's, the worst errors kept.
void compare_state(const mjModel* m, mjData* d, const Mapped& mm, TreeData<double>& t,
                   TreeActuatorData<double>& ta, Worst& w) {
  mj_forward(m, d);
  copy_state(m, d, t, ta);
  REQUIRE(tree_forward(mm.tree, mm.act, t, ta));
  const int nu = m->nu, nv = m->nv;
  w.length = std::fmax(w.length, rel_err(ta.actuator_length, d->actuator_length, nu));
  w.moment = std::fmax(w.moment, rel_err(ta.actuator_moment, d->actuator_moment, nu * nv));
  w.velocity = std::fmax(w.velocity, rel_err(ta.actuator_velocity, d->actuator_velocity, nu));
  w.force = std::fmax(w.force, rel_err(ta.actuator_force, d->actuator_force, nu));
  w.qfrc = std::fmax(w.qfrc, rel_err(ta.qfrc_actuator, d->qfrc_actuator, nv));
  w.qacc = std::fmax(w.qacc, rel_err(t.qacc, d->qacc, nv));
  count_clamps(m, d, w);
}

Worst compare_model(const std::string& name, mjModel* m, double vmax) {
  CAPTURE(name);
  const std::unique_ptr<Mapped> mm = map_model(m);
  DataPtr d = make_reference_data(m);
  auto t = std::make_unique<TreeData<double>>();
  auto ta = std::make_unique<TreeActuatorData<double>>();
  std::mt19937 rng(35);
  Worst w;
  for (int s = 0; s < 50; ++s) {
    random_state(m, d.get(), rng, vmax);
    compare_state(m, d.get(), *mm, *t, *ta, w);
  }
  MESSAGE(name << ": worst relative errors over 50 states: actuator_length " << w.length << ", moment "
               << w.moment << ", velocity " << w.velocity << ", force " << w.force << ", qfrc_actuator "
               << w.qfrc << ", qacc " << w.qacc << " (ctrl outside ctrlrange " << w.clamped_ctrl
               << " times, force at a forcerange bound " << w.clamped_force << " times)");
  CHECK(w.length <= kActTol);
  CHECK(w.moment <= kActTol);
  CHECK(w.velocity <= kActTol);
  CHECK(w.force <= kActTol);
  CHECK(w.qfrc <= kActTol);
  CHECK(w.qacc <= kQaccTol);
  return w;
}

}  // namespace

TEST_CASE("articulated actuators match MuJoCo's mj_forward on inline models") {
  for (const NamedXml& nx : kModels) {
    std::string error;
    ModelPtr m = load_xml_text(nx.xml, error);
    INFO(nx.name << ": " << error);
    REQUIRE(m);
    const Worst w = compare_model(nx.name, m.get(), 2.0);
    if (std::string(nx.name) == "geared motors on a cart-pole") {
      CHECK(w.clamped_ctrl > 20);
      CHECK(w.clamped_force > 20);
    }
  }
}

TEST_CASE("articulated actuators: actuation disabled gives zero forces, as in MuJoCo") {
  std::string error;
  ModelPtr m = load_xml_text(kModels[4].xml, error);
  REQUIRE(m);
  const std::unique_ptr<Mapped> mm = map_model(m.get());
  CHECK_FALSE(mm->act.opt.actuation);
  TreeData<double> t;
  TreeActuatorData<double> ta;
  tree_reset(mm->tree, t);
  ta.ctrl[0] = 2.0;
  REQUIRE(tree_forward(mm->tree, mm->act, t, ta));
  CHECK(ta.actuator_force[0] == 0.0);
  CHECK(ta.qfrc_actuator[0] == 0.0);
}

TEST_CASE("articulated actuators: a NaN or huge control zeroes every control, as in MuJoCo") {
  std::string error;
  ModelPtr m = load_xml_text(kModels[1].xml, error);
  REQUIRE(m);
  const std::unique_ptr<Mapped> mm = map_model(m.get());
  DataPtr d = make_reference_data(m.get());
  auto t = std::make_unique<TreeData<double>>();
  auto ta = std::make_unique<TreeActuatorData<double>>();
  std::mt19937 rng(3);
  // MuJoCo warns about the bad control (and would append to MUJOCO_LOG.TXT): silenced for this test.
  void (*const warning)(const char*) = mju_user_warning;
  mju_user_warning = [](const char*) {};
  for (double bad : {std::nan(""), 2e10}) {
    random_state(m.get(), d.get(), rng, 1.0);
    d->ctrl[3] = bad;
    mj_forward(m.get(), d.get());
    copy_state(m.get(), d.get(), *t, *ta);
    REQUIRE(tree_forward(mm->tree, mm->act, *t, *ta));
    CHECK(rel_err(ta->actuator_force, d->actuator_force, m->nu) <= kActTol);
    CHECK(rel_err(t->qacc, d->qacc, m->nv) <= kQaccTol);
    CHECK(ta->actuator_force[1] == doctest::Approx(-3.0 * ta->actuator_velocity[1]));  // ctrl 0: bias only
  }
  mju_user_warning = warning;
}

TEST_CASE("articulated actuators match MuJoCo's mj_forward on the DeepMind humanoid's motors") {
  if (!std::filesystem::exists(kHumanoid)) {
    std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (libmujoco-samples)\n", kHumanoid);
    return;
  }
  std::string error;
  ModelPtr m = load_xml_file(kHumanoid, error);
  INFO(error);
  REQUIRE(m);
  CHECK(m->nu == 21);
  const Worst w = compare_model("humanoid", m.get(), 1.0);
  CHECK(w.clamped_ctrl > 100);
}

namespace {

// What lane 1 of the derivative check differentiates by: a position actuator's kp (gainprm[0] = kp and
// biasprm[1] = -kp move together, as <position kp> compiles) or an actuator's gear[0].
struct Param {
  enum Kind { kKp, kGear } kind;
  int actuator;
};

template <class S>
void move_param(TreeActuatorModel<S>& am, const Param& p, const S& delta) {
  TreeActuator<S>& a = am.actuator[p.actuator];
  if (p.kind == Param::kKp) {
    a.gainprm[0] += delta;
    a.biasprm[1] -= delta;
  } else {
    a.gear[0] += delta;
  }
}

// Central differences of the double qacc in ctrl[k] (lane 0) and the parameter (lane 1).
void central_differences(const mjModel* m, const mjData* d, const Mapped& mm, int k, const Param& p, double h,
                         std::vector<double> fd[2]) {
  auto t = std::make_unique<TreeData<double>>();
  auto ta = std::make_unique<TreeActuatorData<double>>();
  for (int lane = 0; lane < 2; ++lane) {
    fd[lane].assign(static_cast<std::size_t>(m->nv), 0.0);
    for (int sign = -1; sign <= 1; sign += 2) {
      TreeActuatorModel<double> act = mm.act;
      copy_state(m, d, *t, *ta);
      if (lane == 0) ta->ctrl[k] += sign * h;
      if (lane == 1) move_param(act, p, sign * h);
      REQUIRE(tree_forward(mm.tree, act, *t, *ta));
      for (int i = 0; i < m->nv; ++i) fd[lane][static_cast<std::size_t>(i)] += sign * t->qacc[i] / (2.0 * h);
    }
  }
}

// Dual tangents of qacc in ctrl[k] and the parameter against central differences; the Rev gradient of
// sum_i qacc_i against the tangents' sums. ctrl[k] is set inside its range (the clamp has slope zero
// outside, where the difference quotient straddling the bound would disagree).
void check_derivatives(const std::string& name, mjModel* m, int k, const Param& p, double ctrl_k) {
  CAPTURE(name);
  const std::unique_ptr<Mapped> mm = map_model(m);
  DataPtr d = make_reference_data(m);
  std::mt19937 rng(7);
  random_state(m, d.get(), rng, 1.0);
  d->ctrl[k] = ctrl_k;
  const int nv = m->nv;

  using D = Dual<2>;
  auto dual_tree = std::make_unique<TreeModel<D>>();
  auto dual_act = std::make_unique<TreeActuatorModel<D>>();
  tree_convert(mm->tree, *dual_tree);
  tree_actuator_convert(mm->act, *dual_act);
  D seed = 0.0;
  seed.d[1] = 1.0;
  move_param(*dual_act, p, seed);
  auto td = std::make_unique<TreeData<D>>();
  auto tad = std::make_unique<TreeActuatorData<D>>();
  copy_state(m, d.get(), *td, *tad);
  tad->ctrl[k].d[0] = 1.0;
  REQUIRE(tree_forward(*dual_tree, *dual_act, *td, *tad));

  std::vector<double> fd[2];
  central_differences(m, d.get(), *mm, k, p, 1e-5, fd);
  for (int lane = 0; lane < 2; ++lane) {
    std::vector<double> tangent(static_cast<std::size_t>(nv));
    for (int i = 0; i < nv; ++i) tangent[static_cast<std::size_t>(i)] = td->qacc[i].d[lane];
    const double err = rel_err(tangent.data(), fd[lane].data(), nv);
    double scale = 0.0;
    for (double x : fd[lane]) scale = std::fmax(scale, std::fabs(x));
    const std::string by = lane == 0 ? "ctrl" : p.kind == Param::kKp ? "kp" : "gear";
    MESSAGE(name << ": dual tangent of qacc in " << by << " (scale " << scale
                 << "), relative error against central differences " << err);
    CHECK(scale > 1e-3);  // the seed does move qacc: the comparison means something
    CHECK(err <= 1e-7);
  }

  RevTape& tape = RevTape::current();
  tape.clear();
  auto rev_tree = std::make_unique<TreeModel<Rev>>();
  auto rev_act = std::make_unique<TreeActuatorModel<Rev>>();
  tree_convert(mm->tree, *rev_tree);
  tree_actuator_convert(mm->act, *rev_act);
  const Rev prm = Rev::variable(0.0);
  move_param(*rev_act, p, prm);
  auto tr = std::make_unique<TreeData<Rev>>();
  auto tar = std::make_unique<TreeActuatorData<Rev>>();
  copy_state(m, d.get(), *tr, *tar);
  const Rev c = Rev::variable(d->ctrl[k]);
  tar->ctrl[k] = c;
  REQUIRE(tree_forward(*rev_tree, *rev_act, *tr, *tar));
  Rev total = 0.0;
  for (int i = 0; i < nv; ++i) total = total + tr->qacc[i];
  const std::vector<double> adj = reverse_sweep(tape, total.i);
  double want[2] = {0.0, 0.0};
  for (int i = 0; i < nv; ++i) want[0] += td->qacc[i].d[0], want[1] += td->qacc[i].d[1];
  const double got[2] = {adj[static_cast<std::size_t>(c.i)], adj[static_cast<std::size_t>(prm.i)]};
  for (int lane = 0; lane < 2; ++lane) {
    CAPTURE(lane);
    CHECK(got[lane] == doctest::Approx(want[lane]).epsilon(1e-10));
  }
  tape.clear();
}

}  // namespace

TEST_CASE("articulated actuated qacc: Dual tangents in ctrl and kp match central differences") {
  std::string error;
  ModelPtr m = load_xml_text(kModels[1].xml, error);
  REQUIRE(m);
  // Actuator 0 is <position kp="20"> on h1, unlimited; actuator 2 <position kp="7"> on h2, ctrl in range.
  check_derivatives("position actuator 0", m.get(), 0, {Param::kKp, 0}, 0.4);
  check_derivatives("position actuator 2", m.get(), 2, {Param::kKp, 2}, 0.2);
  ModelPtr b = load_xml_text(kModels[2].xml, error);
  REQUIRE(b);
  check_derivatives("ball and free joints", b.get(), 3, {Param::kKp, 3}, 0.3);
  if (std::filesystem::exists(kHumanoid)) {
    ModelPtr h = load_xml_file(kHumanoid, error);
    REQUIRE(h);
    check_derivatives("humanoid", h.get(), 5, {Param::kGear, 5}, 0.3);
  }
}

// tree_forward_constrained with actuators: a position actuator pushes an arm against its hinge limit
// (contacts off, limits on), the constraint solve and the actuation together against mj_forward.
TEST_CASE("articulated actuators in the constrained forward pass match MuJoCo's mj_forward") {
  const char* xml = R"(
<mujoco>
  <option><flag contact="disable"/></option>
  <worldbody>
    <body pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" limited="true" range="-30 45"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04"/>
      <body pos="0.4 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" limited="true" range="-60 20" damping="0.1"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position joint="shoulder" kp="30" ctrllimited="true" ctrlrange="-2 2"/>
    <motor joint="elbow" gear="2" forcelimited="true" forcerange="-1 1"/>
  </actuator>
</mujoco>)";
  std::string error;
  ModelPtr m = load_xml_text(xml, error);
  INFO(error);
  REQUIRE(m);
  const std::unique_ptr<Mapped> mm = map_model(m.get());
  auto cm = std::make_unique<TreeConstraintModel<double>>();
  REQUIRE(mjcf::tree_constraints_from_mjmodel(m.get(), mm->tree, *cm).empty());
  DataPtr d(mj_makeData(m.get()));
  auto t = std::make_unique<TreeData<double>>();
  auto ta = std::make_unique<TreeActuatorData<double>>();
  auto cd = std::make_unique<TreeConstraintData<double>>();
  auto ws = std::make_unique<TreeNewtonWorkspace>();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst_force = 0.0, worst_qacc = 0.0;
  int limited = 0;
  for (int s = 0; s < 30; ++s) {
    // Near or past the limits (shoulder at 45 deg = 0.785, elbow at -60 deg = -1.047), pushed outwards.
    d->qpos[0] = 0.8 + 0.05 * u(rng);
    d->qpos[1] = -1.06 + 0.05 * u(rng);
    for (int v = 0; v < m->nv; ++v) d->qvel[v] = u(rng);
    d->ctrl[0] = 2.5 + u(rng);
    d->ctrl[1] = -1.0 + u(rng);
    mj_forward(m.get(), d.get());
    copy_state(m.get(), d.get(), *t, *ta);
    REQUIRE(tree_forward_constrained(mm->tree, *cm, mm->act, *t, *cd, *ta, *ws) == TreeForwardStatus::kOk);
    REQUIRE(cd->nefc == d->nefc);
    limited += d->nefc;
    worst_force = std::fmax(worst_force, rel_err(ta->actuator_force, d->actuator_force, m->nu));
    worst_qacc = std::fmax(worst_qacc, rel_err(t->qacc, d->qacc, m->nv));
  }
  MESSAGE("arm at its limits: " << limited << " limit rows over 30 states; worst relative errors: "
                                << "actuator_force " << worst_force << ", qacc " << worst_qacc);
  CHECK(limited > 20);  // the limits bit in most states
  CHECK(worst_force <= kActTol);
  CHECK(worst_qacc <= kSolveTol);
}

TEST_CASE("articulated tree_actuators_from_mjmodel refuses what actuation.hpp cannot compute") {
  const char* body =
      R"(<worldbody><site name="s0"/><body><joint name="a" type="hinge" limited="true" range="-90 90"/><site name="s1"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size=".05"/></body></worldbody>)";
  const struct {
    const char* actuators;
    const char* reason;
  } cases[] = {
      {R"(<general name="lowpass" joint="a" dyntype="filter" dynprm="0.1"/>)",
       "'lowpass' has filter dynamics"},
      {R"(<general name="int" joint="a" dyntype="integrator"/>)", "'int' has integrator dynamics"},
      {R"(<muscle name="biceps" joint="a"/>)", "'biceps' has muscle dynamics"},
      {R"(<motor name="thrust" site="s1" gear="1 0 0 0 0 0"/>)", "'thrust' has a site transmission"},
      {R"(<motor joint="a"/><general joint="a" gaintype="user"/>)", "actuator 1 has a user gain"},
      {R"(<general joint="a" biastype="user"/>)", "actuator 0 has a user bias"},
  };
  for (const auto& c : cases) {
    std::string error;
    ModelPtr m = load_xml_text(
        std::string("<mujoco>") + body + "<actuator>" + c.actuators + "</actuator></mujoco>", error);
    INFO(c.reason << ": " << error);
    REQUIRE(m);
    TreeModel<double> tree;
    REQUIRE(mjcf::tree_from_mjmodel(m.get(), tree).empty());
    TreeActuatorModel<double> am;
    const std::string why = mjcf::tree_actuators_from_mjmodel(m.get(), tree, am);
    MESSAGE(why);
    CHECK(why.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("articulated tree_actuators_from_mjmodel refuses arm26's muscles (tendon transmission)") {
  const char* arm26 = "/usr/share/mujoco/model/tendon_arm/arm26.xml";
  if (!std::filesystem::exists(arm26)) {
    std::printf("SOFTGRAD_TEST_SKIPPED: %s is missing (libmujoco-samples)\n", arm26);
    return;
  }
  std::string error;
  ModelPtr m = load_xml_file(arm26, error);
  INFO(error);
  REQUIRE(m);
  TreeModel<double> tree;
  REQUIRE(mjcf::tree_from_mjmodel(m.get(), tree).empty());
  TreeActuatorModel<double> am;
  const std::string why = mjcf::tree_actuators_from_mjmodel(m.get(), tree, am);
  MESSAGE(why);
  CHECK(why.find("actuator 0 '") != std::string::npos);
  CHECK(why.find("tendon transmission") != std::string::npos);
}
