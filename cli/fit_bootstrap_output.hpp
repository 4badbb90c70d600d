#pragma once
// softgrad fit --bootstrap: the parametric bootstrap intervals after a fit (engine/optimize/bootstrap.hpp) as
// a printed table, as JSON beside the fit's (with every draw), and as CSV of the draws (--bootstrap-csv).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/optimize/bootstrap.hpp"

namespace sg::cli {

// The table: each number's fitted value, the draws' median, the interval and its spread against the
// fitted value -+ z standard errors.
void print_bootstrap(const std::vector<std::string>& paths, const FitResult& fit,
                     const BootstrapResult& boot);

nlohmann::json bootstrap_json(const std::vector<std::string>& paths, const BootstrapResult& boot);

// One line per successful draw (its draw number, then the refitted values); the header names the paths.
std::string bootstrap_csv(const std::vector<std::string>& paths, const BootstrapResult& boot);

}  // namespace sg::cli
