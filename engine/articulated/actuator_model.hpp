#pragma once
// Actuators on a TreeModel, as MuJoCo 2.2.2's mjModel describes them (actuator_*): a joint or tendon
// transmission with its gear, a gain and a bias of MuJoCo's fixed, affine or muscle kinds (10 parameters
// each, as mjNGAIN and mjNBIAS), the control and force ranges, and the activation dynamics (none, integrator,
// filter, muscle; mjNDYN parameters). force = gain (ctrl, or act with dynamics) + bias. <motor>, <position
// kp>, <velocity kv>, <general> and <muscle> all compile to this. A separate struct, so that TreeModel and
// everything built on it stay as they are; the controls and activations live in TreeActuatorData. The
// tendons (which a transmission may act on, and which have springs of their own) are held here too.
#include "engine/articulated/tendon_model.hpp"
#include "engine/articulated/tree_model.hpp"

namespace sg {

inline constexpr int kMaxActuators = 64;
inline constexpr int kActuatorPrm = 10;  // mjNGAIN = mjNBIAS = 10

// MuJoCo's mjtTrn, mjtGain and mjtBias values for the kinds supported, so a model maps across by value.
// kJointInParent differs from kJoint only on ball and free joints (gear in the parent frame). kSliderCrank:
// a crank site drives a rod of length cranklength whose other end slides along the slider site's z axis
// (engine/articulated/slider_crank.hpp). kSite: a wrench gear[0..5] in a site's frame, relative to a
// reference site when refsite >= 0 (engine/articulated/site_transmission.hpp).
enum class ActuatorTransmission : int {
  kJoint = 0,
  kJointInParent = 1,
  kSliderCrank = 2,
  kTendon = 3,
  kSite = 4
};
enum class ActuatorGain : int { kFixed = 0, kAffine = 1, kMuscle = 2 };
enum class ActuatorBias : int { kNone = 0, kAffine = 1, kMuscle = 2 };
enum class ActuatorDynamics : int { kNone = 0, kIntegrator = 1, kFilter = 2, kMuscle = 3 };

template <class S>
struct TreeActuator {
  ActuatorTransmission trntype = ActuatorTransmission::kJoint;
  int joint = 0;  // the joint; the tendon of a tendon transmission; the site of a site transmission or a
                  // slider-crank's crank site (MuJoCo's actuator_trnid[2 i])
  int slidersite = -1;  // a slider-crank's slider site (MuJoCo's actuator_trnid[2 i + 1])
  int refsite = -1;     // a site transmission's reference site, -1: none (MuJoCo's actuator_trnid[2 i + 1])
  S cranklength{};      // a slider-crank's rod length, > 0
  int act_adr = -1;     // its activation's index in act (dyntype not none), else -1
  ActuatorDynamics dyntype = ActuatorDynamics::kNone;
  S gear[6] = {S(1.0), S(0.0), S(0.0), S(0.0), S(0.0), S(0.0)};
  ActuatorGain gaintype = ActuatorGain::kFixed;
  ActuatorBias biastype = ActuatorBias::kNone;
  S gainprm[kActuatorPrm] = {S(1.0)};  // fixed: gain = prm[0]; affine: prm[0] + prm[1] length + prm[2] vel
  S biasprm[kActuatorPrm] = {};        // affine: prm[0] + prm[1] length + prm[2] velocity
  S dynprm[kActuatorPrm] = {S(1.0)};   // filter: tau; muscle: (tau_act, tau_deact)
  S lengthrange[2] = {};               // muscle: the actuator length's range (MuJoCo's compiler computes it)
  S acc0{};                            // muscle: |qM^-1 moment| at qpos0, the peak force's scale
  bool ctrllimited = false;
  S ctrlrange[2] = {};
  bool forcelimited = false;
  S forcerange[2] = {};
  bool actlimited = false;  // the activation is clamped to actrange after each step (MuJoCo's mj_advance)
  S actrange[2] = {};
};

// MuJoCo's disable flags that concern actuation: mjDSBL_ACTUATION (no actuator forces at all) and
// mjDSBL_CLAMPCTRL (ctrl used as given, ctrlrange ignored).
struct TreeActuatorOptions {
  bool actuation = true;
  bool clampctrl = true;
};

template <class S>
struct TreeActuatorModel {
  int nu = 0;
  int na = 0;  // activations (actuators with dynamics)
  TreeActuator<S> actuator[kMaxActuators];
  TreeActuatorOptions opt;
  TreeTendonModel<S> ten;
};

// Whether actuator a's transmission acts through sites (a slider-crank's or a site's).
template <class S>
SG_INLINE bool actuator_on_sites(const TreeActuator<S>& a) {
  return a.trntype == ActuatorTransmission::kSliderCrank || a.trntype == ActuatorTransmission::kSite;
}

// Whether the actuation stage needs the sites' positions: tendons pass through them, slider-cranks and site
// transmissions act on them.
template <class S>
bool tree_actuation_needs_sites(const TreeActuatorModel<S>& am) {
  if (am.ten.ntendon > 0) return true;
  for (int i = 0; i < am.nu; ++i)
    if (actuator_on_sites(am.actuator[i])) return true;
  return false;
}

// Whether the actuation stage has anything to do (actuators, or tendons with their springs).
template <class S>
SG_HD bool tree_has_actuation(const TreeActuatorModel<S>& am) {
  return am.nu > 0 || am.ten.ntendon > 0;
}

// Gives every actuator with dynamics its activation index, in actuator order; am.na their count.
template <class S>
void tree_index_activations(TreeActuatorModel<S>& am) {
  am.na = 0;
  for (int i = 0; i < am.nu; ++i)
    am.actuator[i].act_adr = am.actuator[i].dyntype == ActuatorDynamics::kNone ? -1 : am.na++;
}

// Appends an actuator on joint `joint` of m; returns its index, or -1 when full or the joint is unknown.
template <class S>
int tree_add_actuator(TreeActuatorModel<S>& am, const TreeModel<S>& m, int joint) {
  if (am.nu >= kMaxActuators || joint < 0 || joint >= m.njnt) return -1;
  am.actuator[am.nu] = TreeActuator<S>{};
  am.actuator[am.nu].joint = joint;
  return am.nu++;
}

// The same actuators and tendons over another scalar, values only (a double model lifted to duals, to seed
// a gain).
template <class T, class S>
void tree_actuator_convert(const TreeActuatorModel<S>& in, TreeActuatorModel<T>& out) {
  out.nu = in.nu;
  out.na = in.na;
  out.opt = in.opt;
  for (int i = 0; i < in.nu; ++i) {
    const TreeActuator<S>& a = in.actuator[i];
    TreeActuator<T>& b = out.actuator[i];
    b.trntype = a.trntype, b.joint = a.joint, b.act_adr = a.act_adr, b.dyntype = a.dyntype;
    b.slidersite = a.slidersite, b.refsite = a.refsite, b.cranklength = T(value(a.cranklength));
    b.gaintype = a.gaintype, b.biastype = a.biastype;
    b.ctrllimited = a.ctrllimited, b.forcelimited = a.forcelimited, b.actlimited = a.actlimited;
    for (int k = 0; k < 6; ++k) b.gear[k] = T(value(a.gear[k]));
    for (int k = 0; k < kActuatorPrm; ++k) {
      b.gainprm[k] = T(value(a.gainprm[k])), b.biasprm[k] = T(value(a.biasprm[k]));
      b.dynprm[k] = T(value(a.dynprm[k]));
    }
    for (int k = 0; k < 2; ++k) {
      b.ctrlrange[k] = T(value(a.ctrlrange[k])), b.forcerange[k] = T(value(a.forcerange[k]));
      b.lengthrange[k] = T(value(a.lengthrange[k])), b.actrange[k] = T(value(a.actrange[k]));
    }
    b.acc0 = T(value(a.acc0));
  }
  tree_tendon_convert(in.ten, out.ten);
}

}  // namespace sg
