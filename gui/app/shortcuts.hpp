#pragma once
// The one table of keyboard shortcuts. Keys are GLFW key codes, which Dear ImGui 1.86 uses as
// indices into io.KeysDown (the GLFW backend fills them; the headless runner sets them directly).
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace sg::gui {

enum class Action {
  kToggleHelp,
  kToggleFrameStats,
  kResetLayout,
  kResetCamera,
  kToggleGrid,
  kUiScaleUp,
  kUiScaleDown,
  kQuit,
  kCancelRun,  // workbench: cancel the running sweep
  kPlayPause,  // workbench: trajectory playback
  kStepForward,
  kStepBack,
  kPinSweep,
};

enum Modifier : unsigned { kNoMods = 0, kCtrl = 1u << 0, kShift = 1u << 1, kAlt = 1u << 2 };

struct Shortcut {
  int key;        // GLFW_KEY_*
  unsigned mods;  // Modifier bits that must be held exactly
  Action action;
  const char* name;         // stable action name, e.g. "toggle_help"
  const char* description;  // shown in the F1 overlay
};

std::span<const Shortcut> shortcut_table();

// "F1", "Ctrl+Shift+L", ...
std::string shortcut_label(const Shortcut& shortcut);

struct KeyInput {
  std::function<bool(int key)> pressed;  // true on the frame the key went down
  unsigned mods = kNoMods;
  bool want_text_input = false;  // a text field has focus: shortcuts must not fire
  bool escape_taken = false;     // a popup is open or a widget is being edited: Esc closes or ends that
};

std::vector<Action> triggered_actions(const KeyInput& input);

// Reads the current ImGui frame's keyboard state (call between NewFrame and Render).
KeyInput imgui_key_input();

}  // namespace sg::gui
