#pragma once
// A joint tree (model.type "tree") as a dynamical system for the integrators: MuJoCo's forward dynamics
// (engine/articulated, actuators included; with hinge and slide limits or geoms the constraint stage,
// tree_forward_constrained: contacts and limits) on the state y = [qpos, phi, qvel, act], act the
// activations of actuators with dynamics (muscles), integrated as MuJoCo's mj_advance does.
// Ball and free joints rotate exactly under Runge-Kutta as the rigid model's free bodies do (engine-notes
// section 3): their quaternion in qpos is held fixed within a step, the rotation vector phi accumulates phi'
// = dexp^-1(phi, w) with w the joint's local angular velocity, and after each accepted step the quaternion
// becomes q (x) exp(phi) and phi 0. Hinge and slide coordinates integrate qpos' = qvel, a free joint's
// position its world velocity, as mj_integratePos does.
//
// The system owns the run's TreeModel (scene numbers per joint expanded onto dofs) and the TreeData scratch,
// and for a constrained tree the constraint model (with the run's timestep, which refsafe reads), constraint
// data and Newton workspace (~0.5 MB in all): set up once per run outside the steps, which allocate nothing.
// run.hpp keeps the system on the heap across a sweep's points and resets it per run (reset()).
//
// For the adaptive solvers with integrator.events on it is a hybrid system (engine/integrate/events.hpp),
// as the rigid model: the mode (engine/model/tree_mode.hpp) holds which contacts and limits have rows and
// which rows push; with it frozen each evaluation uses the mode's rows and active set and reports the
// margins (engine/model/tree_mode_solver.hpp); the mode changes at located switches (apply_event). Fixed
// steps and events off never freeze it: every evaluation is then MuJoCo's mj_forward.
#include <cmath>
#include <limits>
#include <memory>

#include "engine/articulated/forward_actuated.hpp"
#include "engine/articulated/hard_contact.hpp"
#include "engine/articulated/implicit_damping.hpp"
#include "engine/articulated/jacobian.hpp"
#include "engine/core/renew.hpp"
#include "engine/core/status.hpp"
#include "engine/model/joint_tree_model.hpp"
#include "engine/model/tree_mode_solver.hpp"
#include "engine/rigid/rotation.hpp"

namespace sg {

template <class S>
class TreeSystem {
 public:
  using Scalar = S;
  static constexpr int kMaxDim = JointTreeModel<S>::kMaxDim;
  static constexpr bool kFoldsState = true;  // phi is folded into the quaternions after each step
  static constexpr bool kHybrid = true;      // contacts and limits switch (only constrained trees have modes)

  // The timestep is MuJoCo's opt.timestep for the constraints' refsafe (solref[0] >= 2 timestep); 0 (an
  // adaptive run) keeps the model's.
  TreeSystem(const JointTreeModel<S>* model, double timestep) { reset(model, timestep); }

  // Makes this the new system of `model` for another run: the state TreeSystem(model, timestep) starts in,
  // built in the memory this one already holds (a sweep's next point; run.hpp keeps the system across
  // points, which saves the allocation and page faults of its ~0.5 MB scratch).
  void reset(const JointTreeModel<S>* model, double timestep) {
    model_ = model;
    timestep_ = timestep;
    renew(act_, model->act);
    tree_sync_wrap_geoms(model_->con, act_->ten);
    renew_in_place(data_);
    renew_in_place(act_data_);
    interval_ = 0;
    frozen_ = false;
    renew_in_place(mode_);
    renew_in_place(surrogate_);
    renew_in_place(tracker_);
    expand_joint_params();
    if (!model_->constrained()) {
      modes_.reset();  // no constraints: the smooth forward dynamics, no modes
      newton_.reset();
      con_data_.reset();
      con_.reset();
      hard_.reset();
      return;
    }
    renew(con_, model_->con);
    if (timestep > 0.0) con_->opt.timestep = timestep;
    expand_friction_loss();
    renew(con_data_);
    renew(newton_);
    renew(modes_,
          TreeStage<S>{&tree_, con_.get(), act_.get(), &data_, con_data_.get(), &act_data_, newton_.get()});
    if (con_->opt.hard)
      renew(hard_);
    else
      hard_.reset();
  }
  TreeSystem(const TreeSystem&) = delete;
  TreeSystem& operator=(const TreeSystem&) = delete;

  SG_HD int dim() const { return model_->dim(); }
  SG_HD const JointTreeModel<S>& model() const { return *model_; }
  SG_HD double timestep() const { return timestep_; }
  SG_HD const TreeModel<S>& tree() const { return tree_; }
  // Output step i begins: the control sequences read it. Mutable on purpose, as RigidSystem's: the solvers
  // hold the system const and tell it where they are.
  SG_HD void begin_interval(long i) const { interval_ = i; }
  SG_HD bool forces_change_at(long i) const {
    for (int k = 0; k < model_->nforce; ++k)
      if (model_->force[k].from_step == i || model_->force[k].to_step == i) return true;
    return controls_change_at(model_->controls, i);
  }

