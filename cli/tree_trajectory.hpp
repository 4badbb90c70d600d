#pragma once
// The states a joint tree's fixed-step run passes through (its start included, its end last), stepped one
// step at a time by the integrator every run uses: the bench times stages and engines on exactly these.
#include <memory>
#include <vector>

#include "engine/integrate/fixed_solve.hpp"
#include "engine/model/tree_system.hpp"

namespace sg::cli {

template <class S>
std::vector<std::vector<S>> tree_trajectory(const TreeSystem<S>& sys, const IntegratorSettings& cfg) {
  IntegratorSettings one = cfg;
  one.dt = cfg.fixed_step();
  one.substeps = 1;
  one.steps = 1;
  const auto ws = std::make_unique<RkWorkspace<TreeSystem<S>>>();
  std::vector<S> y(static_cast<std::size_t>(sys.dim()));
  sys.initial_state(y.data());
  std::vector<std::vector<S>> states{y};
  NullObserver obs;
  for (long s = 0; s < cfg.steps * cfg.substeps; ++s) {
    if (solve_fixed(sys, one, y.data(), *ws, obs).status != Status::ok) break;
    states.push_back(y);
  }
  return states;
}

}  // namespace sg::cli
