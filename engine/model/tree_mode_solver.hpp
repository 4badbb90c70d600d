#pragma once
// A joint tree's constraint stage with its hybrid mode held fixed (engine/model/tree_mode.hpp), for the
// adaptive integrators with integrator.events on. mj_forward's stages run as in tree_forward_constrained,
// except that the rows are the mode's (a held contact keeps its rows while a step overshoots its separation,
// a held limit while the joint leaves the margin, a free one gets none before its onset) and Newton's active
// set is the mode's (one factorisation, no search: engine/articulated/constraint_solve_fixed.hpp). Every
// evaluation then integrates a smooth field, and reports to a MarginTracker how far the state is from
// leaving the mode: distance - margin of every free contact within the look-ahead and of every free limit,
// its negative for every held one, and J qacc - aref of every inactive row, its negative for every active
// one. The mode changes only at located switches (TreeSystem::apply_event).
// With Contacts From Distance in the forward simulation a contact has rows from margin + width on (level
// band: the CFD spline's impedance) and switches law where it touches (level contact), as the free bodies'
// ModeLaws (engine/rigid/contact_solver.hpp): two switching distances, surfaces 1 and 0 of its events.
// A straight-through CFD surrogate's mode (TreeSystem::surrogate_held) is evaluated here too, with CFD's laws
// and its switching functions on surfaces offset by kSurrogateSurface (evaluate's `surrogate`).
// A grazing contact (level grazing, engine/model/tree_grazing.hpp) has its rows, but its force is scaled so
// that its distance stays 0; its margins are the weight's bounds (lift below 0, press above 1; surfaces 2
// and 3 with row -1, as the free bodies').
#include <cmath>

#include "engine/articulated/constraint_solve_fixed.hpp"
#include "engine/articulated/forward_actuated.hpp"
#include "engine/model/tree_grazing.hpp"
#include "engine/model/tree_mode.hpp"

namespace sg {

// The pieces of one mj_forward: the models and the scratch the system owns.
template <class S>
struct TreeStage {
  const TreeModel<S>* m;
  const TreeConstraintModel<S>* cm;
  const TreeActuatorModel<S>* am;
  TreeData<S>* d;
  TreeConstraintData<S>* cd;
  TreeActuatorData<S>* ad;
  TreeNewtonWorkspace* ws;
};

template <class S>
class TreeModeSolver {
 public:
  // How far beyond its margin a contact is looked at: a held contact stays visible while a step overshoots
  // its separation (as the rigid model's ModeLaws::lookahead).
  static constexpr double kLookahead = 1e-3;

  explicit TreeModeSolver(const TreeStage<S>& stage) : s_(stage) {}

  // The frozen evaluation at the state loaded into d (qpos, qvel): qacc in d, the margins to tracker.
  // derivatives = false: values only (switching margins). surrogate: the mode is a straight-through CFD
  // surrogate's (CFD's laws out to the width; its switching functions on surfaces offset by
  // kSurrogateSurface, without the distance-0 surface and the limits' onsets, which the simulated model's
  // mode reports and the surrogate follows: TreeSystem::follow_model_event).
  TreeForwardStatus evaluate(TreeMode& mode, MarginTracker& tracker, bool derivatives,
                             bool surrogate = false) const {
    surrogate_ = surrogate;
    const TreeForwardStatus st = stage(mode, &tracker);
    if (st != TreeForwardStatus::kOk) return st;
    TreeConstraintData<S>& cd = *s_.cd;
    bool active[kMaxEfc];
    ConeZone zone[kMaxEfc];
    int fstate[kMaxEfc];
    for (int r = 0; r < cd.ne; ++r) zone[r] = ConeZone::top, active[r] = true, fstate[r] = 0;  // always
    for (int r = cd.ne; r < cd.nefc; ++r) {
      const ModeEntry& entry = mode.entries[row_entry_[r]];
      const bool friction = tree_friction_row(cd.efc_type[r]);
      zone[r] = friction ? ConeZone::top : held_zone(entry);
      fstate[r] = friction ? held_friction_state(entry) : 0;
      active[r] =
          friction || (cd.efc_type[r] == EfcType::kContactElliptic ? zone[r] != ConeZone::top
                                                                   : mode.row_on(row_entry_[r], row_k_[r]));
    }
    const int ng = grazing_contacts(mode);
    if (!solve_without_each(ng, active, zone, fstate, derivatives) ||
        !tree_solve_active_set(*s_.m, *s_.d, cd, *s_.ws, active, derivatives, zone, fstate)) {
      tracker.note(-1.0, EventId{});  // H = M + J' D J with D > 0: only a singular M gets here
      return TreeForwardStatus::kSolverFailed;
    }
    const TreeNewtonWorkspace& ws = *s_.ws;
    for (int r = cd.ne; r < cd.nefc; ++r) {  // an equality row never switches
      const ContactKey& key = mode.entries[row_entry_[r]].key;
      if (tree_friction_row(cd.efc_type[r])) {
        note_friction(r, fstate[r], key, tracker);
        continue;
      }
      const int c = ws.cone_of[r];
      if (c >= 0) {
        if (r == ws.cone_row[c]) note_cone(c, zone[r], key, tracker);
        continue;
      }
      const double jar = ws.jar[r];
      tracker.note(
          active[r] ? -jar : jar,
          contact_event(key, active[r] ? EventKind::row_off : EventKind::row_on, row_k_[r], surface(0)));
    }
    if (ng > 0) hold_grazing(mode, ng, tracker);
    return TreeForwardStatus::kOk;
  }

