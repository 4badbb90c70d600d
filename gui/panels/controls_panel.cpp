#include "gui/panels/controls_panel.hpp"
#include "gui/panels/error_text.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "engine/scene/config_diff.hpp"
#include "engine/scene/mjcf_source.hpp"
#include "engine/scene/path.hpp"
#include "engine/scene/scene.hpp"
#include "gui/document/presets.hpp"
#include "gui/document/scenes_folder.hpp"
#include "gui/panels/error_text.hpp"
#include "gui/panels/field_visibility.hpp"
#include "gui/panels/field_widget.hpp"

namespace sg::gui {

namespace {

using nlohmann::json;

std::string section_of(const std::string& path) {
  return path.substr(0, path.find('.'));
}

void copy_to(char* buffer, std::size_t size, const std::string& text) {
  std::snprintf(buffer, size, "%s", text.c_str());
}

// The sweep parameter is text in the schema but only a differentiable path makes sense: offer those.
std::optional<json> sweep_parameter_combo(const SceneDocument& doc) {
  const auto current = scene::get_path(doc.edited(), "sweep.parameter");
  const std::string now = current && current->is_string() ? current->get<std::string>() : "";
  std::optional<json> picked;
  if (ImGui::BeginCombo("parameter##sweep.parameter", now.c_str())) {
    for (const std::string& path : scene::differentiable_paths(doc.config())) {
      if (ImGui::Selectable(path.c_str(), path == now) && path != now) picked = json(path);
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The differentiable parameter swept along the x axis.");
  return picked;
}

}  // namespace

std::vector<std::string> expand_field_path(const std::string& path, const json& edited) {
  const auto star = path.find(".*");
  if (star == std::string::npos) return {path};
  const std::string array_path = path.substr(0, star);
  const auto array = scene::get_path(edited, array_path);
  std::vector<std::string> out;
  if (!array || !array->is_array()) return out;
  for (std::size_t i = 0; i < array->size(); ++i) {
    // Nested arrays (a body's timed forces) expand in turn; an empty one gives no field.
    for (std::string& p :
         expand_field_path(array_path + "." + std::to_string(i) + path.substr(star + 2), edited))
      out.push_back(std::move(p));
  }
  return out;
}

ControlsPanel::ControlsPanel(std::filesystem::path scenes_folder, std::filesystem::path out_folder)
    : scenes_folder_(std::move(scenes_folder)), out_folder_(std::move(out_folder)) {
  scene_files_ = list_scene_files(scenes_folder_);
}

ControlsRequest ControlsPanel::draw(const SceneDocument& doc, const std::string& active_preset) {
  ControlsRequest request;
  draw_scene_row(doc, request);
  // At the top, under the scene row: below the presets it was off-screen at 720p.
  if (!doc.error().empty()) {
    error_text(doc.error());
    ImGui::TextDisabled("(the last valid configuration keeps running)");
  }
  draw_presets(request, active_preset);
  ImGui::Separator();
  draw_fields(doc, request);
  return request;
}

void ControlsPanel::draw_scene_row(const SceneDocument& doc, ControlsRequest& request) {
  const std::string current = std::filesystem::path(doc.source()).filename().string();
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4.0f);
  if (ImGui::BeginCombo("scene", current.c_str())) {
    for (const auto& file : scene_files_) {
      if (ImGui::Selectable(file.filename().string().c_str(), file.filename() == current))
        request.open_file = file.string();
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Scenes in %s", scenes_folder_.string().c_str());
  draw_keyframe_row(doc, request);
  if (ImGui::CollapsingHeader("Open / save")) {
    if (open_path_[0] == '\0') copy_to(open_path_, sizeof open_path_, doc.source());
    ImGui::InputText("##open_path", open_path_, sizeof open_path_);
    ImGui::SameLine();
    if (ImGui::Button("Open")) request.open_file = std::string(open_path_);
    if (save_path_[0] == '\0' && doc.config().contains("name"))
      copy_to(save_path_, sizeof save_path_,
              (out_folder_ / (doc.config()["name"].get<std::string>() + ".json")).string());
    ImGui::InputText("##save_path", save_path_, sizeof save_path_);
    ImGui::SameLine();
    if (ImGui::Button("Save")) request.save_to = std::string(save_path_);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Writes the current resolved configuration as a scene file.");
  }
  if (doc.config().contains("description")) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", doc.config()["description"].get<std::string>().c_str());
    // The description is of the file as written: say what the overrides and edits changed since (computed
    // once per new configuration, not every frame). The line is always there, and it is not rewritten while
    // a control is being edited, so that the control under the mouse does not move.
    if (changed_revision_ != doc.revision() && !ImGui::IsAnyItemActive()) {
      changed_revision_ = doc.revision();
      changed_label_ = scene::same_sweep_settings(doc.config(), doc.as_written())
                           ? std::string()
                           : scene::difference_label(doc.config(), doc.as_written(), 4);
    }
    if (changed_label_.empty()) {
      ImGui::TextDisabled("As in the file.");
    } else {
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "Changed from the file: %s",
                         changed_label_.c_str());
    }
    ImGui::PopTextWrapPos();
  }
}

// An MJCF scene whose file has keyframes: a combo that opens the scene again from the picked key
// (model.keyframe, which applies before the import), or from qpos0. The file is read once per file.
void ControlsPanel::draw_keyframe_row(const SceneDocument& doc, ControlsRequest& request) {
  const std::string path = scene::mjcf_model_path(doc.config(), doc.source());
  if (path != keyframes_of_) {
    keyframes_of_ = path;
    keyframes_ = scene::mjcf_keyframes(doc.config(), doc.source());
  }
  if (keyframes_.empty()) return;
  const auto key = scene::get_path(doc.config(), "model.keyframe");
  const std::string now = key && key->is_string() ? key->get<std::string>() : "";
  const char* const kNone = "none (qpos0)";
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("keyframe").x + ImGui::GetStyle().ItemInnerSpacing.x));
  if (ImGui::BeginCombo("keyframe", now.empty() ? kNone : now.c_str())) {
    if (ImGui::Selectable(kNone, now.empty()) && !now.empty()) {
      request.open_file = doc.source();
      request.open_overrides = {"model.keyframe=\"\""};
    }
    for (const std::string& name : keyframes_)
      if (ImGui::Selectable(name.c_str(), name == now) && name != now) {
        request.open_file = doc.source();
        request.open_overrides = {"model.keyframe=" + json(name).dump()};  // quoted: a name, never an index
      }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The MJCF file's keyframes: the scene opens again starting from the picked one.");
}

void ControlsPanel::draw_presets(ControlsRequest& request, const std::string& active_preset) const {
  if (!ImGui::CollapsingHeader("Presets (paper experiments)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // Two columns when every label fits in one, else one (labels are never cut).
  const float full = ImGui::GetContentRegionAvail().x;
  float widest = 0.0f;
  for (const Preset& preset : preset_table()) widest = std::max(widest, ImGui::CalcTextSize(preset.label).x);
  const bool two =
      widest + 2.0f * ImGui::GetStyle().FramePadding.x <= full * 0.5f - ImGui::GetStyle().ItemSpacing.x;
  const float column = two ? full * 0.5f - ImGui::GetStyle().ItemSpacing.x : full;
  int index = 0;
  for (const Preset& preset : preset_table()) {
    if (two && index++ % 2 == 1) ImGui::SameLine();
    const bool active = active_preset == preset.name;
    if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(preset.label, ImVec2(column, 0.0f))) request.preset = preset.name;
    if (active) ImGui::PopStyleColor();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s%s", preset.help, active ? "\n(the scene comes from this preset)" : "");
  }
}

void ControlsPanel::draw_fields(const SceneDocument& doc, ControlsRequest& request) const {
  const json& edited = doc.edited();
  std::string open_section;
  bool section_visible = false;
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);  // the other half for the label
  for (const scene::FieldSpec& spec : scene::scene_fields()) {
    if (spec.kind == scene::FieldKind::object_array) continue;
    if (spec.kind == scene::FieldKind::text && spec.path != "sweep.parameter") continue;
    const std::string section = section_of(spec.path);
    if (section != open_section) {
      open_section = section;
      section_visible = ImGui::CollapsingHeader(section.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
    }
    if (!section_visible || !field_shown(spec.path, edited)) continue;
    if (spec.path == "sweep.parameter") {
      if (auto value = sweep_parameter_combo(doc)) request.edits.emplace_back(spec.path, *value);
      continue;
    }
    for (const std::string& path : expand_field_path(spec.path, edited)) {
      const auto current = scene::get_path(edited, path);
      const std::string label = path.substr(section.size() + 1);
      if (auto value = draw_field_widget(spec, label, path, current.value_or(json()))) {
        request.edits.emplace_back(path, *value);
      }
      if (ImGui::IsItemActive()) request.dragging = true;  // a vector's group too (ImGui's EndGroup)
    }
  }
  ImGui::PopItemWidth();
}

}  // namespace sg::gui
