#pragma once
// The continuous adjoint ("backsolve", Diffrax's BacksolveAdjoint, offered by DiffMJX): after a values-only
// forward run, the state y and the adjoint a = d loss / d y(t) are integrated together backwards in time,
//   dy/dt = f(y),   da/dt = -a^T df/dy,   d loss / d p = a(0)^T dy0/dp + int_0^T a^T df/dp dt,
// by the scene's adaptive Runge-Kutta method under its PID controller (error norm over y and a). The
// products a^T df/dy and a^T df/dp of each stage are one reverse sweep over that evaluation's tape
// (engine/core/reverse.hpp), so the adjoint uses the engine's own right-hand side: no second copy of the
// physics. Losses summed over output times (a trajectory mismatch) make a jump in a at each output time.
//
// Memory: O(1) in the run's length (one evaluation's tape). Its known failure modes, shown rather than
// hidden: y is recomputed by integrating backwards, which does not retrace a dissipative contact (the
// damping becomes anti-damping backwards) nor a switch of contact state, so on stiff contact the adjoint is
// taken along a different path and the gradient can be wrong; `reconstruction_error` says how far the state
// integrated back ends from the initial state. The backward solve evaluates MuJoCo's rules at every stage
// (no frozen contact modes, no located events), and the gradient is that of the continuous ODE, not of the
// discrete map the solver computed: the two agree to the solver's tolerance where the dynamics is smooth.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/core/reverse.hpp"
#include "engine/simulate/run.hpp"

namespace sg {

struct BacksolveRun {
  SolveStats forward;   // the values-only run
  SolveStats backward;  // the adjoint's solve, backwards in time
  double loss = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> grad;  // d loss / d leaf (NaN unless both solves are ok)
  // max over components of |y_back(0) - y(0)| / (atol + rtol |y(0)|): about 1 where the backward solve
  // retraces the run, orders of magnitude more where it cannot (dissipative or switching contact).
  double reconstruction_error = std::numeric_limits<double>::quiet_NaN();
};

namespace backsolve_detail {

template <class Observer>
constexpr bool kCarries = requires(Observer& o) {
  o.carried();
};

// The backward solve of one adaptive method. z = [y, a] (2n numbers); g holds d loss / d node for the
// tape's nodes made before the run (parameters, the system's constants, the initial state).
template <const Tableau& tab, class System, class Observer, class LossFn>
class Backsolve {
 public:
  Backsolve(const System& sys, const IntegratorSettings& cfg, Observer& obs, LossFn& loss_of, int prefix)
      : sys_(sys),
        cfg_(cfg),
        obs_(obs),
        loss_of_(loss_of),
        tape_(RevTape::current()),
        n_(sys.dim()),
        prefix_(prefix),
        z_(2 * static_cast<std::size_t>(n_)),
        ztmp_(z_.size()),
        znew_(z_.size()),
        err_(z_.size()),
        g_(static_cast<std::size_t>(prefix), 0.0),
        adj_(static_cast<std::size_t>(prefix), 0.0),
        ctl_{cfg.controller, tab.order} {
    for (int s = 0; s < tab.stages; ++s) {
      k_[s].assign(z_.size(), 0.0);
      stage_g_[s].assign(static_cast<std::size_t>(prefix), 0.0);
    }
  }

  // y(T) from the forward run and the observer's carried value: seeds a(T) and g with d loss / d y(T).
  void seed(const double* yT, double carried) {
    const int first = variables(yT);
    if constexpr (kCarries<Observer>) obs_.carried() = Rev::variable(carried);
    const Rev loss = loss_of_(sys_, yv_, obs_);
    sweep_from(first, {{loss.i, 1.0}});
    for (int i = 0; i < n_; ++i) z_[static_cast<std::size_t>(i)] = yT[i];
    for (int i = 0; i < n_; ++i)
      z_[n_ + static_cast<std::size_t>(i)] = adj_[static_cast<std::size_t>(first + i)];
    if constexpr (kCarries<Observer>) a_carried_ = adj_[static_cast<std::size_t>(first + n_)];
    finish_sweep(first, nullptr);
  }

