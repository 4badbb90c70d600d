#pragma once
// The reference gradient a sweep compares its AD curve against (gradient.reference): how its runs are set up
// and how it is named.
#include <string>

#include "engine/problem/problem.hpp"

namespace sg {

// The integrator settings of a tight reference run: adaptive solvers at rtol = atol = tight.rtol with 64
// times the step budget (1e-10 takes several times the steps of 1e-6) and contact events on (steps land on
// the output times), fixed-step ones with tight.substeps times the substeps.
IntegratorSettings tight_integrator(const IntegratorSettings& cfg, const TightSettings& tight);

// What the tight settings are, in words: "rtol 1e-10" or "h / 100".
std::string tight_label(const IntegratorSettings& cfg, const TightSettings& tight);

// The reference's name in legends and summaries: "FD, same simulation, eps 0.0001",
// "FD, tight (rtol 1e-10), eps 0.0001", "AD, tight (rtol 1e-10)". surrogate: straight-through CFD, whose
// finite differences see the plain model.
std::string reference_label(const GradientSettings& g, const IntegratorSettings& cfg, bool surrogate);

// Straight-through CFD: the AD gradient is the CFD surrogate's, finite differences see the plain model.
inline bool straight_through_cfd(const Problem& p) {
  const CfdParams<double>& cfd = p.data.type == ModelType::tree ? p.data.tree.con.cfd : p.data.rigid.cfd;
  return p.data.type != ModelType::particles && cfd.enabled && cfd.straight_through;
}

// Straight-through CFD under an adaptive integrator whose steps do not end at the surrogate's own switches
// (integrator.events or contact.cfd.surrogate_events off) and without gradient.control_tangents: the
// surrogate's tangents integrate a field that jumps inside steps, which can leave the gradient tens of
// percent from the surrogate's continuous derivative (the box toss, billiards; docs/engine.md,
// "Straight-through CFD").
inline bool straight_through_tangents_uncontrolled(const Problem& p) {
  const CfdParams<double>& cfd = p.data.type == ModelType::tree ? p.data.tree.con.cfd : p.data.rigid.cfd;
  const bool switches_located = p.integrator.events && cfd.surrogate_events;
  return straight_through_cfd(p) && is_adaptive(p.integrator.method) && !switches_located &&
         !p.integrator.control_tangents;
}
// That caveat in one line for the CLI's notes; empty where it does not apply.
std::string straight_through_caveat(const Problem& p);

// Short names for the scene key's values: "fd", "fd_tight", "ad_tight".
const char* reference_name(Reference r);

// What the sweep's statistics compare AD against, for summaries: "FD", "fd_tight", "ad_tight", and under
// straight-through CFD "FD of the plain model" (the surrogate's AD differs from it by design).
std::string compared_reference_name(const Problem& p);

}  // namespace sg