  SG_HD void initial_state(S* y) const {
    const TreeModel<S>& m = tree_;
    for (int i = 0; i < dim(); ++i) y[i] = S(0.0);
    S* v = y + model_->vel_offset();
    for (int j = 0; j < m.njnt; ++j) {
      const TreeJoint<S>& jn = m.joint[j];
      const TreeJointParams<S>& p = model_->joint[j];
      if (jn.type == JointType::kHinge || jn.type == JointType::kSlide) {
        y[jn.qpos_adr] = p.qpos;
        v[jn.dof_adr] = p.qvel;
      } else if (jn.type == JointType::kBall) {
        const Quat<S> q = normalized(p.ball_qpos);
        y[jn.qpos_adr] = q.w, y[jn.qpos_adr + 1] = q.x, y[jn.qpos_adr + 2] = q.y, y[jn.qpos_adr + 3] = q.z;
        for (int k = 0; k < 3; ++k) v[jn.dof_adr + k] = p.ball_qvel[k];
      } else {  // free: the body's pos (a scene number, so differentiable) and quat turned by ball_qpos
        const TreeBody<S>& b = m.body[jn.body];
        const Quat<S> q = normalized(Quat<S>(normalized(b.quat) * normalized(p.ball_qpos)));
        S* at = y + jn.qpos_adr;
        at[0] = b.pos.x, at[1] = b.pos.y, at[2] = b.pos.z, at[3] = q.w, at[4] = q.x, at[5] = q.y, at[6] = q.z;
        for (int k = 0; k < 3; ++k) v[jn.dof_adr + k] = p.free_vel[k], v[jn.dof_adr + 3 + k] = p.ball_qvel[k];
      }
    }
    for (int i = 0; i < model_->act.nu; ++i) {
      const int a = model_->act.actuator[i].act_adr;
      if (a >= 0) y[model_->act_offset() + a] = model_->act0[i];
    }
  }

  // The configuration and velocity a state stands for, in data_: qpos with phi folded in, qvel.
  SG_HD void load_state(const S* y) const {
    const TreeModel<S>& m = tree_;
    for (int q = 0; q < m.nq; ++q) data_.qpos[q] = y[q];
    for (int j = 0; j < m.njnt; ++j) {
      const int r = model_->rot_adr[j];
      if (r < 0) continue;
      const int at = m.joint[j].qpos_adr + (m.joint[j].type == JointType::kFree ? 3 : 0);
      const Quat<S> q = integrate_rotation(quat_from(y + at), Vec3<S>{y[r], y[r + 1], y[r + 2]});
      data_.qpos[at] = q.w, data_.qpos[at + 1] = q.x, data_.qpos[at + 2] = q.y, data_.qpos[at + 3] = q.z;
    }
    const S* v = y + model_->vel_offset();
    for (int i = 0; i < m.nv; ++i) data_.qvel[i] = v[i], data_.qfrc_applied[i] = S(0.0);
    const S* act = y + model_->act_offset();
    for (int i = 0; i < model_->act.na; ++i) act_data_.act[i] = act[i];
    load_timed_forces();
  }

  // The timed forces of the output step the solver is in, as the bodies' xfrc_applied.
  SG_HD void load_timed_forces() const {
    if (model_->nforce == 0) return;
    for (int b = 0; b < tree_.nbody; ++b) data_.xfrc_force[b] = data_.xfrc_torque[b] = Vec3<S>{};
    data_.xfrc_any = false;
    for (int k = 0; k < model_->nforce; ++k) {
      const TreeTimedForce<S>& f = model_->force[k];
      if (interval_ < f.from_step || interval_ >= f.to_step) continue;
      data_.xfrc_force[f.body] += f.force;
      data_.xfrc_torque[f.body] += f.torque;
      data_.xfrc_any = true;
    }
  }

  // qacc at y (in data_.qacc), every smooth quantity of mj_forward on the way. Straight-through Contacts
  // From Distance: the values of the simulated (MuJoCo's) model and the derivatives of the CFD model.
  SG_HD void forward(const S* y) const {
    grazing_curvature(y);
    load_state(y);
    set_controls();
    if (surrogate_held()) return forward_with_held_surrogate(y);
    if (!straight_through_derivatives()) return simulated_forward(forward_cfd(), true);
    // The simulated model's derivatives would be replaced by the surrogate's: values only for it.
    S simulated[kMaxDofs];
    {
      const TapePause<S> values_only(true);
      simulated_forward(false, false);
      for (int i = 0; i < tree_.nv; ++i) simulated[i] = S(value(data_.qacc[i]));
    }
    // Without a held surrogate mode (fixed steps, events or surrogate_events off) the surrogate is MuJoCo's
    // rules with CFD's rows at each evaluation. The state is loaded again: kinematics normalised qpos's
    // quaternions in place (as mj_kinematics), on values only, and a second normalisation could move them by
    // an ulp.
    load_state(y);
    simulated_forward(true, true);
    for (int i = 0; i < tree_.nv; ++i) data_.qacc[i] = straight_through(simulated[i], data_.qacc[i]);
  }

