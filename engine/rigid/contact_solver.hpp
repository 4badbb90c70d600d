#pragma once
// The contact forces of a rigid-body state, solved two ways on the contacts collected last:
// - MuJoCo's rules at every evaluation: the contacts acting at the state, Newton's active set (fixed steps,
//   adaptive steps with events off, readouts, the straight-through surrogate);
// - a hybrid mode held fixed (engine/rigid/contact_mode.hpp, adaptive steps with events on): the mode's
//   contacts, laws and active rows, one factorisation, continued past their switches, reporting the margins
//   (the distances of free and acting contacts, each row's J a - aref, the grazing weights) to a tracker.
// The caller decodes and collects once per evaluation, sets the free accelerations, then solves. Scratch
// space is built once per run, never per evaluation.
#include "engine/contact/newton_solver.hpp"
#include "engine/rigid/contact_mode.hpp"
#include "engine/rigid/free_dynamics.hpp"
#include "engine/rigid/grazing.hpp"
#include "engine/rigid/soft_rows.hpp"

namespace sg {

inline constexpr int kMaxRigidRows = 4 * kMaxRigidContacts;

template <class S>
SG_HD inline ContactKey key_of(const ContactRecord<S>& rec) {
  return ContactKey{rec.body_a, rec.body_b, rec.contact.feature};
}

// What the mode's laws depend on: CFD in the forward simulation adds a band of width `width` (0 otherwise).
struct ModeLaws {
  bool forward_cfd;
  double width;
  // How far beyond a law's boundary contacts are looked at: a contact the mode holds stays visible while a
  // step overshoots its separation.
  double lookahead;
  // A straight-through CFD surrogate's mode (RigidSystem::surrogate_laws): its switching functions carry
  // surfaces offset by kSurrogateSurface, and it reports no distance-0 surface of its own (the simulated
  // model's onset and separation are the surrogate's switch between band and contact too).
  bool surrogate = false;
  SG_HD int surface(int s) const { return surrogate ? s + kSurrogateSurface : s; }
  SG_HD RowLaw law_of(ContactLevel level) const {
    if (level == ContactLevel::band) return RowLaw::cfd_band;
    return forward_cfd ? RowLaw::cfd_touching : RowLaw::plain;
  }
};

template <class S>
class RigidContactSolver {
 public:
  using Mode = ContactMode<kMaxRigidContacts>;

  SG_HD RigidContactSolver(const RigidModel<S>* model, const RigidMass<S>* mass, const PairTable<S>* pairs)
      : model_(model), mass_(mass), pairs_(pairs) {}

  // Decodes y and collects the contacts closer than their margin plus band.
  SG_HD SG_NOINLINE int collect(const S* y, double band) const {
    decode_states(*model_, y, s_.states);
    s_.record_count = collect_contacts(*model_, *pairs_, s_.states, band, s_.records);
    return s_.record_count;
  }
  SG_HD const BodyState<S>* states() const { return s_.states; }
  SG_HD int record_count() const { return s_.record_count; }
  SG_HD const ContactRecord<S>& record(int i) const { return s_.records[i]; }
  SG_HD const ContactRecord<S>* find(const ContactKey& key) const {
    for (int i = 0; i < s_.record_count; ++i)
      if (key_of(s_.records[i]) == key) return &s_.records[i];
    return nullptr;
  }
  SG_HD const ConstraintRow<S>* rows() const { return s_.rows; }
  SG_HD PackedGuesses guesses() const { return pack(s_.newton.guesses); }
  SG_HD void restore_guesses(const PackedGuesses& g) const { unpack(g, s_.newton.guesses); }

  // MuJoCo's rules on the collected contacts: acting within their law (with_cfd: out to the CFD width
  // cfd_width), Newton's active set. acc: the free accelerations on entry. slot keeps the solver's
  // active-set guesses of different callers apart (plain, CFD, readouts), so a straight-through run's plain
  // solves follow exactly the same path as a run without CFD. Returns the row count (rows()).
  SG_HD int solve_rules(bool with_cfd, double cfd_width, BodyVelocity<S>* acc, int slot) const {
    if (model_->contact != ContactModel::mujoco) return 0;
    int n = 0;
    for (int i = 0; i < s_.record_count && n + 4 <= kMaxRigidRows; ++i) {
      const ContactRecord<S>& rec = s_.records[i];
      RowLaw law;
      if (!law_at(S(rec.contact.dist - rec.params().margin), with_cfd, cfd_width, &law)) continue;
      n += soft_contact_rows(*model_, s_.states, mass_->inverse, rec, law, s_.rows + n);
    }
    solve_newton(s_.rows, n, mass_->mass, mass_->inertia, model_->count, acc, model_->iterations, s_.newton,
                 slot);
    return n;
  }

