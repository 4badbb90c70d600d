#pragma once
// Adaptive embedded Runge-Kutta (Bosh3, Dopri5, Tsit5) under a PID controller, stepping as Diffrax 0.7.2's
// diffeqsolve with PIDController wrapped in ClipStepSizeController(step_ts = the output grid): one solve over
// the horizon; every output time ends a step (integrator.step_to_outputs, the default) or, with it off, steps
// cross output times and the outputs are interpolated, as DiffMJX's multistep; the next step is the last
// one (as taken, clipped or not) times the controller's factor; max_steps counts every attempt. By default
// the step sizes are frozen for differentiation (the gradient is that of the discrete map with the accepted
// steps held fixed), optionally differentiated through the controller.
//
// On hybrid systems (contact models, engine/integrate/events.hpp) with cfg.events on, the system's mode is
// held fixed during each step, so that every step integrates a smooth vector field, and steps end at located
// switches (engine/integrate/event_step.hpp). With cfg.events off the solver steps across them as DiffMJX.
#include <cstdint>

#include "engine/integrate/controller.hpp"
#include "engine/integrate/dense_output.hpp"
#include "engine/integrate/event_step.hpp"
#include "engine/integrate/initial_step.hpp"
#include "engine/integrate/observer.hpp"
#include "engine/integrate/rk_step.hpp"
#include "engine/integrate/step_times.hpp"

namespace sg {

// Whether the system's forces jump at output time i (timed forces); systems that do not say are assumed to.
template <class System>
SG_HD inline bool forces_change_at(const System& sys, long i) {
  if constexpr (requires { sys.forces_change_at(i); }) {
    return sys.forces_change_at(i);
  } else {
    (void)sys, (void)i;
    return true;
  }
}

// Output times a step must end on (StepGrid): all, or the last and those where a timed force starts or stops.
template <class System>
struct RequiredStop {
  const System* sys;
  bool all;
  long last;
  SG_HD bool operator()(long k) const { return all || k == last || forces_change_at(*sys, k); }
};

// Which of the (up to 64) attempts from attempt number `first` on were rejected: written by a values pass,
// read by the taped replay of the same stretch (AdaptiveSolve::log_attempts, replay_attempts).
struct RejectedAttempts {
  long first = 0;
  std::uint64_t rejected = 0;  // bit k: attempt first + k
  bool replaying = false;
  SG_HD bool rejected_in_replay(long attempt) const {
    const long k = attempt - first;
    return replaying && k >= 0 && k < 64 && ((rejected >> k) & 1u) != 0;
  }
  SG_HD void note_rejected(long attempt) {
    const long k = attempt - first;
    if (!replaying && k >= 0 && k < 64) rejected |= std::uint64_t{1} << k;
  }
};

// What an adaptive solve carries from one step to the next apart from y, f(y), the system's mode and the
// observer (AdaptiveSolve::save/load). Independent of the system's scalar: a double run's checkpoints restore
// a taped run of the same problem.
template <class H>
struct AdaptiveCheckpoint {
  SolveStats st;
  PidController<H> ctl;
  EventStepperMemo events;
  H t_prev, t_next, dt;
  long attempts, next_out;
  bool passed_output;
};

// One adaptive solve. Times are H so that, through the controller, a step clipped to a grid time carries the
// negative sum of the earlier steps' derivatives (the horizon is fixed). The tableau is a template argument
// so that its coefficients are compile-time constants in the stages.
template <const Tableau& tab, class H, class System, class Observer>
class AdaptiveSolve {
  using S = typename System::Scalar;

 public:
  SG_HD AdaptiveSolve(const System& sys, const IntegratorSettings& cfg, S* y, RkWorkspace<System>& ws,
                      Observer& obs)
      : sys_(sys),
        cfg_(cfg),
        y_(y),
        ws_(ws),
        obs_(obs),
        n_(sys.dim()),
        ctl_{cfg.controller, tab.order},
        events_(sys, cfg),
        grid_(cfg.dt, cfg.steps, RequiredStop<System>{&sys, cfg.step_to_outputs, cfg.steps}),
        t1_(grid_.time(cfg.steps)),
        t1_floor_(ulps_below(t1_, 100)) {}

