#pragma once
// The adaptive solver's handling of switching events (engine/integrate/events.hpp). With events on, a hybrid
// system integrates each step in a fixed mode; when an accepted step has left it (some margin went negative
// at a stage or at its end), the first crossing is located on the step's dense output, the state just past
// it is taken from that output (Tsit5, Dopri5, Bosh3) or from the step redone up to there (Dopri8), the mode
// is switched there and, for a jump of the vector field, the tangents get the saltation term. Switches that
// are due at a step's start (simultaneous ones, or forces that changed at an output time) are applied at
// once. Chatter (a run of switches without progress, or too many switches within one output interval) falls
// back to stepping without fixed modes until the next output time, and after a few such intervals for the
// whole solve.
#include "engine/integrate/event_locate.hpp"
#include "engine/integrate/observer.hpp"
#include "engine/integrate/rk_step.hpp"
#include "engine/integrate/saltation.hpp"
#include "engine/integrate/settings.hpp"

namespace sg {

// The event stepper's own state, for a checkpoint (engine/gradient/checkpointed_adjoint.hpp). One type for
// every scalar, so that a double run's checkpoints restore a taped run.
struct EventStepperMemo {
  bool on, fallback, switched;
  int zero_run, interval_events, fallbacks;
};

struct EventStepResult {
  bool advanced = false;  // y is at the switch (or at the same time, for a switch due at the start)
  double h = 0.0;         // the step taken
  double h_retry = 0.0;   // otherwise: the step to try next
};

template <const Tableau& tab, class H, class System>
class EventStepper {
  using S = typename System::Scalar;

 public:
  static constexpr bool kHybrid = is_hybrid_system<System>();

  SG_HD EventStepper(const System& sys, const IntegratorSettings& cfg) : sys_(sys), cfg_(cfg) {
    if constexpr (kHybrid) on_ = cfg.events;
  }

  // Before the first right-hand side at t = 0: fixed modes on, the mode the initial state implies.
  SG_HD void begin(const S* y) {
    if constexpr (kHybrid) {
      sys_.set_frozen(on_);
      if (on_) sys_.mode_from_state(y);
    } else {
      (void)y;
    }
  }

  // At an output time: a fallback ends here. Returns whether the mode was rebuilt (then f(y) is due again).
  SG_HD bool begin_interval(const S* y) {
    if constexpr (kHybrid) {
      interval_events_ = 0;
      if (on_ && fallback_ && fallbacks_ < kMaxFallbacks) {
        fallback_ = false;
        zero_run_ = 0;
        sys_.set_frozen(true);
        sys_.mode_from_state(y);
        return true;
      }
    } else {
      (void)y;
    }
    return false;
  }

  SG_HD void before_step() {
    if constexpr (kHybrid) sys_.margins().clear();
  }

  // Whether the last step left the mode.
  SG_HD bool crossed() const {
    if constexpr (kHybrid) return active() && sys_.margins().min < 0.0;
    return false;
  }

  // The smallest shrink of a rejected step. The first steps after a switch start from a proposal made in the
  // old mode (at contact onset, a free-flight step hundreds of times too long): their error estimate is
  // trusted down to a shrink of kSwitchFactorMin instead of cfg.factor_min, saving a ladder of rejections.
  SG_HD double reject_factor_min() const { return switched_ ? kSwitchFactorMin : cfg_.controller.factor_min; }

  using Memo = EventStepperMemo;
  SG_HD Memo save() const { return {on_, fallback_, switched_, zero_run_, interval_events_, fallbacks_}; }
  SG_HD void load(const Memo& m) {
    on_ = m.on;
    fallback_ = m.fallback;
    switched_ = m.switched;
    zero_run_ = m.zero_run;
    interval_events_ = m.interval_events;
    fallbacks_ = m.fallbacks;
  }

  // A step of positive length was accepted normally: the last switch is behind.
  SG_HD void progressed() {
    zero_run_ = 0;
    switched_ = false;
    if constexpr (kHybrid) sys_.margins().clear_exempt();
  }

  // Applies the switches due at y (k[0] = f(y) was just evaluated): the mode must fit the state when a step
  // starts. A loop, not recursion through apply_switch: device code then has a stack of known size.
  template <class Observer>
  SG_HD void settle(S* y, RkWorkspace<System>& ws, double t, SolveStats& st, Observer& obs) {
    if constexpr (kHybrid) {
      while (active() && sys_.margins().last < 0.0) {
        if (++zero_run_ > kMaxZeroRun) {
          give_up_until_next_output();
          return;
        }
        for (int k = 0; k < sys_.dim(); ++k) ws.f_event[k] = ws.k[0][k];
        if (!switch_once(y, ws, sys_.margins().last_witness, t, st, obs)) return;
      }
    } else {
      (void)y, (void)ws, (void)t, (void)st, (void)obs;
    }
  }

