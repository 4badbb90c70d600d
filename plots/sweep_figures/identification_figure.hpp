#pragma once
// The figure of an identification (engine/optimize/identify.hpp): the mean squared position error against
// the iteration, and, when the truth is known (synthetic measurements), each fitted number's relative error
// against it. Both on log axes: a converging fit is a falling line.
#include <string>
#include <vector>

#include "engine/optimize/fit.hpp"
#include "plots/plot.hpp"

namespace sg {

// truth may be empty (measured data: no error plot).
plot::Figure identification_figure(const std::vector<std::string>& paths, const std::vector<double>& truth,
                                   const std::vector<FitStep>& steps);

}  // namespace sg
