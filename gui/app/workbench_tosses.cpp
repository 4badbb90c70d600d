// The Identify tab's measured tosses: a toss replayed from its first measured frame with the live scene, the
// simulation played in the 3-D view with the measured body beside it (issue #40).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/app/workbench_app.hpp"
#include "gui/view3d/rigid_body_view.hpp"

namespace sg::gui {

void WorkbenchApp::replay_toss(const std::string& file, int toss) {
  if (!doc_.problem()) return;
  toss_panel_.set_request(file, toss);
  toss_replayer_.request(doc_.config(), doc_.source(), file, toss);
  message_ = "replaying toss " + std::to_string(toss);
}

void WorkbenchApp::fit_tosses(const TossFitRequest& request) {
  if (!doc_.problem()) return;
  toss_fitter_.submit(doc_.problem(), request);
  message_ = "fitting to the tosses";
}

bool WorkbenchApp::apply_toss_fit() {
  const TossFitSnapshot& fit = toss_fit_;
  if (fit.phase != SweepPhase::finished || !fit.error.empty() || fit.steps.empty()) return false;
  const std::vector<double>& values = fit.steps.back().values;
  bool ok = true;
  for (std::size_t j = 0; j < fit.paths.size() && j < values.size(); ++j)
    for (const std::string& path : fit.paths[j]) ok = set_path(path, values[j]) && ok;
  message_ = ok ? "fitted values set in the scene" : "could not set the fitted values: " + doc_.error();
  return ok;
}

void WorkbenchApp::update_toss_fit() {
  if (!toss_fitter_.snapshot(&toss_fit_)) return;
  toss_panel_.set_fit(toss_fit_);
  const TossFitSnapshot& fit = toss_fit_;
  if (fit.phase == SweepPhase::cancelled) message_ = "fit to the tosses: cancelled";
  if (fit.phase != SweepPhase::finished) return;
  message_ = !fit.error.empty() ? "fit to the tosses: " + fit.error.substr(0, fit.error.find('\n'))
             : fit.steps.empty()
                 ? "fit to the tosses: no steps"
                 : "fit to the tosses: done in " + std::to_string(fit.steps.back().iteration) + " steps (" +
                       fit.stopped + ")";
}

void WorkbenchApp::update_toss_replay() {
  update_toss_fit();
  if (!toss_replayer_.snapshot(&toss_replay_)) return;
  toss_panel_.set_result(toss_replay_);
  if (!toss_replay_.error.empty()) {
    message_ = "replay: " + toss_replay_.error.substr(0, toss_replay_.error.find('\n'));
    return;
  }
  char text[160];
  std::snprintf(text, sizeof text, "toss %d replayed: mean distance to the measured centre %.1f mm",
                toss_replay_.toss, 1e3 * toss_replay_.mean_position_error);
  message_ = text;
  play_motion(toss_replay_.simulated);
}

void WorkbenchApp::draw_measured_tosses(ImVec2 size, ImVec2 top_left) {
  const TossReplayEvents events = toss_panel_.draw(size, top_left, toss_replayer_.busy());
  if (events.replay) replay_toss(events.replay->first, events.replay->second);
  if (events.fit) fit_tosses(*events.fit);
  if (events.cancel_fit) toss_fitter_.cancel();
  if (events.apply_fit) apply_toss_fit();
}

void WorkbenchApp::add_measured_body(render::Scene3D& scene) const {
  // Only while the 3-D view plays this replay's simulation (a clicked sweep point replaces it).
  if (!toss_replay_.simulated || trajectory_ != toss_replay_.simulated || toss_replay_.measured.empty())
    return;
  const std::vector<RigidBodyDescription> bodies = rigid_bodies(doc_.config()["model"]);
  if (bodies.empty()) return;
  const std::size_t frame =
      std::min(static_cast<std::size_t>(std::max(player_.frame(), 0)), toss_replay_.measured.size() - 1);
  const std::array<double, 7>& pose = toss_replay_.measured[frame];
  render::Primitive prim;
  prim.shape = shape_of(bodies[0].shape);
  std::copy(bodies[0].size, bodies[0].size + 3, prim.size);
  for (int k = 0; k < 3; ++k) prim.pos[k] = static_cast<float>(pose[static_cast<std::size_t>(k)]);
  for (int k = 0; k < 4; ++k) prim.quat[k] = static_cast<float>(pose[static_cast<std::size_t>(3 + k)]);
  const float measured_color[4] = {0.35f, 0.85f, 0.45f, 0.45f};  // green, translucent: the measurement
  std::copy(measured_color, measured_color + 4, prim.color);
  scene.prims.push_back(prim);
}

}  // namespace sg::gui
