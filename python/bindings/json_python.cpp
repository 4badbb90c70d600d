#include "python/bindings/bindings.hpp"

namespace sg::python {

pybind11::object json_to_python(const nlohmann::json& j) {
  // Kept for the life of the process and never destroyed: a static py::object would be released after the
  // interpreter has finalised, without the GIL (a fatal error at exit).
  static const pybind11::object* loads =
      new pybind11::object(pybind11::module_::import("json").attr("loads"));
  return (*loads)(j.dump());
}

}  // namespace sg::python