  // The curvature term J_n' qvel of grazing entry e's distance, for the next evaluation (the system measures
  // it: TreeSystem::grazing_curvature).
  void set_curvature(int e, double c) const { curvature_[e] = c; }

  // Whether contacts can graze: pyramidal and frictionless cones (an elliptic cone's piece is held by its
  // zones, which the combination of two fields does not follow yet).
  bool grazing_allowed() const { return !s_.cm->opt.elliptic; }

  // Newton's active set over the mode's rows at the loaded state, written into the mode; held contacts no
  // longer reported (beyond the look-ahead) are dropped first.
  TreeForwardStatus rederive(TreeMode& mode, bool surrogate = false) const {
    surrogate_ = surrogate;
    const TreeForwardStatus st = stage(mode, nullptr);
    if (st != TreeForwardStatus::kOk) return st;
    if (!tree_solve_constraints(*s_.m, *s_.cm, *s_.d, *s_.cd, *s_.ws, 2))
      return TreeForwardStatus::kSolverFailed;
    const TreeNewtonWorkspace& ws = *s_.ws;
    for (int r = s_.cd->ne; r < s_.cd->nefc; ++r) {
      const int c = ws.cone_of[r];
      if (tree_friction_row(s_.cd->efc_type[r])) {
        hold_friction_state(mode.entries[row_entry_[r]], ws.fstate[r]);
      } else if (c < 0) {
        mode.set_row(row_entry_[r], row_k_[r], s_.cd->efc_active[r]);
      } else if (r == ws.cone_row[c]) {
        hold_zone(mode.entries[row_entry_[r]], ws.zone[c]);
      }
    }
    return TreeForwardStatus::kOk;
  }

  // The mode MuJoCo's rules give at the loaded state: rows for contacts closer than their margin (with CFD
  // in the forward simulation: their margin plus the width) and joints within the margin of a limit,
  // Newton's active set.
  TreeForwardStatus from_rules(TreeMode& mode, bool surrogate = false) const {
    surrogate_ = surrogate;
    mode.count = 0;
    hold_friction_rows(mode);
    collide_at_state();
    const TreeConstraintData<S>& cd = *s_.cd;
    for (int i = 0; i < cd.ncon; ++i) {
      const TreeContact<S>& c = cd.contact[i];
      const double r = value(c.dist) - value(c.includemargin);
      RowLaw law = RowLaw::plain;
      const bool acts = cfd_laws() ? law_at(r, true, width(), &law) : r < 0.0;
      if (acts && mode.find(tree_contact_key(c)) < 0)
        mode.add(tree_contact_key(c), law == RowLaw::cfd_band ? ContactLevel::band : ContactLevel::contact);
    }
    for_each_limit_slot([&](int l) {
      for (int upper = 0; upper < 2; ++upper)
        if (limit_side_applies(l, upper) && limit_gap(l, upper) < 0.0)
          mode.add(tree_limit_key(l, upper), ContactLevel::contact);
      return true;
    });
    return rederive(mode, surrogate);
  }

