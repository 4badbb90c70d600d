#pragma once
// The paper experiments as data: one row per preset (label, scene file, --set overrides).
#include <span>
#include <string>
#include <vector>

namespace sg::gui {

struct Preset {
  const char* name;                    // stable id for `softgrad screenshot --preset`
  const char* label;                   // button text
  const char* scene;                   // file name inside the scenes folder
  std::vector<std::string> overrides;  // "path=value", applied in order
  const char* help;                    // tooltip
  double show_time = -1.0;             // the output time `softgrad screenshot` shows; negative: the last
};

std::span<const Preset> preset_table();
const Preset* find_preset(const std::string& name);

}  // namespace sg::gui