  // ODE right-hand side: qpos' = qvel (quaternions 0), phi' = dexp^-1(phi, w), qvel' = qacc, act' = act_dot.
  SG_HD SG_NOINLINE void rhs(const S* y, S* ydot) const {
    forward(y);
    position_rates(y, ydot);
    S* a = ydot + model_->vel_offset();
    for (int i = 0; i < tree_.nv; ++i) a[i] = data_.qacc[i];
    S* act_rate = ydot + model_->act_offset();
    for (int i = 0; i < model_->act.na; ++i) act_rate[i] = act_data_.act_dot[i];
  }

  // The kinematic part of the right-hand side: qpos' = qvel for hinges, slides and a free joint's position,
  // phi' = dexp^-1(phi, w) for rotations; the rest of ydot 0.
  SG_HD void position_rates(const S* y, S* ydot) const {
    const TreeModel<S>& m = tree_;
    const S* v = y + model_->vel_offset();
    for (int i = 0; i < dim(); ++i) ydot[i] = S(0.0);
    for (int j = 0; j < m.njnt; ++j) {
      const TreeJoint<S>& jn = m.joint[j];
      const int r = model_->rot_adr[j];
      int dof = jn.dof_adr;
      if (jn.type == JointType::kHinge || jn.type == JointType::kSlide) {
        ydot[jn.qpos_adr] = v[dof];
        continue;
      }
      if (jn.type == JointType::kFree) {
        for (int c = 0; c < 3; ++c) ydot[jn.qpos_adr + c] = v[dof + c];
        dof += 3;
      }
      const Vec3<S> rate =
          dexp_inv(Vec3<S>{y[r], y[r + 1], y[r + 2]}, Vec3<S>{v[dof], v[dof + 1], v[dof + 2]});
      ydot[r] = rate.x, ydot[r + 1] = rate.y, ydot[r + 2] = rate.z;
    }
  }

  // After an accepted step: each quaternion q <- normalise(q (x) exp(phi)), phi <- 0; limited activations
  // clamped (MuJoCo's RK4 clamps at the end of its step, in mj_advance).
  SG_HD void after_accept(S* y) const {
    clamp_activations(y);
    for (int j = 0; j < tree_.njnt; ++j) {
      const int r = model_->rot_adr[j];
      if (r < 0) continue;
      const int at = tree_.joint[j].qpos_adr + (tree_.joint[j].type == JointType::kFree ? 3 : 0);
      const Quat<S> q = integrate_rotation(quat_from(y + at), Vec3<S>{y[r], y[r + 1], y[r + 2]});
      y[at] = q.w, y[at + 1] = q.x, y[at + 2] = q.y, y[at + 3] = q.z;
      y[r] = y[r + 1] = y[r + 2] = S(0.0);
    }
  }

  // The derivative at a just-folded state: only phi' changes, to dexp^-1(0, w) = w.
  SG_HD void after_accept_derivative(const S* y, S* ydot) const {
    const S* v = y + model_->vel_offset();
    for (int j = 0; j < tree_.njnt; ++j) {
      const int r = model_->rot_adr[j];
      if (r < 0) continue;
      const int dof = tree_.joint[j].dof_adr + (tree_.joint[j].type == JointType::kFree ? 3 : 0);
      for (int k = 0; k < 3; ++k) ydot[r + k] = v[dof + k];
    }
  }

  // The continuous adjoint's side of the fold (as RigidSystem::fold_adjoint): the adjoint of (q, phi)
  // becomes that of (q (x) exp(phi), 0): a_q' = a_q (x) exp(phi), a_phi' = dexp^-1(-phi, a_phi).
  SG_HD void fold_adjoint(const double* y, double* a) const {
    for (int j = 0; j < tree_.njnt; ++j) {
      const int r = model_->rot_adr[j];
      if (r < 0) continue;
      const int at = tree_.joint[j].qpos_adr + (tree_.joint[j].type == JointType::kFree ? 3 : 0);
      const Vec3<double> phi(y[r], y[r + 1], y[r + 2]);
      const Quat<double> aq = Quat<double>(a[at], a[at + 1], a[at + 2], a[at + 3]) * quat_exp(phi);
      const Vec3<double> ap =
          dexp_inv(Vec3<double>(-phi.x, -phi.y, -phi.z), Vec3<double>(a[r], a[r + 1], a[r + 2]));
      a[at] = aq.w, a[at + 1] = aq.x, a[at + 2] = aq.y, a[at + 3] = aq.z;
      a[r] = ap.x, a[r + 1] = ap.y, a[r + 2] = ap.z;
    }
  }

  // MuJoCo 2.2.2's mj_Euler: with dof damping the velocity update is implicit in the damping,
  // qacc <- (qM + h diag(damping))^-1 qM qacc; then (mj_advance) act += h act_dot, qvel += h qacc and
  // mj_integratePos with the new qvel.
  template <class H>
  SG_HD void step_euler(S* y, const H& h) const {
    forward(y);
    advance_activations(y, h);
    damp_implicitly(h);
    S* v = y + model_->vel_offset();
    for (int i = 0; i < tree_.nv; ++i) v[i] += h * data_.qacc[i];
    tree_integrate_pos(tree_, y, v, h);
  }