  // The switching function of an onset or separation at the loaded state, with derivatives: a contact's
  // distance minus its margin (surface 1: minus the CFD width too; 0 if it is not reported), a limit's
  // distance minus its margin.
  S switching_value(const ContactKey& key, int surface) const {
    surrogate_ = false;
    if (is_tree_limit_key(key)) {
      if (key.b >= kMaxJoints) collide_at_state();  // the tendon's length
      return limit_distance(key.b, key.feature) - limit_of(key.b).margin;
    }
    collide_at_state();
    const TreeContact<S>* c = find_contact(key);
    return c ? S(c->dist - c->includemargin - (surface == 1 ? width() : 0.0)) : S(0.0);
  }

  // CFD in the forward simulation: contacts act from their margin plus the width on.
  bool forward_cfd() const { return s_.cm->cfd.enabled && !s_.cm->cfd.straight_through; }
  // The laws of the mode at hand: CFD's for a forward-CFD model and for a straight-through surrogate.
  bool cfd_laws() const { return surrogate_ || forward_cfd(); }
  double width() const { return cfd_laws() ? tree_cfd_band(*s_.cm) : 0.0; }
  int surface(int plain) const { return surrogate_ ? plain + kSurrogateSurface : plain; }

  // Its rate along the motion at the loaded state (the same on both sides of the switch: positions move with
  // qvel): the contact's normal relative velocity J_n qvel, the limit row's J qvel.
  double switching_rate(const ContactKey& key) const {
    surrogate_ = false;
    const TreeModel<S>& m = *s_.m;
    if (is_tree_limit_key(key)) {
      const double side = key.feature == 1 ? 1.0 : -1.0;
      if (is_ball_limit(key.b)) return ball_limit_rate(key.b);
      if (key.b < kMaxJoints) return -side * value(s_.d->qvel[m.joint[key.b].dof_adr]);
      collide_at_state();
      const S* row = s_.ad->ten.ten_J + (key.b - kMaxJoints) * m.nv;
      double rate = 0.0;
      for (int i = 0; i < m.nv; ++i) rate += value(row[i]) * value(s_.d->qvel[i]);
      return -side * rate;
    }
    collide_at_state();
    const TreeContact<S>* c = find_contact(key);
    if (!c) return 0.0;
    S jac[kMaxDofs];
    tree_contact_frame_rows(m, *s_.cm, *s_.d, *c, 1, jac);
    double rate = 0.0;
    for (int i = 0; i < m.nv; ++i) rate += value(jac[i]) * value(s_.d->qvel[i]);
    return rate;
  }

  // The size of the positions the switching function compares, for its rounding scale: the contact
  // point's distance from the origin, the limit's bound.
  double switching_scale(const ContactKey& key) const {
    surrogate_ = false;
    if (is_tree_limit_key(key)) return std::fabs(value(limit_of(key.b).range[key.feature]));
    collide_at_state();
    const TreeContact<S>* c = find_contact(key);
    return c ? value(norm(c->pos)) : 0.0;
  }

 private:
  // A friction-loss row's piece boundaries at the solution (values in the workspace): J qacc - aref = +-R f.
  // In the quadratic piece both (row 0 towards linear positive, row 1 towards linear negative), in a linear
  // piece its own.
  void note_friction(int r, int held, const ContactKey& key, MarginTracker& tracker) const {
    const TreeNewtonWorkspace& ws = *s_.ws;
    const double jar = ws.jar[r], Rf = ws.floss[r] / ws.D[r];
    if (held == 0) {
      tracker.note(Rf - jar, contact_event(key, EventKind::row_on, 0, surface(0)));
      tracker.note(Rf + jar, contact_event(key, EventKind::row_on, 1, surface(0)));
    } else if (held > 0) {
      tracker.note(jar - Rf, contact_event(key, EventKind::row_off, 0, surface(0)));
    } else {
      tracker.note(-jar - Rf, contact_event(key, EventKind::row_off, 1, surface(0)));
    }
  }

