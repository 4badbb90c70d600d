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

using namespace sg;

namespace {

// Lengths, velocities, forces and qfrc_actuator are the same products in the same order as MuJoCo's (a
// ball's rotation vector and dot products over several dofs aside): rounding only, measured at most 1.3e-15
// relative. qacc goes through qM's Cholesky factor, whose rounding differs from mj_factorM's: at most 8e-14
// (the humanoid).
constexpr double kActTol = 1e-12;
constexpr double kQaccTol = 1e-12;
// The constrained qacc: MuJoCo's Newton iterations stop at opt.tolerance (see test_articulated_constraints).
constexpr double kSolveTol = 1e-6;

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// Compiles MJCF text through MuJoCo's virtual file system (no file on disk).
ModelPtr load_xml_text(const std::string& xml, std::string& error) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0) {
    error = "VFS full";
    return nullptr;
  }
  std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name)], xml.data(), xml.size());
  char err[1000] = "";
  ModelPtr m(mj_loadXML(name, vfs.get(), err, sizeof(err)));
  mj_deleteVFS(vfs.get());
  error = err;
  return m;
}

ModelPtr load_xml_file(const std::string& path, std::string& error) {
  char err[1000] = "";
  ModelPtr m(mj_loadXML(path.c_str(), nullptr, err, sizeof(err)));
  error = err;
  return m;
}

struct NamedXml {
  const char* name;
  const char* xml;
};

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

const char* kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";

// The constraint stage off (contacts, joint limits): mj_forward's qacc is qacc_smooth, tree_forward's.
DataPtr make_reference_data(mjModel* m) {
  m->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_CONTACT;
  return DataPtr(mj_makeData(m));
}

// A random state (as test_articulated_smooth.cpp draws it) and controls in (-3, 3): most ranges here are
// narrower, so most limited controls are clamped.
void random_state(const mjModel* m, mjData* d, std::mt19937& rng, double vmax) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g;
  for (int j = 0; j < m->njnt; ++j) {
    mjtNum* q = d->qpos + m->jnt_qposadr[j];
    switch (m->jnt_type[j]) {
      case mjJNT_FREE:
        for (int c = 0; c < 3; ++c) q[c] = u(rng);
        q += 3;
        [[fallthrough]];
      case mjJNT_BALL:
        for (int c = 0; c < 4; ++c) q[c] = g(rng);
        mju_normalize4(q);
        break;
      case mjJNT_SLIDE:
        q[0] = 0.5 * u(rng);
        break;
      default:
        q[0] = 3.14159 * u(rng);
    }
  }
  for (int v = 0; v < m->nv; ++v) d->qvel[v] = vmax * u(rng), d->qfrc_applied[v] = u(rng);
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