  // Moreau's midpoint: forces at q + h/2 v, v+ = v + h qacc plus the hard contacts' impulses there
  // (contact.model "hard"; none otherwise), q+ = q + h/2 (v + v+). Dof damping is implicit in the velocity
  // update as in mj_Euler (qM + h D replaces qM, for the impulses too): stiff joint dampers, common in
  // robots, would make the explicit update unstable at MuJoCo's usual steps (the finger push's at 5 ms).
  template <class H>
  SG_HD void step_moreau(S* y, const H& h) const {
    S mid[kMaxDim];
    for (int i = 0; i < dim(); ++i) mid[i] = y[i];
    S* v = y + model_->vel_offset();
    tree_integrate_pos(tree_, mid, v, 0.5 * h);
    forward(mid);
    advance_activations(y, h);
    damp_implicitly(h);
    S v_new[kMaxDofs];
    for (int i = 0; i < tree_.nv; ++i) v_new[i] = v[i] + h * data_.qacc[i];
    if (hard_ && !tree_hard_impulses(tree_, *con_, data_, *con_data_, h, v_new, *hard_))
      for (int i = 0; i < tree_.nv; ++i) v_new[i] = std::numeric_limits<double>::quiet_NaN();
    S avg[kMaxDofs];
    for (int i = 0; i < tree_.nv; ++i) {
      avg[i] = 0.5 * (v[i] + v_new[i]);
      v[i] = v_new[i];
    }
    tree_integrate_pos(tree_, y, avg, h);
  }

  // Position (0) or velocity (1) of scene body `body` (tree body body + 1) along `axis`, for losses: the
  // body frame's origin xpos and that point's world velocity; or qpos (2) or qvel (3) coordinate `axis` of
  // joint `body` (a ball's or free joint's quaternion with its rotation vector folded in), or site `body`'s
  // position (4).
  SG_HD S coordinate(const S* y, int quantity, int body, int axis) const {
    load_state(y);
    if (quantity == 2) return data_.qpos[tree_.joint[body].qpos_adr + axis];  // body: the joint here
    if (quantity == 3) return data_.qvel[tree_.joint[body].dof_adr + axis];
    tree_kinematics(tree_, data_);
    if (quantity == 0) return data_.xpos[body + 1][axis];
    if (quantity == 4) {  // site `body`
      const TreeSite<S>& s = model_->act.ten.site[body];
      return (data_.xmat[s.body] * s.pos + data_.xpos[s.body])[axis];
    }
    tree_com_pos(tree_, data_);
    tree_com_vel(tree_, data_);
    return point_velocity(body + 1)[axis];
  }

  // The world velocity of body b's frame origin (MuJoCo's mj_objectVelocity). Needs kinematics, com_pos and
  // com_vel of the current state.
  SG_HD Vec3<S> point_velocity(int b) const { return tree_point_velocity(tree_, data_, data_.xpos[b], b); }
  SG_HD Vec3<S> angular_velocity(int b) const { return data_.cvel[b].rot; }
  // The state's data after load_state + kinematics (the trajectory recorder reads poses from it).
  SG_HD const TreeData<S>& data() const { return data_; }

  // MuJoCo's contacts and constraint forces at y by its rules (mj_forward; a frozen mode and CFD aside),
  // left in constraint_data() for plots and the 3-D view. False without constraints or if the solve failed.
  // It overwrites the scratch an evaluation fills anyway; the mode and its margins stay.
  SG_HD bool forces_by_rules(const S* y) const {
    if (!con_) return false;
    load_dynamics(y);
    return tree_forward_constrained(tree_, *con_, *act_, data_, *con_data_, act_data_, *newton_, false, 2) ==
           TreeForwardStatus::kOk;
  }
  // The contacts out to the CFD width at the state of the last forces_by_rules (for drawing CFD's virtual
  // contacts), after the forces were read.
  SG_HD void collide_cfd_band() const {
    if (con_) tree_collide(tree_, *con_, data_, *con_data_, true);
  }
  SG_HD const TreeConstraintData<S>* constraint_data() const { return con_data_.get(); }
  // contact.model "hard": the normal impulse the last Moreau step's contacts gave tree body `body` (0 without
  // hard contact or before a step). Read before anything else fills constraint_data() again.
  SG_HD S hard_normal_impulse(int body) const {
    return hard_ ? tree_hard_normal_impulse(*con_, *con_data_, *hard_, body) : S(0.0);
  }

  // ---- The hybrid interface (engine/integrate/events.hpp) ----

