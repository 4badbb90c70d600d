// softgrad._softgrad.Scene: the C++ side of softgrad.Scene (python/softgrad/__init__.py adds the keyword
// conveniences). Every run releases the GIL; sweeps run on a worker thread so that Ctrl-C cancels them.
#include <atomic>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine/core/available_cores.hpp"
#include "engine/gradient/parameter_gradient.hpp"
#include "engine/problem/swept_value.hpp"
#include "engine/simulate/trajectory.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "python/bindings/bindings.hpp"
#include "python/bindings/interruptible.hpp"
#include "python/bindings/scene_handle.hpp"

namespace sg::python {
namespace py = pybind11;
namespace {

py::array_t<double> vector_array(const std::vector<double>& v) {
  py::array_t<double> a(static_cast<py::ssize_t>(v.size()));
  double* out = a.mutable_data();
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[i];
  return a;
}

// Rows of equal length as a 2-D array (n x width); a row of another length is an engine error.
py::array_t<double> rows_array(const std::vector<std::vector<double>>& rows) {
  const std::size_t width = rows.empty() ? 0 : rows[0].size();
  py::array_t<double> a({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(width)});
  double* out = a.mutable_data();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != width) throw std::runtime_error("trajectory rows of different lengths");
    for (std::size_t k = 0; k < width; ++k) out[i * width + k] = rows[i][k];
  }
  return a;
}

// Columns [offset, offset + count) of every stride-wide group of a row, as an n x groups x count array.
py::array_t<double> grouped(const std::vector<std::vector<double>>& rows, std::size_t stride,
                            std::size_t offset, std::size_t count) {
  const std::size_t groups = rows.empty() ? 0 : rows[0].size() / stride;
  py::array_t<double> a({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(groups),
                         static_cast<py::ssize_t>(count)});
  double* out = a.mutable_data();
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t g = 0; g < groups; ++g)
      for (std::size_t k = 0; k < count; ++k)
        out[(i * groups + g) * count + k] = rows[i][g * stride + offset + k];
  return a;
}

py::dict trajectory_dict(const Problem& problem, const Trajectory& tr) {
  py::dict d;
  d["parameter"] = problem.sweep.parameter;
  d["value"] = tr.value;
  d["layout"] = tr.layout;
  d["t"] = vector_array(tr.t);
  d["q"] = rows_array(tr.q);
  d["v"] = rows_array(tr.v);
  if (tr.layout == "particles") {
    d["position"] = grouped(tr.q, 3, 0, 3);
    d["velocity"] = grouped(tr.v, 3, 0, 3);
  } else {
    d["position"] = grouped(tr.q, 7, 0, 3);
    d["quaternion"] = grouped(tr.q, 7, 3, 4);
    d["velocity"] = grouped(tr.v, 6, 0, 3);
    d["angular_velocity"] = grouped(tr.v, 6, 3, 3);
  }
  if (!tr.qpos.empty()) {  // joint trees: MuJoCo's coordinates
    d["qpos"] = rows_array(tr.qpos);
    d["qvel"] = rows_array(tr.qvel);
  }
  d["force"] = rows_array(tr.force);
  py::array_t<long> contacts(static_cast<py::ssize_t>(tr.contacts.size()));
  for (std::size_t i = 0; i < tr.contacts.size(); ++i) {
    long touching = 0;
    for (const ContactMark& c : tr.contacts[i]) touching += c.is_virtual ? 0 : 1;
    contacts.mutable_data()[i] = touching;
  }
  d["contacts"] = contacts;
  d["dt"] = vector_array(tr.dt);
  py::list events;
  for (const EventMark& e : tr.events) {
    py::dict ev;
    ev["t"] = e.t;
    ev["kind"] = e.kind;
    ev["a"] = e.a;
    ev["b"] = e.b;
    ev["feature"] = e.feature;
    ev["row"] = e.row;
    events.append(ev);
  }
  d["events"] = events;
  d["loss"] = tr.loss;
  d["grad"] = tr.grad;
  d["status"] = tr.status;
  d["accepted"] = tr.accepted;
  d["rejected"] = tr.rejected;
  return d;
}

