// softgrad mpc: model-predictive control through the simulator (engine/control/mpc.hpp): the gradient
// planner (Adam on the control knots, reverse mode, clipped, the best iterate kept) or predictive sampling,
// or both side by side; prints each planning step and writes the runs as JSON and their figure as SVG.
// Every option is a key of the scene's mpc section (--horizon is --set mpc.horizon=...).
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/figure_png_output.hpp"
#include "cli/scene_args.hpp"
#include "engine/control/mpc.hpp"
#include "engine/core/available_cores.hpp"
#include "plots/svg.hpp"
#include "plots/sweep_figures/mpc_figure.hpp"

namespace sg::cli {
namespace {

struct MpcArgs {
  SceneArgs scene;
  std::string planner, cfd;
  std::optional<long> horizon, iterations, samples, execute, duration, seed;
  int threads = 0;
  std::string out, svg, png;
};

// The options as overrides of the scene's mpc keys (after the user's own --set, so they win).
std::vector<std::string> overrides(const MpcArgs& a) {
  std::vector<std::string> o = a.scene.overrides;
  const auto add = [&](const char* key, const std::optional<long>& v) {
    if (v) o.push_back(std::string("mpc.") + key + "=" + std::to_string(*v));
  };
  if (!a.planner.empty() && a.planner != "both") o.push_back("mpc.planner=" + a.planner);
  add("horizon", a.horizon);
  add("iterations", a.iterations);
  add("samples", a.samples);
  add("execute", a.execute);
  add("duration", a.duration);
  add("seed", a.seed);
  return o;
}

const char* planner_name(Planner p) {
  return p == Planner::gradient ? "gradient" : "sampling";
}

void print_step(const PlanningStep& s, Planner planner) {
  std::printf("t %7.3f  plan cost %-12.6g (warm start %-12.6g)", s.time, s.cost, s.first_cost);
  if (planner == Planner::gradient)
    std::printf("  iterate %2ld  |g| %-10.3g clipped %ld", s.best, s.grad_norm, s.clipped);
  else
    std::printf("  sample %3ld", s.best);
  std::printf("  %7.1f ms%s%s\n", s.wall_ms, s.status == "ok" ? "" : "  ",
              s.status == "ok" ? "" : s.status.c_str());
}

nlohmann::json result_json(const MpcResult& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const PlanningStep& s : r.steps)
    steps.push_back({{"step", s.step},
                     {"time", s.time},
                     {"cost", s.cost},
                     {"first_cost", s.first_cost},
                     {"best", s.best},
                     {"evaluations", s.evaluations},
                     {"grad_norm", s.grad_norm},
                     {"grad_norm_max", s.grad_norm_max},
                     {"clipped", s.clipped},
                     {"wall_ms", s.wall_ms},
                     {"status", s.status}});
  return {{"planner", planner_name(r.planner)},
          {"status", r.status},
          {"cancelled", r.cancelled},
          {"final_cost", r.final_cost},
          {"success", r.success},
          {"wall_s", r.wall_s},
          {"knots", r.knot_paths},
          {"planning_steps", steps},
          {"t", r.t},
          {"cost", r.cost},
          {"ctrl", r.ctrl},
          {"state", r.state}};
}

// One planner on one variant of the scene (CFD as the scene has it, or set on or off).
struct MpcRun {
  std::string label;  // "gradient", or "gradient, CFD on" when --cfd both
  Planner planner;
  std::string cfd;  // "": the scene's; "on", "off"
  MpcResult result;
};

std::vector<MpcRun> planned_runs(const MpcArgs& args, Planner scene_planner) {
  std::vector<Planner> planners = {scene_planner};
  if (args.planner == "both") planners = {Planner::gradient, Planner::sampling};
  std::vector<std::string> cfds = {""};
  if (args.cfd == "both")
    cfds = {"on", "off"};
  else if (!args.cfd.empty())
    cfds = {args.cfd};
  std::vector<MpcRun> runs;
  for (Planner planner : planners)
    for (const std::string& cfd : cfds)
      runs.push_back({std::string(planner_name(planner)) + (args.cfd == "both" ? ", CFD " + cfd : ""),
                      planner,
                      cfd,
                      {}});
  return runs;
}

// Runs one; false (and the message printed) when the scene cannot be planned.
bool run_one(const std::string& file, const Problem& scene, MpcRun& run, int threads) {
  MpcSettings s = mpc_settings(scene);
  s.planner = run.planner;
  MpcCallbacks cb;
  cb.threads = threads;
  cb.on_step = [planner = s.planner](const MpcResult& so_far) { print_step(so_far.steps.back(), planner); };
  std::printf("%s: horizon %ld steps, %ld executed per plan\n", run.label.c_str(), s.horizon, s.execute);
  try {
    run.result = run.cfd.empty() ? run_mpc(scene, s, cb) : run_mpc(with_cfd(scene, run.cfd == "on"), s, cb);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: %s\n", file.c_str(), e.what());
    return false;
  }
  const MpcResult& r = run.result;
  std::printf("%s: final cost %.6g (success below %g: %s), %zu planning steps in %.2f s%s%s\n",
              run.label.c_str(), r.final_cost, s.success, r.success ? "yes" : "no", r.steps.size(), r.wall_s,
              r.status == "ok" ? "" : "; ", r.status == "ok" ? "" : r.status.c_str());
  return true;
}

int run(const MpcArgs& args) {
  SceneArgs scene = args.scene;
  scene.overrides = overrides(args);
  std::optional<Problem> problem = load_scene_or_report(scene);
  if (!problem) return kExitBadInput;
  const MpcSettings settings = mpc_settings(*problem);
  std::vector<MpcRun> runs = planned_runs(args, settings.planner);
  const int threads = args.threads > 0 ? args.threads : available_cores();
  for (MpcRun& r : runs)
    if (!run_one(scene.scene, *problem, r, threads)) return kExitBadInput;
  if (!args.out.empty()) {
    nlohmann::json out = {
        {"scene", scene.scene}, {"mpc", problem->config.at("mpc")}, {"runs", nlohmann::json::array()}};
    for (const MpcRun& r : runs) {
      nlohmann::json j = result_json(r.result);
      j["label"] = r.label;
      j["cfd"] =
          r.cfd.empty() ? problem->config.at("contact").at("cfd").at("enabled").get<bool>() : r.cfd == "on";
      out["runs"].push_back(j);
    }
    out["config"] = problem->config;
    if (!write_output(args.out, out.dump(1) + "\n")) return kExitFailed;
    std::printf("result: %s\n", args.out.c_str());
  }
  std::vector<LabelledMpc> labelled;
  for (const MpcRun& r : runs) labelled.push_back({r.label, &r.result});
  const plot::Figure figure = mpc_figure(labelled, settings.success);
  if (!args.svg.empty()) {
    if (!write_output(args.svg, plot::to_svg(figure, 1200, 800))) return kExitFailed;
    std::printf("plot: %s\n", args.svg.c_str());
  }
  if (!args.png.empty() && !write_figure_png(figure, 1200, 800, args.png)) return kExitFailed;
  for (const MpcRun& r : runs)
    if (r.result.status != "ok") return kExitFailed;
  return kExitOk;
}

}  // namespace