  // An elliptic cone's zone boundaries at the solution (values in the workspace): N - mu T is positive in
  // the top zone, -(mu N + T) in the bottom zone (elliptic_cone.hpp), the middle zone between them.
  void note_cone(int c, ConeZone held, const ContactKey& key, MarginTracker& tracker) const {
    const TreeNewtonWorkspace& ws = *s_.ws;
    const double* jar = ws.jar + ws.cone_row[c];
    const double mu = ws.cone_mu[c], N = mu * jar[0],
                 T = cone_tangent(jar, ws.cone_dim[c], ws.cone_friction[c]);
    const double top = N - mu * T, bottom = -(mu * N + T);
    if (held == ConeZone::top) {
      tracker.note(top, contact_event(key, EventKind::row_on, 0, surface(kConeSurface)));
    } else if (held == ConeZone::bottom) {
      tracker.note(bottom, contact_event(key, EventKind::row_off, 1, surface(kConeSurface)));
    } else {
      tracker.note(-top, contact_event(key, EventKind::row_off, 0, surface(kConeSurface)));
      tracker.note(-bottom, contact_event(key, EventKind::row_on, 1, surface(kConeSurface)));
    }
  }

  // Position stage and collision out to the look-ahead, at the loaded state; the tendon stage too when
  // tendon equalities or limits make rows.
  void collide_at_state() const {
    tree_fwd_position(*s_.m, *s_.d);
    tree_geom_kinematics(*s_.cm, *s_.d, *s_.cd);
    tree_collision(*s_.m, *s_.cm, *s_.d, *s_.cd, width() + kLookahead);
    tendons_ = tree_constraint_tendons(*s_.m, *s_.cm, *s_.am, *s_.d, *s_.ad);
  }

  const TreeContact<S>* find_contact(const ContactKey& key) const {
    for (int i = 0; i < s_.cd->ncon; ++i)
      if (tree_contact_key(s_.cd->contact[i]) == key) return &s_.cd->contact[i];
    return nullptr;
  }

  // Limits by slot l (their keys' b): joint l below kMaxJoints, tendon l - kMaxJoints from there.
  // Calls f(l) for the slots the model has (its joints', then its tendons'), in slot order, until f returns
  // false: the capacities' other slots never apply, and walking them cost a tree run 6% of its time.
  template <class F>
  void for_each_limit_slot(F f) const {
    for (int l = 0; l < s_.m->njnt; ++l)
      if (!f(l)) return;
    for (int t = 0; t < s_.am->ten.ntendon; ++t)
      if (!f(kMaxJoints + t)) return;
  }
  const TreeLimit<S>& limit_of(int l) const {
    return l < kMaxJoints ? s_.cm->limit[l] : s_.cm->tendon_limit[l - kMaxJoints];
  }
  bool limit_applies(int l) const {
    if (!s_.cm->opt.limit || !limit_of(l).limited) return false;
    if (l >= kMaxJoints) return l - kMaxJoints < s_.am->ten.ntendon;
    if (l >= s_.m->njnt) return false;
    const JointType t = s_.m->joint[l].type;
    return t == JointType::kHinge || t == JointType::kSlide || t == JointType::kBall;
  }
  bool is_ball_limit(int l) const {
    return l < kMaxJoints && l < s_.m->njnt && s_.m->joint[l].type == JointType::kBall;
  }
  // A ball's limit has one side, keyed as the upper one (its largest angle).
  bool limit_side_applies(int l, int upper) const {
    return limit_applies(l) && (upper == 1 || !is_ball_limit(l));
  }
  // mj_instantiateLimit's distance of side `upper`: positive inside the range (a tendon's needs the tendon
  // stage run at the loaded state); a ball's, its rotation's unit axis into axis.
  S limit_distance(int l, int upper, Vec3<S>* axis = nullptr) const {
    if (is_ball_limit(l)) {
      Vec3<S> own;
      return tree_ball_limit_distance(limit_of(l), s_.d->qpos + s_.m->joint[l].qpos_adr, axis ? *axis : own);
    }
    const S x = l < kMaxJoints ? s_.d->qpos[s_.m->joint[l].qpos_adr] : s_.ad->ten.ten_length[l - kMaxJoints];
    return tree_limit_distance(limit_of(l), x, upper);
  }
  // A ball limit row's J qvel: minus the rotation's axis along the joint's angular velocity.
  double ball_limit_rate(int l) const {
    Vec3<S> axis;
    (void)limit_distance(l, 1, &axis);
    const S* w = s_.d->qvel + s_.m->joint[l].dof_adr;
    return -(value(axis.x) * value(w[0]) + value(axis.y) * value(w[1]) + value(axis.z) * value(w[2]));
  }
  double limit_gap(int l, int upper) const {
    return value(limit_distance(l, upper)) - value(limit_of(l).margin);
  }

