#pragma once
// A scene in numeric form, built once from the resolved scene JSON: the model, the loss, the integrator,
// gradient and sweep settings, and where the swept parameter lives.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/problem/problem_data.hpp"

namespace sg {

struct Problem {
  std::string name;
  ProblemData<double> data;
  IntegratorSettings integrator;
  GradientSettings gradient;
  SweepSpec sweep;
  DescentSettings descent;
  IdentifySpec identify;
  nlohmann::json config;  // the resolved scene it was built from
};

// Builds a Problem from a resolved (validated, defaults filled) scene. Throws std::invalid_argument with a
// "path: message" text only for inconsistencies the schema cannot see.
Problem problem_from_config(const nlohmann::json& resolved);

// Every differentiable path of a problem, in a stable order.
std::vector<std::string> differentiable_parameters(const Problem& p);

// The swept parameter's slot in ProblemData<S>, found once by path; setting it is then a pointer write.
template <class S>
S* parameter_slot(ProblemData<S>& p, const std::string& path) {
  S* found = nullptr;
  visit_problem_params(p, [&](const std::string& name, S& slot) {
    if (name == path) found = &slot;
  });
  return found;
}

// The slot's byte offset within ProblemData<S> (-1 when path is not a differentiable number): found once,
// it addresses the same parameter in every copy of the data.
template <class S>
std::ptrdiff_t parameter_offset(ProblemData<S>& p, const std::string& path) {
  S* slot = parameter_slot(p, path);
  return slot ? reinterpret_cast<char*>(slot) - reinterpret_cast<char*>(&p) : -1;
}

}  // namespace sg
