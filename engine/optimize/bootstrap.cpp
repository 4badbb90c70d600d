#include "engine/optimize/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/gradient/helper_threads.hpp"
#include "engine/scene/describe.hpp"

namespace sg {
namespace {

// Why no bootstrap can be made of this fit with these settings ("" when it can).
std::string bootstrap_refusal(const FitResult& fit, const BootstrapSettings& s) {
  if (s.draws < 2) return "the bootstrap needs at least 2 draws, not " + std::to_string(s.draws);
  if (!(s.level > 0.0 && s.level < 1.0))
    return "the level must be in (0, 1), not " + scene::format_number(s.level);
  if (fit.path.empty() || fit.status != "ok") return "the fit did not end at a point to draw from";
  if (!s.start.empty() && s.start.size() != fit.path.back().values.size())
    return "the refits' start has " + std::to_string(s.start.size()) + " numbers, the fit " +
           std::to_string(fit.path.back().values.size());
  if (!(fit.residual_sigma > 0.0) || !std::isfinite(fit.residual_sigma))
    return "no residual variance at the fit (fewer measured coordinates than numbers, or an exact fit): "
           "the bootstrap needs the noise's scale";
  return "";
}

// What one draw left: its refitted values, or why it failed; nothing when it was not made (cancelled).
struct DrawOutcome {
  bool made = false;
  std::vector<double> values;
  std::string failure;
  long runs = 0;
};

DrawOutcome one_draw(const std::vector<const TrajectoryData*>& measured, const std::vector<double>& residuals,
                     const FitResult& fit, const BootstrapSettings& s, const FitSettings& refit,
                     const DrawObjective& objective_for, int draw) {
  DrawOutcome out;
  const std::vector<TrajectoryData> data =
      bootstrap_measurements(measured, residuals, fit.residual_sigma, s.seed, draw);
  const std::unique_ptr<Rollouts> objective = objective_for(data);
  const FitResult again =
      fit_parameters(*objective, s.start.empty() ? fit.path.back().values : s.start, refit, {});
  out.runs = again.runs;
  if (again.stopped == "cancelled") return out;
  out.made = true;
  if (again.status == "ok" && !again.path.empty())
    out.values = again.path.back().values;
  else
    out.failure = again.status;
  return out;
}

// The intervals, medians and spreads of the successful draws.
void summarise(BootstrapResult& r, std::size_t numbers) {
  r.lower.assign(numbers, NAN);
  r.upper.assign(numbers, NAN);
  r.median.assign(numbers, NAN);
  r.spread.assign(numbers, NAN);
  if (r.draws.size() < 2) return;
  const double n = static_cast<double>(r.draws.size());
  for (std::size_t j = 0; j < numbers; ++j) {
    std::vector<double> v;
    for (const std::vector<double>& d : r.draws) v.push_back(d[j]);
    std::sort(v.begin(), v.end());
    r.lower[j] = sorted_quantile(v, 0.5 * (1.0 - r.level));
    r.upper[j] = sorted_quantile(v, 0.5 * (1.0 + r.level));
    r.median[j] = sorted_quantile(v, 0.5);
    double mean = 0.0, sq = 0.0;
    for (double x : v) mean += x / n;
    for (double x : v) sq += (x - mean) * (x - mean);
    r.spread[j] = std::sqrt(sq / (n - 1.0));
  }
}

}  // namespace

double sorted_quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const double at = q * static_cast<double>(sorted.size() - 1);
  const std::size_t i = static_cast<std::size_t>(std::floor(at));
  if (i + 1 >= sorted.size()) return sorted.back();
  const double f = at - static_cast<double>(i);
  return sorted[i] + f * (sorted[i + 1] - sorted[i]);
}

std::vector<TrajectoryData> bootstrap_measurements(const std::vector<const TrajectoryData*>& measured,
                                                   const std::vector<double>& residuals, double sigma,
                                                   unsigned long seed, int draw) {
  // Seeded by (seed, draw): a draw's noise does not depend on which thread makes it, or when.
  std::seed_seq seq{static_cast<unsigned>(seed), static_cast<unsigned>(seed >> 32),
                    static_cast<unsigned>(draw), 0xB0075u};
  std::mt19937_64 rng(seq);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<TrajectoryData> out;
  std::size_t k = 0;  // the next residual
  for (const TrajectoryData* m : measured) {
    TrajectoryData d = *m;
    d.source = m->source + " (bootstrap draw " + std::to_string(draw) + ")";
    for (std::vector<PositionSample>& step : d.by_step)
      for (PositionSample& s : step)
        for (double& x : s.pos) {
          const double model = x + (k < residuals.size() ? residuals[k] : 0.0);
          ++k;
          x = model + sigma * normal(rng);
        }
    out.push_back(std::move(d));
  }
  return out;
}

BootstrapResult bootstrap_parameters(Rollouts& objective, const std::vector<const TrajectoryData*>& measured,
                                     const FitResult& fit, const BootstrapSettings& settings,
                                     const DrawObjective& objective_for,
                                     const std::function<void(int, const std::vector<double>&)>& on_draw) {
  BootstrapResult result;
  result.level = settings.level;
  result.requested = settings.draws;
  const std::string refusal = bootstrap_refusal(fit, settings);
  if (!refusal.empty()) {
    result.status = refusal;
    return result;
  }
  // The fitted model's positions: the measurements plus the residuals at the fit.
  const ResidualJacobian at_fit = objective.residuals(fit.path.back().values);
  result.runs += at_fit.runs;
  long coordinates = 0;
  for (const TrajectoryData* m : measured) coordinates += 3 * m->count;
  if (at_fit.status != "ok" || static_cast<long>(at_fit.r.size()) != coordinates) {
    result.status = at_fit.status != "ok" ? "the fitted model's run failed: " + at_fit.status
                                          : "the residuals do not match the measurements";
    return result;
  }
  const int threads = std::max(1, std::min(settings.refit.threads, settings.draws));
  FitSettings refit = settings.refit;
  refit.method = FitMethod::lm;
  refit.steps = std::max(refit.steps, 50);
  refit.min_decrease = 1e-10;  // as a profile's refits: far below what moves a value against the spread
  refit.fixed.clear();
  refit.threads = threads > 1 ? 1 : settings.refit.threads;  // the draws are the parallel work
  std::vector<DrawOutcome> outcomes(static_cast<std::size_t>(settings.draws));
  for_each_index(outcomes.size(), threads, [&](std::size_t k, int) {
    if (settings.refit.cancel && settings.refit.cancel->load()) return;
    outcomes[k] = one_draw(measured, at_fit.r, fit, settings, refit, objective_for, static_cast<int>(k));
    if (on_draw && outcomes[k].made) on_draw(static_cast<int>(k), outcomes[k].values);
  });
  for (std::size_t k = 0; k < outcomes.size(); ++k) {
    const DrawOutcome& o = outcomes[k];
    result.runs += o.runs;
    if (!o.made) {
      result.cancelled = true;
      continue;
    }
    if (o.values.empty()) {
      if (result.failed++ == 0) result.first_failure = o.failure;
      continue;
    }
    result.draws.push_back(o.values);
    result.draw_index.push_back(static_cast<int>(k));
  }
  summarise(result, fit.path.back().values.size());
  if (result.draws.size() < 2 && !result.cancelled)
    result.status = "fewer than 2 draws could be refitted" +
                    (result.first_failure.empty() ? std::string() : ": " + result.first_failure);
  return result;
}

}  // namespace sg
