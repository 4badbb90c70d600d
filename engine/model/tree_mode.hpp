#pragma once
// The discrete state of a joint tree as a hybrid system (engine/integrate/events.hpp): which constraints
// have rows (contacts, joint limits) and which of those rows are in Newton's active set. It is the rigid
// model's ContactMode (engine/rigid/contact_mode.hpp) over other keys: a contact is keyed by its geom pair
// and the collider's feature (a box corner, a capsule end: stable while the geoms move, unlike the contact's
// index), a limit by its joint and side.
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/integrate/events.hpp"
#include "engine/rigid/contact_mode.hpp"

namespace sg {

// Every contact and both sides of every joint's limit at once.
inline constexpr int kMaxTreeModeEntries = kMaxTreeContacts + 2 * kMaxJoints;
using TreeMode = ContactMode<kMaxTreeModeEntries>;

// A limit's key: a = kTreeLimitKey (geom indices are >= 0), b the joint, feature 0 the lower side, 1 the
// upper one.
inline constexpr int kTreeLimitKey = -2;

SG_HD inline ContactKey tree_limit_key(int joint, int upper) {
  return ContactKey{kTreeLimitKey, joint, upper};
}
SG_HD inline bool is_tree_limit_key(const ContactKey& k) {
  return k.a == kTreeLimitKey;
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
  MarginTracker tracker;
};

}  // namespace sg
