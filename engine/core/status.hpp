#pragma once
// Outcome of a step or a solve. The engine never throws inside a step; it returns one of these.
#include "engine/core/platform.hpp"

namespace sg {

enum class Status : unsigned char {
  ok = 0,
  max_steps,           // the step budget (every attempt, accepted or rejected) ran out
  blow_up,             // NaN, inf or |x| > kBlowUpLimit in the state
  step_underflow,      // the adaptive controller asked for a step below the minimum
  cancelled,           // a worker was asked to stop
  invalid,             // the inputs cannot be simulated (caught before stepping whenever possible)
  nonfinite_gradient,  // the state's derivative (forward-mode tangent) or the loss's went NaN or infinite
  nonfinite_loss,      // the loss of a finite final state is NaN or infinite (an overflowing weight, say)
};

inline constexpr double kBlowUpLimit = 1e10;

SG_HD inline const char* status_name(Status s) {
  switch (s) {
    case Status::ok:
      return "ok";
    case Status::max_steps:
      return "max_steps";
    case Status::blow_up:
      return "blow_up";
    case Status::step_underflow:
      return "step_underflow";
    case Status::cancelled:
      return "cancelled";
    case Status::invalid:
      return "invalid";
    case Status::nonfinite_gradient:
      return "nonfinite_gradient";
    case Status::nonfinite_loss:
      return "nonfinite_loss";
  }
  return "unknown";
}

}  // namespace sg
