#pragma once
// A sweep as a figure: loss vs parameter; AD and FD gradients overlaid (symlog, since contact gradients
// oscillate over orders of magnitude); their relative difference (log).
#include "engine/sweep/sweep.hpp"
#include "plots/plot.hpp"

namespace sg {

plot::Figure sweep_figure(const Problem& problem, const SweepResult& result);

}  // namespace sg
