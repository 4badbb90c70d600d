#pragma once
// Ideal impact with restitution e against a ground at height g, along one axis, inside a semi-implicit
// Euler step (engine-notes section 5, DiffTaichi). v is the velocity after the step's forces, x the position
// at the step's start. Without time of impact the position moves with the flipped velocity for the whole
// step (dx+/dx = +1: the wrong sign); with it the step splits at the impact (dx+/dx = -e).
#include "engine/core/scalar.hpp"

namespace sg {

template <class S>
SG_HD inline void elastic_impact_step(S& x, S& v, const S& ground, const S& restitution, bool toi, double h) {
  const bool impact = (x + h * v < ground) && (v < 0.0);
  if (!impact) {
    x = x + h * v;
    return;
  }
  const S v_after = -restitution * v;
  if (toi) {
    const S tau = (ground - x) / v;
    x = x + tau * v + (h - tau) * v_after;
  } else {
    x = x + h * v_after;
  }
  v = v_after;
}

}  // namespace sg
