#include "cli/fit_tosses.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/fit_bound_args.hpp"
#include "cli/fit_output.hpp"
#include "cli/scene_args.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/optimize/toss_segments.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/toss_fit_figure.hpp"
#include "plots/sweep_figures/toss_replay_figure.hpp"

namespace sg::cli {
namespace {

constexpr std::size_t kDefaultEvaluated = 40;  // the paper's trajectory error: the first forty tosses

// The tosses run whole for the trajectory error: a list, "first40" (the file's first forty) or "none".
bool evaluated_tosses(const TossSet& set, const std::string& spec, std::vector<int>* out,
                      std::string* error) {
  out->clear();
  if (spec == "none") return true;
  if (spec != "first40") return select_tosses(set, spec, out, error);
  for (std::size_t k = 0; k < set.tosses.size() && k < kDefaultEvaluated; ++k)
    out->push_back(set.tosses[k].number);
  return true;
}

nlohmann::json error_json(const TrajectoryError& e) {
  return {{"mean_abs", e.mean_abs},
          {"mean_abs_position_m", e.mean_abs_position},
          {"frames", e.frames},
          {"status", e.status}};
}

void print_error(const char* when, const TrajectoryError& e, std::size_t tosses) {
  if (e.status != "ok") {
    std::printf("trajectory error %s: failed (%s)\n", when, e.status.c_str());
    return;
  }
  std::printf(
      "trajectory error %s (%zu whole tosses, %ld frames): %.4g mean absolute (positions and rotation "
      "matrices), positions %.4g mm\n",
      when, tosses, e.frames, e.mean_abs, 1e3 * e.mean_abs_position);
}

// The toss's whole rollout at `values` (measured + residual), frame 1 on.
bool rollout_states(const Problem& problem, const TossSet& set, int toss,
                    const std::vector<FitNumber>& numbers, const std::vector<double>& values,
                    std::vector<TossState>* out) {
  TossObjective one(problem, set, {toss}, 0, numbers);
  const ResidualJacobian rj = one.residuals(values);
  if (rj.status != "ok") {
    std::fprintf(stderr, "--replay-svg: toss %d: %s\n", toss, rj.status.c_str());
    return false;
  }
  out->assign(rj.r.size() / 12, TossState{});
  const Toss& measured = *set.find(toss);
  for (std::size_t i = 0; i < out->size(); ++i) {
    const TossState m = toss_state(measured.frames[i + 1].pos, measured.frames[i + 1].quat);
    for (std::size_t k = 0; k < 12; ++k) (*out)[i][k] = m[k] + rj.r[12 * i + k];
  }
  return true;
}

// --replay-svg: the toss measured and simulated before and after the fit.
bool write_replay(const TossFitRequest& request, const Problem& problem, const TossSet& set, int toss,
                  const std::vector<FitNumber>& numbers, const std::vector<double>& start,
                  const std::vector<double>& fitted) {
  TossRollout before{"before", {}}, after{"fitted", {}};
  if (!rollout_states(problem, set, toss, numbers, start, &before.states) ||
      !rollout_states(problem, set, toss, numbers, fitted, &after.states))
    return false;
  const Toss& measured = *set.find(toss);
  std::vector<double> t;
  std::vector<TossState> states;
  for (std::size_t i = 1; i < measured.frames.size(); ++i) {
    t.push_back(measured.frames[i].t);
    states.push_back(toss_state(measured.frames[i].pos, measured.frames[i].quat));
  }
  const plot::Figure figure =
      toss_replay_figure("toss " + std::to_string(toss) + " of " + set.source, t, states, {before, after});
  if (!write_output(request.replay_svg, plot::to_svg(figure, 1100, 420))) return false;
  std::printf("replay plot (toss %d): %s\n", toss, request.replay_svg.c_str());
  return true;
}

}  // namespace

int run_toss_fit(const TossFitRequest& request, const Problem& problem, FitSettings settings) {
  TossSet set;
  std::string error;
  if (!read_tosses(request.tosses, &set, &error)) {
    std::fprintf(stderr, "--tosses %s\n", error.c_str());
    return kExitBadInput;
  }
  std::vector<int> fitted_tosses, evaluated;
  if (!select_tosses(set, request.select, &fitted_tosses, &error)) {
    std::fprintf(stderr, "--toss: %s\n", error.c_str());
    return kExitBadInput;
  }
  if (!evaluated_tosses(set, request.evaluate, &evaluated, &error)) {
    std::fprintf(stderr, "--eval-tosses: %s\n", error.c_str());
    return kExitBadInput;
  }
  const int replay = request.replay_toss >= 0
                         ? request.replay_toss
                         : (evaluated.empty() ? fitted_tosses.front() : evaluated.front());
  if (!request.replay_svg.empty() && !set.find(replay)) {
    std::fprintf(stderr, "--replay-toss: toss %d: not in %s\n", replay, set.source.c_str());
    return kExitBadInput;
  }
  if (request.wrt.empty()) {
    std::fprintf(stderr, "%s: --wrt: give the numbers to fit to the tosses (e.g. model.bodies.0.size)\n",
                 request.scene.c_str());
    return kExitBadInput;
  }
  std::vector<FitNumber> numbers;
  std::unique_ptr<TossObjective> train, whole;
  try {
    numbers = fit_numbers(problem, request.wrt);
    train = std::make_unique<TossObjective>(problem, set, fitted_tosses, request.segment, numbers);
    if (!evaluated.empty()) whole = std::make_unique<TossObjective>(problem, set, evaluated, 0, numbers);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", request.scene.c_str(), e.what());
    return kExitBadInput;
  }
  const std::vector<std::string>& names = train->paths();
  std::vector<std::string> first_paths;
  for (const FitNumber& n : numbers) first_paths.push_back(n.paths.front());
  settings.bounds = fit_bounds(problem, first_paths);
  if (!apply_bound_args(request.bounds, names, &settings.bounds, &error)) {
    std::fprintf(stderr, "%s: %s\n", request.scene.c_str(), error.c_str());
    return kExitBadInput;
  }
  const std::vector<double> start = train->initial_values();
  for (std::size_t j = 0; j < names.size(); ++j)
    if (!settings.bounds[j].contains(start[j])) {
      std::fprintf(stderr, "%s: %s: the start %.17g is outside the fit's range (%s)\n", request.scene.c_str(),
                   names[j].c_str(), start[j], settings.bounds[j].text().c_str());
      return kExitBadInput;
    }
  const CfdParams<double>& cfd = problem.data.rigid.cfd;
  if (cfd.enabled && cfd.straight_through && is_adaptive(problem.integrator.method))
    std::printf(
        "note: straight-through CFD with an adaptive integrator adds no saltation at contact switches; "
        "where segments start deep in contact (a cube far too large) its gradient can point the wrong "
        "way (docs/identification.md, \"Measured tosses\")\n");
  std::printf("%s: %zu tosses, %zu segments of %d frames (%ld predicted frames); frames %.9g s apart\n",
              set.source.c_str(), fitted_tosses.size(), train->runs(), request.segment, train->samples(),
              set.dt);
  if (whole) whole->set_threads(settings.threads);
  const TrajectoryError before = whole ? whole->trajectory_error(start) : TrajectoryError{};
  if (whole) print_error("before", before, evaluated.size());
  print_fit_header(names, train->samples(), set.source, 0,
                   "per predicted frame: squared position error in m^2 plus squared rotation-matrix error");
  const int every = request.print_every > 0 ? request.print_every : 1;
  FitResult result = fit_parameters(*train, start, settings, [&](const FitStep& s) {
    if (s.iteration % every == 0) print_step(s);
    std::fflush(stdout);
  });
  if (result.path.empty()) {
    std::fprintf(stderr, "%s\n", result.status.c_str());
    return kExitFailed;
  }
  if (result.path.back().iteration % every != 0) print_step(result.path.back());
  print_fitted(names, start, result, nullptr);
  std::printf("%s after %d steps and %ld simulations (stopped: %s)\n",
              result.status == "ok" ? "done" : "failed", result.path.back().iteration, result.runs,
              result.stopped.c_str());
  if (result.status != "ok") std::fprintf(stderr, "%s\n", result.status.c_str());
  print_identification(names, result);
  const TrajectoryError after =
      whole ? whole->trajectory_error(result.path.back().values) : TrajectoryError{};
  if (whole) print_error("after", after, evaluated.size());
  if (!request.svg.empty()) {
    if (!write_output(request.svg, plot::to_svg(toss_fit_figure(names, {{"fit", result.path}}), 1000, 420)))
      return kExitFailed;
    std::printf("plot: %s\n", request.svg.c_str());
  }
  if (!request.replay_svg.empty() &&
      !write_replay(request, problem, set, replay, numbers, start, result.path.back().values))
    return kExitFailed;
  if (!request.out.empty()) {
    nlohmann::json out = fit_json(problem.name, problem.config, set.source, names, start, result);
    out["tosses"] = {{"file", set.source},
                     {"fitted", fitted_tosses},
                     {"segment_frames", request.segment},
                     {"segments", train->runs()},
                     {"predicted_frames", train->samples()},
                     {"evaluated", evaluated}};
    if (!request.label.empty()) out["label"] = request.label;
    if (whole) out["trajectory_error"] = {{"before", error_json(before)}, {"after", error_json(after)}};
    if (!write_output(request.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", request.out.c_str());
  }
  const bool errors_ok = !whole || (before.status == "ok" && after.status == "ok");
  return fit_status(names, result) == "ok" && errors_ok ? kExitOk : kExitFailed;
}

}  // namespace sg::cli
