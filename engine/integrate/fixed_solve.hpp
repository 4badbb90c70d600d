#pragma once
// Fixed-step solves: semi-implicit Euler, Moreau midpoint, classic RK4; `substeps` internal steps per
// output step.
#include "engine/integrate/observer.hpp"
#include "engine/integrate/rk_step.hpp"
#include "engine/integrate/settings.hpp"

namespace sg {

// Where a fixed-step solve is (FixedSolve::save/load), for any scalar.
struct FixedCheckpoint {
  SolveStats st;
  long interval, substep;
};

// As AdaptiveSolve, a solve that can run in pieces (start, advance, save, load) for checkpointed adjoints.
template <class System, class Observer>
class FixedSolve {
 public:
  static constexpr long kNoLimit = 0x7fffffffffffffffL;
  static constexpr bool kCarriesDerivative = false;  // every step starts from y alone
  using Checkpoint = FixedCheckpoint;

  SG_HD FixedSolve(const System& sys, const IntegratorSettings& cfg, typename System::Scalar* y,
                   RkWorkspace<System>& ws, Observer& obs)
      : sys_(sys), cfg_(cfg), y_(y), ws_(ws), obs_(obs), n_(sys.dim()), h_(cfg.fixed_step()) {}

  SG_HD SolveStats run() {
    start();
    return advance(kNoLimit);
  }
  SG_HD void start() { obs_.on_output(0, 0.0, y_, n_); }
  SG_HD bool finished() const { return finished_; }
  SG_HD Checkpoint save() const { return {st_, interval_, substep_}; }
  SG_HD void load(const Checkpoint& c) {
    st_ = c.st;
    interval_ = c.interval;
    substep_ = c.substep;
  }

  // Steps until the solve ends or `accepted` steps have been taken in all.
  SG_HD SolveStats advance(long accepted) {
    for (; interval_ < cfg_.steps; ++interval_, substep_ = 0) {
      if (substep_ == 0) sys_.begin_interval(interval_);
      for (; substep_ < cfg_.substeps; ++substep_) {
        if (st_.accepted >= accepted) return st_;
        step();
        if (const Status bad = check_state(y_, n_); bad != Status::ok) {
          st_.status = bad;
          st_.t = cfg_.dt * static_cast<double>(interval_) + h_ * static_cast<double>(substep_ + 1);
          finished_ = true;
          return st_;
        }
      }
      st_.t = cfg_.dt * static_cast<double>(interval_ + 1);
      obs_.on_output(interval_ + 1, st_.t, y_, n_);
    }
    finished_ = true;
    return st_;
  }

 private:
  SG_HD void step() {
    if (cfg_.method == Method::euler) {
      sys_.step_euler(y_, h_);
    } else if (cfg_.method == Method::moreau) {
      sys_.step_moreau(y_, h_);
    } else {
      sys_.rhs(y_, ws_.k[0]);
      rk_step(sys_, kRk4, y_, h_, ws_);
      for (int k = 0; k < n_; ++k) y_[k] = ws_.y1[k];
      sys_.after_accept(y_);
    }
    ++st_.accepted;
    obs_.on_accept(h_);
  }

  const System& sys_;
  const IntegratorSettings& cfg_;
  typename System::Scalar* y_;
  RkWorkspace<System>& ws_;
  Observer& obs_;
  int n_;
  double h_;
  SolveStats st_;
  long interval_ = 0, substep_ = 0;  // where the solve is: output step, and the internal step within it
  bool finished_ = false;
};

template <class System, class Observer>
SG_HD SolveStats solve_fixed(const System& sys, const IntegratorSettings& cfg, typename System::Scalar* y,
                             RkWorkspace<System>& ws, Observer& obs) {
  return FixedSolve<System, Observer>(sys, cfg, y, ws, obs).run();
}

}  // namespace sg