  // The whole backward solve, from T to 0.
  SolveStats run() {
    const StepGrid grid(cfg_.dt, cfg_.steps, [](long) { return true; });
    long hi = cfg_.steps;
    output_jump(hi, grid.time(hi));
    h_ = std::min(cfg_.dt, grid.time(hi));
    while (hi > 0) {
      long lo = hi - 1;
      while (lo > 0 && !stops_at(lo)) --lo;
      sys_.begin_interval(hi - 1);
      if (!interval(grid.time(hi) - grid.time(lo))) return st_;
      output_jump(lo, grid.time(lo));
      hi = lo;
    }
    st_.status = Status::ok;
    return st_;
  }

  const double* state() const { return z_.data(); }
  const double* adjoint() const { return z_.data() + n_; }
  const std::vector<double>& node_adjoints() const { return g_; }

 private:
  // Output times where the backward solve must stop: a jump of a (the observer's loss) or of the forces.
  bool stops_at(long k) const { return kCarries<Observer> || forces_change_at(sys_, k); }

  // y as fresh tape variables; returns the first one's node.
  int variables(const double* y) {
    const int first = tape_.size();
    for (int i = 0; i < n_; ++i) yv_[i] = Rev::variable(y[i]);
    return first;
  }

  struct Seed {
    int node;
    double weight;
  };
  void sweep_from(int first, std::initializer_list<Seed> seeds) {
    adj_.resize(static_cast<std::size_t>(tape_.size()), 0.0);
    for (const Seed& s : seeds)
      if (s.node > 0) adj_[static_cast<std::size_t>(s.node)] += s.weight;
    sweep_nodes(tape_, adj_, tape_.size() - 1, first);
  }
  // Moves what the sweep left on the nodes before the run into `into` (g_ when null) and clears the rest.
  void finish_sweep(int first, std::vector<double>* into) {
    std::vector<double>& dst = into ? *into : g_;
    for (int j = 1; j < prefix_; ++j) {
      const std::size_t u = static_cast<std::size_t>(j);
      if (into)
        dst[u] = adj_[u];
      else
        dst[u] += adj_[u];
      adj_[u] = 0.0;
    }
    adj_[0] = 0.0;
    tape_.truncate(first);
    adj_.resize(static_cast<std::size_t>(prefix_));
  }

  // The loss summed at output time k (a trajectory mismatch) adds its gradient at y(t_k) to a.
  void output_jump(long k, double t) {
    if constexpr (kCarries<Observer>) {
      const int first = variables(z_.data());
      obs_.carried() = Rev(0.0);
      obs_.on_output(k, t, yv_, n_);
      sweep_from(first, {{obs_.carried().i, a_carried_}});
      for (int i = 0; i < n_; ++i)
        z_[n_ + static_cast<std::size_t>(i)] += adj_[static_cast<std::size_t>(first + i)];
      finish_sweep(first, nullptr);
    } else {
      (void)k, (void)t;
    }
  }

  // The augmented field in reversed time s = T - t at z: k = [-f(y), a^T df/dy], and a^T df/dnode.
  void field(const double* z, double* k, std::vector<double>& gnode) {
    const int first = variables(z);
    sys_.rhs(yv_, fv_);
    adj_.resize(static_cast<std::size_t>(tape_.size()), 0.0);
    for (int i = 0; i < n_; ++i)
      if (fv_[i].i > 0) adj_[static_cast<std::size_t>(fv_[i].i)] += z[n_ + i];
    sweep_nodes(tape_, adj_, tape_.size() - 1, first);
    for (int i = 0; i < n_; ++i) {
      k[i] = -fv_[i].v;
      k[n_ + i] = adj_[static_cast<std::size_t>(first + i)];
    }
    finish_sweep(first, &gnode);
  }

