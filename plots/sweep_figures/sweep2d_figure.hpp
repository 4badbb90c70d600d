#pragma once
// A 2-D sweep as a figure: heatmaps of the loss, of the AD gradient along each parameter, and of the
// disagreement between AD and central finite differences (log10 of the relative error of the gradient
// vector).
#include "engine/sweep/sweep2d.hpp"
#include "plots/plot.hpp"

namespace sg {

plot::Figure sweep2d_figure(const Problem& problem, const Grid2dResult& result);

}  // namespace sg