  // mj_forward up to qacc_smooth with the mode's rows. tracker null: no margins, and held contacts that are
  // no longer reported leave the mode.
  TreeForwardStatus stage(TreeMode& mode, MarginTracker* tracker) const {
    const TreeModel<S>& m = *s_.m;
    TreeData<S>& d = *s_.d;
    TreeConstraintData<S>& cd = *s_.cd;
    collide_at_state();
    match_contacts(mode, tracker);
    if (!tracker && drop_unseen(mode)) match_contacts(mode, nullptr);
    cd.nefc = 0;
    equality_rows();
    if (!friction_rows(mode)) return TreeForwardStatus::kSolverFailed;
    limit_rows(mode, tracker);
    const int limit_rows_end = cd.nefc;
    if (!tree_instantiate_contacts(m, *s_.cm, d, cd)) return TreeForwardStatus::kUnsupportedCondim;
    for (int r = limit_rows_end; r < cd.nefc; ++r) {
      const int i = cd.efc_id[r];
      row_entry_[r] = contact_entry_[i];
      row_k_[r] = r - cd.contact[i].efc_address;
    }
    tree_diag_approx(m, *s_.cm, cd);
    tree_make_impedance(*s_.cm, cd);
    tree_fwd_velocity(m, d);
    tree_reference_constraint(m, *s_.cm, d, cd);
    tree_actuation(m, *s_.am, d, *s_.ad);
    if (!tree_fwd_acceleration(m, d, s_.ad->qfrc_actuator)) return TreeForwardStatus::kSingularMass;
    for (int i = 0; i < m.nv; ++i) cd.qacc_smooth[i] = d.qacc[i];
    return TreeForwardStatus::kOk;
  }

  // Which reported contacts the mode holds (they get rows with their level's law; the others are
  // excluded), with the onset and separation margins.
  void match_contacts(TreeMode& mode, MarginTracker* tracker) const {
    TreeConstraintData<S>& cd = *s_.cd;
    const double w = width();
    for (int e = 0; e < mode.count; ++e) mode.entries[e].seen = false;
    for (int i = 0; i < cd.ncon; ++i) {
      TreeContact<S>& c = cd.contact[i];
      c.exclude = true;
      const double r = value(c.dist) - value(c.includemargin);
      if (r - w > kLookahead) continue;  // reported for the gap's sake only
      const ContactKey key = tree_contact_key(c);
      const int e = mode.find(key);
      if (e < 0) {
        if (tracker) tracker->note(r - w, contact_event(key, EventKind::onset, -1, surface(w > 0.0 ? 1 : 0)));
        continue;
      }
      ModeEntry& entry = mode.entries[e];
      if (entry.seen) continue;  // the collider named two points alike: the first one counts
      entry.seen = true;
      if (entry.level == ContactLevel::band) {
        if (tracker && !surrogate_) tracker->note(r, contact_event(key, EventKind::onset));
        if (tracker) tracker->note(w - r, contact_event(key, EventKind::separation, -1, surface(1)));
        c.law = RowLaw::cfd_band;
      } else {
        // A grazing contact's distance is held at 0: its weight's bounds end the mode, not the distance.
        if (tracker && entry.level != ContactLevel::grazing && !surrogate_)
          tracker->note(-r, contact_event(key, EventKind::separation));
        c.law = cfd_laws() ? RowLaw::cfd_touching : RowLaw::plain;
      }
      c.exclude = false;
      contact_entry_[i] = e;
    }
    if (!tracker) return;
    for (int e = 0; e < mode.count; ++e)  // held contacts beyond the look-ahead: certainly separated
      if (!mode.entries[e].seen && is_tree_contact_key(mode.entries[e].key))
        tracker->note(-kLookahead, contact_event(mode.entries[e].key, EventKind::separation, -1, surface(0)));
  }