  // Integrates backwards over an interval of length span; false when the solve stopped.
  bool interval(double span) {
    const double floor = ulps_below(span, 100);
    double s = 0.0;
    bool have_first_stage = false;
    while (s < span) {
      if (attempts_ >= cfg_.max_steps) return stop(Status::max_steps);
      if (h_ < cfg_.dt_min || !(h_ > 0.0)) return stop(Status::step_underflow);
      double h = std::min(h_, span - s);
      if (s + h > floor) h = span - s;
      ++attempts_;
      if (!have_first_stage) field(z_.data(), k_[0].data(), stage_g_[0]);
      step(h);
      const double eps = scaled_error(z_.data(), znew_.data(), err_.data(), 2 * n_, cfg_.rtol, cfg_.atol);
      if (!(std::isfinite(eps) && eps < 1.0)) {
        ++st_.rejected;
        h_ = std::isfinite(eps) ? h * ctl_.factor(eps, false) : h * cfg_.controller.factor_min;
        have_first_stage = true;
        continue;
      }
      h_ = h * ctl_.factor(eps, true);
      ctl_.on_accept(eps);
      accept(h);
      s = s + h > floor ? span : s + h;
      have_first_stage = tab.fsal && !System::kFoldsState;
      if (have_first_stage) {
        k_[0] = k_[tab.stages - 1];
        stage_g_[0] = stage_g_[tab.stages - 1];
      }
      const Status bad = check_state(z_.data(), n_);
      if (bad != Status::ok) return stop(bad);
      for (int i = n_; i < 2 * n_; ++i)
        if (!std::isfinite(z_[static_cast<std::size_t>(i)])) return stop(Status::nonfinite_gradient);
    }
    return true;
  }

  // One trial step of size h from z (k_[0] holds the field at z): znew_, err_.
  void step(double h) {
    const std::size_t m = z_.size();
    for (int s = 1; s < tab.stages; ++s) {
      for (std::size_t i = 0; i < m; ++i) {
        double acc = 0.0;
        for (int j = 0; j < s; ++j)
          if (tab.a[s][j] != 0.0) acc += tab.a[s][j] * (k_[j][i] * h);
        ztmp_[i] = z_[i] + acc;
      }
      field(ztmp_.data(), k_[s].data(), stage_g_[s]);
    }
    for (std::size_t i = 0; i < m; ++i) {
      double acc = 0.0, e = 0.0;
      for (int j = 0; j < tab.stages; ++j) {
        if (tab.b[j] != 0.0) acc += tab.b[j] * (k_[j][i] * h);
        if (tab.e[j] != 0.0) e += tab.e[j] * (k_[j][i] * h);
      }
      znew_[i] = z_[i] + acc;
      err_[i] = e;
    }
  }

  void accept(double h) {
    ++st_.accepted;
    z_ = znew_;
    for (int j = 0; j < tab.stages; ++j)
      if (tab.b[j] != 0.0)
        for (int u = 1; u < prefix_; ++u)
          g_[static_cast<std::size_t>(u)] += h * tab.b[j] * stage_g_[j][static_cast<std::size_t>(u)];
    if constexpr (System::kFoldsState) fold();
  }

  // The state's re-parametrisation after a step, as in the forward run, and the adjoint's with it.
  void fold() {
    sys_.fold_adjoint(z_.data(), z_.data() + n_);
    const RevPause values_only;
    for (int i = 0; i < n_; ++i) yv_[i] = Rev(z_[static_cast<std::size_t>(i)]);
    sys_.after_accept(yv_);
    for (int i = 0; i < n_; ++i) z_[static_cast<std::size_t>(i)] = yv_[i].v;
  }

  bool stop(Status s) {
    st_.status = s;
    return false;
  }

