#include "engine/control/mpc.hpp"

#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>

#include "engine/control/planners.hpp"
#include "engine/model/tree_start.hpp"
#include "engine/simulate/run.hpp"

namespace sg {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The scene as the planners run it: the knots span mpc.horizon output steps, and a scene without a control
// section gets mpc.knots knots per actuator, each at the actuator's ctrl.
Problem planning_problem(const Problem& scene, const MpcSettings& s) {
  if (scene.data.type != ModelType::tree)
    throw std::invalid_argument(
        "model.type: mpc plans a joint tree's actuators (model.type tree, or mjcf with joints); this scene "
        "has none");
  const JointTreeModel<double>& m = scene.data.tree;
  if (m.act.nu == 0)
    throw std::invalid_argument(
        "model.tree.actuators: the scene has no actuators, so there is nothing to plan");
  if (s.execute > s.horizon)
    throw std::invalid_argument("mpc.execute: " + std::to_string(s.execute) +
                                " output steps exceed mpc.horizon (" + std::to_string(s.horizon) + ")");
  nlohmann::json config = scene.config;
  config["integrator"]["steps"] = s.horizon;
  if (!m.controls.any()) {
    if (s.knots * m.act.nu > kMaxControlKnots)
      throw std::invalid_argument("mpc.knots: " + std::to_string(s.knots) + " knots for each of " +
                                  std::to_string(m.act.nu) + " actuators exceed the " +
                                  std::to_string(kMaxControlKnots) + " control knots a scene may have");
    nlohmann::json actuators = nlohmann::json::array();
    for (int a = 0; a < m.act.nu; ++a)
      actuators.push_back({{"knots", std::vector<double>(static_cast<std::size_t>(s.knots), m.ctrl[a])}});
    config["control"]["actuators"] = actuators;
  }
  return problem_from_config(config);
}

// Records an executed run's first `keep` output steps: the states and the scene's loss at each.
struct ExecutionRecorder {
  long keep = 0;
  const LossSpec<double>* loss = nullptr;
  std::function<double(const double*)> cost_of;
  std::vector<std::vector<double>> y;
  std::vector<double> cost;

  template <class System>
  void bind(const System& sys) {
    cost_of = [this, &sys](const double* state) { return evaluate_loss(*loss, sys, state); };
  }
  void on_output(long i, double, const double* state, int n) {
    if (i > keep) return;
    y.emplace_back(state, state + n);
    cost.push_back(cost_of(state));
  }
  void on_accept(double) {}
  void on_reject(double) {}
  void on_event(double, const EventId&) {}
};

// Each actuator's control during output step i of the run of m (its knots the plan's), as the run reads it.
std::vector<double> controls_at(const JointTreeModel<double>& m, long i) {
  std::vector<double> u(static_cast<std::size_t>(m.act.nu));
  for (int a = 0; a < m.act.nu; ++a)
    u[a] = m.controls.count[a] > 0 ? control_at(m.controls, a, i) : m.ctrl[a];
  return u;
}

PlanningStep step_record(long at, double dt, const PlanResult& r) {
  PlanningStep p;
  p.step = at;
  p.time = static_cast<double>(at) * dt;
  p.cost = r.cost, p.first_cost = r.first_cost, p.best = r.best, p.evaluations = r.evaluations;
  p.grad_norm = r.grad_norm, p.grad_norm_max = r.grad_norm_max, p.clipped = r.clipped;
  p.status = r.status;
  return p;
}

// The MPC loop's state: the planning problem, its evaluators and the start the next plan runs from.
class MpcLoop {
 public:
  MpcLoop(const Problem& scene, const MpcSettings& s, const MpcCallbacks& cb)
      : s_(s),
        cb_(cb),
        planning_(planning_problem(scene, s)),
        layout_(plan_layout(planning_.data.tree, s.horizon)),
        start_(planning_.data),
        rng_(s.seed) {
    if (layout_.size() == 0)
      throw std::invalid_argument(
          "control.actuators: every actuator keeps its constant ctrl (no knots to plan)");
    const int evaluators = s.planner == Planner::sampling ? std::max(1, cb.threads) : 1;
    for (int k = 0; k < evaluators; ++k) {
      evals_.push_back(std::make_unique<ParameterGradient>(planning_, layout_.paths, nullptr));
      evals_.back()->set_threads(s.planner == Planner::gradient ? std::max(1, cb.threads) : 1);
      evals_.back()->set_running_loss(s.running_cost);
    }
    plan_ = read_plan(layout_, planning_.data.tree);
    clamp_plan(layout_, plan_);
  }

