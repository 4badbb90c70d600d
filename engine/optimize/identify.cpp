#include "engine/optimize/identify.hpp"

#include <random>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/simulate/trajectory.hpp"

namespace sg {

bool synthetic_measurements(const Problem& problem, double noise, unsigned long seed, TrajectoryData* out,
                            std::string* error) {
  // The trajectory at the scene's own value of the swept parameter: the scene as written.
  ProblemData<double> copy = problem.data;
  const double* x = parameter_slot(copy, problem.sweep.parameter);
  const Trajectory tr = simulate_trajectory(problem, x ? *x : problem.sweep.from);
  if (tr.status != "ok") {
    *error = "the scene's own run (the truth) failed: " + tr.status;
    return false;
  }
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, noise > 0.0 ? noise : 1.0);
  const std::size_t stride = tr.layout == "rigid" ? 7 : 3;
  *out = TrajectoryData{};
  out->source = problem.name + " (synthetic)";
  out->by_step.resize(tr.q.size());
  for (std::size_t i = 0; i < tr.q.size(); ++i)
    for (std::size_t b = 0; (b + 1) * stride <= tr.q[i].size(); ++b) {
      PositionSample s;
      s.body = static_cast<int>(b);
      for (std::size_t k = 0; k < 3; ++k)
        s.pos[k] = tr.q[i][b * stride + k] + (noise > 0.0 ? normal(rng) : 0.0);
      out->by_step[i].push_back(s);
      ++out->count;
    }
  return true;
}

IdentifySetup identify_setup(const Problem& problem) {
  IdentifySetup setup;
  setup.paths = problem.identify.paths;
  setup.start = problem.identify.start;
  ProblemData<double> copy = problem.data;
  for (const std::string& p : setup.paths) {
    const double* slot = parameter_slot(copy, p);
    setup.truth.push_back(slot ? *slot : 0.0);
  }
  // The rollouts' scenes first: measured data (fit --data) needs them even where a synthetic run fails.
  const IdentifySpec& id = problem.identify;
  for (std::size_t k = 0; k < id.rollout_paths.size(); ++k) {
    setup.rollouts.push_back(problem);
    *parameter_slot(setup.rollouts.back().data, id.rollout_paths[k]) = id.rollout_values[k];
  }
  setup.rollout_data.resize(setup.rollouts.size());
  std::string error;
  if (!synthetic_measurements(problem, id.noise, id.seed, &setup.data, &error)) {
    setup.status = error;
    return setup;
  }
  for (std::size_t k = 0; k < setup.rollouts.size(); ++k) {
    TrajectoryData& data = setup.rollout_data[k];
    if (!synthetic_measurements(setup.rollouts[k], id.noise, id.seed + 1 + k, &data, &error)) {
      setup.status = "identify.rollouts." + std::to_string(k) + ": " + error;
      return setup;
    }
    data.source = problem.name + " (synthetic, rollout " + std::to_string(k + 1) + ": " +
                  id.rollout_paths[k] + " = " + nlohmann::json(id.rollout_values[k]).dump() + ")";
  }
  return setup;
}

long IdentifySetup::samples() const {
  long n = data.count;
  for (const TrajectoryData& d : rollout_data) n += d.count;
  return n;
}

namespace {

// The objective over `measured` (the scene's run, then each rollout's, in the setup's order).
Rollouts rollouts_over(const Problem& problem, const IdentifySetup& setup,
                       const std::vector<std::string>& paths,
                       const std::vector<const TrajectoryData*>& measured) {
  const IdentifySpec& id = problem.identify;
  for (std::size_t k = 0; k < setup.rollouts.size(); ++k)
    for (const std::string& p : paths)
      if (p == id.rollout_paths[k])
        throw std::invalid_argument(p + ": set by identify.rollouts." + std::to_string(k) +
                                    ", so it cannot be fitted");
  Rollouts r;
  r.add(problem, paths, measured[0]);
  for (std::size_t k = 0; k < setup.rollouts.size(); ++k) r.add(setup.rollouts[k], paths, measured[k + 1]);
  return r;
}

}  // namespace

std::vector<const TrajectoryData*> IdentifySetup::measured() const {
  std::vector<const TrajectoryData*> out{&data};
  for (const TrajectoryData& d : rollout_data) out.push_back(&d);
  return out;
}

Rollouts rollouts_of(const Problem& problem, const IdentifySetup& setup,
                     const std::vector<std::string>& paths) {
  return rollouts_over(problem, setup, paths, setup.measured());
}

std::vector<scene::KeyRange> fit_bounds(const Problem& problem, const std::vector<std::string>& paths) {
  const IdentifySpec& id = problem.identify;
  std::vector<scene::KeyRange> out;
  for (const std::string& p : paths) {
    scene::KeyRange range = scene::key_range(p);
    for (std::size_t k = 0; k < id.paths.size(); ++k)
      if (id.paths[k] == p) range = range.narrowed({id.min[k], id.max[k], false, false});
    out.push_back(range);
  }
  return out;
}

FitSettings identify_settings(const Problem& problem) {
  FitSettings s;
  s.method = problem.identify.adam ? FitMethod::adam : FitMethod::lm;
  s.steps = problem.identify.steps;
  s.bounds = fit_bounds(problem, problem.identify.paths);
  return s;
}

FitResult run_identification(const Problem& problem, const IdentifySetup& setup, const FitSettings& settings,
                             const std::function<void(const FitStep&)>& on_step) {
  Rollouts rollouts = rollouts_of(problem, setup, setup.paths);
  return fit_parameters(rollouts, setup.start, settings, on_step);
}

ProfileResult run_identification_profile(
    const Problem& problem, const IdentifySetup& setup, FitResult& fit, const FitSettings& settings,
    double level, const std::function<void(std::size_t, const ProfilePoint&)>& on_point,
    const std::function<void(const FitResult&)>& on_restart) {
  Rollouts rollouts = rollouts_of(problem, setup, setup.paths);
  rollouts.set_threads(settings.threads);
  ProfileSettings ps;
  ps.level = level;
  ps.refit = settings;
  return profile_with_restarts(rollouts, fit, settings, ps, kProfileRestarts, on_point, on_restart, [&] {
    return std::make_unique<Rollouts>(rollouts_of(problem, setup, setup.paths));
  });
}

BootstrapResult run_identification_bootstrap(
    const Problem& problem, const IdentifySetup& setup, const FitResult& fit, const FitSettings& settings,
    int draws, double level, const std::vector<double>& start,
    const std::function<void(int, const std::vector<double>&)>& on_draw) {
  Rollouts rollouts = rollouts_of(problem, setup, setup.paths);
  rollouts.set_threads(settings.threads);
  BootstrapSettings bs;
  bs.draws = draws;
  bs.level = level;
  bs.seed = problem.identify.seed;
  bs.refit = settings;
  bs.start = start;
  return bootstrap_parameters(
      rollouts, setup.measured(), fit, bs,
      [&](const std::vector<TrajectoryData>& data) {
        std::vector<const TrajectoryData*> measured;
        for (const TrajectoryData& d : data) measured.push_back(&d);
        return std::make_unique<Rollouts>(rollouts_over(problem, setup, setup.paths, measured));
      },
      on_draw);
}

}  // namespace sg
