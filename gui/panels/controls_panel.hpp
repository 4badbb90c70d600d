#pragma once
// The control panel body: scene picker, open/save, presets, and one widget per scene field generated
// from scene_fields(), grouped by top-level section. It only reports what the user asked for; the
// workbench app applies the requests.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gui/document/scene_document.hpp"
#include "gui/panels/field_visibility.hpp"  // field_shown, which the panel applies

namespace sg::gui {

struct ControlsRequest {
  std::optional<std::string> open_file;
  std::vector<std::string> open_overrides;  // --set assignments open_file opens with (an MJCF keyframe)
  std::optional<std::string> preset;        // Preset::name
  std::optional<std::string> save_to;
  std::vector<std::pair<std::string, nlohmann::json>> edits;  // dotted path, new value
  bool dragging = false;  // a knob is held (dragged, or typed into) this frame
};

// Concrete paths of a schema path ("model.particles.*.mass" -> one per particle of `edited`).
std::vector<std::string> expand_field_path(const std::string& pattern_path, const nlohmann::json& edited);

class ControlsPanel {
 public:
  explicit ControlsPanel(std::filesystem::path scenes_folder, std::filesystem::path out_folder);
  // active_preset: the preset the scene came from (highlighted), empty for none.
  ControlsRequest draw(const SceneDocument& doc, const std::string& active_preset = {});

 private:
  void draw_scene_row(const SceneDocument& doc, ControlsRequest& request);
  void draw_presets(ControlsRequest& request, const std::string& active_preset) const;
  void draw_fields(const SceneDocument& doc, ControlsRequest& request) const;
  void draw_keyframe_row(const SceneDocument& doc, ControlsRequest& request);
  std::filesystem::path scenes_folder_, out_folder_;
  std::vector<std::filesystem::path> scene_files_;
  long changed_revision_ = -1;  // the document revision changed_label_ describes
  std::string changed_label_;   // what differs from the file as written, empty when nothing
  std::string keyframes_of_;    // the MJCF file keyframes_ lists (its path), empty for none listed yet
  std::vector<std::string> keyframes_;
  char open_path_[512] = "";
  char save_path_[512] = "";
};

}  // namespace sg::gui