  // Removes held contacts that were not reported; true if any was.
  bool drop_unseen(TreeMode& mode) const {
    bool any = false;
    for (int e = 0; e < mode.count;) {
      if (!mode.entries[e].seen && is_tree_contact_key(mode.entries[e].key)) {
        mode.remove(e);
        any = true;
      } else {
        ++e;
      }
    }
    return any;
  }

  // The equality rows, first (collide_at_state ran the tendon stage when a tendon equality needs it).
  void equality_rows() const { tree_instantiate_equality(*s_.m, *s_.cm, *s_.d, tendons_, *s_.cd); }

  // An entry for every friction-loss row, first in a new mode (so that contacts cannot crowd them out; the
  // mode holds room for kMaxTreeFrictionRows, refused beyond when loading). Each starts quadratic.
  void hold_friction_rows(TreeMode& mode) const {
    tree_for_each_friction(*s_.cm, s_.m->nv, s_.am->ten.ntendon, [&](EfcType type, int id) {
      mode.add(tree_friction_key(type, id), ContactLevel::contact);
      return true;
    });
  }

  // The friction-loss rows, after them: always rows, each held in its mode entry's piece. False if the mode
  // has no entry for one (a mode built elsewhere than from_rules, full).
  bool friction_rows(TreeMode& mode) const {
    TreeConstraintData<S>& cd = *s_.cd;
    const int first = cd.nefc;
    tree_instantiate_friction(*s_.m, *s_.cm, tendons_, cd);
    for (int r = first; r < cd.nefc; ++r) {
      const ContactKey key = tree_friction_key(cd.efc_type[r], cd.efc_id[r]);
      int e = mode.find(key);
      if (e < 0) e = mode.add(key, ContactLevel::contact);
      if (e < 0) return false;
      row_entry_[r] = e;
      row_k_[r] = 0;
    }
    return true;
  }

  // The mode's limit rows (joints', then tendons', as mj_instantiateLimit), with the onset and separation
  // margins.
  void limit_rows(const TreeMode& mode, MarginTracker* tracker) const {
    for_each_limit_slot([&](int l) {
      for (int upper = 0; upper < 2; ++upper) {
        if (!limit_side_applies(l, upper)) continue;
        const ContactKey key = tree_limit_key(l, upper);
        const double r = limit_gap(l, upper);
        const int e = mode.find(key);
        // A surrogate's limits switch with the simulated model's (CFD leaves limits as they are).
        if (e < 0) {
          if (tracker && !surrogate_) tracker->note(r, contact_event(key, EventKind::onset));
          continue;
        }
        if (tracker && !surrogate_) tracker->note(-r, contact_event(key, EventKind::separation));
        const int row = s_.cd->nefc;
        if (!add_limit_row(l, upper)) return false;
        row_entry_[row] = e;
        row_k_[row] = 0;
      }
      return true;
    });
  }

  // Limit l's row of side `upper` (a joint's, a ball's or a tendon's); false when the rows are full.
  bool add_limit_row(int l, int upper) const {
    const TreeModel<S>& m = *s_.m;
    const TreeLimit<S>& lim = limit_of(l);
    if (is_ball_limit(l)) {
      Vec3<S> axis;
      const S dist = limit_distance(l, upper, &axis);
      return tree_add_ball_limit_row(*s_.cd, l, m.joint[l].dof_adr, axis, dist, lim.margin);
    }
    if (l < kMaxJoints)
      return tree_add_limit_row(*s_.cd, l, m.joint[l].dof_adr, upper ? -1.0 : 1.0, limit_distance(l, upper),
                                lim.margin);
    return tree_add_tendon_limit_row(*s_.cd, m.nv, l - kMaxJoints, upper ? 1.0 : -1.0,
                                     s_.ad->ten.ten_J + (l - kMaxJoints) * m.nv, limit_distance(l, upper),
                                     lim.margin);
  }

