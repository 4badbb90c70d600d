// The studies built on many runs, as the CLI's sweep2d, fit and tradeoff: each returns the CLI's JSON (as
// Python objects; python/softgrad/__init__.py turns its grids into numpy arrays), runs on a worker thread
// with progress and Ctrl-C (python/bindings/interruptible.hpp), and takes bad input as ValueError.
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine/core/available_cores.hpp"
#include "engine/optimize/fit.hpp"
#include "engine/problem/swept_value.hpp"
#include "engine/study/tradeoff.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "python/bindings/bindings.hpp"
#include "python/bindings/interruptible.hpp"
#include "python/bindings/scene_handle.hpp"

namespace sg::python {
namespace py = pybind11;
namespace {

py::object sweep2d(const SceneHandle& scene, const GridAxis& x, const GridAxis& y,
                   const std::string& device_name, int threads, const py::object& progress) {
  const SweepDevice device = parse_device(device_name);
  const std::shared_ptr<const Problem> problem = scene.problem();
  check_grid(*problem, x, y);  // std::invalid_argument before anything runs
  std::atomic<bool> cancel{false};
  std::atomic<long> done{0};
  Grid2dControl control;
  control.threads = threads;
  control.cancel = &cancel;
  control.completed = &done;
  Grid2dResult result;
  std::string used, error;
  bool ran = false;
  run_interruptible([&] { ran = run_sweep2d_on(device, *problem, x, y, control, &result, &used, &error); },
                    &cancel, &done, x.points * y.points, progress);
  if (!ran) throw std::runtime_error(error);
  nlohmann::json out = sweep2d_to_json(*problem, result);
  out["device"] = used;
  out.erase("config");
  return json_to_python(out);
}

FitSettings fit_settings(const std::string& method, int steps, double lr, double lr_final, double tolerance,
                         int threads) {
  FitSettings s;
  if (method == "lm")
    s.method = FitMethod::lm;
  else if (method == "adam")
    s.method = FitMethod::adam;
  else
    throw std::invalid_argument("method: expected \"lm\" or \"adam\" (got \"" + method + "\")");
  if (steps < 1) throw std::invalid_argument("steps: expected at least 1");
  if (!(lr > 0.0) || !(lr_final > 0.0) || !std::isfinite(lr) || !std::isfinite(lr_final))
    throw std::invalid_argument("lr, lr_final: expected finite numbers > 0");
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance))
    throw std::invalid_argument("tolerance: expected a finite number >= 0");
  s.steps = steps;
  s.lr = lr;
  s.lr_final = lr_final;
  s.tolerance = tolerance;
  s.threads = threads > 0 ? threads : available_cores();
  return s;
}

py::dict fit_dict(const std::vector<std::string>& paths, const FitResult& r) {
  py::dict d;
  py::list path;
  for (const FitStep& s : r.path) {
    py::dict step;
    step["iteration"] = s.iteration;
    step["loss"] = s.loss;
    step["values"] = s.values;
    path.append(step);
  }
  py::dict values, std_error, not_identified;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (!r.path.empty()) values[py::str(paths[i])] = r.path.back().values[i];
    if (i < r.std_error.size()) std_error[py::str(paths[i])] = r.std_error[i];
    if (i < r.not_identified.size() && !r.not_identified[i].empty())
      not_identified[py::str(paths[i])] = r.not_identified[i];
  }
  d["values"] = values;
  d["std_error"] = std_error;
  d["not_identified"] = not_identified;
  d["loss"] = r.path.empty() ? py::object(py::float_(NAN)) : py::object(py::float_(r.path.back().loss));
  d["path"] = path;
  d["status"] = r.status;
  d["stopped"] = r.stopped;
  d["runs"] = r.runs;
  d["residual_sigma"] = r.residual_sigma;
  d["correlation"] = r.correlation;
  return d;
}

py::dict fit(const SceneHandle& scene, const std::vector<std::string>& paths, const std::string& data_text,
             const std::string& data_source, std::optional<std::vector<double>> start,
             const std::string& method, int steps, double lr, double lr_final, double tolerance, int threads,
             const py::object& progress) {
  const std::shared_ptr<const Problem> problem = scene.problem();
  FitSettings settings = fit_settings(method, steps, lr, lr_final, tolerance, threads);
  const TrajectoryData data = read_data(*problem, data_text, data_source);
  ParameterGradient gradient(*problem, paths, &data);  // throws "PATH: why"
  gradient.set_threads(settings.threads);
  const std::vector<double> x0 = start ? *start : gradient.initial_values();
  if (x0.size() != paths.size())
    throw std::invalid_argument("start: expected " + std::to_string(paths.size()) +
                                " numbers (one per path)");
  std::atomic<bool> cancel{false};
  std::atomic<long> done{0};
  settings.cancel = &cancel;
  FitResult result;
  run_interruptible(
      [&] { result = fit_parameters(gradient, x0, settings, [&](const FitStep&) { done.fetch_add(1); }); },
      &cancel, &done, steps, progress);
  return fit_dict(gradient.paths(), result);
}

py::object tradeoff(const SceneHandle& scene, std::optional<double> value,
                    const std::vector<std::string>& families, std::optional<std::vector<double>> tolerances,
                    std::optional<std::vector<long>> divisions, int repeats, const py::object& progress) {
  const std::shared_ptr<const Problem> problem = scene.problem();
  TradeoffOptions options;
  options.families = families;
  if (tolerances) options.tolerances = *tolerances;
  if (divisions) options.step_divisions = *divisions;
  if (repeats < 1) throw std::invalid_argument("repeats: expected at least 1");
  options.repeats = repeats;
  std::string error;
  const std::size_t settings = tradeoff_settings(*problem, options, &error).size();
  if (!error.empty()) throw std::invalid_argument(error);
  const long total = 2 + static_cast<long>(settings) * repeats;  // as run_tradeoff counts
  // As the CLI: the middle of the sweep range, unless an override set the swept number.
  double x = swept_value(*problem, scene.overrides(), 0.5 * (problem->sweep.from + problem->sweep.to));
  if (value) x = *value;
  if (!std::isfinite(x)) throw std::invalid_argument("value: expected a finite number");
  std::atomic<bool> cancel{false};
  std::atomic<long> done{0};
  TradeoffResult result;
  run_interruptible(
      [&] {
        result = run_tradeoff(*problem, scene.source(), x, options, [&](std::size_t d, std::size_t) {
          done.store(static_cast<long>(d));
          return !cancel.load();
        });
      },
      &cancel, &done, total, progress);
  return json_to_python(tradeoff_to_json(result));
}

}  // namespace

void bind_studies(py::module_& m) {
  py::class_<GridAxis>(m, "_GridAxis")
      .def(py::init([](const std::string& path, double from, double to, long points) {
        return GridAxis{path, from, to, points};
      }));
  m.def("_sweep2d", &sweep2d, py::arg("scene"), py::arg("x"), py::arg("y"), py::arg("device"),
        py::arg("threads"), py::arg("progress"));
  m.def("_fit", &fit, py::arg("scene"), py::arg("paths"), py::arg("data_text"), py::arg("data_source"),
        py::arg("start"), py::arg("method"), py::arg("steps"), py::arg("lr"), py::arg("lr_final"),
        py::arg("tolerance"), py::arg("threads"), py::arg("progress"));
  m.def("_tradeoff", &tradeoff, py::arg("scene"), py::arg("value"), py::arg("families"),
        py::arg("tolerances"), py::arg("divisions"), py::arg("repeats"), py::arg("progress"));
}

}  // namespace sg::python
