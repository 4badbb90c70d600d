#pragma once
// The runs of one sweep point inside memory given to it: what a GPU thread does (engine/cuda), and what the
// host test of the device path runs on the CPU (tests/engine/test_device_runner.cpp). No heap, no
// exceptions, no strings: the problem data is copied into the thread's scratch, the system and the
// integrator's workspace are built there, and evaluate_point (engine/gradient/point_core.hpp) combines the
// runs exactly as the CPU's PointEvaluator does.
#include <cstddef>
#include <new>
#include <type_traits>

#include "engine/core/dual.hpp"
#include "engine/gradient/point_core.hpp"
#include "engine/problem/problem_data.hpp"
#include "engine/simulate/run.hpp"

namespace sg {

namespace device_detail {

template <class A, class B>
constexpr std::size_t larger(A a, B b) {
  return a > b ? a : b;
}

template <class S>
constexpr std::size_t system_bytes() {
  return larger(sizeof(RigidSystem<S>), sizeof(ParticleSystem<S>));
}
template <class S>
constexpr std::size_t workspace_bytes() {
  return larger(sizeof(RkWorkspace<RigidSystem<S>>), sizeof(RkWorkspace<ParticleSystem<S>>));
}
template <class S>
constexpr std::size_t state_dim() {
  return larger(RigidModel<S>::kMaxDim, ParticleModel<S>::kMaxDim);
}

}  // namespace device_detail

// One thread's memory, big enough for a dual or a plain run of either model type (about 360 KB).
struct DeviceScratch {
  static constexpr std::size_t kSystemBytes =
      device_detail::larger(device_detail::system_bytes<double>(), device_detail::system_bytes<Dual<1>>());
  static constexpr std::size_t kWorkspaceBytes = device_detail::larger(
      device_detail::workspace_bytes<double>(), device_detail::workspace_bytes<Dual<1>>());
  alignas(16) unsigned char system[kSystemBytes];
  alignas(16) unsigned char workspace[kWorkspaceBytes];
  alignas(16) unsigned char data[sizeof(ProblemData<Dual<1>>)];
  alignas(16) unsigned char state[sizeof(Dual<1>) * device_detail::state_dim<Dual<1>>()];
};

// What every thread of a sweep shares: the problem in both scalar types and where the swept parameters are
// (a 2-D sweep's second one at offset_y; -1 in a 1-D sweep).
struct DeviceProblem {
  const ProblemData<double>* data = nullptr;
  const ProblemData<Dual<1>>* data_dual = nullptr;
  std::ptrdiff_t offset = 0, offset_dual = 0;
  std::ptrdiff_t offset_y = -1, offset_y_dual = -1;
  PointSettings settings;
};

// One run of a sweep point as a thread does it: an AD run (its derivative along x, or along y) or a plain
// run, at the point's values moved by (dx, dy), with the scene's or the tight integrator settings; its
// sample is the point's run number `slot`.
struct RunSpec {
  int slot = 0;
  bool ad = false, seed_y = false, tight = false;
  double dx = 0.0, dy = 0.0;
};

// The runs of a 1-D sweep point (point_run's k, in order): point_run_count(s) of them.
SG_HD inline int point_run_specs(const PointSettings& s, RunSpec out[5]) {
  const int count = point_run_count(s);
  for (int k = 0; k < count; ++k) {
    out[k] = RunSpec{};
    out[k].slot = k;
    out[k].ad = point_run_is_ad(s, k);
    out[k].tight = point_run_is_tight(k);
    out[k].dx = point_run_shift(s, k);
  }
  return count;
}

// The runs of a 2-D sweep point, as run_sweep2d's: AD along x and along y (their loss is the point's), then
// plain runs at x + eps, x - eps, y + eps, y - eps.
constexpr int kGridRuns = 6;
SG_HD inline void grid_run_specs(double eps, RunSpec out[kGridRuns]) {
  for (int k = 0; k < kGridRuns; ++k) {
    out[k] = RunSpec{};
    out[k].slot = k;
  }
  out[0].ad = out[1].ad = true;
  out[1].seed_y = true;
  out[2].dx = eps;
  out[3].dx = -eps;
  out[4].dy = eps;
  out[5].dy = -eps;
}

class DeviceRunner {
 public:
  SG_HD DeviceRunner(const DeviceProblem& problem, DeviceScratch* scratch)
      : problem_(problem), scratch_(scratch) {}