  const System& sys_;
  const IntegratorSettings& cfg_;
  Observer& obs_;
  LossFn& loss_of_;
  RevTape& tape_;
  int n_, prefix_;
  std::vector<double> z_, ztmp_, znew_, err_, g_, adj_;
  std::vector<double> k_[kMaxStages], stage_g_[kMaxStages];
  Rev yv_[System::kMaxDim], fv_[System::kMaxDim];
  PidController<double> ctl_;
  SolveStats st_;
  double h_ = 0.0, a_carried_ = 0.0;
  long attempts_ = 0;
};

template <const Tableau& tab, class System, class Observer, class LossFn>
BacksolveRun run_backsolve(const System& sys, const IntegratorSettings& cfg, Rev* y, RkWorkspace<System>& ws,
                           Observer& obs, LossFn& loss_of, const std::vector<int>& leaves) {
  RevTape& tape = RevTape::current();
  BacksolveRun out;
  out.grad.assign(leaves.size(), std::numeric_limits<double>::quiet_NaN());
  if constexpr (requires { obs.bind(sys); }) obs.bind(sys);
  const int n = sys.dim();
  sys.initial_state(y);
  const std::vector<Rev> y0(y, y + n);
  const int prefix = tape.size();

  {
    const RevPause values_only;
    out.forward = AdaptiveSolve<tab, double, System, Observer>(sys, cfg, y, ws, obs).run();
    if (out.forward.status == Status::ok) out.loss = value(loss_of(sys, y, obs));
  }
  if (out.forward.status != Status::ok) return out;
  if (!std::isfinite(out.loss)) {
    out.forward.status = Status::nonfinite_loss;
    return out;
  }
  double carried = 0.0;
  if constexpr (kCarries<Observer>) carried = value(obs.carried());
  std::vector<double> yT(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) yT[static_cast<std::size_t>(i)] = y[i].v;

  sys.set_frozen(false);  // MuJoCo's rules at every stage: no modes backwards
  Backsolve<tab, System, Observer, LossFn> back(sys, cfg, obs, loss_of, prefix);
  back.seed(yT.data(), carried);
  out.backward = back.run();
  if (out.backward.status != Status::ok) return out;

  double worst = 0.0;
  std::vector<double> adj = back.node_adjoints();
  for (int i = 0; i < n; ++i) {
    const double v0 = y0[static_cast<std::size_t>(i)].v, vb = back.state()[i];
    worst = std::max(worst, std::fabs(vb - v0) / (cfg.atol + cfg.rtol * std::fabs(v0)));
    const int node = y0[static_cast<std::size_t>(i)].i;
    if (node > 0) adj[static_cast<std::size_t>(node)] += back.adjoint()[i];
  }
  out.reconstruction_error = worst;
  sweep_nodes(tape, adj, prefix - 1, 1);
  for (std::size_t j = 0; j < leaves.size(); ++j) out.grad[j] = adj[static_cast<std::size_t>(leaves[j])];
  return out;
}

template <class System, class Observer, class LossFn>
BacksolveRun run_method(const System& sys, const IntegratorSettings& cfg, Rev* y, RkWorkspace<System>& ws,
                        Observer& obs, LossFn& loss_of, const std::vector<int>& leaves) {
  switch (cfg.method) {
    case Method::bosh3:
      return run_backsolve<kBosh3>(sys, cfg, y, ws, obs, loss_of, leaves);
    case Method::dopri5:
      return run_backsolve<kDopri5>(sys, cfg, y, ws, obs, loss_of, leaves);
    case Method::dopri8:
      return run_backsolve<kDopri8>(sys, cfg, y, ws, obs, loss_of, leaves);
    default:
      return run_backsolve<kTsit5>(sys, cfg, y, ws, obs, loss_of, leaves);
  }
}

}  // namespace backsolve_detail

// d loss / d leaf by the continuous adjoint (adaptive methods only: the caller refuses fixed-step ones).
// Leaves (tape variables in pd) on a tape cleared by the caller; loss_of(sys, y, obs) as for
// checkpointed_adjoint. Leaves the tape holding the nodes made before the call and the system's constants.
template <class Observer, class LossFn>
BacksolveRun backsolve_adjoint(const ProblemData<Rev>& pd, const IntegratorSettings& cfg,
                               SimWorkspace<Rev>& ws, Observer& obs, LossFn loss_of,
                               const std::vector<int>& leaves) {
  if (runs_as_tree(pd)) {
    if (!ws.tree) ws.tree = std::make_unique<RkWorkspace<TreeSystem<Rev>>>();
    TreeSystem<Rev>& sys = tree_system_for_run(ws.tree_system, tree_model_for_run(pd, ws), cfg.fixed_step());
    return backsolve_detail::run_method(sys, cfg, ws.y, *ws.tree, obs, loss_of, leaves);
  }
  if (pd.type == ModelType::rigid) {
    if (!ws.rigid) ws.rigid = std::make_unique<RkWorkspace<RigidSystem<Rev>>>();
    auto sys = std::make_unique<RigidSystem<Rev>>(&pd.rigid, cfg.fixed_step());
    return backsolve_detail::run_method(*sys, cfg, ws.y, *ws.rigid, obs, loss_of, leaves);
  }
  if (!ws.particles) ws.particles = std::make_unique<RkWorkspace<ParticleSystem<Rev>>>();
  const ParticleSystem<Rev> sys{&pd.model, cfg.fixed_step()};
  return backsolve_detail::run_method(sys, cfg, ws.y, *ws.particles, obs, loss_of, leaves);
}

}  // namespace sg
