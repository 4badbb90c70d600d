#pragma once
// softgrad fit's printed and written results: the steps as they are taken, the fitted values with their
// standard errors and correlations, and the JSON of --out.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/optimize/fit.hpp"

namespace sg::cli {

// The line above the steps: what is fitted to what, and the columns.
void print_fit_header(const std::vector<std::string>& paths, long samples, const std::string& source,
                      std::size_t rollouts, const char* objective = "mean squared position error, m^2");
void print_step(const FitStep& s);
// The table of fitted values: start, fitted, standard error (with "at bound" for a value on an end of its
// range), and with synthetic data (truth not null) the truth and the relative error; then the residual
// standard deviation and the correlations.
void print_fitted(const std::vector<std::string>& paths, const std::vector<double>& start,
                  const FitResult& result, const std::vector<double>* truth);
// The interval the standard error se implies at z standard errors, "   lo .. hi" ("   -" where se is not
// finite), ending the line: the last column of the profile's and the bootstrap's tables.
void print_linear_interval(double fitted, double se, double z);
// The fit's status as reported: the engine's failure, "not identified: NAME (why); ..." when a number is not
// identified by the data (engine/optimize/identifiability.hpp), else "ok".
std::string fit_status(const std::vector<std::string>& paths, const FitResult& result);
// Says on stderr which numbers are not identified and why (nothing when all are).
void print_identification(const std::vector<std::string>& paths, const FitResult& result);
// --out: the scene, the data's source, the path of steps, the fitted values and their uncertainty.
nlohmann::json fit_json(const std::string& scene, const nlohmann::json& config, const std::string& source,
                        const std::vector<std::string>& paths, const std::vector<double>& start,
                        const FitResult& result);

}  // namespace sg::cli
