#pragma once
// Scene file (plus --set overrides) to Problem in one call, with every problem reported as
// "<file>: <path>: <message>" lines. Never throws.
#include <optional>
#include <string>
#include <vector>

#include "engine/problem/problem.hpp"

namespace sg {

struct ProblemLoad {
  std::optional<Problem> problem;
  std::string errors;  // one line per problem; empty on success
  bool ok() const { return problem.has_value(); }
};

ProblemLoad load_problem_file(const std::string& file, const std::vector<std::string>& overrides = {});
ProblemLoad load_problem_text(const std::string& text, const std::string& source,
                              const std::vector<std::string>& overrides = {});
ProblemLoad load_problem_json(const nlohmann::json& doc, const std::string& source);

}  // namespace sg
