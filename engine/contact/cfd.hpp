#pragma once
// Contacts From Distance (DiffMJX, engine-notes section 2): its parameters, and the laws a contact's rows
// follow with and without it. The free bodies (engine/rigid/soft_rows.hpp) and the joint trees
// (engine/articulated/constraint_make.hpp) build their rows from the same terms here.
#include <string>

#include "engine/contact/mujoco_soft.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// Impedance continued to separated pairs up to a width, min(r, 0) in the reference acceleration replaced by
// a softplus; applied in the simulation (straight_through false) or only in its derivatives.
template <class S>
struct CfdParams {
  bool enabled = false;
  bool straight_through = true;
  // Straight-through with adaptive steps and located events: the surrogate held in a mode of its own, its
  // switches located (engine/model/rigid_system.hpp, tree_system.hpp); false solves it afresh at every
  // evaluation, as before issue #40's fix (docs/engine.md, "Straight-through CFD").
  bool surrogate_events = true;
  S solimp[5] = {0.0, 0.01, 0.1, 1.0, 2.0};  // d_far, d_near, width, mid, power
  S beta = 1e6;                              // min(r, 0) to a micrometre (docs/engine.md)
};

// The same parameters over another scalar, values only.
template <class T, class S>
CfdParams<T> convert_cfd(const CfdParams<S>& in) {
  CfdParams<T> out;
  out.enabled = in.enabled, out.straight_through = in.straight_through;
  out.surrogate_events = in.surrogate_events;
  for (int k = 0; k < 5; ++k) out.solimp[k] = T(value(in.solimp[k]));
  out.beta = T(value(in.beta));
  return out;
}

// Calls f(path, S&) for the differentiable numbers, with their scene paths (contact.cfd.*).
template <class S, class F>
void visit_cfd_params(CfdParams<S>& cfd, F&& f) {
  for (int k = 0; k < 5; ++k) f("contact.cfd.solimp." + std::to_string(k), cfd.solimp[k]);
  f("contact.cfd.beta", cfd.beta);
}

// Which formulas a contact's rows follow; the signed distance r = dist - margin picks one in MuJoCo, a
// hybrid mode holds one fixed (and continues it past its boundary).
enum class RowLaw : unsigned char {
  plain,         // MuJoCo: impedance d(r), position term r
  cfd_touching,  // CFD, penetrating: d(r) from the contact's solimp, position term -softplus(-r)
  cfd_band,      // CFD, separated within the width w: d from the CFD spline at w - r, same position term
};

// The law MuJoCo (with or without CFD) applies at signed distance r; false when the contact does not act.
template <class S>
SG_HD inline bool law_at(const S& r, bool with_cfd, double width, RowLaw* law) {
  if (!with_cfd) {
    *law = RowLaw::plain;
    return r <= 0.0;  // active at r <= 0 like MuJoCo (dist <= margin)
  }
  *law = r < 0.0 ? RowLaw::cfd_touching : RowLaw::cfd_band;
  return r < width;
}

// What a law puts into a contact row at signed distance r: the impedance d, and the position term of the
// reference acceleration aref = -B v - K d (position term). solimp: the contact's own (the pair's mix).
template <class S>
SG_HD inline S law_impedance(RowLaw law, const S solimp[5], const CfdParams<S>& cfd, const S& r) {
  // At mid = 1 (DiffMJX's settings) MuJoCo's clamp to 0.9999 would end the spline in an upper branch 1e-4 w
  // wide (5 um at w = 0.05) whose slope falls from its full value to 0 right at contact, where adaptive steps
  // that end at a located onset evaluate it: the straight-through tangents took that kink for the band's
  // slope over the whole step. The lower branch goes on to contact instead (docs/engine.md).
  if (law == RowLaw::cfd_band) return mujoco_impedance(cfd.solimp, S(cfd.solimp[2] - r), true);
  return mujoco_impedance(solimp, r);
}
template <class S>
SG_HD inline S law_position(RowLaw law, const CfdParams<S>& cfd, const S& r) {
  return law == RowLaw::plain ? r : S(-softplus(-r, cfd.beta));
}

}  // namespace sg
