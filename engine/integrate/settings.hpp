#pragma once
// Integrator settings as read from a scene's "integrator" block.
#include "engine/core/platform.hpp"

namespace sg {

enum class Method : unsigned char { euler, moreau, rk4, bosh3, dopri5, tsit5, dopri8 };

SG_HD inline bool is_adaptive(Method m) {
  return m == Method::bosh3 || m == Method::dopri5 || m == Method::tsit5 || m == Method::dopri8;
}

// PID step-size controller coefficients, Diffrax's semantics (engine-notes section 3).
struct ControllerSettings {
  double pcoeff = 0.0;
  double icoeff = 1.0;
  double dcoeff = 0.0;
  double safety = 0.9;
  double factor_min = 0.2;         // smallest shrink after a rejection
  double factor_max = 10.0;        // largest growth after an acceptance
  double reject_factor_max = 0.9;  // a rejection shrinks by at least this much
};

struct IntegratorSettings {
  Method method = Method::euler;
  double dt = 0.01;  // output step; the fixed step (divided by substeps) or the first adaptive trial step
  long steps = 100;  // number of output steps
  long substeps = 1;
  double rtol = 1e-6;
  double atol = 1e-6;
  long max_steps = 4096;  // adaptive: every attempt counts, accepted or rejected
  bool auto_initial_step = false;
  double dt_min = 0.0;
  bool through_controller = false;  // differentiate through the step-size controller
  // The controller's error norm also covers the tangents of a dual run (each lane scaled like its values'
  // error): the frozen-step derivative is then accurate where its own dynamics are harder than the values'.
  bool control_tangents = false;
  // Adaptive solvers on hybrid systems: hold the contact mode fixed within a step and end steps at located
  // switches (onset, separation, solver rows, grazing); off steps across them as DiffMJX does.
  bool events = true;
  // Adaptive solvers: end a step on every output time (Diffrax's step_ts = the output grid); off, steps
  // cross output times, which are interpolated, as DiffMJX's multistep (SaveAt(ts) without step_ts).
  bool step_to_outputs = true;
  ControllerSettings controller;

  SG_HD double horizon() const { return dt * static_cast<double>(steps); }
  SG_HD double fixed_step() const { return dt / static_cast<double>(substeps); }
};

}  // namespace sg
