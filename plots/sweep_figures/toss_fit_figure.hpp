#pragma once
// The figure of fits to measured tosses (DiffMJX's Fig. 9): the segments' mean squared error against the
// iteration (log axis) and each fitted number against the iteration, one line per fit (a configuration and
// a start), with a dashed reference value (the measured cube's) where one is given.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "engine/optimize/fit.hpp"
#include "plots/plot.hpp"

namespace sg {

struct LabelledFit {
  std::string label;
  std::vector<FitStep> steps;
};

// reference: one value per number (NaN: none).
plot::Figure toss_fit_figure(const std::vector<std::string>& names, const std::vector<LabelledFit>& fits,
                             const std::vector<double>& reference = {});

}  // namespace sg