  MpcResult run(long duration) {
    const Clock::time_point t0 = Clock::now();
    MpcResult out;
    out.planner = s_.planner;
    out.knot_paths = layout_.paths;
    for (long done = 0; done < duration; done += s_.execute) {
      if (cb_.cancel && cb_.cancel->load()) {
        out.cancelled = true;
        break;
      }
      const Clock::time_point t_step = Clock::now();
      const long execute = std::min(s_.execute, duration - done);
      for (auto& e : evals_) e->set_base(start_);
      const PlanResult r = s_.planner == Planner::gradient ? plan_gradient(*evals_[0], layout_, plan_, s_)
                                                           : plan_sampling(evals_, layout_, plan_, s_, rng_);
      PlanningStep record = step_record(done, planning_.integrator.dt, r);
      const bool planned = std::isfinite(r.cost);
      if (planned) execute_plan(r.plan, done, execute, out);
      record.wall_ms = 1e3 * seconds_since(t_step);
      out.steps.push_back(record);
      if (!planned && out.status == "ok")
        out.status = "planning step at output step " + std::to_string(done) + ": " + r.status;
      if (cb_.on_step) cb_.on_step(out);
      if (out.status != "ok") break;
      plan_ = shift_plan(layout_, r.plan, execute);
    }
    out.final_cost = out.cost.empty() ? std::nan("") : out.cost.back();
    out.success = out.status == "ok" && !out.cancelled && out.final_cost < s_.success;
    out.wall_s = seconds_since(t0);
    return out;
  }

 private:
  // Runs the plan from the current start, appends its first `execute` output steps to out and moves the
  // start to where they end.
  void execute_plan(const std::vector<double>& plan, long done, long execute, MpcResult& out) {
    ProblemData<double> pd = start_;
    write_plan(layout_, plan, pd.tree);
    if (!s_.execute_cfd) pd.tree.con.cfd.enabled = false;
    ExecutionRecorder rec;
    rec.keep = execute;
    rec.loss = &pd.loss;
    SimWorkspace<double> ws;
    const RunOutput<double> run = run_simulation(pd, planning_.integrator, ws, rec);
    if (run.stats.status != Status::ok || static_cast<long>(rec.y.size()) != execute + 1) {
      out.status =
          "the executed run from output step " + std::to_string(done) + ": " + status_name(run.stats.status);
      return;
    }
    const double dt = planning_.integrator.dt;
    for (long i = done == 0 ? 0 : 1; i <= execute; ++i) {
      out.t.push_back(static_cast<double>(done + i) * dt);
      out.state.push_back(rec.y[i]);
      out.cost.push_back(rec.cost[i]);
    }
    for (long i = 0; i < execute; ++i) out.ctrl.push_back(controls_at(pd.tree, i));
    set_tree_start(start_.tree, rec.y[execute].data());
  }

  MpcSettings s_;
  MpcCallbacks cb_;
  Problem planning_;
  PlanLayout layout_;
  ProblemData<double> start_;
  std::mt19937_64 rng_;
  std::vector<std::unique_ptr<ParameterGradient>> evals_;
  std::vector<double> plan_;
};

}  // namespace

Problem with_cfd(const Problem& scene, bool enabled) {
  nlohmann::json config = scene.config;
  config["contact"]["cfd"]["enabled"] = enabled;
  return problem_from_config(config);
}

MpcResult run_mpc(const Problem& scene, const MpcSettings& s, const MpcCallbacks& cb) {
  const long duration = s.duration > 0 ? s.duration : scene.integrator.steps;
  MpcLoop loop(scene, s, cb);
  return loop.run(duration);
}

}  // namespace sg