  SG_HD SolveStats run() {
    start();
    return advance(kNoLimit);
  }

  // A solve in pieces (engine/gradient/checkpointed_adjoint.hpp): start(), then advance() until finished();
  // each advance returns once `accepted` steps have been accepted in all. save() and load() capture and
  // restore everything the solve carries from one step to the next apart from y, f(y) in ws.k[0], the
  // system's mode and the observer.
  static constexpr long kNoLimit = 0x7fffffffffffffffL;
  static constexpr bool kCarriesDerivative = true;  // k[0] = f(y) crosses steps (FSAL)
  SG_HD bool finished() const { return finished_; }
  SG_HD SolveStats advance(long accepted) {
    while (value(t_prev_) < t1_) {
      if (st_.accepted >= accepted) return st_;
      if (attempts_ >= cfg_.max_steps) return stop(Status::max_steps);
      if (value(dt_) < cfg_.dt_min || !(value(dt_) > 0.0)) return stop(Status::step_underflow);
      if (!attempt()) return stop(failure_);
    }
    return stop(Status::ok);
  }
  // A checkpointed adjoint's values pass logs which attempts of a segment were rejected (log_attempts at
  // its start, rejected_attempts at its end); the taped replay of the segment, which repeats the values
  // pass bit for bit, then records those attempts with the tape paused (replay_attempts after load).
  SG_HD void log_attempts() { attempt_log_ = RejectedAttempts{attempts_, 0, false}; }
  SG_HD std::uint64_t rejected_attempts() const { return attempt_log_.rejected; }
  SG_HD void replay_attempts(std::uint64_t rejected) {
    attempt_log_ = RejectedAttempts{attempts_, rejected, true};
  }
  using Checkpoint = AdaptiveCheckpoint<H>;
  SG_HD Checkpoint save() const {
    return {st_, ctl_, events_.save(), t_prev_, t_next_, dt_, attempts_, next_out_, passed_output_};
  }
  SG_HD void load(const Checkpoint& c) {
    st_ = c.st;
    ctl_ = c.ctl;
    events_.load(c.events);
    t_prev_ = c.t_prev;
    t_next_ = c.t_next;
    dt_ = c.dt;
    attempts_ = c.attempts;
    next_out_ = c.next_out;
    passed_output_ = c.passed_output;
  }

  // f(y0), switches due at t = 0, output 0, and the first step: t0 + dt0 clipped to the first grid stop.
  SG_HD void start() {
    sys_.begin_interval(0);
    events_.begin(y_);
    sys_.rhs(y_, ws_.k[0]);
    events_.settle(y_, ws_, 0.0, st_, obs_);
    obs_.on_output(0, 0.0, y_, n_);
    dt_ =
        cfg_.auto_initial_step ? H(initial_step(sys_, y_, ws_, tab.order, cfg_.rtol, cfg_.atol)) : H(cfg_.dt);
    t_next_ = t_prev_ + dt_;
    const double stop = grid_.clip_first(0.0, value(t_next_));
    if (stop < value(t_next_)) t_next_ = H(stop);
    if (value(t_next_) > t1_) t_next_ = H(t1_);
  }

 private:
  SG_HD SolveStats stop(Status status) {
    finished_ = true;
    st_.status = status;
    st_.t = value(t_prev_);
    return st_;
  }