  // Only a constrained tree has modes; the solver freezes them for adaptive steps with events on.
  SG_HD void set_frozen(bool on) const { frozen_ = on && modes_ != nullptr; }
  SG_HD MarginTracker& margins() const { return tracker_; }
  SG_HD const TreeMode& mode() const { return mode_; }
  using Memo = TreeMemo;
  SG_HD Memo memo() const {
    return {interval_,  frozen_,  mode_,
            surrogate_, tracker_, newton_ ? pack(newton_->guesses) : PackedGuesses{}};
  }
  SG_HD void restore(const Memo& m) const {
    interval_ = m.interval;
    frozen_ = m.frozen;
    mode_ = m.mode;
    surrogate_ = m.surrogate;
    tracker_ = m.tracker;
    if (newton_) unpack(m.guesses, newton_->guesses);
  }
  // Straight-through CFD differentiates the CFD surrogate along the simulated trajectory; the simulated
  // model's jumps add no saltation terms to the surrogate's tangents (as RigidSystem).
  SG_HD bool saltation_applies() const { return !(cfd().enabled && cfd().straight_through); }

  // The mode MuJoCo's rules give at y: rows where they are due, Newton's active set.
  SG_HD void mode_from_state(const S* y) const {
    if (!frozen_) return;
    const TapePause<S> values_only(true);
    load_dynamics(y);
    modes_->from_rules(mode_);
    if (!surrogate_held()) return;
    load_dynamics(y);
    modes_->from_rules(surrogate_, true);
  }

  // The smallest margin at y and whose it is (values only: event location records nothing).
  SG_HD SG_NOINLINE double margin_at(const S* y, EventId* which) const {
    tracker_.begin();
    const TapePause<S> values_only(true);
    grazing_curvature(y);
    load_dynamics(y);
    modes_->evaluate(mode_, tracker_, false);
    if (surrogate_held()) {
      load_dynamics(y);
      modes_->evaluate(surrogate_, tracker_, false, true);
    }
    *which = tracker_.last_witness;
    return tracker_.last;
  }

  // Switches the mode for the crossed function `id` at y; returns what happened. A row that enters or
  // leaves the active set flips alone (its force is 0 there); an onset or a separation adds or removes the
  // contact or limit and takes every row's activity from Newton's solution there. With CFD in the forward
  // simulation a contact passes through the band: free -> band (surface 1) -> contact (surface 0) and back.
  // A straight-through surrogate's own switches change its mode alone; the simulated model's onsets and
  // separations switch the surrogate too.
  SG_HD EventId apply_event(const S* y, const EventId& id) const {
    if (surrogate_event(id.surface)) return apply_surrogate_event(y, id);
    const EventId done = apply_model_event(y, id);
    if (surrogate_held() && done.row < 0) follow_model_event(y, done);
    return done;
  }

  // The switching function of an onset or separation at y (with derivatives), and its rate.
  SG_HD S event_value(const S* y, const EventId& id) const {
    load_state(y);
    return modes_->switching_value(ContactKey{id.a, id.b, id.feature}, id.surface);
  }
  SG_HD double event_rate(const S* y, const EventId& id) const {
    const TapePause<S> values_only(true);
    load_state(y);
    return modes_->switching_rate(ContactKey{id.a, id.b, id.feature});
  }

 private:
  SG_HD EventId apply_model_event(const S* y, const EventId& id) const {
    const TapePause<S> values_only(true);  // a new mode: no derivatives
    if (id.kind == EventKind::none) return EventId{};
    const ContactKey key{id.a, id.b, id.feature};
    const int e = mode_.find(key);
    EventId done = id;
    if (id.kind == EventKind::lift || id.kind == EventKind::press) return leave_grazing(y, e, id);
    if (id.row >= 0 && id.surface == kConeSurface) return cross_cone_zone(mode_, e, id);
    if (id.row >= 0) return flip_row(mode_, e, id);
    const bool cfd = forward_cfd() && !is_tree_limit_key(key);
    if (e < 0) {
      if (mode_.add(key, cfd ? ContactLevel::band : ContactLevel::contact) < 0) return EventId{};
      done.kind = EventKind::onset;
      done.surface = cfd ? 1 : 0;
    } else {
      done.surface = pass_band(e, id.kind, &done.kind);
    }
    load_dynamics(y);
    modes_->rederive(mode_);
    // A crossing of CFD's laws is no free flight's take-off or landing (as the free bodies' events).
    double free_accel = 0.0;
    if (!cfd) done.tangential = tangential_crossing(y, key, &free_accel);
    if (done.tangential) maybe_graze(y, key, free_accel, &done);
    return done;
  }

  // ---- A straight-through CFD surrogate held in a mode of its own, as the free bodies' (docs/engine.md,
  // "Straight-through CFD"): its tangents' field is smooth only between its own switches, which end steps.
  SG_HD bool surrogate_held() const {
    return frozen_ && con_ && cfd().enabled && cfd().straight_through && cfd().surrogate_events;
  }