void register_mpc(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<MpcArgs>();
  CLI::App* cmd = app.add_subcommand(
      "mpc", "Model-predictive control: plan the controls through the simulator (gradient or sampling)");
  add_scene_args(*cmd, args->scene);
  cmd->add_option("--planner", args->planner, "gradient, sampling or both (scene: mpc.planner)")
      ->check(CLI::IsMember({"gradient", "sampling", "both"}));
  cmd->add_option("--cfd", args->cfd,
                  "Contacts From Distance on, off or both (default: the scene's contact.cfd.enabled)")
      ->check(CLI::IsMember({"on", "off", "both"}));
  cmd->add_option("--horizon", args->horizon, "Output steps each plan spans (scene: mpc.horizon)")
      ->check(CLI::Range(1L, 100000L));
  cmd->add_option("--iters", args->iterations,
                  "Gradient planner: Adam iterations per planning step (mpc.iterations)")
      ->check(CLI::Range(1L, 100000L));
  cmd->add_option("--samples", args->samples, "Sampling planner: plans per planning step (mpc.samples)")
      ->check(CLI::Range(1L, 100000L));
  cmd->add_option("--steps", args->execute, "Output steps executed per plan (mpc.execute)")
      ->check(CLI::Range(1L, 100000L));
  cmd->add_option("--duration", args->duration,
                  "Output steps executed in all (mpc.duration; 0: integrator.steps)")
      ->check(CLI::Range(0L, 1000000L));
  cmd->add_option("--seed", args->seed, "Seed of the sampling noise (mpc.seed)")
      ->check(CLI::Range(0L, 1L << 62));
  cmd->add_option("--threads", args->threads, "Threads for a planning step's rollouts (default: the cores)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--out", args->out, "Write the runs (planning steps, executed motion) as JSON here")
      ->check(output_path());
  cmd->add_option("--svg", args->svg, "Write the cost, gradient-norm and control plots here")
      ->check(output_path());
  cmd->add_option("--png", args->png, "Write the same plots as PNG here (the GUI's plot renderer, headless)")
      ->check(output_path());
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace sg::cli
