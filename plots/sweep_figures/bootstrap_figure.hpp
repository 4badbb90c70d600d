#pragma once
// The figure of a parametric bootstrap (engine/optimize/bootstrap.hpp): one plot per fitted number, the
// histogram of its refitted values over the draws (as a density) beside the normal density the standard
// error implies around the fitted value, with the interval's ends marked. Where the two agree the
// standard error is to be trusted; a skewed, wider or two-humped histogram shows where it is not. With two
// or more numbers, one plot more: the draws of the pair that correlate most strongly, against each other.
#include <string>
#include <vector>

#include "engine/optimize/bootstrap.hpp"
#include "plots/plot.hpp"

namespace sg {

// truth may be empty (measured data: no truth marker). Draws still coming are drawn as they are (the
// interval's ends only once boot.lower is filled).
plot::Figure bootstrap_figure(const std::vector<std::string>& paths, const std::vector<double>& fitted,
                              const std::vector<double>& std_error, const std::vector<double>& truth,
                              const BootstrapResult& boot);

}  // namespace sg
