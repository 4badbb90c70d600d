#pragma once
// A measured toss replayed beside its simulation, off the UI thread (DiffMJX Fig. 9's data, issue #40): the
// scene's body 0 starts from the toss's first measured frame (position, orientation, linear and angular
// velocity) and runs as many output steps as the toss has frames, with every other number of the live
// scene. The result holds the simulated trajectory (played in the 3-D view and the trajectory plots), the
// measured poses (drawn as a translucent copy of the body) and the figure of both against time.
#include <array>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/measured/toss_data.hpp"
#include "engine/simulate/trajectory.hpp"
#include "gui/workers/background_job.hpp"
#include "plots/plot.hpp"

namespace sg::gui {

struct TossReplay {
  long version = 0;  // changes when a new result (or error) arrives
  std::string file;
  int toss = -1;
  std::string
      error;  // "file:line: ...", an unknown toss, a scene that cannot start from the toss: nothing else set
  std::shared_ptr<const Trajectory> simulated;
  std::vector<double> t;                        // the measured frames' times, from 0
  std::vector<std::array<double, 7>> measured;  // per frame: position, then quaternion (w, x, y, z)
  plot::Figure figure;                          // measured (dashed) against simulated, from frame 1 on
  double mean_position_error = 0.0;             // m, over frames 1 on
};

// The live scene's config with body 0 started from the toss's first frame and steps = frames - 1; false with
// the reason (not a rigid scene, a toss spaced otherwise than integrator.dt) in *error.
bool config_for_toss(const nlohmann::json& config, const TossSet& set, const Toss& toss, nlohmann::json* out,
                     std::string* error);

class TossReplayWorker {
 public:
  // The file is read once and kept until another path is asked for.
  void request(const nlohmann::json& config, const std::string& source, const std::string& file, int toss);
  // Copies the latest result when its version differs from *out's; true when it did.
  bool snapshot(TossReplay* out) const;
  bool busy() const { return job_.busy(); }
  bool wait_idle(std::chrono::milliseconds timeout) const { return job_.wait_idle(timeout); }

 private:
  void run(const nlohmann::json& config, const std::string& source, const std::string& file, int toss);
  mutable std::mutex mutex_;
  TossReplay latest_;
  long version_ = 0;
  std::shared_ptr<const TossSet> set_;  // the worker thread's cache of the last file read
  BackgroundJob job_;                   // last member: joined before the state above goes away
};

}  // namespace sg::gui
