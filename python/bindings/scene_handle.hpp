#pragma once
// The Python Scene's C++ side: where the scene came from (a file, or a document given as JSON text), the
// overrides set on it in order, and the Problem they resolve to. set() is `--set path=value` on the command
// line: the scene is loaded again from its origin with every override so far, and a bad value leaves the
// scene as it was. No Python here (python/bindings/bind_scene.cpp wraps it).
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"

namespace sg::python {

class SceneHandle {
 public:
  // Throws std::invalid_argument with every problem (file:line, key paths) for a scene that does not load.
  static SceneHandle from_file(const std::string& path, const std::vector<std::string>& overrides);
  static SceneHandle from_json_text(const std::string& text, const std::vector<std::string>& overrides);

  // Adds the override "path=value_text" (value_text: JSON, or bare text for a choice such as "hard"). Throws
  // std::invalid_argument, and keeps the scene unchanged, when the result does not load.
  void set(const std::string& path, const std::string& value_text);
  // The resolved scene's value at a dotted path (array entries by index). Throws std::invalid_argument naming
  // the first part of the path that does not exist.
  const nlohmann::json& get(const std::string& path) const;

  // The problem as loaded; replaced (not changed) by set(), so a run holding it is unaffected.
  std::shared_ptr<const Problem> problem() const { return problem_; }
  const std::string& source() const { return source_; }
  const std::vector<std::string>& overrides() const { return overrides_; }

 private:
  SceneHandle() = default;
  void load(const std::vector<std::string>& overrides);

  std::string source_;  // the file, or "<dict>"
  std::string text_;    // the document, when it was not a file
  bool from_file_ = false;
  std::vector<std::string> overrides_;
  std::shared_ptr<const Problem> problem_;
};

}  // namespace sg::python
