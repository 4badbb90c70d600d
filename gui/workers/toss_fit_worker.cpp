#include "gui/workers/toss_fit_worker.hpp"

#include <stdexcept>
#include <utility>

#include "engine/measured/toss_data.hpp"
#include "engine/optimize/identify.hpp"
#include "engine/optimize/toss_segments.hpp"

namespace sg::gui {

void TossFitWorker::submit(std::shared_ptr<const Problem> problem, TossFitRequest request) {
  publish([](TossFitSnapshot& s) {
    s = TossFitSnapshot{s.version};
    s.phase = SweepPhase::waiting;
  });
  job_.submit([this, problem = std::move(problem), request = std::move(request)](
                  const std::atomic<bool>& cancel) { run(*problem, request, cancel); });
}

void TossFitWorker::publish(const std::function<void(TossFitSnapshot&)>& change) {
  std::lock_guard lock(mutex_);
  change(shared_);
  ++shared_.version;
}

bool TossFitWorker::snapshot(TossFitSnapshot* out) const {
  std::lock_guard lock(mutex_);
  if (out->version == shared_.version) return false;
  *out = shared_;
  return true;
}

void TossFitWorker::run(const Problem& problem, const TossFitRequest& request,
                        const std::atomic<bool>& cancel) {
  const auto refuse = [this](const std::string& why) {
    publish([&why](TossFitSnapshot& s) {
      s.phase = SweepPhase::finished;
      s.error = why;
    });
  };
  TossSet set;
  std::string error;
  std::vector<int> tosses;
  if (!read_tosses(request.file, &set, &error)) return refuse(error);
  if (!select_tosses(set, request.select, &tosses, &error)) return refuse("tosses: " + error);
  if (request.wrt.empty()) return refuse("fit: name the numbers to fit (e.g. model.bodies.0.size)");
  std::vector<FitNumber> numbers;
  std::unique_ptr<TossObjective> objective;
  try {
    numbers = fit_numbers(problem, request.wrt);
    objective = std::make_unique<TossObjective>(problem, set, tosses, request.segment, numbers);
  } catch (const std::invalid_argument& e) {
    return refuse(e.what());
  }
  FitSettings settings;
  settings.method = request.adam ? FitMethod::adam : FitMethod::lm;
  settings.steps = request.steps;
  if (request.adam) {  // DiffMJX's identification settings
    settings.beta1 = 0.5;
    settings.beta2 = 0.9;
    settings.adam_eps = 1e-6;
  }
  settings.cancel = &cancel;
  settings.threads = worker_threads(0);
  objective->set_threads(settings.threads);
  std::vector<std::string> first_paths;
  for (const FitNumber& n : numbers) first_paths.push_back(n.paths.front());
  settings.bounds = fit_bounds(problem, first_paths);
  publish([&](TossFitSnapshot& s) {
    s = TossFitSnapshot{s.version};  // a cancelled fit's last steps go
    s.phase = SweepPhase::running;
    s.names = objective->paths();
    for (const FitNumber& n : numbers) s.paths.push_back(n.paths);
    s.segments = static_cast<long>(objective->runs());
    s.tosses = static_cast<long>(tosses.size());
  });
  const FitResult result = fit_parameters(
      *objective, objective->initial_values(), settings,
      [this](const FitStep& step) { publish([&step](TossFitSnapshot& s) { s.steps.push_back(step); }); });
  publish([&](TossFitSnapshot& s) {
    s.phase = cancel.load() ? SweepPhase::cancelled : SweepPhase::finished;
    s.steps = result.path;
    s.stopped = result.stopped;
    s.std_error = result.std_error;
    if (result.status != "ok") s.error = result.status;
  });
}

}  // namespace sg::gui