  SG_HD LossSample ad(double x, const IntegratorSettings& cfg) { return run<Dual<1>>(x, cfg); }
  SG_HD LossSample plain(double x, const IntegratorSettings& cfg) { return run<double>(x, cfg); }

  // One run of a system type known when compiling (a GPU kernel per system and scalar type: each holds only
  // its own solver code). The problem must be of that model type (the host launches the kernel that is).
  // x and y are the point's values (y unused in a 1-D sweep).
  template <class System>
  SG_HD LossSample run_spec(const RunSpec& r, double x, double y) {
    using S = typename System::Scalar;
    ProblemData<S>* pd = load_problem<S>(r.dx == 0.0 ? x : x + r.dx, r.seed_y ? 1 : 0);
    if (problem_.offset_y >= 0) set_parameter(*pd, 1, r.dy == 0.0 ? y : y + r.dy, r.seed_y ? 1 : 0);
    S* y0 = reinterpret_cast<S*>(scratch_->state);
    const IntegratorSettings& cfg = r.tight ? problem_.settings.tight : problem_.settings.integrator;
    if constexpr (std::is_same_v<System, RigidSystem<S>>) {
      return solve<System>(*pd, pd->rigid, cfg, y0);
    } else {
      return solve<System>(*pd, pd->model, cfg, y0);
    }
  }

 private:
  // Parameter `which` (0 the swept one, 1 a 2-D sweep's second) set to v; in a dual run seeded when it is
  // the one the run differentiates along (`seeded_one`).
  template <class S>
  SG_HD void set_parameter(ProblemData<S>& pd, int which, double v, int seeded_one) {
    if constexpr (is_dual_v<S>) {
      S& slot = parameter_at(pd, which == 0 ? problem_.offset_dual : problem_.offset_y_dual);
      slot = which == seeded_one ? seeded<S>(v, 0) : S(v);
    } else {
      parameter_at(pd, which == 0 ? problem_.offset : problem_.offset_y) = v;
    }
  }

  // The problem copied into this run's scratch with the swept parameter set to x (seeded for a dual run
  // that differentiates along it).
  template <class S>
  SG_HD ProblemData<S>* load_problem(double x, int seeded_one = 0) {
    ProblemData<S>* pd = nullptr;
    if constexpr (is_dual_v<S>) {
      pd = new (scratch_->data) ProblemData<S>(*problem_.data_dual);
    } else {
      pd = new (scratch_->data) ProblemData<S>(*problem_.data);
    }
    set_parameter(*pd, 0, x, seeded_one);
    return pd;
  }

  template <class S>
  SG_HD LossSample run(double x, const IntegratorSettings& cfg) {
    ProblemData<S>* pd = load_problem<S>(x);
    S* y = reinterpret_cast<S*>(scratch_->state);
    if (pd->type == ModelType::rigid) return solve<RigidSystem<S>>(*pd, pd->rigid, cfg, y);
    if (pd->type == ModelType::tree) {  // device_path_refusal keeps trees on the CPU; never run one here
      SolveStats refused;
      refused.status = Status::invalid;
      return loss_sample(refused, S(0.0));
    }
    return solve<ParticleSystem<S>>(*pd, pd->model, cfg, y);
  }

  template <class System, class S, class Model>
  SG_HD LossSample solve(const ProblemData<S>& pd, const Model& model, const IntegratorSettings& cfg, S* y) {
    System* sys = make_system<System>(model, cfg.fixed_step());
    auto* ws = new (scratch_->workspace) RkWorkspace<System>();
    NullObserver obs;
    const RunOutput<S> out = solve_system(*sys, pd, cfg, y, *ws, obs);
    ws->~RkWorkspace<System>();
    sys->~System();
    return loss_sample(out.stats, out.loss);
  }

  template <class System, class Model>
  SG_HD System* make_system(const Model& model, double timestep) {
    if constexpr (requires { System(&model, timestep); }) {
      return new (scratch_->system) System(&model, timestep);
    } else {
      return new (scratch_->system) System{&model, timestep};
    }
  }

  const DeviceProblem& problem_;
  DeviceScratch* scratch_;
};

}  // namespace sg
