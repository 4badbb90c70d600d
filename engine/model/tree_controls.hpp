#pragma once
// Control sequences of a joint tree's actuators (the scene's control section): per actuator K knots
// spanning the run's output steps, each a differentiable scene number. A control holds for a whole output
// step, as MuJoCo's ctrl holds for a whole mj_step: the system sets it when an output step begins
// (TreeSystem::begin_interval), so the dynamics stay autonomous and adaptive methods end a step wherever a
// control changes (forces_change_at).
#include "engine/articulated/actuator_model.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

inline constexpr int kMaxControlKnots = 256;  // over all actuators

enum class ControlInterpolation : unsigned char { constant, linear };

template <class S>
struct TreeControls {
  ControlInterpolation interpolation = ControlInterpolation::constant;
  long steps = 1;                 // the output steps the knots span (integrator.steps)
  int count[kMaxActuators] = {};  // knots of actuator a; 0: its constant ctrl
  int first[kMaxActuators] = {};  // where they start in knot[]
  int total = 0;
  S knot[kMaxControlKnots] = {};

  SG_HD bool any() const { return total > 0; }
};

// The control of actuator a (which has knots) during output step i (0-based): constant: K knots split the
// steps into K equal spans (knot floor(i K / steps)); linear: knots at K evenly spaced times from 0 to the
// end, interpolated at the step's start time i / steps. Past the end the last knot holds.
template <class S>
SG_HD S control_at(const TreeControls<S>& c, int a, long i) {
  const int k_count = c.count[a];
  const S* k = c.knot + c.first[a];
  if (i >= c.steps) return k[k_count - 1];
  if (c.interpolation == ControlInterpolation::constant || k_count == 1)
    return k[static_cast<int>(i * k_count / c.steps)];
  const long scaled = i * (k_count - 1);  // the step's time in knot spans, times steps
  const int lo = static_cast<int>(scaled / c.steps);
  const double frac = static_cast<double>(scaled % c.steps) / static_cast<double>(c.steps);
  return frac == 0.0 ? k[lo] : S(k[lo] * (1.0 - frac) + k[lo + 1] * frac);
}

// Whether some control differs between output steps i - 1 and i (adaptive solves end a step there).
template <class S>
SG_HD bool controls_change_at(const TreeControls<S>& c, long i) {
  if (i <= 0 || i >= c.steps) return false;
  for (int a = 0; a < kMaxActuators; ++a) {
    const long k = c.count[a];
    if (k < 2) continue;
    if (c.interpolation == ControlInterpolation::linear) return true;
    if (i * k / c.steps != (i - 1) * k / c.steps) return true;
  }
  return false;
}

}  // namespace sg
