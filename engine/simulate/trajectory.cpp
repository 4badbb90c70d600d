#include "engine/simulate/trajectory.hpp"

#include <cmath>
#include <limits>
#include <memory>

#include "engine/gradient/point_eval.hpp"
#include "engine/simulate/run.hpp"

namespace sg {
namespace {

// Copies values out of the solver as it goes. Storage is reserved up front from the known output count.
struct Recorder {
  const ParticleSystem<Dual1>* sys;
  Trajectory* out;

  void on_output(long, double t, const Dual1* y, int n) {
    const int nq = n / 2;
    out->t.push_back(t);
    std::vector<double> q(static_cast<std::size_t>(nq)), v(static_cast<std::size_t>(nq));
    for (int i = 0; i < nq; ++i) {
      q[static_cast<std::size_t>(i)] = y[i].v;
      v[static_cast<std::size_t>(i)] = y[nq + i].v;
    }
    std::vector<double> f(static_cast<std::size_t>(sys->model->count));
    for (int i = 0; i < sys->model->count; ++i) f[static_cast<std::size_t>(i)] = sys->normal_force(y, y + nq, i).v;
    out->q.push_back(std::move(q));
    out->v.push_back(std::move(v));
    out->force.push_back(std::move(f));
  }
  void on_accept(double h) { out->dt.push_back(h); }
  void on_reject(double) {}
};

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(); }

}  // namespace

Trajectory simulate_trajectory(const Problem& problem, double value) {
  Trajectory tr;
  tr.value = value;
  ProblemData<Dual1> pd = convert_problem<Dual1>(problem.data);
  *parameter_slot(pd, problem.sweep.parameter) = seeded<Dual1>(value, 0);
  const auto outputs = static_cast<std::size_t>(problem.integrator.steps + 1);
  tr.t.reserve(outputs);
  tr.q.reserve(outputs);
  tr.v.reserve(outputs);
  tr.force.reserve(outputs);
  const ParticleSystem<Dual1> sys{&pd.model, problem.integrator.fixed_step()};
  Recorder rec{&sys, &tr};
  auto ws = std::make_unique<ParticleWorkspace<Dual1>>();
  Dual1 y[ParticleModel<Dual1>::kMaxDim];
  const SolveStats st = run_simulation(pd, problem.integrator, y, *ws, rec);
  tr.accepted = st.accepted;
  tr.rejected = st.rejected;
  if (st.status != Status::ok) {
    tr.status = describe_failure(st);
    tr.loss = tr.grad = std::numeric_limits<double>::quiet_NaN();
    return tr;
  }
  const Dual1 loss = evaluate_loss(pd.loss, y, pd.model.nq());
  tr.loss = loss.v;
  tr.grad = loss.d[0];
  return tr;
}

nlohmann::json trajectory_to_json(const Trajectory& tr) {
  return {{"value", tr.value},          {"t", tr.t},       {"q", tr.q},
          {"v", tr.v},                  {"force", tr.force}, {"dt", tr.dt},
          {"loss", number_or_null(tr.loss)}, {"grad", number_or_null(tr.grad)}, {"status", tr.status},
          {"accepted", tr.accepted},    {"rejected", tr.rejected}};
}

}  // namespace sg