  // Newton's solution with the mode's contacts (except skip) acting fully on the collected contacts
  // (collected out to width + lookahead); writes the rows' activity back into the mode (all rows when skip is
  // null) and drops entries whose contact is no longer reported. acc: the free accelerations on entry.
  SG_HD void newton_over_mode(Mode& mode, const ModeLaws& laws, const ContactKey* skip,
                              BodyVelocity<S>* acc) const {
    const int n = mode_rows(mode, laws, skip);
    solve_newton(s_.rows, n, mass_->mass, mass_->inertia, model_->count, acc, model_->iterations, s_.newton,
                 2);
    for (int r = 0, k = 0; r < n; ++r) {
      k = (r > 0 && s_.row_entry[r] == s_.row_entry[r - 1]) ? k + 1 : 0;
      mode.set_row(s_.row_entry[r], k, s_.newton.active[r]);
    }
  }

  // The evaluation with the mode held fixed, on the collected contacts; the margins go to tracker. acc: the
  // free accelerations on entry. derivatives = false: values only (for switching margins).
  SG_HD SG_NOINLINE void solve_mode(Mode& mode, const ModeLaws& laws, MarginTracker& tracker,
                                    BodyVelocity<S>* acc, bool derivatives) const {
    BodyVelocity<S> free_acc[kMaxBodies];
    for (int b = 0; b < model_->count; ++b) free_acc[b] = acc[b];
    for (int e = 0; e < mode.count; ++e) mode.entries[e].seen = false;
    int n = 0, ng = 0;
    for (int i = 0; i < s_.record_count; ++i) {
      const ContactRecord<S>& rec = s_.records[i];
      const ContactKey key = key_of(rec);
      const double r = value(rec.contact.dist) - rec.params().margin;
      // Contacts farther out than the look-ahead (collected for a straight-through surrogate) are not seen:
      // the evaluation is the same as without them.
      if (r - laws.width > laws.lookahead) continue;
      const int e = mode.find(key);
      if (e < 0) {  // free: acts once it comes closer than the boundary
        tracker.note(r - laws.width,
                     contact_event(key, EventKind::onset, -1, laws.surface(laws.width > 0.0 ? 1 : 0)));
        continue;
      }
      ModeEntry& entry = mode.entries[e];
      if (entry.seen) continue;
      entry.seen = true;
      if (entry.level == ContactLevel::band) {
        if (!laws.surrogate) tracker.note(r, contact_event(key, EventKind::onset));
        tracker.note(laws.width - r, contact_event(key, EventKind::separation, -1, laws.surface(1)));
      } else if (entry.level == ContactLevel::contact && !laws.surrogate) {
        tracker.note(-r, contact_event(key, EventKind::separation));
      }
      if (n + 4 > kMaxRigidRows) continue;
      const int c = soft_contact_rows(*model_, s_.states, mass_->inverse, rec, laws.law_of(entry.level),
                                      s_.rows + n, live_rows(mode, e));
      for (int k = 0; k < c; ++k) {
        s_.active[n + k] = mode.row_on(e, k);
        s_.row_entry[n + k] = e;
      }
      if (entry.level == ContactLevel::grazing && ng < kMaxGrazing)
        s_.grazing[ng++] = grazing_contact(rec, e, n, c);
      n += c;
    }
    for (int e = 0; e < mode.count; ++e)  // held contacts beyond the look-ahead: certainly separated
      if (!mode.entries[e].seen)
        tracker.note(-laws.lookahead,
                     contact_event(mode.entries[e].key, EventKind::separation, -1, laws.surface(0)));
    if (!solve_with_active_set(s_.rows, n, s_.active, mass_->mass, mass_->inertia, model_->count, acc,
                               s_.newton, derivatives, ng > 0)) {
      tracker.note(-1.0, EventId{});  // not positive definite: cannot happen with R > 0; leave the mode
      return;
    }
    for (int r = 0, k = 0; r < n; ++r) {
      k = (r > 0 && s_.row_entry[r] == s_.row_entry[r - 1]) ? k + 1 : 0;
      const double phi = s_.newton.jar[r];  // J a - aref
      const ContactKey& key = mode.entries[s_.row_entry[r]].key;
      tracker.note(
          s_.active[r] ? -phi : phi,
          contact_event(key, s_.active[r] ? EventKind::row_off : EventKind::row_on, k, laws.surface(0)));
    }
    if (ng > 0) hold_grazing(mode, tracker, ng, n, free_acc, acc, derivatives);
  }

 private:
  // The rows of entry e that exert a force in the mode (their derivatives matter); a grazing contact's
  // combination reads all of them.
  SG_HD static unsigned live_rows(const Mode& mode, int e) {
    const ModeEntry& entry = mode.entries[e];
    return entry.level == ContactLevel::grazing ? 0xFu : entry.rows_on & 0xFu;
  }

