#include "gui/document/scene_document.hpp"

#include "engine/problem/load_problem.hpp"
#include "engine/scene/scene.hpp"
#include "gui/document/atomic_file.hpp"

namespace sg::gui {

bool SceneDocument::adopt(const nlohmann::json& resolved, const std::string& source) {
  ProblemLoad load = load_problem_json(resolved, source);
  if (!load.ok()) {
    error_ = load.errors;
    return false;
  }
  config_ = resolved;
  problem_ = std::make_shared<const Problem>(std::move(*load.problem));
  source_ = source;
  error_.clear();
  ++revision_;
  return true;
}

bool SceneDocument::open(const std::string& file, const std::vector<std::string>& overrides) {
  const scene::LoadResult load = scene::load_scene_file(file, overrides);
  if (!load.ok()) {
    error_ = load.format_errors();
    return false;
  }
  if (!adopt(load.config, file)) return false;
  edited_ = load.config;
  as_written_ = load.config;
  if (!overrides.empty()) {
    const scene::LoadResult plain = scene::load_scene_file(file);
    if (plain.ok()) as_written_ = plain.config;
  }
  return true;
}

bool SceneDocument::open_text(const std::string& text, const std::string& source) {
  const scene::LoadResult load = scene::load_scene_text(text, source);
  if (!load.ok()) {
    error_ = load.format_errors();
    return false;
  }
  if (!adopt(load.config, source)) return false;
  edited_ = load.config;
  as_written_ = load.config;
  return true;
}

bool SceneDocument::set(const std::string& path, const nlohmann::json& value) {
  std::string why;
  if (!scene::set_path(edited_, path, value, &why)) {
    error_ = path + ": " + why;
    return false;
  }
  const scene::LoadResult load = scene::resolve_scene(edited_, source_);
  if (!load.ok()) {
    error_ = load.format_errors();
    return false;
  }
  return adopt(load.config, source_);
}

bool SceneDocument::set_override(const std::string& assignment) {
  // Reuse the loader's override parsing (value typing, path checks) on the current edited copy.
  const scene::LoadResult load = scene::load_scene_text(edited_.dump(), source_, {assignment});
  if (!load.ok()) {
    error_ = load.format_errors();
    return false;
  }
  if (!adopt(load.config, source_)) return false;
  edited_ = load.config;
  return true;
}

bool SceneDocument::save(const std::string& file, std::string* error) const {
  return write_file_atomic(file, config_.dump(2) + "\n", error);
}

}  // namespace sg::gui
