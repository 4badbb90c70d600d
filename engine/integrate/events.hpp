#pragma once
// Switching events of hybrid systems (contact models whose right-hand side is only piecewise smooth), as the
// adaptive integrator sees them. A system with kHybrid = true holds a discrete mode fixed during each step
// (which contacts act, which solver rows are active), so that every step integrates a smooth vector field;
// each right-hand-side evaluation reports how far the state is from leaving its mode (the margin, negative
// once a switching surface has been crossed), and the integrator ends the step where the first one is
// crossed, switches the mode there and adds the jump of the vector field to the forward-mode tangents
// (docs/engine.md, "Contact events").
#include "engine/core/platform.hpp"

namespace sg {

enum class EventKind : unsigned char {
  none,
  onset,       // a contact starts to act (its signed distance reaches 0, or the CFD width)
  separation,  // a contact stops acting
  row_on,      // a constraint row enters the solver's active set (its force rises from 0)
  row_off,     // a constraint row leaves it (its force falls to 0)
  graze,       // a contact enters the grazing (Filippov sliding) mode at distance 0
  lift,        // a grazing contact lets go: the free motion separates
  press,       // a grazing contact is pressed in: the full contact force no longer holds it at distance 0
};

inline const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::onset:
      return "onset";
    case EventKind::separation:
      return "separation";
    case EventKind::row_on:
      return "row_on";
    case EventKind::row_off:
      return "row_off";
    case EventKind::graze:
      return "graze";
    case EventKind::lift:
      return "lift";
    case EventKind::press:
      return "press";
    case EventKind::none:
      break;
  }
  return "none";
}

// Which switching function: the contact (bodies a and b, -1 for the plane or ground, and the geometric
// feature of the pair), for row events the row of that contact, and for contact events the surface crossed
// (0: distance 0; 1: the CFD width, with CFD in the forward simulation).
// tangential: a contact crossing so slow that its hop (or dip) stays below the position tolerance; its
// switching time is not resolved, and it gets no saltation term.
// Surfaces from this one on belong to a straight-through CFD surrogate's own mode: its switches end steps
// (its tangents' field is smooth only within a mode) but leave the simulated model's mode as it is.
inline constexpr int kSurrogateSurface = 4;
SG_HD inline bool surrogate_event(int surface) {
  return surface >= kSurrogateSurface;
}

struct EventId {
  EventKind kind = EventKind::none;
  int a = -1, b = -1, feature = 0, row = -1, surface = 0;
  bool tangential = false;
};

// Whether the vector field jumps across a transversal switch: only then does the gradient get a saltation
// term. Row switches and the grazing mode's exits are continuous; entering the grazing mode is a tangential
// crossing without a well-defined switching time, and the grazing mode's stabilisation damps the normal part
// of the tangents instead.
SG_HD inline bool event_jumps(EventKind k) {
  return k == EventKind::onset || k == EventKind::separation;
}

SG_HD inline bool same_switching_function(const EventId& x, const EventId& y) {
  return x.a == y.a && x.b == y.b && x.feature == y.feature && x.row == y.row && x.surface == y.surface;
}

// Smallest margin seen over right-hand-side evaluations, and the switching function it belongs to.
// The functions switched since the last regular step may start a rounding (or interpolation) error on
// their old side: each one's margin is shifted by twice that residual until the integrator takes a regular
// step again, so that none is switched straight back (several switch at once when a box lands on an edge).
struct MarginTracker {
  static constexpr int kMaxExempt = 16;
  double min = 1e300;
  double last = 1e300;  // the margin of the most recent evaluation alone
  EventId witness, last_witness;
  int exempt_count = 0;
  EventId exempt[kMaxExempt];
  double shift[kMaxExempt];
  double probe[kMaxExempt];  // each exempt function's own (unshifted) margin in the most recent evaluation
  // One function followed through evaluations (the root finder's): its margin in the most recent one.
  bool has_target = false;
  EventId target;
  double target_margin = 1e300;

  SG_HD void clear() {
    min = last = 1e300;
    witness = last_witness = EventId{};
  }
  SG_HD void clear_exempt() { exempt_count = 0; }
  // Adds (or finds) an exempt function with no shift yet; returns its slot, -1 when full.
  SG_HD int add_exempt(const EventId& id) {
    for (int i = 0; i < exempt_count; ++i)
      if (same_switching_function(exempt[i], id)) return i;
    if (exempt_count == kMaxExempt) return -1;
    exempt[exempt_count] = id;
    shift[exempt_count] = 0.0;
    probe[exempt_count] = 1e300;
    return exempt_count++;
  }
  // One evaluation starts: its own margin is tracked in `last`.
  SG_HD void begin() {
    last = target_margin = 1e300;
    last_witness = EventId{};
    for (int i = 0; i < exempt_count; ++i) probe[i] = 1e300;
  }
  SG_HD void note(double m, const EventId& id) {
    for (int i = 0; i < exempt_count; ++i)
      if (same_switching_function(id, exempt[i])) {
        probe[i] = m;
        m += shift[i];
        break;
      }
    if (has_target && same_switching_function(id, target)) target_margin = m;
    if (m < last) {
      last = m;
      last_witness = id;
    }
    if (m < min) {
      min = m;
      witness = id;
    }
  }
};

// Whether a system implements the hybrid interface (kHybrid = true; see ParticleSystem, RigidSystem,
// TreeSystem).
template <class System>
constexpr bool is_hybrid_system() {
  if constexpr (requires { System::kHybrid; }) {
    return System::kHybrid;
  } else {
    return false;
  }
}

}  // namespace sg
