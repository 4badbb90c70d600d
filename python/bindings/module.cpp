// The compiled part of the Python package softgrad (python/softgrad/__init__.py is its face): the engine's
// scenes, runs, sweeps and gradients. Scene errors are ValueError (std::invalid_argument), failed runs
// softgrad.SimulationError.
#include <pybind11/pybind11.h>

#include "engine/core/available_cores.hpp"
#include "engine/sweep/device_sweep.hpp"
#include "python/bindings/bindings.hpp"
#ifdef SOFTGRAD_HAVE_MJCF
#include "mjcf/import.hpp"
#endif

PYBIND11_MODULE(_softgrad, m) {
  namespace py = pybind11;
  m.doc() = "softgrad's engine: scenes, simulations, sweeps and gradients (see softgrad.Scene)";
#ifdef SOFTGRAD_HAVE_MJCF
  sg::mjcf::register_importer();  // scenes with model.type "mjcf"
  m.attr("has_mjcf") = true;
#else
  m.attr("has_mjcf") = false;
#endif
  py::register_exception<sg::python::SimulationError>(m, "SimulationError", PyExc_RuntimeError);
  m.def("available_cores", &sg::available_cores, "The CPU cores sweeps and gradients use by default");
  m.def(
      "cuda_device",
      [] {
        const sg::CudaDeviceInfo info = sg::cuda_device_info();
        return py::make_tuple(info.available, info.available ? info.name : info.reason);
      },
      "(available, name or why not): whether sweeps can run on a CUDA GPU here");
  sg::python::bind_scene(m);
  sg::python::bind_studies(m);
  sg::python::bind_bench(m);
}
