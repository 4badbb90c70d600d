#include "engine/gradient/reference.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace sg {
namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

}  // namespace

IntegratorSettings tight_integrator(const IntegratorSettings& cfg, const TightSettings& tight) {
  IntegratorSettings out = cfg;
  if (is_adaptive(cfg.method)) {
    out.rtol = out.atol = tight.rtol;
    // Contact events on: the tight runs converge to the exact solution (stepping across the switches leaves
    // an error of 3e-8 even at 1e-10 on the 1-D toy) and their AD includes the jumps' saltation terms.
    out.events = true;
    out.step_to_outputs = true;
    constexpr long kBudget = 64;
    out.max_steps =
        cfg.max_steps > std::numeric_limits<long>::max() / kBudget ? cfg.max_steps : cfg.max_steps * kBudget;
  } else {
    out.substeps = cfg.substeps * std::max(1L, tight.substeps);
  }
  return out;
}

std::string tight_label(const IntegratorSettings& cfg, const TightSettings& tight) {
  if (is_adaptive(cfg.method)) return "rtol " + number(tight.rtol);
  return "h / " + number(static_cast<double>(std::max(1L, tight.substeps)));
}

std::string reference_label(const GradientSettings& g, const IntegratorSettings& cfg, bool surrogate) {
  const std::string eps = ", eps " + number(g.fd_eps);
  const std::string plain = surrogate ? " (plain model)" : "";
  switch (g.reference) {
    case Reference::fd:
      return "FD, same simulation" + plain + eps;
    case Reference::fd_tight:
      return "FD, tight (" + tight_label(cfg, g.tight) + ")" + plain + eps;
    case Reference::ad_tight:
      return std::string("AD, tight (") + tight_label(cfg, g.tight) + ")" +
             (surrogate ? ", CFD surrogate" : "");
  }
  return "reference";
}

const char* reference_name(Reference r) {
  switch (r) {
    case Reference::fd:
      return "fd";
    case Reference::fd_tight:
      return "fd_tight";
    case Reference::ad_tight:
      return "ad_tight";
  }
  return "fd";
}

std::string straight_through_caveat(const Problem& p) {
  if (!straight_through_tangents_uncontrolled(p)) return "";
  return "straight-through CFD with adaptive steps across the surrogate's own switches (integrator.events or "
         "contact.cfd.surrogate_events off): its tangents jump inside steps, so the gradient can be tens of "
         "percent from the surrogate's own derivative (the box toss, billiards); with both on (the defaults) "
         "the switches end steps, or gradient.control_tangents=true (forward mode) controls the tangents "
         "(docs/engine.md, \"Straight-through CFD\")";
}

std::string compared_reference_name(const Problem& p) {
  const Reference r = p.gradient.reference;
  if (r != Reference::fd) return reference_name(r);
  return straight_through_cfd(p) ? "FD of the plain model" : "FD";
}

}  // namespace sg
