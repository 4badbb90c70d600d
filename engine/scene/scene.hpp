#pragma once
// Scene files: the single source of truth for a run. The GUI's controls, `--set path=value` on the
// command line and saved experiments all address the same dotted paths. See docs/scene-format.md.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/field_spec.hpp"
#include "engine/scene/issue.hpp"
#include "engine/scene/path.hpp"

namespace sg::scene {

// Parses, applies overrides ("path=value") in order, validates, fills defaults. Never throws.
LoadResult load_scene_file(const std::string& file, const std::vector<std::string>& overrides = {});
LoadResult load_scene_text(const std::string& text, const std::string& source,
                           const std::vector<std::string>& overrides = {});
// Validates and fills defaults. The default name is the stem of `source` when it ends in ".json",
// else "untitled". Resolving a resolved config gives the same config.
LoadResult resolve_scene(const nlohmann::json& doc, const std::string& source);

// Concrete paths of every differentiable number in a resolved config, in schema order, particle by
// particle: "model.gravity.0", ..., "model.particles.0.mass", ..., "model.particles.0.pos.2", ...
// Only the fields of the model named by model.type are listed (particle fields for "particles", body
// and geom fields for "rigid"); see docs/scene-format.md.
std::vector<std::string> differentiable_paths(const nlohmann::json& resolved);

}  // namespace sg::scene
