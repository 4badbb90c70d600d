#pragma once
// softgrad fit --profile: the profile-likelihood intervals after a fit (engine/optimize/profile.hpp) as a
// printed table, as JSON beside the fit's, and as the fit's --profile-svg figure.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/optimize/profile.hpp"

namespace sg::cli {

// The table: each number's fitted value, the interval's ends (or why a side has none), and the linearised
// interval from its standard error for comparison.
void print_profile(const std::vector<std::string>& paths, const FitResult& fit, const ProfileResult& profile);

nlohmann::json profile_json(const std::vector<std::string>& paths, const ProfileResult& profile);

}  // namespace sg::cli
