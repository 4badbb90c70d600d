#pragma once
// The discrete state of the hybrid rigid-body system (engine/integrate/events.hpp) that the adaptive
// integrator holds fixed during a step: which contacts act and how (their level), and which of their
// constraint rows are in the solver's active set. Contacts are followed by key (the two bodies and the
// geometric feature, see Contact::feature); a contact without an entry is free.
#include "engine/core/platform.hpp"
#include "engine/integrate/events.hpp"

namespace sg {

// How a contact acts. band: inside the CFD width with CFD in the forward simulation (DiffMJX's distance
// forces); contact: MuJoCo's soft constraint; grazing: the Filippov sliding mode at distance 0 (the
// contact's force is scaled so that the distance stays 0, see engine/rigid/grazing.hpp).
enum class ContactLevel : unsigned char { band, contact, grazing };

// Free bodies: a, b are body indices (-1 for the plane). Joint trees (engine/model/tree_mode.hpp): geom
// indices, or a joint limit.
struct ContactKey {
  int a = -1, b = -1;
  int feature = 0;
  SG_HD bool operator==(const ContactKey& o) const { return a == o.a && b == o.b && feature == o.feature; }
};

struct ModeEntry {
  ContactKey key;
  ContactLevel level = ContactLevel::contact;
  unsigned char rows_on = 0;  // bit i: row i of this contact is in the solver's active set
  bool seen = false;          // scratch: matched by a contact in the current evaluation
};

template <int Capacity>
struct ContactMode {
  int count = 0;
  ModeEntry entries[Capacity];

  SG_HD int find(const ContactKey& key) const {
    for (int i = 0; i < count; ++i)
      if (entries[i].key == key) return i;
    return -1;
  }
  // Returns the new entry's index, or -1 when full.
  SG_HD int add(const ContactKey& key, ContactLevel level) {
    if (count >= Capacity) return -1;
    entries[count] = ModeEntry{key, level, 0, false};
    return count++;
  }
  SG_HD void remove(int i) {
    for (int k = i + 1; k < count; ++k) entries[k - 1] = entries[k];
    --count;
  }
  SG_HD bool row_on(int entry, int row) const { return (entries[entry].rows_on >> row) & 1u; }
  SG_HD void set_row(int entry, int row, bool on) {
    const unsigned char bit = static_cast<unsigned char>(1u << row);
    entries[entry].rows_on = on ? (entries[entry].rows_on | bit) : (entries[entry].rows_on & ~bit);
  }
};

// Entry e's row id.row enters or leaves the active set at the crossing `id` (its force is 0 there, nothing
// jumps): the crossing as applied (row_on or row_off), none when the mode holds no such entry.
template <int Capacity>
SG_HD inline EventId flip_row(ContactMode<Capacity>& mode, int e, const EventId& id) {
  if (e < 0) return EventId{};
  const bool on = !mode.row_on(e, id.row);
  mode.set_row(e, id.row, on);
  EventId done = id;
  done.kind = on ? EventKind::row_on : EventKind::row_off;
  return done;
}

// The event id of one of a contact's switching functions.
SG_HD inline EventId contact_event(const ContactKey& k, EventKind kind, int row = -1, int surface = 0) {
  EventId id;
  id.kind = kind;
  id.a = k.a;
  id.b = k.b;
  id.feature = k.feature;
  id.row = row;
  id.surface = surface;
  return id;
}

}  // namespace sg
