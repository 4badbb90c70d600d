#pragma once
// The scene being edited: a JSON copy the controls write to, and the last configuration that resolved
// and built a Problem. An invalid edit shows its error and leaves the last good problem in place.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/problem/problem.hpp"

namespace sg::gui {

class SceneDocument {
 public:
  // Loads a scene file with overrides. On failure the current scene stays and error() explains why.
  bool open(const std::string& file, const std::vector<std::string>& overrides = {});
  // Loads from text (tests, pasted scenes); same failure behaviour as open().
  bool open_text(const std::string& text, const std::string& source);
  // Writes value at a dotted path of the edited copy, then applies it; false when invalid.
  bool set(const std::string& path, const nlohmann::json& value);
  // Applies `text` as "path=value" (the --set syntax).
  bool set_override(const std::string& assignment);
  // Writes the last good resolved configuration as a scene file (pretty JSON).
  bool save(const std::string& file, std::string* error) const;

  const nlohmann::json& edited() const { return edited_; }  // what the controls show
  const nlohmann::json& config() const { return config_; }  // last good, resolved
  // The scene as its file has it (resolved, without overrides or edits): what its description describes.
  const nlohmann::json& as_written() const { return as_written_; }
  std::shared_ptr<const Problem> problem() const { return problem_; }
  const std::string& error() const { return error_; }  // empty when the edited copy is valid
  const std::string& source() const { return source_; }
  long revision() const { return revision_; }  // increases with every new good problem
  bool loaded() const { return problem_ != nullptr; }

 private:
  bool adopt(const nlohmann::json& resolved, const std::string& source);
  nlohmann::json edited_, config_, as_written_;
  std::shared_ptr<const Problem> problem_;
  std::string error_, source_;
  long revision_ = 0;
};

}  // namespace sg::gui
