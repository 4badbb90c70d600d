#pragma once
// The discrete state of a joint tree as a hybrid system (engine/integrate/events.hpp): which constraints
// have rows (contacts, joint limits) and which of those rows are in Newton's active set. It is the rigid
// model's ContactMode (engine/rigid/contact_mode.hpp) over other keys: a contact is keyed by its geom pair
// and the collider's feature (a box corner, a capsule end: stable while the geoms move, unlike the contact's
// index), a limit by its joint and side.
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/contact/active_set_guesses.hpp"
#include "engine/contact/elliptic_cone.hpp"
#include "engine/integrate/events.hpp"
#include "engine/rigid/contact_mode.hpp"

namespace sg {

// Every contact, both sides of every joint's limit and every friction-loss row at once.
inline constexpr int kMaxTreeModeEntries = kMaxTreeContacts + 2 * kMaxJoints + kMaxTreeFrictionRows;
using TreeMode = ContactMode<kMaxTreeModeEntries>;

// A limit's key: a = kTreeLimitKey (geom indices are >= 0), b the joint (a tendon's: kMaxJoints + the
// tendon), feature 0 the lower side, 1 the upper one.
inline constexpr int kTreeLimitKey = -2;

SG_HD inline ContactKey tree_limit_key(int joint, int upper) {
  return ContactKey{kTreeLimitKey, joint, upper};
}
SG_HD inline bool is_tree_limit_key(const ContactKey& k) {
  return k.a == kTreeLimitKey;
}

// A friction-loss row's key: a = kTreeFrictionKey, b the dof (a tendon's: kMaxDofs + the tendon). Its row
// bits hold the row's piece of MuJoCo's friction cost: bit 0 linear positive (J qacc - aref >= R f, force
// -f), bit 1 linear negative (<= -R f, force f), neither quadratic.
inline constexpr int kTreeFrictionKey = -3;

SG_HD inline ContactKey tree_friction_key(EfcType type, int id) {
  return ContactKey{kTreeFrictionKey, type == EfcType::kFrictionDof ? id : kMaxDofs + id, 0};
}
SG_HD inline bool is_tree_friction_key(const ContactKey& k) {
  return k.a == kTreeFrictionKey;
}
// A contact's key (not a limit's or a friction row's).
SG_HD inline bool is_tree_contact_key(const ContactKey& k) {
  return !is_tree_limit_key(k) && !is_tree_friction_key(k);
}
// A friction row's held piece from its entry's bits: +1 linear positive, -1 linear negative, 0 quadratic.
SG_HD inline int held_friction_state(const ModeEntry& e) {
  return (e.rows_on & 1u) ? 1 : (e.rows_on & 2u) ? -1 : 0;
}
SG_HD inline void hold_friction_state(ModeEntry& e, int s) {
  e.rows_on = s > 0 ? 1u : s < 0 ? 2u : 0u;
}

// An elliptic cone's zone, held in its entry's row bits: top none, bottom all, middle all and bit 7. Its
// boundaries are switching functions of their own (surface kConeSurface; row 0 the top's boundary, row 1 the
// bottom's); the force is continuous across them (the cone's cost is once differentiable), so no jump.
inline constexpr int kConeSurface = 2;
inline constexpr unsigned char kConeMiddleBit = 0x80;

SG_HD inline ConeZone held_zone(const ModeEntry& e) {
  if (e.rows_on & kConeMiddleBit) return ConeZone::middle;
  return (e.rows_on & 1u) ? ConeZone::bottom : ConeZone::top;
}
SG_HD inline void hold_zone(ModeEntry& e, ConeZone z) {
  e.rows_on = z == ConeZone::top ? 0u : z == ConeZone::bottom ? 0x3Fu : (0x3Fu | kConeMiddleBit);
}

// Entry e's elliptic cone crosses a zone boundary (row 0 the top's, row 1 the bottom's): the crossing as
// applied, none when the mode holds no such entry.
SG_HD inline EventId cross_cone_zone(TreeMode& mode, int e, const EventId& id) {
  if (e < 0) return EventId{};
  const ConeZone held = held_zone(mode.entries[e]);
  const ConeZone next = id.row == 0 ? (held == ConeZone::top ? ConeZone::middle : ConeZone::top)
                                    : (held == ConeZone::bottom ? ConeZone::middle : ConeZone::bottom);
  hold_zone(mode.entries[e], next);
  EventId done = id;
  done.kind = held == ConeZone::top || next == ConeZone::bottom ? EventKind::row_on : EventKind::row_off;
  return done;
}

template <class S>
SG_HD ContactKey tree_contact_key(const TreeContact<S>& c) {
  return ContactKey{c.geom1, c.geom2, c.feature};
}

// What a tree system carries from one step to the next, for checkpoints; the same for every scalar, so that
// a double run's checkpoints restore a taped run.
struct TreeMemo {
  long interval = 0;  // the output step (the control sequences read it)
  bool frozen = false;
  TreeMode mode;
  TreeMode surrogate;  // straight-through CFD's surrogate mode (TreeSystem::surrogate_held)
  MarginTracker tracker;
  PackedGuesses guesses;  // the constraint solver's (they decide the rounding of its solutions)
};

}  // namespace sg
