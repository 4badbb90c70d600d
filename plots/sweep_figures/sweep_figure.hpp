#pragma once
// A sweep as a figure: loss vs parameter; AD and FD gradients overlaid (robust limits, symlog when the
// gradients span orders of magnitude); their relative difference (log).
#include "engine/sweep/sweep.hpp"
#include "plots/plot.hpp"

namespace sg {

plot::Figure sweep_figure(const Problem& problem, const SweepResult& result);

}  // namespace sg