  // qacc at the loaded state: the simulated model's values, the held surrogate's derivatives (a double run
  // evaluates the surrogate for its margins alone: the same steps with and without derivatives).
  SG_HD void forward_with_held_surrogate(const S* y) const {
    S simulated[kMaxDofs];
    {
      const TapePause<S> values_only(true);
      simulated_forward(false, !has_derivatives_v<S>);
      for (int i = 0; i < tree_.nv; ++i) simulated[i] = S(value(data_.qacc[i]));
    }
    // Loaded again: kinematics normalised qpos's quaternions in place, on values only (see forward).
    load_state(y);
    {
      const TapePause<S> values_only(!has_derivatives_v<S>);
      if (modes_->evaluate(surrogate_, tracker_, has_derivatives_v<S>, true) != TreeForwardStatus::kOk ||
          con_data_->overflow)
        return poison_qacc();
    }
    for (int i = 0; i < tree_.nv; ++i) data_.qacc[i] = straight_through(simulated[i], data_.qacc[i]);
  }

  // A switch of the surrogate's own: a row or an elliptic cone's zone, or a contact entering or leaving the
  // band at its outer edge.
  SG_HD EventId apply_surrogate_event(const S* y, const EventId& id) const {
    const TapePause<S> values_only(true);
    if (id.kind == EventKind::none) return EventId{};
    const ContactKey key{id.a, id.b, id.feature};
    const int e = surrogate_.find(key);
    if (id.row >= 0 && id.surface == kConeSurface + kSurrogateSurface)
      return cross_cone_zone(surrogate_, e, id);
    if (id.row >= 0) return flip_row(surrogate_, e, id);
    EventId done = id;
    if (e < 0) {
      if (surrogate_.add(key, ContactLevel::band) < 0) return EventId{};
      done.kind = EventKind::onset;
    } else {
      surrogate_.remove(e);
      done.kind = EventKind::separation;
    }
    load_dynamics(y);
    modes_->rederive(surrogate_, true);
    return done;
  }

  // The simulated model's contact or limit starts or stops acting: the surrogate's contact switches between
  // its band and the contact's laws there, its limit on or off.
  SG_HD void follow_model_event(const S* y, const EventId& done) const {
    const TapePause<S> values_only(true);
    const bool touching = done.kind == EventKind::onset || done.kind == EventKind::graze;
    if (!touching && done.kind != EventKind::separation && done.kind != EventKind::lift) return;
    const ContactKey key{done.a, done.b, done.feature};
    const int e = surrogate_.find(key);
    if (touching) {
      if (e < 0) {
        surrogate_.add(key, ContactLevel::contact);
      } else {
        surrogate_.entries[e].level = ContactLevel::contact;
      }
    } else if (e >= 0) {
      if (is_tree_limit_key(key)) {
        surrogate_.remove(e);
      } else {
        surrogate_.entries[e].level = ContactLevel::band;
      }
    } else if (!is_tree_limit_key(key)) {
      surrogate_.add(key, ContactLevel::band);
    }
    load_dynamics(y);
    modes_->rederive(surrogate_, true);
  }

  SG_HD const CfdParams<S>& cfd() const { return model_->con.cfd; }

  // A held entry's onset or separation (kind): a band contact touches (surface 0) or leaves the band
  // (surface 1, removed); a touching one separates, into the band with CFD in the forward simulation. The
  // event's kind as applied goes to `done`; returns the surface crossed.
  SG_HD int pass_band(int e, EventKind kind, EventKind* done) const {
    ModeEntry& entry = mode_.entries[e];
    if (entry.level == ContactLevel::band) {
      *done = kind;
      if (kind == EventKind::onset) {
        entry.level = ContactLevel::contact;
        return 0;
      }
      mode_.remove(e);
      return 1;
    }
    *done = EventKind::separation;
    if (forward_cfd() && !is_tree_limit_key(entry.key)) {
      entry.level = ContactLevel::band;
    } else {
      mode_.remove(e);
    }
    return 0;
  }
  SG_HD bool forward_cfd() const { return con_ && cfd().enabled && !cfd().straight_through; }
  // Whether an evaluation combines two models: straight-through CFD on a scalar with derivatives.
  SG_HD bool straight_through_derivatives() const {
    return has_derivatives_v<S> && con_ && cfd().enabled && cfd().straight_through;
  }

  // mj_forward at the loaded state and controls: the frozen mode's, or MuJoCo's rules (with CFD's rows
  // when `cfd`). A singular joint-space inertia (a massless dof without armature) has no qacc: NaN makes
  // the solver stop with a non-finite state instead of running on with zero acceleration. So do more
  // contacts or rows than the capacities: the dropped ones would leave bodies interpenetrating.
  SG_HD void simulated_forward(bool cfd, bool derivatives) const {
    bool ok;
    if (con_ && frozen_ && cfd == forward_cfd()) {  // the simulated model (not a CFD surrogate)
      tracker_.begin();
      ok = modes_->evaluate(mode_, tracker_, derivatives) == TreeForwardStatus::kOk && !con_data_->overflow;
    } else if (con_) {
      ok = tree_forward_constrained(tree_, *con_, *act_, data_, *con_data_, act_data_, *newton_, cfd,
                                    cfd ? 1 : 0) == TreeForwardStatus::kOk &&
           !con_data_->overflow;
    } else {
      ok = tree_has_actuation(*act_) ? tree_forward(tree_, *act_, data_, act_data_)
                                     : tree_forward(tree_, data_);
    }
    if (!ok) poison_qacc();
  }

