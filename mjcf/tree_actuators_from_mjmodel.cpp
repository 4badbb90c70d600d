#include "mjcf/tree_actuators_from_mjmodel.hpp"

#include <string>

namespace sg::mjcf {
namespace {

// "actuator 3 'elbow'" (or without the quotes when unnamed), for the refusals.
std::string actuator_label(const mjModel* m, int i) {
  const char* name = mj_id2name(m, mjOBJ_ACTUATOR, i);
  std::string label = "actuator " + std::to_string(i);
  if (name && name[0]) label += " '" + std::string(name) + "'";
  return label;
}

const char* transmission_name(int t) {
  switch (t) {
    case mjTRN_SLIDERCRANK:
      return "a slider-crank";
    case mjTRN_TENDON:
      return "a tendon";
    case mjTRN_SITE:
      return "a site";
    case mjTRN_BODY:
      return "a body";
    default:
      return "an unknown";
  }
}

const char* dynamics_name(int t) {
  switch (t) {
    case mjDYN_INTEGRATOR:
      return "integrator";
    case mjDYN_FILTER:
      return "filter";
    case mjDYN_MUSCLE:
      return "muscle";
    default:
      return "user";
  }
}

// What actuation.hpp cannot compute for actuator i.
std::string actuator_refusal(const mjModel* m, const TreeModel<double>& tree, int i) {
  const int trn = m->actuator_trntype[i], joint = m->actuator_trnid[2 * i];
  if (trn != mjTRN_JOINT && trn != mjTRN_JOINTINPARENT)
    return std::string("has ") + transmission_name(trn) +
           " transmission: only joint transmissions are supported";
  if (joint < 0 || joint >= tree.njnt) return "acts on joint " + std::to_string(joint) + ", not in the tree";
  if (m->actuator_dyntype[i] != mjDYN_NONE)
    return std::string("has ") + dynamics_name(m->actuator_dyntype[i]) +
           " dynamics: only stateless actuators (dyntype none) are supported";
  const int gain = m->actuator_gaintype[i], bias = m->actuator_biastype[i];
  if (gain != mjGAIN_FIXED && gain != mjGAIN_AFFINE)
    return std::string("has a ") + (gain == mjGAIN_MUSCLE ? "muscle" : "user") +
           " gain: only fixed and affine gains are supported";
  if (bias != mjBIAS_NONE && bias != mjBIAS_AFFINE)
    return std::string("has a ") + (bias == mjBIAS_MUSCLE ? "muscle" : "user") +
           " bias: only none and affine biases are supported";
  if (m->actuator_actlimited[i]) return "is actlimited: activations are not supported";
  return {};
}

void copy_actuator(const mjModel* m, int i, TreeActuator<double>& a) {
  a.trntype = static_cast<ActuatorTransmission>(m->actuator_trntype[i]);
  a.joint = m->actuator_trnid[2 * i];
  for (int k = 0; k < 6; ++k) a.gear[k] = m->actuator_gear[6 * i + k];
  a.gaintype = static_cast<ActuatorGain>(m->actuator_gaintype[i]);
  a.biastype = static_cast<ActuatorBias>(m->actuator_biastype[i]);
  for (int k = 0; k < kActuatorPrm; ++k) {
    a.gainprm[k] = m->actuator_gainprm[mjNGAIN * i + k];
    a.biasprm[k] = m->actuator_biasprm[mjNBIAS * i + k];
  }
  a.ctrllimited = m->actuator_ctrllimited[i] != 0;
  a.forcelimited = m->actuator_forcelimited[i] != 0;
  for (int k = 0; k < 2; ++k) {
    a.ctrlrange[k] = m->actuator_ctrlrange[2 * i + k];
    a.forcerange[k] = m->actuator_forcerange[2 * i + k];
  }
}

std::string map_actuators(const mjModel* m, const TreeModel<double>& tree, TreeActuatorModel<double>& out) {
  if (!m) return "no model";
  static_assert(kActuatorPrm == mjNGAIN && kActuatorPrm == mjNBIAS);
  if (m->nu > kMaxActuators) return "too many actuators: " + std::to_string(m->nu);
  out = TreeActuatorModel<double>{};
  for (int i = 0; i < m->nu; ++i) {
    if (std::string why = actuator_refusal(m, tree, i); !why.empty()) return actuator_label(m, i) + " " + why;
    copy_actuator(m, i, out.actuator[i]);
  }
  // Every actuator being stateless, there are no activations; checked in case a future kind slips by.
  if (m->na > 0) return "the model has activation states (na > 0): not supported";
  out.nu = m->nu;
  out.opt.actuation = !(m->opt.disableflags & mjDSBL_ACTUATION);
  out.opt.clampctrl = !(m->opt.disableflags & mjDSBL_CLAMPCTRL);
  return {};
}

}  // namespace

std::string tree_actuators_from_mjmodel(const mjModel* m, const TreeModel<double>& tree,
                                        TreeActuatorModel<double>& out) {
  // A failed allocation while composing a message is the only thing that can throw: keep it inside.
  try {
    return map_actuators(m, tree, out);
  } catch (...) {
    return "out of memory";
  }
}

}  // namespace sg::mjcf