py::dict sweep_dict(const Problem& problem, const SweepResult& result, const std::string& device) {
  // The CLI's stats (sweep_to_json's own keys), from a result without its points: converting every point to
  // JSON and back would cost more than the toy's whole sweep.
  SweepResult summary;
  summary.stats = result.stats;
  summary.reference = result.reference;
  summary.straight_through_cfd = result.straight_through_cfd;
  const nlohmann::json j = sweep_to_json(problem, summary);
  std::vector<double> values, loss, grad, grad_fd, grad_ref;
  py::list status;
  std::vector<double> steps, rejected, events;
  for (const PointResult& p : result.points) {
    values.push_back(p.value);
    loss.push_back(p.loss);
    grad.push_back(p.grad);
    grad_fd.push_back(p.grad_fd);
    grad_ref.push_back(p.grad_ref);
    status.append(p.status);
    steps.push_back(static_cast<double>(p.steps));
    rejected.push_back(static_cast<double>(p.rejected));
    events.push_back(static_cast<double>(p.events));
  }
  py::dict d;
  d["parameter"] = problem.sweep.parameter;
  d["values"] = vector_array(values);
  d["loss"] = vector_array(loss);
  d["grad"] = vector_array(grad);
  d["grad_fd"] = vector_array(grad_fd);
  d["grad_ref"] = vector_array(grad_ref);
  d["status"] = status;
  d["steps"] = vector_array(steps);
  d["rejected"] = vector_array(rejected);
  d["events"] = vector_array(events);
  d["stats"] = json_to_python(j.at("stats"));
  d["reference"] = j.at("stats").at("reference").get<std::string>();
  d["device"] = device;
  return d;
}

py::dict simulate(const SceneHandle& scene, std::optional<double> value) {
  const std::shared_ptr<const Problem> problem = scene.problem();
  // As `softgrad simulate`: sweep.from, unless an override set the swept number.
  const double x = value.value_or(swept_value(*problem, scene.overrides(), problem->sweep.from));
  if (!std::isfinite(x)) throw std::invalid_argument("value: expected a finite number");
  Trajectory tr;
  {
    py::gil_scoped_release unlocked;
    tr = simulate_trajectory(*problem, x);
  }
  return trajectory_dict(*problem, tr);
}

py::dict sweep(const SceneHandle& scene, const std::string& device_name, int threads,
               const py::object& progress) {
  const SweepDevice device = parse_device(device_name);
  if (threads < 0) throw std::invalid_argument("threads: expected 0 (all cores) or more");
  const std::shared_ptr<const Problem> problem = scene.problem();
  std::atomic<bool> cancel{false};
  std::atomic<long> done{0};
  SweepControl control;
  control.threads = threads;
  control.cancel = &cancel;
  control.completed = &done;
  SweepResult result;
  std::string used, error;
  bool ran = false;
  run_interruptible([&] { ran = run_sweep_on(device, *problem, control, &result, &used, &error); }, &cancel,
                    &done, problem->sweep.points, progress);
  if (!ran) throw std::runtime_error(error);
  return sweep_dict(*problem, result, used);
}

// The evaluator of a set of paths ("all": every differentiable number and loss target), ValueError for a bad
// one.
std::unique_ptr<ParameterGradient> evaluator(const Problem& problem, std::vector<std::string> paths,
                                             int threads) {
  if (paths.size() == 1 && paths[0] == "all") paths = all_gradient_paths(problem, true);
  if (paths.empty()) throw std::invalid_argument("wrt: expected at least one scene path");
  auto eval = std::make_unique<ParameterGradient>(problem, paths, nullptr);  // throws "PATH: why"
  eval->set_threads(threads > 0 ? threads : available_cores());
  return eval;
}

ObjectiveGradient run_gradient(ParameterGradient& eval, const Problem& problem, const std::string& mode,
                               const std::vector<double>& x, double fd_eps) {
  if (mode == "backsolve" && !is_adaptive(problem.integrator.method))
    throw std::invalid_argument(
        "mode: backsolve integrates the adjoint backwards with an adaptive solver; this scene's integrator "
        "is "
        "fixed-step (use forward, reverse or fd)");
  if (mode == "fd" && !(fd_eps > 0.0 && std::isfinite(fd_eps)))
    throw std::invalid_argument("fd_eps: expected a finite number > 0");
  py::gil_scoped_release unlocked;
  if (mode == "forward") return eval.forward(x);
  if (mode == "reverse") return eval.reverse(x);
  if (mode == "backsolve") return eval.backsolve(x);
  return eval.finite_difference(x, fd_eps);
}

void check_mode(const std::string& mode) {
  if (mode != "forward" && mode != "reverse" && mode != "backsolve" && mode != "fd")
    throw std::invalid_argument("mode: expected \"forward\", \"reverse\", \"backsolve\" or \"fd\" (got \"" +
                                mode + "\")");
}