  // The length scale that classifies crossings, as RigidSystem::kCrossingScale: a crossing whose free hop (or
  // dip), v^2 / (2 |a_free|), stays below kCrossingScale (1 + |pos|) has no resolved switching time and gets
  // no saltation term (dtau/dtheta ~ 1/v would be huge and meaningless). Fixed, not the tolerance: every
  // tolerance must differentiate the same hybrid system.
  static constexpr double kCrossingScale = 1e-10;
  // The time step of the difference that gives the switching function's second derivative (s): its
  // truncation error (1e-7 of the jerk) and rounding (1e-9 of the rate) only move the classification's
  // threshold.
  static constexpr double kRateStep = 1e-7;

  // Whether the onset or separation of `key` just switched at y is tangential: its rate against the
  // acceleration of its switching function under the mode without it (the free motion), left in *accel.
  SG_HD bool tangential_crossing(const S* y, const ContactKey& key, double* accel_out) const {
    TreeMode free = mode_;
    const int e = free.find(key);
    if (e >= 0) free.remove(e);
    load_state(y);
    const double rate = modes_->switching_rate(key), scale = modes_->switching_scale(key);
    const double accel = switching_acceleration(y, key, free);
    *accel_out = accel;
    return rate * rate <= 2.0 * std::fabs(accel) * kCrossingScale * (1.0 + scale);
  }

  // The second derivative of key's switching function along the field of mode m at y (values): its rate a
  // short time later along that field, less its rate now, over the time. The mode and the margins stay.
  SG_HD double switching_acceleration(const S* y, const ContactKey& key, TreeMode m) const {
    const TreeMode held = mode_;
    const MarginTracker tracked = tracker_;
    load_dynamics(y);
    modes_->rederive(m);
    mode_ = m;
    S f[kMaxDim], moved[kMaxDim];
    rhs(y, f);
    for (int i = 0; i < dim(); ++i) moved[i] = y[i] + kRateStep * f[i];
    const double accel = rate_change(y, moved, key);
    mode_ = held;
    tracker_ = tracked;
    return accel;
  }

  // The rate of key's switching function at `moved` (y carried kRateStep along a field) less its rate at y,
  // over kRateStep: the function's second derivative along that field.
  SG_HD double rate_change(const S* y, const S* moved, const ContactKey& key) const {
    load_state(moved);
    const double later = modes_->switching_rate(key);
    load_state(y);
    const double now = modes_->switching_rate(key);
    return (later - now) / kRateStep;
  }

  // After a tangential onset or separation of a contact: at a two-fold (the free motion falls back onto the
  // surface, the contact pushes off it) the contact enters the grazing mode instead of hopping on
  // (engine/model/tree_grazing.hpp). Unlike the free bodies, whose grazing mode takes over only below 1/1000
  // of the crossing scale, every tangential two-fold grazes: a pushed box's corner in scenes/finger_push.json
  // hops 8e-11 m high every 0.1 ms, each hop 1% lower than the last (hundreds of hops, each a ladder of
  // rejected steps, before any 1e-13 m threshold), and such hops get no saltation term either way.
  // `falls`: the free motion's acceleration of the switching function (tangential_crossing's).
  SG_HD void maybe_graze(const S* y, const ContactKey& key, double falls, EventId* done) const {
    if (is_tree_limit_key(key) || !modes_->grazing_allowed()) return;
    TreeMode with = mode_;
    if (with.find(key) < 0 && with.add(key, ContactLevel::contact) < 0) return;
    const double pushes = switching_acceleration(y, key, with);
    if (!(falls < 0.0 && pushes > 0.0)) return;
    load_dynamics(y);
    modes_->rederive(with);  // the rows' activity with the contact at full force
    const int g = with.find(key);
    if (g < 0) return;
    with.entries[g].level = ContactLevel::grazing;
    mode_ = with;
    done->kind = EventKind::graze;
  }

  // A grazing contact's weight left [0, 1]: below 0 the free motion lifts off (the contact leaves the mode),
  // above 1 it presses in (a plain contact; its force is continuous there, the full force acting at s = 1).
  SG_HD EventId leave_grazing(const S* y, int e, const EventId& id) const {
    if (e < 0 || mode_.entries[e].level != ContactLevel::grazing) return EventId{};
    if (id.kind == EventKind::press) {
      mode_.entries[e].level = ContactLevel::contact;
    } else {
      mode_.remove(e);
      load_dynamics(y);
      modes_->rederive(mode_);
    }
    return id;
  }

  // The curvature term J_n' qvel of each grazing contact's distance at y, for the mode solver: the rate
  // J_n qvel a short time later along the positions' motion (velocities held), less the rate now, over the
  // time (values: a constant of the gradient, as the stabilisation it serves).
  SG_HD void grazing_curvature(const S* y) const {
    if (!frozen_ || !modes_) return;
    bool any = false;
    for (int e = 0; e < mode_.count; ++e) any = any || mode_.entries[e].level == ContactLevel::grazing;
    if (!any) return;
    const TapePause<S> values_only(true);
    S moved[kMaxDim];
    position_rates(y, moved);
    for (int i = 0; i < dim(); ++i) moved[i] = S(value(y[i]) + kRateStep * value(moved[i]));
    for (int e = 0; e < mode_.count; ++e) {
      if (mode_.entries[e].level != ContactLevel::grazing) continue;
      modes_->set_curvature(e, rate_change(y, moved, mode_.entries[e].key));
    }
  }

