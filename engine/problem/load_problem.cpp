#include "engine/problem/load_problem.hpp"

#include <stdexcept>

#include "engine/scene/scene.hpp"

namespace sg {
namespace {

ProblemLoad from_resolved(const scene::LoadResult& loaded) {
  ProblemLoad out;
  if (!loaded.ok()) {
    out.errors = loaded.format_errors();
    return out;
  }
  try {
    out.problem = problem_from_config(loaded.config);
  } catch (const std::exception& e) {
    out.errors = loaded.source + ": " + e.what();
  }
  return out;
}

}  // namespace

ProblemLoad load_problem_file(const std::string& file, const std::vector<std::string>& overrides) {
  return from_resolved(scene::load_scene_file(file, overrides));
}

ProblemLoad load_problem_text(const std::string& text, const std::string& source,
                              const std::vector<std::string>& overrides) {
  return from_resolved(scene::load_scene_text(text, source, overrides));
}

ProblemLoad load_problem_json(const nlohmann::json& doc, const std::string& source) {
  return from_resolved(scene::resolve_scene(doc, source));
}

}  // namespace sg
