#pragma once
// The figure of profile-likelihood intervals (engine/optimize/profile.hpp): one plot per fitted number, the
// profile t-plot of Bates and Watts: tau = sign(v - fitted) sqrt(delta) against the number held at each
// value v (the others refitted), beside the straight line the standard error implies, (v - fitted) / std.
// error, and the level's thresholds -+ sqrt(chi2). Where the model is linear the two lines coincide and
// the straight segments between the scanned points are exact; where they part, the linearised error bar is
// not to be trusted. The interval is where tau crosses the thresholds.
#include <string>
#include <vector>

#include "engine/optimize/profile.hpp"
#include "plots/plot.hpp"

namespace sg {

// truth may be empty (measured data: no truth marker).
plot::Figure profile_figure(const std::vector<std::string>& paths, const std::vector<double>& fitted,
                            const std::vector<double>& std_error, const std::vector<double>& truth,
                            const ProfileResult& profile);

}  // namespace sg