  // The scene's per-joint damping, armature, spring rest and ref onto the run's dofs and qpos.
  SG_HD void expand_joint_params() {
    tree_ = model_->tree;
    for (int j = 0; j < tree_.njnt; ++j) {
      const TreeJoint<S>& jn = tree_.joint[j];
      const TreeJointParams<S>& p = model_->joint[j];
      for (int k = 0; k < joint_dof_count(jn.type); ++k) {
        tree_.damping[jn.dof_adr + k] = p.damping;
        tree_.armature[jn.dof_adr + k] = p.armature;
      }
      if (jn.type == JointType::kHinge || jn.type == JointType::kSlide) {
        tree_.qpos_spring[jn.qpos_adr] = p.springref;
        tree_.qpos0[jn.qpos_adr] = p.ref;
      }
    }
    for (int i = 0; i < model_->act.nu; ++i) act_data_.ctrl[i] = model_->ctrl[i];
  }

  // Each joint's frictionloss on each of its dofs (with whatever derivatives it carries).
  void expand_friction_loss() {
    for (int j = 0; j < tree_.njnt; ++j) {
      const TreeJoint<S>& jn = tree_.joint[j];
      for (int k = 0; k < joint_dof_count(jn.type); ++k)
        con_->dof_friction[jn.dof_adr + k].frictionloss = model_->joint[j].frictionloss;
    }
  }

  // The state and the current output step's controls: what the mode solver's dynamics read.
  SG_HD void load_dynamics(const S* y) const {
    load_state(y);
    set_controls();
  }

  // The sequences' controls in the current output step, from the model's knots at each evaluation (so a
  // taped or seeded evaluation sees the knots' derivatives); constant controls were set once.
  SG_HD void set_controls() const {
    const TreeControls<S>& c = model_->controls;
    if (!c.any()) return;
    for (int a = 0; a < model_->act.nu; ++a)
      if (c.count[a] > 0) act_data_.ctrl[a] = control_at(c, a, interval_);
  }

  // act += h act_dot, with act_dot from the last forward(), then the limited activations clamped to their
  // actrange (mj_advance).
  template <class H>
  SG_HD void advance_activations(S* y, const H& h) const {
    S* act = y + model_->act_offset();
    for (int i = 0; i < model_->act.na; ++i) act[i] += h * act_data_.act_dot[i];
    clamp_activations(y);
  }

  // mj_advance's clamp of each limited activation to its actrange: a clamped activation is the bound, with
  // the bound's derivative (zero: actrange is a fixed number). Only fixed-step integrators run limited
  // activations (read_tree refuses the others: the clamp would need to be an event).
  SG_HD void clamp_activations(S* y) const {
    S* act = y + model_->act_offset();
    for (int u = 0; u < model_->act.nu; ++u) {
      const TreeActuator<S>& a = model_->act.actuator[u];
      if (!a.actlimited || a.act_adr < 0) continue;
      act[a.act_adr] = actuator_clip(act[a.act_adr], a.actrange[0], a.actrange[1]);
    }
  }

  // (qM + h D) qacc' = qM qacc, with qM and qacc from the last forward().
  template <class H>
  SG_HD void damp_implicitly(const H& h) const {
    if (!tree_damp_implicitly(tree_, data_, h)) poison_qacc();
  }

  SG_HD void poison_qacc() const {
    for (int i = 0; i < tree_.nv; ++i) data_.qacc[i] = S(std::numeric_limits<double>::quiet_NaN());
  }

  const JointTreeModel<S>* model_ = nullptr;
  double timestep_ = 0.0;  // refsafe's (0: the model's)
  TreeModel<S> tree_;
  std::unique_ptr<TreeActuatorModel<S>> act_;  // the model's, its wrap geoms refreshed from the run's geoms
  mutable TreeData<S> data_;
  mutable TreeActuatorData<S> act_data_;         // the controls (from the model) and actuation's scratch
  mutable long interval_ = 0;                    // the output step the solver is in
  std::unique_ptr<TreeConstraintModel<S>> con_;  // null: no limits, the smooth forward dynamics
  std::unique_ptr<TreeConstraintData<S>> con_data_;
  std::unique_ptr<TreeNewtonWorkspace> newton_;
  std::unique_ptr<TreeModeSolver<S>> modes_;  // null without constraints: no modes
  std::unique_ptr<TreeHardScratch<S>> hard_;  // contact.model "hard" only
  // The hybrid mode. Mutable: the integrators hold the system const and tell it which mode holds.
  mutable bool frozen_ = false;
  mutable TreeMode mode_;
  mutable TreeMode surrogate_;
  mutable MarginTracker tracker_;
};

}  // namespace sg