  // The rows of every contact the mode holds (except skip), in mode order, into s_.rows; entries whose
  // contact is no longer reported are dropped. Returns the row count; s_.row_entry maps rows to entries.
  SG_HD int mode_rows(Mode& mode, const ModeLaws& laws, const ContactKey* skip) const {
    int n = 0;
    for (int e = 0; e < mode.count;) {
      const ContactRecord<S>* rec = find(mode.entries[e].key);
      if (!rec) {
        mode.remove(e);
        continue;
      }
      if (!(skip && *skip == mode.entries[e].key) && n + 4 <= kMaxRigidRows) {
        const int c = soft_contact_rows(*model_, s_.states, mass_->inverse, *rec,
                                        laws.law_of(mode.entries[e].level), s_.rows + n);
        for (int k = 0; k < c; ++k) s_.row_entry[n + k] = e;
        n += c;
      }
      ++e;
    }
    return n;
  }

  SG_HD GrazingContact<S> grazing_contact(const ContactRecord<S>& rec, int entry, int first_row,
                                          int row_count) const {
    GrazingContact<S> g;
    g.normal = row_along(s_.states, rec, rec.contact.frame[0]);
    g.rate = row_velocity(g.normal, s_.states);
    g.dist = rec.contact.dist - rec.params().margin;
    g.omega = 0.5 * rec.pair->spring.B * clamp(rec.params().solimp[1], 1e-4, 0.9999);  // 1 / timeconst
    g.first_row = first_row;
    g.row_count = row_count;
    g.entry = entry;
    return g;
  }

  // The grazing contacts' convex combinations (engine/rigid/grazing.hpp). A grazing contact whose bodies
  // carry other rows (coupled) needs the field without it solved: the other contacts' forces change too.
  SG_HD void hold_grazing(const Mode& mode, MarginTracker& tracker, int ng, int n,
                          const BodyVelocity<S>* free_acc, BodyVelocity<S>* acc, bool derivatives) const {
    const GrazingContact<S>* g = s_.grazing;
    BodyVelocity<S>(*delta)[kMaxBodies] = s_.grazing_delta;
    bool coupled[kMaxGrazing];
    for (int k = 0; k < ng; ++k) {
      coupled[k] = shares_bodies(g[k], n);
      if (!coupled[k]) own_force_acceleration(g[k], s_.rows, mass_->inverse, model_->count, delta[k]);
    }
    for (int k = 0; k < ng; ++k) {
      if (!coupled[k]) continue;
      bool* without = s_.active_without;
      for (int r = 0; r < n; ++r)
        without[r] = s_.active[r] && (r < g[k].first_row || r >= g[k].first_row + g[k].row_count);
      BodyVelocity<S> other[kMaxBodies];
      for (int b = 0; b < model_->count; ++b) other[b] = free_acc[b];
      solve_with_active_set(s_.rows, n, without, mass_->mass, mass_->inertia, model_->count, other, s_.newton,
                            derivatives);
      for (int b = 0; b < model_->count; ++b) {
        delta[k][b].lin = acc[b].lin - other[b].lin;
        delta[k][b].ang = acc[b].ang - other[b].ang;
      }
    }
    S weights[kMaxGrazing];
    double physical[kMaxGrazing];
    const bool solved = apply_grazing(g, ng, delta, model_->count, acc, weights, physical);
    for (int k = 0; k < ng; ++k) {
      const ContactKey& key = mode.entries[g[k].entry].key;
      const double s = solved ? physical[k] : -1.0;
      tracker.note(s, contact_event(key, EventKind::lift, -1, 2));  // surfaces 2, 3: the weight's two bounds
      tracker.note(1.0 - s, contact_event(key, EventKind::press, -1, 3));
    }
  }

  // Whether rows other than the grazing contact's own act on one of its bodies.
  SG_HD bool shares_bodies(const GrazingContact<S>& g, int n) const {
    const int a = g.normal.body_a, b = g.normal.body_b;
    for (int r = 0; r < n; ++r) {
      if (r >= g.first_row && r < g.first_row + g.row_count) continue;
      const int ra = s_.rows[r].body_a, rb = s_.rows[r].body_b;
      if ((a >= 0 && (ra == a || rb == a)) || (b >= 0 && (ra == b || rb == b))) return true;
    }
    return false;
  }

  struct Scratch {
    BodyState<S> states[kMaxBodies];
    ContactRecord<S> records[kMaxRigidContacts];
    int record_count = 0;
    ConstraintRow<S> rows[kMaxRigidRows];
    bool active[kMaxRigidRows];
    int row_entry[kMaxRigidRows];
    GrazingContact<S> grazing[kMaxGrazing];
    BodyVelocity<S> grazing_delta[kMaxGrazing][kMaxBodies];
    bool active_without[kMaxRigidRows];
    NewtonWorkspace<kMaxBodies> newton;
  };

  const RigidModel<S>* model_;
  const RigidMass<S>* mass_;
  const PairTable<S>* pairs_;
  // Mutable: the integrators hold the system const; this is scratch, not state.
  mutable Scratch s_;
};

}  // namespace sg