  // The step from (t, y) of size h (in ws: y1, k[0] = f(y), k[last] = f(y1)) was accepted but left the mode.
  // attempts and st count the extra attempt and the switch.
  // t_h: the time as the controller's scalar (through the controller, its tangent is cancelled by the step
  // that ends at the switch, whose time is differentiated by the saltation term instead).
  template <class Observer>
  SG_HD EventStepResult step_to_switch(S* y, RkWorkspace<System>& ws, double h, double t, const H& t_h,
                                       long& attempts, SolveStats& st, Observer& obs) {
    EventStepResult r;
    if constexpr (kHybrid) {
      const int n = sys_.dim();
      const MarginTracker end = sys_.margins();
      const EventLocation loc =
          locate_event<tab>(sys_, y, ws, h, end.last, end.last_witness, 1e-10 * h, 1e-6 * h);
      if (!loc.found) {  // a crossing the interpolant does not show (in and out within the step): shorten
        ++st.rejected;
        r.h_retry = 0.5 * h;
        return r;
      }
      const double h_event = loc.theta * h;
      r.advanced = true;
      if (h_event <= 1e-12 * cfg_.dt) {  // due at the step's start: the trial step is discarded
        ++st.truncated;
        if (++zero_run_ > kMaxZeroRun) {
          give_up_until_next_output();
          return r;
        }
        for (int k = 0; k < n; ++k) ws.f_event[k] = ws.k[0][k];
        apply_switch(y, ws, loc.id, t, st, obs);
        return r;
      }
      if constexpr (extension_stands_for_step<tab>() && !is_dual_v<H>) {
        // The method's continuous extension stands for the step to the switch; f there in the old mode.
        dense_state<tab>(y, ws.y1, ws.k, h, loc.theta, n, ws.ytmp);
        if (!sys_.saltation_applies()) tangents_from_step_to(y, ws, h_event);
        for (int k = 0; k < n; ++k) y[k] = ws.ytmp[k];
        sys_.after_accept(y);
        rhs_values(y, ws.f_event);  // f- enters the saltation term by value
        zero_run_ = 0;
        ++st.accepted;
        obs.on_accept(h_event);
        r.h = h_event;
        apply_switch(y, ws, loc.id, t + h_event, st, obs);
        return r;
      }
      ++st.truncated;  // the trial step is discarded, and redone up to the switch
      double h_to = h_event;
      EventId crossed = loc.id;
      bool reached = false;
      for (int refine = 0; refine <= kMaxRelocations; ++refine) {
        ++attempts;
        if constexpr (is_dual_v<H>) {
          rk_step(sys_, tab, y, H(t + h_to) - t_h, ws);
        } else {
          (void)t_h;
          rk_step(sys_, tab, y, h_to, ws);
        }
        const double eps = step_error<double>(y, ws.y1, ws.err, n, cfg_.rtol, cfg_.atol);
        if (!(eps < 1.0)) {  // rare: the shorter step failed where the longer one passed
          ++st.rejected;
          r.advanced = false;
          r.h_retry = 0.5 * h_to;
          return r;
        }
        // The interpolant the switch was located on can be less accurate than the step (Dopri8's): the
        // function may not have crossed at the redone step's end yet, or have crossed well before it. Not
        // yet: the step stands without a switch and the next one finds the crossing close by. Before: locate
        // again on the redone step, whose interpolant is far more accurate for being shorter, unless the
        // crossing is within the first location's tolerance of its end.
        EventId at_end;
        double end_margin;
        {
          const TapePause<S> values_only(true);
          end_margin = sys_.margin_at(ws.y1, &at_end);
        }
        if (!(end_margin < 0.0)) break;
        const EventLocation again =
            locate_event<tab>(sys_, y, ws, h_to, end_margin, at_end, 1e-10 * h_to, 1e-6 * h_to);
        const double tol = again.found && !event_jumps(again.id.kind) ? 1e-6 * h : 1e-10 * h;
        if (!again.found || (1.0 - again.theta) * h_to <= tol || refine == kMaxRelocations) {
          reached = true;
          crossed = again.found ? again.id : at_end;
          break;
        }
        ++st.truncated;
        h_to = again.theta * h_to;
      }
      zero_run_ = 0;
      for (int k = 0; k < n; ++k) y[k] = ws.y1[k];
      sys_.after_accept(y);
      for (int k = 0; k < n; ++k) ws.f_event[k] = ws.k[tab.stages - 1][k];
      if constexpr (System::kFoldsState) sys_.after_accept_derivative(y, ws.f_event);
      ++st.accepted;
      obs.on_accept(h_to);
      r.h = h_to;
      if (reached) {
        apply_switch(y, ws, crossed, t + h_to, st, obs);
      } else {  // a regular step in the old mode: f(y) for the next one, as after any accepted step
        sys_.rhs(y, ws.k[0]);
        progressed();
      }
    } else {
      (void)y, (void)ws, (void)h, (void)t, (void)t_h, (void)attempts, (void)st, (void)obs;
    }
    return r;
  }