  // The grazing entries' contacts (into graze_, with their entries); their count.
  int grazing_contacts(const TreeMode& mode) const {
    if (!grazing_allowed()) return 0;
    int ng = 0;
    const TreeConstraintData<S>& cd = *s_.cd;
    for (int i = 0; i < cd.ncon && ng < kMaxGrazing; ++i) {
      if (cd.contact[i].exclude || cd.contact[i].efc_address < 0) continue;
      const int e = contact_entry_[i];
      if (mode.entries[e].level != ContactLevel::grazing) continue;
      graze_[ng].entry = e;
      graze_[ng].contact = i;
      ++ng;
    }
    return ng;
  }

  // qacc without each grazing contact's rows (the other rows' forces solved for it), into delta_.
  bool solve_without_each(int ng, const bool* active, const ConeZone* zone, const int* fstate,
                          bool derivatives) const {
    TreeConstraintData<S>& cd = *s_.cd;
    for (int k = 0; k < ng; ++k) {
      bool without[kMaxEfc];
      for (int r = 0; r < cd.nefc; ++r) {
        const bool own = tree_contact_row(cd.efc_type[r]) && cd.efc_id[r] == graze_[k].contact;
        without[r] = active[r] && !own;
      }
      if (!tree_solve_active_set(*s_.m, *s_.d, cd, *s_.ws, without, derivatives, zone, fstate)) return false;
      for (int i = 0; i < s_.m->nv; ++i) delta_[k][i] = s_.d->qacc[i];
    }
    return true;
  }

  // The grazing combination of the full-force qacc in d (engine/model/tree_grazing.hpp), and the weights'
  // margins.
  void hold_grazing(const TreeMode& mode, int ng, MarginTracker& tracker) const {
    const TreeModel<S>& m = *s_.m;
    TreeData<S>& d = *s_.d;
    for (int k = 0; k < ng; ++k) {
      TreeGrazingContact<S>& g = graze_[k];
      const TreeContact<S>& c = s_.cd->contact[g.contact];
      tree_contact_frame_rows(m, *s_.cm, d, c, 1, g.normal);
      g.rate = 0.0;
      for (int i = 0; i < m.nv; ++i) g.rate += g.normal[i] * d.qvel[i];
      g.dist = c.dist - c.includemargin;
      g.omega = stabilisation_rate(c);
      g.curvature = curvature_[g.entry];
      for (int i = 0; i < m.nv; ++i) delta_[k][i] = d.qacc[i] - delta_[k][i];
    }
    double physical[kMaxGrazing];
    const bool solved = apply_tree_grazing(graze_, ng, delta_, m.nv, d.qacc, physical);
    for (int k = 0; k < ng; ++k) {
      const ContactKey& key = mode.entries[graze_[k].entry].key;
      const double s = solved ? physical[k] : -1.0;
      tracker.note(s, contact_event(key, EventKind::lift, -1, 2));
      tracker.note(1.0 - s, contact_event(key, EventKind::press, -1, 3));
    }
  }

  // 1 / the contact's time constant (refsafe's, as its rows'); for a direct stiffness -k, sqrt(k).
  double stabilisation_rate(const TreeContact<S>& c) const {
    const double tc = value(c.solref[0]);
    if (!(tc > 0.0)) return std::sqrt(std::fabs(tc));
    return 1.0 / refsafe_time_constant(tc, s_.cm->opt.refsafe, s_.cm->opt.timestep);
  }

  TreeStage<S> s_;
  // Grazing scratch: the contacts, what each one's force adds to qacc, each entry's curvature term.
  mutable TreeGrazingContact<S> graze_[kMaxGrazing];
  mutable S delta_[kMaxGrazing][kMaxDofs];
  mutable double curvature_[kMaxTreeModeEntries] = {};
  // Scratch of the last stage: each row's mode entry and its index within the entry's rows; each contact's
  // entry.
  mutable int row_entry_[kMaxEfc] = {};
  mutable int row_k_[kMaxEfc] = {};
  mutable int contact_entry_[kMaxTreeContacts] = {};
  // The tendon stage's results at the last collide_at_state, when tendon rows need them (else null).
  mutable const TreeTendonData<S>* tendons_ = nullptr;
  // Whether the mode at hand is a straight-through surrogate's (set by each entry point).
  mutable bool surrogate_ = false;
};

}  // namespace sg
