#pragma once
// Actuators on a TreeModel, as MuJoCo 2.2.2's mjModel describes them (actuator_*): a joint transmission
// with its gear, a gain and a bias of MuJoCo's fixed/affine kinds (10 parameters each, as mjNGAIN and
// mjNBIAS) and the control and force ranges. Stateless actuators only (dyntype none): force = gain ctrl +
// bias. <motor>, <position kp>, <velocity kv> and <general> all compile to this. A separate struct, so
// that TreeModel and everything built on it stay as they are; the controls live in TreeActuatorData.
#include "engine/articulated/tree_model.hpp"

namespace sg {

inline constexpr int kMaxActuators = 32;
inline constexpr int kActuatorPrm = 10;  // mjNGAIN = mjNBIAS = 10

// MuJoCo's mjtTrn, mjtGain and mjtBias values for the kinds supported, so a model maps across by value.
// kJointInParent differs from kJoint only on ball and free joints (gear in the parent frame).
enum class ActuatorTransmission : int { kJoint = 0, kJointInParent = 1 };
enum class ActuatorGain : int { kFixed = 0, kAffine = 1 };
enum class ActuatorBias : int { kNone = 0, kAffine = 1 };

template <class S>
struct TreeActuator {
  ActuatorTransmission trntype = ActuatorTransmission::kJoint;
  int joint = 0;
  S gear[6] = {S(1.0), S(0.0), S(0.0), S(0.0), S(0.0), S(0.0)};
  ActuatorGain gaintype = ActuatorGain::kFixed;
  ActuatorBias biastype = ActuatorBias::kNone;
  S gainprm[kActuatorPrm] = {S(1.0)};  // fixed: gain = prm[0]; affine: prm[0] + prm[1] length + prm[2] vel
  S biasprm[kActuatorPrm] = {};        // affine: prm[0] + prm[1] length + prm[2] velocity
  bool ctrllimited = false;
  S ctrlrange[2] = {};
  bool forcelimited = false;
  S forcerange[2] = {};
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
  TreeActuator<S> actuator[kMaxActuators];
  TreeActuatorOptions opt;
};

// Appends an actuator on joint `joint` of m; returns its index, or -1 when full or the joint is unknown.
template <class S>
int tree_add_actuator(TreeActuatorModel<S>& am, const TreeModel<S>& m, int joint) {
  if (am.nu >= kMaxActuators || joint < 0 || joint >= m.njnt) return -1;
  am.actuator[am.nu] = TreeActuator<S>{};
  am.actuator[am.nu].joint = joint;
  return am.nu++;
}

// The same actuators over another scalar (a double model lifted to duals, to seed a gain).
template <class T, class S>
void tree_actuator_convert(const TreeActuatorModel<S>& in, TreeActuatorModel<T>& out) {
  out.nu = in.nu;
  out.opt = in.opt;
  for (int i = 0; i < in.nu; ++i) {
    const TreeActuator<S>& a = in.actuator[i];
    TreeActuator<T>& b = out.actuator[i];
    b.trntype = a.trntype, b.joint = a.joint, b.gaintype = a.gaintype, b.biastype = a.biastype;
    b.ctrllimited = a.ctrllimited, b.forcelimited = a.forcelimited;
    for (int k = 0; k < 6; ++k) b.gear[k] = T(a.gear[k]);
    for (int k = 0; k < kActuatorPrm; ++k) b.gainprm[k] = T(a.gainprm[k]), b.biasprm[k] = T(a.biasprm[k]);
    for (int k = 0; k < 2; ++k) b.ctrlrange[k] = T(a.ctrlrange[k]), b.forcerange[k] = T(a.forcerange[k]);
  }
}

}  // namespace sg