 private:
  // Where the tangents follow a straight-through CFD surrogate (the systems' saltation_applies() is false
  // exactly then), the extension's tangents at the switch (ws.ytmp) mix in the trial step's stages past it,
  // where the surrogate is another field (a penetrating contact's rows): they are replaced by those of the
  // step redone up to the switch, h_event, from y. The values stay the extension's, so that the simulation is
  // bit for bit the plain model's; the system's mode, margins and solver guesses are restored after the
  // redone step's evaluations. Double runs have no tangents: nothing to do (docs/engine.md).
  SG_HD void tangents_from_step_to(const S* y, RkWorkspace<System>& ws, double h_event) {
    if constexpr (has_derivatives_v<S> && kHybrid) {
      const int n = sys_.dim();
      for (int k = 0; k < n; ++k) ws.f_event[k] = ws.ytmp[k];  // scratch until f- is evaluated
      const auto memo = sys_.memo();
      rk_step(sys_, tab, y, h_event, ws);
      sys_.restore(memo);
      for (int k = 0; k < n; ++k) ws.ytmp[k] = straight_through(ws.f_event[k], ws.y1[k]);
    } else {
      (void)y, (void)ws, (void)h_event;
    }
  }

  static constexpr int kMaxZeroRun = 16;
  // Locations repeated on a redone step before its end is taken as the switch (each one on a shorter step).
  static constexpr int kMaxRelocations = 3;
  // More switches than this within one output interval is chatter: plain stepping until the next output time;
  // after kMaxFallbacks such intervals, for the rest of the solve. (The tosses locate about 70 switches per
  // second of simulation, billiards about 10.)
  static constexpr int kMaxEventsPerInterval = 64;
  static constexpr int kMaxFallbacks = 3;
  static constexpr double kSwitchFactorMin = 1e-3;

  SG_HD bool active() const { return on_ && !fallback_; }

  // f(y) whose values alone are read: nothing on a tape.
  SG_HD void rhs_values(const S* y, S* f) const {
    const TapePause<S> values_only(true);
    sys_.rhs(y, f);
  }
  SG_HD void evaluate_after_switch(const S* y, S* f, bool values_only) const {
    if (values_only) {
      rhs_values(y, f);
    } else {
      sys_.rhs(y, f);
    }
  }

  SG_HD void give_up_until_next_output() {
    fallback_ = true;
    ++fallbacks_;
    if constexpr (kHybrid) sys_.set_frozen(false);
  }

  // Switches the mode at y (ws.f_event holds the vector field before), re-evaluates k[0] in the new mode,
  // adds the saltation term, then settles any further switches due there. The switched function's margin
  // in the new mode is shifted to twice its residual if it starts on the wrong side (the located step ends
  // within the interpolant's error of the crossing).
  template <class Observer>
  SG_HD void apply_switch(S* y, RkWorkspace<System>& ws, const EventId& id, double t, SolveStats& st,
                          Observer& obs) {
    if (switch_once(y, ws, id, t, st, obs)) settle(y, ws, t, st, obs);
  }

  // One switch of apply_switch; false when the interval's event budget is spent (then stepping goes on
  // across the chatter and nothing is settled).
  template <class Observer>
  SG_HD bool switch_once(S* y, RkWorkspace<System>& ws, const EventId& id, double t, SolveStats& st,
                         Observer& obs) {
    if constexpr (kHybrid) {
      const EventId done = sys_.apply_event(y, id);
      switched_ = true;
      MarginTracker& tracker = sys_.margins();
      const int slot = tracker.add_exempt(done);
      if (slot >= 0) tracker.shift[slot] = 0.0;
      // Where a saltation term is due, f+ enters it by value and f(y) is evaluated again after it: on a tape
      // the first evaluations record nothing.
      const bool values_first = is_reverse_v<S> && saltation_due(sys_, done);
      evaluate_after_switch(y, ws.k[0], values_first);
      if (slot >= 0 && tracker.probe[slot] < 0.0) {
        tracker.shift[slot] = -2.0 * tracker.probe[slot];
        evaluate_after_switch(y, ws.k[0], values_first);
      }
      // f(y) depends on y's tangents: after a saltation its derivatives are evaluated again.
      if (apply_saltation(sys_, y, ws.f_event, ws.k[0], done) || values_first) sys_.rhs(y, ws.k[0]);
      ++st.events;
      if constexpr (requires { obs.on_event(t, done); }) obs.on_event(t, done);
      if (++interval_events_ > kMaxEventsPerInterval) {  // chatter that no mode resolves (a two-fold the
        give_up_until_next_output();                     // grazing mode does not cover): step across it
        return false;
      }
      return true;
    } else {
      (void)y, (void)ws, (void)id, (void)t, (void)st, (void)obs;
      return false;
    }
  }

  const System& sys_;
  const IntegratorSettings& cfg_;
  bool on_ = false;
  bool fallback_ = false;
  int zero_run_ = 0;
  bool switched_ = false;  // a switch was applied since the last normally accepted step
  int interval_events_ = 0;
  int fallbacks_ = 0;
};

}  // namespace sg
