#include "cli/fit_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/optimize/identifiability.hpp"
#include "engine/problem/json_number.hpp"

namespace sg::cli {
namespace {

constexpr int kColumn = 14;  // width of a number's column in the steps and the correlations

// A path short enough for a column: "model.bodies.0.friction.0" -> "b0.friction.0"; what is still too long
// keeps its start and its end ("contact.mu~olref.0"), never only its tail ("dies.0.vel.0" named nothing).
std::string column_label(const std::string& path) {
  std::string p = path;
  if (p.rfind("model.", 0) == 0) p = p.substr(6);
  for (const char* group : {"bodies.", "particles."}) {
    const std::string g = group;
    if (p.rfind(g, 0) == 0) p = g.substr(0, 1) + p.substr(g.size());
  }
  if (p.size() <= static_cast<std::size_t>(kColumn)) return p;
  const std::size_t keep = static_cast<std::size_t>(kColumn) - 1, head = keep / 2;
  return p.substr(0, head) + "~" + p.substr(p.size() - (keep - head));
}

// The correlation matrix of the fitted values, for two or more ("-" where a standard error is inf).
void print_correlation(const std::vector<std::string>& paths, const FitResult& result) {
  const std::size_t n = paths.size();
  if (n < 2 || result.correlation.size() != n * n) return;
  std::printf("correlations of the fitted values (near +-1: the data trade one against the other):\n%-*s",
              kColumn, "");
  for (const std::string& p : paths) std::printf(" %*s", kColumn, column_label(p).c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < n; ++i) {
    std::printf("%-*s", kColumn, column_label(paths[i]).c_str());
    for (std::size_t j = 0; j < n; ++j) {
      const double c = result.correlation[i * n + j];
      if (std::isfinite(c))
        std::printf(" %*.3f", kColumn, c);
      else
        std::printf(" %*s", kColumn, "-");
    }
    std::printf("\n");
  }
}

}  // namespace

void print_fit_header(const std::vector<std::string>& paths, long samples, const std::string& source,
                      std::size_t rollouts, const char* objective) {
  std::printf("fitting %zu parameters to %ld samples of %s", paths.size(), samples, source.c_str());
  if (rollouts > 0) std::printf(" and %zu more rollouts", rollouts);
  std::printf(" (%s)\n", objective);
  std::printf("%4s  %-19s", "step", "loss");
  for (const std::string& p : paths) std::printf(" %*s", kColumn, column_label(p).c_str());
  std::printf("\n");
}

void print_step(const FitStep& s) {
  std::printf("%4d  loss %-14.8g", s.iteration, s.loss);
  for (double v : s.values) std::printf(" %*.6g", kColumn, v);
  std::printf("\n");
}

void print_fitted(const std::vector<std::string>& paths, const std::vector<double>& start,
                  const FitResult& result, const std::vector<double>* truth) {
  const std::vector<double>& fitted = result.path.back().values;
  std::printf("%-36s %14s %14s %11s%s\n", "parameter", "start", "fitted", "std. error",
              truth ? "          truth    rel. error" : "");
  for (std::size_t j = 0; j < paths.size(); ++j) {
    std::printf("%-36s %14.8g %14.8g", paths[j].c_str(), start[j], fitted[j]);
    if (j < result.std_error.size())
      std::printf(" %11.3g", result.std_error[j]);
    else
      std::printf(" %11s", "-");
    if (truth)
      std::printf(" %14.8g %12.3g%%", (*truth)[j],
                  100.0 * std::fabs(fitted[j] - (*truth)[j]) / std::max(std::fabs((*truth)[j]), 1e-300));
    if (j < result.at_bound.size() && result.at_bound[j]) std::printf("  (at its bound)");
    if (j < result.not_identified.size() && !result.not_identified[j].empty())
      std::printf("  NOT IDENTIFIED: %s", result.not_identified[j].c_str());
    std::printf("\n");
  }
  if (std::isfinite(result.residual_sigma))
    std::printf(
        "residual standard deviation %.3g m per coordinate; standard errors from the Gauss-Newton covariance "
        "(inf: not determined by the data)\n",
        result.residual_sigma);
  print_correlation(paths, result);
}

std::string fit_status(const std::vector<std::string>& paths, const FitResult& result) {
  if (result.status != "ok") return result.status;
  const std::string flagged = not_identified_text(paths, result.not_identified);
  return flagged.empty() ? "ok" : flagged;
}

void print_identification(const std::vector<std::string>& paths, const FitResult& result) {
  const std::string flagged = not_identified_text(paths, result.not_identified);
  if (!flagged.empty()) std::fprintf(stderr, "%s\n", flagged.c_str());
}

nlohmann::json fit_json(const std::string& scene, const nlohmann::json& config, const std::string& source,
                        const std::vector<std::string>& paths, const std::vector<double>& start,
                        const FitResult& result) {
  nlohmann::json steps = nlohmann::json::array();
  for (const FitStep& s : result.path) {
    nlohmann::json grad = nlohmann::json::array();
    for (double g : s.grad) grad.push_back(number_or_null(g));
    steps.push_back(
        {{"step", s.iteration}, {"loss", number_or_null(s.loss)}, {"values", s.values}, {"grad", grad}});
  }
  nlohmann::json out = {{"scene", scene},
                        {"data", source},
                        {"parameters", paths},
                        {"start", start},
                        {"fitted", result.path.back().values},
                        {"status", fit_status(paths, result)},
                        {"path", steps},
                        {"config", config}};
  nlohmann::json errors = nlohmann::json::array();
  for (double e : result.std_error) errors.push_back(number_or_null(e));
  out["std_error"] = errors;
  out["residual_sigma"] = number_or_null(result.residual_sigma);
  out["at_bound"] = result.at_bound;
  out["not_identified"] = result.not_identified;  // per number: why the data do not identify it, or ""
  nlohmann::json correlation = nlohmann::json::array();
  for (std::size_t i = 0; i * paths.size() < result.correlation.size(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t j = 0; j < paths.size(); ++j)
      row.push_back(number_or_null(result.correlation[i * paths.size() + j]));
    correlation.push_back(row);
  }
  out["correlation"] = correlation;
  return out;
}

void print_linear_interval(double fitted, double se, double z) {
  if (std::isfinite(se))
    std::printf("   %.6g .. %.6g\n", fitted - z * se, fitted + z * se);
  else
    std::printf("   -\n");
}

}  // namespace sg::cli
