#pragma once
// Whether each fitted number is identified by the data, judged after the fit: a number that ran to an absurd
// value (1e67, 1e-60), sits on its bound, or whose standard error is infinite or, for a positive quantity,
// larger than the number itself, is not a measurement of anything, whatever the fit's status. The CLI and the
// GUI report such a fit as "not identified" instead of "ok" (docs/identification.md).
#include <string>
#include <vector>

#include "engine/optimize/fit.hpp"

namespace sg {

// Beyond this factor from its start (either way) a number has run away.
inline constexpr double kRunawayFactor = 1e6;

// One entry per fitted number: "" when identified, else why not ("ran to 2.4e+67, 3.4e+67 times its start").
// Fixed numbers (settings.fixed) are never flagged.
std::vector<std::string> identification_problems(const FitResult& result, const std::vector<double>& start,
                                                 const FitSettings& settings);

// "not identified: NAME (why); NAME (why)" over the flagged numbers, or "" when every number is identified.
std::string not_identified_text(const std::vector<std::string>& names,
                                const std::vector<std::string>& problems);

}  // namespace sg