  // One trial step over [t_prev, t_next]. False when the state blew up.
  SG_HD bool attempt() {
    const H h = t_next_ - t_prev_;
    const bool known_rejected = attempt_log_.rejected_in_replay(attempts_);
    ++attempts_;
    H eps = trial(h, known_rejected);
    const bool finite = isfinite(value(eps));
    if (!(finite && value(eps) < 1.0)) {
      attempt_log_.note_rejected(attempts_ - 1);
      reject(h, eps, finite);
      return true;
    }
    // Rejected in the values pass but not now: the replay left it (never expected); step again on the tape.
    if (known_rejected) eps = trial(h, false);
    if (events_.crossed()) return to_switch(h);
    return accept(h, eps);
  }

  // The trial step to t_prev + h and its scaled error. values_only: on a tape, recorded paused (a rejected
  // attempt's stages reach nothing the gradient reads).
  SG_HD H trial(const H& h, bool values_only) {
    const TapePause<S> pause(values_only);
    events_.before_step();
    rk_step(sys_, tab, y_, h, ws_);
    H eps = step_error<H>(y_, ws_.y1, ws_.err, n_, cfg_.rtol, cfg_.atol);
    if (cfg_.control_tangents) {
      const double tangents = scaled_tangent_error(y_, ws_.y1, ws_.err, n_, cfg_.rtol, cfg_.atol);
      if (!(tangents <= value(eps))) eps = H(tangents);
    }
    return eps;
  }

  SG_HD void reject(const H& h, const H& eps, bool finite) {
    ++st_.rejected;
    obs_.on_reject(value(h));
    // A non-finite error (Diffrax makes it inf) shrinks by factor_min.
    dt_ = finite ? H(h * ctl_.factor(eps, false, events_.reject_factor_min()))
                 : H(h * cfg_.controller.factor_min);
    schedule(t_prev_, false);
  }

  // The step left the contact mode: it ends at the first switch instead (or is retried shorter). The
  // proposal that led to it stands.
  SG_HD bool to_switch(const H& h) {
    const double t = value(t_prev_);
    const EventStepResult r = events_.step_to_switch(y_, ws_, value(h), t, t_prev_, attempts_, st_, obs_);
    if (!r.advanced) {
      dt_ = H(r.h_retry);
      schedule(t_prev_, false);
      return true;
    }
    if ((failure_ = check_state(y_, n_)) != Status::ok) {
      t_prev_ = H(t + r.h);
      return false;
    }
    schedule(H(t + r.h), true);
    reach_outputs();
    return true;
  }

  SG_HD bool accept(const H& h, const H& eps) {
    const H f = ctl_.factor(eps, true);
    ctl_.on_accept(eps);
    outputs_inside(h);
    for (int k = 0; k < n_; ++k) y_[k] = ws_.y1[k];
    sys_.after_accept(y_);
    if (tab.fsal) {
      for (int k = 0; k < n_; ++k) ws_.k[0][k] = ws_.k[tab.stages - 1][k];
      // A system that re-parametrises its state after a step (rotation vector folded into the quaternion)
      // adjusts the reused derivative to the new parametrisation.
      if constexpr (System::kFoldsState) sys_.after_accept_derivative(y_, ws_.k[0]);
    } else {
      sys_.rhs(y_, ws_.k[0]);
    }
    ++st_.accepted;
    events_.progressed();
    obs_.on_accept(value(h));
    if ((failure_ = check_state(y_, n_)) != Status::ok) {
      t_prev_ = t_next_;
      return false;
    }
    dt_ = h * f;  // Diffrax: the step as taken (t1 - t0, clipped or not) times the factor
    schedule(t_next_, true);
    reach_outputs();
    return true;
  }

  // The next step starts at t0 and ends dt later, clipped to the next grid stop, then snapped onto the
  // horizon's end (engine/integrate/step_times.hpp).
  SG_HD void schedule(const H& t0, bool accepted) {
    H t_next = t0 + dt_;
    const double stop = grid_.clip(value(t0), value(t_next));
    if (stop < value(t_next)) t_next = H(stop);
    t_prev_ = value(t0) > t1_ ? H(t1_) : t0;
    t_next_ = clip_to_end(t_prev_, t_next, t1_, t1_floor_, accepted);
  }

