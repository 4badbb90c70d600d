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

// One thread's memory, big enough for a dual or a plain run of either model type (about 270 KB).
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

// What every thread of a sweep shares: the problem in both scalar types and where the swept parameter is.
struct DeviceProblem {
  const ProblemData<double>* data = nullptr;
  const ProblemData<Dual<1>>* data_dual = nullptr;
  std::ptrdiff_t offset = 0, offset_dual = 0;
  PointSettings settings;
};

class DeviceRunner {
 public:
  SG_HD DeviceRunner(const DeviceProblem& problem, DeviceScratch* scratch)
      : problem_(problem), scratch_(scratch) {}

  SG_HD LossSample ad(double x, const IntegratorSettings& cfg) { return run<Dual<1>>(x, cfg); }
  SG_HD LossSample plain(double x, const IntegratorSettings& cfg) { return run<double>(x, cfg); }

  // One run of a system type known when compiling (a GPU kernel per system and scalar type: each holds only
  // its own solver code). The problem must be of that model type (the host launches the kernel that is).
  template <class System>
  SG_HD LossSample run_system(double x, const IntegratorSettings& cfg) {
    using S = typename System::Scalar;
    ProblemData<S>* pd = load_problem<S>(x);
    S* y = reinterpret_cast<S*>(scratch_->state);
    if constexpr (std::is_same_v<System, RigidSystem<S>>) {
      return solve<System>(*pd, pd->rigid, cfg, y);
    } else {
      return solve<System>(*pd, pd->model, cfg, y);
    }
  }

 private:
  // The problem copied into this run's scratch with the swept parameter set to x (seeded for a dual run).
  template <class S>
  SG_HD ProblemData<S>* load_problem(double x) {
    if constexpr (is_dual_v<S>) {
      auto* pd = new (scratch_->data) ProblemData<S>(*problem_.data_dual);
      parameter_at(*pd, problem_.offset_dual) = seeded<S>(x, 0);
      return pd;
    } else {
      auto* pd = new (scratch_->data) ProblemData<S>(*problem_.data);
      parameter_at(*pd, problem_.offset) = x;
      return pd;
    }
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