// (loss, gradient) with respect to `paths` at `values` (none: the scene's own numbers).
py::tuple value_and_grad(const SceneHandle& scene, const std::vector<std::string>& paths,
                         std::optional<std::vector<double>> values, const std::string& mode,
                         std::optional<double> fd_eps, int threads, bool check) {
  check_mode(mode);
  const std::shared_ptr<const Problem> problem = scene.problem();
  std::unique_ptr<ParameterGradient> eval = evaluator(*problem, paths, threads);
  std::vector<double> x = values ? *values : eval->initial_values();
  if (x.size() != eval->paths().size())
    throw std::invalid_argument("values: expected " + std::to_string(eval->paths().size()) +
                                " numbers (one per path), got " + std::to_string(x.size()));
  for (std::size_t i = 0; values && i < x.size(); ++i)  // the scene's own may be inf (contact.hard.kappa)
    if (!std::isfinite(x[i])) throw std::invalid_argument(eval->paths()[i] + ": expected a finite number");
  const ObjectiveGradient g =
      run_gradient(*eval, *problem, mode, x, fd_eps.value_or(problem->gradient.fd_eps));
  if (check && g.status != "ok") throw SimulationError(scene.source() + ": " + mode + ": " + g.status);
  py::dict by_path;
  for (std::size_t i = 0; i < g.grad.size(); ++i) by_path[py::str(eval->paths()[i])] = g.grad[i];
  return py::make_tuple(g.loss, vector_array(g.grad), by_path, g.status);
}

// The residuals (predicted minus measured positions, 3 per sample) against trajectory data and their Jacobian
// with respect to `paths` (forward mode), as a least-squares solver wants them: (r, J, samples).
py::tuple residuals(const SceneHandle& scene, const std::vector<std::string>& paths,
                    std::optional<std::vector<double>> values, const std::string& data_text,
                    const std::string& data_source, int threads, bool check) {
  const std::shared_ptr<const Problem> problem = scene.problem();
  const TrajectoryData data = read_data(*problem, data_text, data_source);
  auto eval = std::make_unique<ParameterGradient>(*problem, paths, &data);
  eval->set_threads(threads > 0 ? threads : available_cores());
  const std::vector<double> x = values ? *values : eval->initial_values();
  if (x.size() != paths.size())
    throw std::invalid_argument("values: expected " + std::to_string(paths.size()) +
                                " numbers (one per path), got " + std::to_string(x.size()));
  ResidualJacobian rj;
  {
    py::gil_scoped_release unlocked;
    rj = eval->residuals(x);
  }
  if (check && rj.status != "ok") throw SimulationError(scene.source() + ": residuals: " + rj.status);
  py::array_t<double> J({static_cast<py::ssize_t>(rj.r.size()), static_cast<py::ssize_t>(paths.size())});
  for (std::size_t i = 0; i < rj.J.size(); ++i) J.mutable_data()[i] = rj.J[i];
  return py::make_tuple(vector_array(rj.r), J, rj.samples);
}

}  // namespace

void bind_scene(py::module_& m) {
  py::class_<SceneHandle, std::shared_ptr<SceneHandle>>(m, "_Scene")
      .def_static(
          "from_file",
          [](const std::string& path, const std::vector<std::string>& overrides) {
            return std::make_shared<SceneHandle>(SceneHandle::from_file(path, overrides));
          },
          py::arg("path"), py::arg("overrides"))
      .def_static(
          "from_json_text",
          [](const std::string& text, const std::vector<std::string>& overrides) {
            return std::make_shared<SceneHandle>(SceneHandle::from_json_text(text, overrides));
          },
          py::arg("text"), py::arg("overrides"))
      .def("copy", [](const SceneHandle& s) { return std::make_shared<SceneHandle>(s); })
      .def("set", &SceneHandle::set, py::arg("path"), py::arg("value_text"))
      .def("get", [](const SceneHandle& s, const std::string& path) { return json_to_python(s.get(path)); })
      .def("to_dict", [](const SceneHandle& s) { return json_to_python(s.problem()->config); })
      .def_property_readonly("source", &SceneHandle::source)
      .def_property_readonly("overrides", &SceneHandle::overrides)
      .def_property_readonly("name", [](const SceneHandle& s) { return s.problem()->name; })
      .def_property_readonly("parameter", [](const SceneHandle& s) { return s.problem()->sweep.parameter; })
      .def_property_readonly("paths",
                             [](const SceneHandle& s) { return differentiable_parameters(*s.problem()); })
      .def("gradient_paths", [](const SceneHandle& s) { return all_gradient_paths(*s.problem(), true); })
      .def("simulate", &simulate, py::arg("value"))
      .def("sweep", &sweep, py::arg("device"), py::arg("threads"), py::arg("progress"))
      .def("value_and_grad", &value_and_grad, py::arg("paths"), py::arg("values"), py::arg("mode"),
           py::arg("fd_eps"), py::arg("threads"), py::arg("check"))
      .def("residuals", &residuals, py::arg("paths"), py::arg("values"), py::arg("data_text"),
           py::arg("data_source"), py::arg("threads"), py::arg("check"));
}

}  // namespace sg::python
