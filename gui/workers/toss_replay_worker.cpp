#include "gui/workers/toss_replay_worker.hpp"

#include <cmath>
#include <utility>

#include "engine/optimize/toss_segments.hpp"
#include "engine/problem/load_problem.hpp"
#include "engine/scene/path.hpp"
#include "plots/sweep_figures/toss_replay_figure.hpp"

namespace sg::gui {
namespace {

constexpr double kDtTolerance = 1e-6;  // relative, as the fits' (engine/optimize/toss_segments.cpp)

TossReplay failed(std::string file, int toss, std::string error) {
  TossReplay r;
  r.file = std::move(file);
  r.toss = toss;
  r.error = std::move(error);
  return r;
}

}  // namespace

bool config_for_toss(const nlohmann::json& config, const TossSet& set, const Toss& toss, nlohmann::json* out,
                     std::string* error) {
  const nlohmann::json* bodies = config.contains("model") ? &config["model"] : nullptr;
  if (!bodies || bodies->value("type", std::string()) != "rigid" || !(*bodies).contains("bodies") ||
      (*bodies)["bodies"].empty()) {
    *error = "model.type: a measured toss needs free bodies (model.type rigid), body 0 the tossed one";
    return false;
  }
  const double dt = config["integrator"].value("dt", 0.0);
  if (!(std::fabs(dt - set.dt) <= kDtTolerance * set.dt)) {
    *error = "integrator.dt: " + std::to_string(dt) + " s, but the frames of " + set.source + " are " +
             std::to_string(set.dt) + " s apart: set integrator.dt to their spacing";
    return false;
  }
  if (toss.frames.size() < 2) {
    *error = "toss " + std::to_string(toss.number) + " of " + set.source + ": fewer than 2 frames";
    return false;
  }
  const TossFrame& f = toss.frames.front();
  double euler[3];
  euler_xyz_degrees(f.quat, euler);
  *out = config;
  nlohmann::json& body = (*out)["model"]["bodies"][0];
  body.erase("quat");  // the start orientation is the toss's, as Euler angles
  body["pos"] = {f.pos[0], f.pos[1], f.pos[2]};
  body["euler"] = {euler[0], euler[1], euler[2]};
  body["vel"] = {f.vel[0], f.vel[1], f.vel[2]};
  body["angvel"] = {f.angvel[0], f.angvel[1], f.angvel[2]};
  (*out)["integrator"]["steps"] = static_cast<long>(toss.frames.size()) - 1;
  return true;
}

void TossReplayWorker::request(const nlohmann::json& config, const std::string& source,
                               const std::string& file, int toss) {
  job_.submit([this, config, source, file, toss](const std::atomic<bool>& cancel) {
    if (cancel.load()) return;
    run(config, source, file, toss);
  });
}

void TossReplayWorker::run(const nlohmann::json& config, const std::string& source, const std::string& file,
                           int toss_number) {
  TossReplay result;
  std::string error;
  if (!set_ || set_->source != file) {
    auto set = std::make_shared<TossSet>();
    if (read_tosses(file, set.get(), &error)) set_ = std::move(set);
  }
  const Toss* toss = error.empty() && set_ ? set_->find(toss_number) : nullptr;
  nlohmann::json started;
  if (!error.empty()) {
    result = failed(file, toss_number, error);
  } else if (!toss) {
    result = failed(file, toss_number, "toss " + std::to_string(toss_number) + ": not in " + file);
  } else if (!config_for_toss(config, *set_, *toss, &started, &error)) {
    result = failed(file, toss_number, error);
  } else if (ProblemLoad load = load_problem_json(started, source); !load.ok()) {
    result = failed(file, toss_number, load.errors);
  } else {
    // The sweep parameter keeps the scene's value: simulate_trajectory sets it.
    const auto value = scene::get_path(started, load.problem->sweep.parameter);
    auto simulated = std::make_shared<Trajectory>(
        simulate_trajectory(*load.problem, value && value->is_number() ? value->get<double>() : 0.0));
    simulated->title = "toss " + std::to_string(toss_number) + ": simulated";
    if (simulated->status != "ok" || simulated->q.size() != toss->frames.size()) {
      result = failed(
          file, toss_number,
          "toss " + std::to_string(toss_number) + ": the simulation " +
              (simulated->status != "ok" ? "failed: " + simulated->status : "did not reach every frame"));
    } else {
      result.file = file;
      result.toss = toss_number;
      std::vector<double> t;
      std::vector<TossState> measured, sim;
      double error_sum = 0.0;
      for (std::size_t i = 0; i < toss->frames.size(); ++i) {
        const TossFrame& f = toss->frames[i];
        result.t.push_back(f.t);
        result.measured.push_back({f.pos[0], f.pos[1], f.pos[2], f.quat[0], f.quat[1], f.quat[2], f.quat[3]});
        if (i == 0) continue;
        const std::vector<double>& q = simulated->q[i];
        t.push_back(f.t);
        measured.push_back(toss_state(f.pos, f.quat));
        sim.push_back(toss_state(q.data(), q.data() + 3));
        error_sum += std::sqrt((q[0] - f.pos[0]) * (q[0] - f.pos[0]) + (q[1] - f.pos[1]) * (q[1] - f.pos[1]) +
                               (q[2] - f.pos[2]) * (q[2] - f.pos[2]));
      }
      result.mean_position_error = error_sum / static_cast<double>(sim.size());
      result.figure = toss_replay_figure("toss " + std::to_string(toss_number) + " of " + file, t, measured,
                                         {TossRollout{"simulated", sim}});
      result.simulated = std::move(simulated);
    }
  }
  std::lock_guard lock(mutex_);
  latest_ = std::move(result);
  latest_.version = ++version_;
}

bool TossReplayWorker::snapshot(TossReplay* out) const {
  std::lock_guard lock(mutex_);
  if (out->version == latest_.version) return false;
  *out = latest_;
  return true;
}

}  // namespace sg::gui