  // Output times strictly inside the accepted step [t_prev, t_next] (only when steps cross them), from
  // the method's interpolant; y and the stages still hold the step's start.
  SG_HD void outputs_inside(const H& h) {
    const double a = value(t_prev_), b = value(t_next_);
    for (; next_out_ <= cfg_.steps && grid_.time(next_out_) < b; ++next_out_) {
      const double t = grid_.time(next_out_);
      output_state<tab>(y_, ws_.y1, ws_.k, h, (t - a) / (b - a), n_, ws_.ytmp);
      obs_.on_output(next_out_, t, ws_.ytmp, n_);
      passed_output_ = true;
    }
  }

  // Outputs at the time reached, then the interval the solve is now in.
  SG_HD void reach_outputs() {
    const double t = value(t_prev_);
    for (; next_out_ <= cfg_.steps && grid_.time(next_out_) <= t; ++next_out_) {
      obs_.on_output(next_out_, grid_.time(next_out_), y_, n_);
      passed_output_ = true;
    }
    if (passed_output_ && next_out_ <= cfg_.steps) enter_interval(next_out_ - 1, t);
    passed_output_ = false;
  }

  // Where a timed force starts or stops at output time i the first stage is re-evaluated (no FSAL across
  // the jump), as it is where a fallback from fixed modes ends; elsewhere the FSAL stage stands.
  SG_HD void enter_interval(long i, double t) {
    sys_.begin_interval(i);
    const bool mode_rebuilt = events_.begin_interval(y_);
    if (mode_rebuilt || forces_change_at(sys_, i)) {
      sys_.rhs(y_, ws_.k[0]);
      events_.settle(y_, ws_, t, st_, obs_);
    }
  }

  const System& sys_;
  const IntegratorSettings& cfg_;
  S* y_;
  RkWorkspace<System>& ws_;
  Observer& obs_;
  int n_;
  SolveStats st_;
  PidController<H> ctl_;
  EventStepper<tab, H, System> events_;
  StepGrid<RequiredStop<System>> grid_;
  double t1_;        // the horizon, steps x dt
  double t1_floor_;  // 100 ulps below it: a step ending past this ends at t1
  H t_prev_ = 0.0;   // the current time
  H t_next_ = 0.0;   // the end of the next trial step
  H dt_ = 0.0;       // the controller's proposal, before clipping
  long attempts_ = 0;
  RejectedAttempts attempt_log_;
  Status failure_ = Status::ok;  // why attempt() stopped the solve (blow_up or nonfinite_gradient)
  long next_out_ = 1;            // the next output index to report
  bool passed_output_ = false;
  bool finished_ = false;
};

template <const Tableau& tab, class H, class System, class Observer>
SG_HD SolveStats solve_adaptive_with(const System& sys, const IntegratorSettings& cfg,
                                     typename System::Scalar* y, RkWorkspace<System>& ws, Observer& obs) {
  return AdaptiveSolve<tab, H, System, Observer>(sys, cfg, y, ws, obs).run();
}

template <class H, class System, class Observer>
SG_HD SolveStats solve_adaptive(const System& sys, const IntegratorSettings& cfg, typename System::Scalar* y,
                                RkWorkspace<System>& ws, Observer& obs) {
  switch (cfg.method) {
    case Method::bosh3:
      return solve_adaptive_with<kBosh3, H>(sys, cfg, y, ws, obs);
    case Method::dopri5:
      return solve_adaptive_with<kDopri5, H>(sys, cfg, y, ws, obs);
    case Method::dopri8:
#ifdef __CUDA_ARCH__
      // Not compiled into the GPU kernel (its size and compile time); device sweeps refuse it beforehand.
      return SolveStats{Status::invalid};
#else
      return solve_adaptive_with<kDopri8, H>(sys, cfg, y, ws, obs);
#endif
    default:
      return solve_adaptive_with<kTsit5, H>(sys, cfg, y, ws, obs);
  }
}

}  // namespace sg
