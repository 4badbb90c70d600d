#pragma once
// An objective along the whole run: the scene's loss evaluated at every output step after the start and
// averaged (a running cost, as model-predictive control's tracking tasks use, where the final-state loss only
// asks for the end). An observer like DataMismatch, so every gradient mode carries it, the checkpointed
// adjoint across segments through carried().
#include "engine/model/particle_system.hpp"
#include "engine/model/rigid_system.hpp"
#include "engine/model/tree_system.hpp"
#include "engine/problem/loss.hpp"

namespace sg {

template <class S>
struct RunningLoss {
  const LossSpec<S>* loss = nullptr;
  long outputs = 1;  // the run's output steps: the mean's divisor
  const RigidSystem<S>* rigid = nullptr;
  const ParticleSystem<S>* particles = nullptr;
  const TreeSystem<S>* tree = nullptr;
  S sum = 0.0;

  void bind(const RigidSystem<S>& sys) { rigid = &sys; }
  void bind(const ParticleSystem<S>& sys) { particles = &sys; }
  void bind(const TreeSystem<S>& sys) { tree = &sys; }
  void on_output(long i, double, const S* y, int) {
    if (i < 1) return;  // the start does not depend on anything a run changes
    sum += tree    ? evaluate_loss(*loss, *tree, y)
           : rigid ? evaluate_loss(*loss, *rigid, y)
                   : evaluate_loss(*loss, *particles, y);
  }
  void on_accept(double) {}
  void on_reject(double) {}
  void on_event(double, const EventId&) {}
  S& carried() { return sum; }  // the value a checkpointed adjoint carries across segments
  S mean() const { return sum / static_cast<double>(outputs); }
};

}  // namespace sg
