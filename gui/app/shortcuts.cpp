#include "gui/app/shortcuts.hpp"

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace sg::gui {

namespace {

constexpr Shortcut k_shortcuts[] = {
    {GLFW_KEY_F1, kNoMods, Action::kToggleHelp, "toggle_help", "Show or hide this shortcut overview"},
    {GLFW_KEY_F3, kNoMods, Action::kToggleFrameStats, "toggle_frame_stats",
     "Show or hide the frame-time readout (redraws per second, ms per frame)"},
    {GLFW_KEY_L, kCtrl | kShift, Action::kResetLayout, "reset_layout",
     "Put all panels back in their default place"},
    {GLFW_KEY_HOME, kNoMods, Action::kResetCamera, "reset_camera", "Reset the 3-D camera"},
    {GLFW_KEY_G, kNoMods, Action::kToggleGrid, "toggle_grid", "Show or hide the ground grid"},
    {GLFW_KEY_EQUAL, kCtrl, Action::kUiScaleUp, "ui_scale_up", "Make the interface larger"},
    {GLFW_KEY_MINUS, kCtrl, Action::kUiScaleDown, "ui_scale_down", "Make the interface smaller"},
    {GLFW_KEY_Q, kCtrl, Action::kQuit, "quit", "Quit (settings are saved)"},
    {GLFW_KEY_ESCAPE, kNoMods, Action::kCancelRun, "cancel_run",
     "Cancel the running sweep (computed points stay)"},
    {GLFW_KEY_SPACE, kNoMods, Action::kPlayPause, "play_pause", "Play or pause the trajectory"},
    {GLFW_KEY_RIGHT, kNoMods, Action::kStepForward, "step_forward", "Trajectory: next output frame"},
    {GLFW_KEY_LEFT, kNoMods, Action::kStepBack, "step_back", "Trajectory: previous output frame"},
    {GLFW_KEY_P, kNoMods, Action::kPinSweep, "pin_sweep", "Pin the current sweep as a faded reference"},
};

std::string key_name(int key) {
  if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25) return "F" + std::to_string(key - GLFW_KEY_F1 + 1);
  if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z)
    return std::string(1, static_cast<char>('A' + key - GLFW_KEY_A));
  switch (key) {
    case GLFW_KEY_HOME:
      return "Home";
    case GLFW_KEY_EQUAL:
      return "=";
    case GLFW_KEY_MINUS:
      return "-";
    case GLFW_KEY_ESCAPE:
      return "Esc";
    case GLFW_KEY_SPACE:
      return "Space";
    case GLFW_KEY_RIGHT:
      return "Right";
    case GLFW_KEY_LEFT:
      return "Left";
    default:
      return "key " + std::to_string(key);
  }
}

}  // namespace

std::span<const Shortcut> shortcut_table() {
  return k_shortcuts;
}

std::string shortcut_label(const Shortcut& shortcut) {
  std::string label;
  if (shortcut.mods & kCtrl) label += "Ctrl+";
  if (shortcut.mods & kShift) label += "Shift+";
  if (shortcut.mods & kAlt) label += "Alt+";
  return label + key_name(shortcut.key);
}

std::vector<Action> triggered_actions(const KeyInput& input) {
  std::vector<Action> actions;
  if (input.want_text_input || !input.pressed) return actions;
  for (const Shortcut& shortcut : k_shortcuts) {
    // Esc cancels a sweep (which may have run for minutes) only when nothing else wants it.
    if (shortcut.key == GLFW_KEY_ESCAPE && input.escape_taken) continue;
    if (shortcut.mods == input.mods && input.pressed(shortcut.key)) actions.push_back(shortcut.action);
  }
  return actions;
}

KeyInput imgui_key_input() {
  const ImGuiIO& io = ImGui::GetIO();
  KeyInput input;
  input.pressed = [](int key) { return ImGui::IsKeyPressed(key, /*repeat=*/false); };
  input.mods = (io.KeyCtrl ? kCtrl : 0u) | (io.KeyShift ? kShift : 0u) | (io.KeyAlt ? kAlt : 0u);
  input.want_text_input = io.WantTextInput;
  // Called before this frame's windows: popups opened in earlier frames are still on the stack here.
  input.escape_taken = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId) || ImGui::IsAnyItemActive();
  return input;
}

}  // namespace sg::gui
