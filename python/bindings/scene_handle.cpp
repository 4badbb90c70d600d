#include "python/bindings/scene_handle.hpp"

#include <stdexcept>

#include "engine/problem/load_problem.hpp"

namespace sg::python {
namespace {

std::string without_trailing_newline(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

bool is_index(const std::string& part) {
  return !part.empty() && part.size() < 10 && part.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

SceneHandle SceneHandle::from_file(const std::string& path, const std::vector<std::string>& overrides) {
  SceneHandle scene;
  scene.source_ = path;
  scene.from_file_ = true;
  scene.load(overrides);
  return scene;
}

SceneHandle SceneHandle::from_json_text(const std::string& text, const std::vector<std::string>& overrides) {
  SceneHandle scene;
  scene.source_ = "<dict>";
  scene.text_ = text;
  scene.load(overrides);
  return scene;
}

void SceneHandle::load(const std::vector<std::string>& overrides) {
  ProblemLoad loaded =
      from_file_ ? load_problem_file(source_, overrides) : load_problem_text(text_, source_, overrides);
  if (!loaded.ok()) throw std::invalid_argument(without_trailing_newline(loaded.errors));
  problem_ = std::make_shared<const Problem>(std::move(*loaded.problem));
  overrides_ = overrides;
}

void SceneHandle::set(const std::string& path, const std::string& value_text) {
  std::vector<std::string> next = overrides_;
  next.push_back(path + "=" + value_text);
  load(next);  // throws before anything changes
}

const nlohmann::json& SceneHandle::get(const std::string& path) const {
  const nlohmann::json* node = &problem_->config;
  std::string walked;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    walked += (walked.empty() ? "" : ".") + part;
    if (node->is_object() && node->contains(part)) {
      node = &(*node)[part];
    } else if (node->is_array() && is_index(part) && std::stoul(part) < node->size()) {
      node = &(*node)[std::stoul(part)];
    } else {
      throw std::invalid_argument(source_ + ": " + walked + ": no such key in the scene");
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return *node;
}

}  // namespace sg::python
