#pragma once
// model.type "mjcf": the scene names an MJCF file (model.file, relative to the scene file) whose model
// becomes the scene's rigid model. Reading MJCF needs libmujoco, which the engine does not link: binaries
// built with it register an importer (mjcf/import.hpp); without one an mjcf scene is a load error. See
// docs/scene-format.md, "MJCF models".
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scene/issue.hpp"

namespace sg::scene {

// What an importer makes of an MJCF file: the rigid scene keys it maps to ({"model": ..., "contact": ...,
// "integrator": ...}), or the problems, each naming the file and the MJCF element.
struct MjcfKeys {
  nlohmann::json keys = nlohmann::json::object();
  std::vector<std::string> errors;
  std::string keyframe_error;  // model.keyframe names no keyframe of the file (reported at model.keyframe)
};
// path: the MJCF file; keyframe: the scene's model.keyframe (empty: none), which starts the keys there.
using MjcfImporter = MjcfKeys (*)(const std::string& path, const std::string& keyframe);

// Set once at start-up (nullptr removes it); read by every load.
void set_mjcf_importer(MjcfImporter importer);
bool has_mjcf_importer();

// The keyframes of an MJCF file (path), in the file's order: each key's name, an unnamed one's index as text
// (what model.keyframe takes); empty when the file has none or does not load. Registered beside the importer.
using MjcfKeyframeLister = std::vector<std::string> (*)(const std::string& path);
void set_mjcf_keyframe_lister(MjcfKeyframeLister lister);
// The keyframes of a resolved scene's MJCF file (mjcf_model_path); empty for a scene without one, or without
// a registered lister.
std::vector<std::string> mjcf_keyframes(const nlohmann::json& config, const std::string& scene_source);
// A resolved scene's MJCF file: its model.file relative to scene_source (mjcf_file_path), empty when it names
// none.
std::string mjcf_model_path(const nlohmann::json& config, const std::string& scene_source);

// model.file as a path: relative to the folder of the scene file `scene_source` (or to the working folder
// when the source has none).
std::string mjcf_file_path(const std::string& scene_source, const std::string& file);

// When doc's model.type is "mjcf": imports model.file and lays doc's own keys over the imported ones (the
// scene wins; model.bodies merges entry by entry); model.type becomes "rigid" and model.file stays as the
// record of where the model came from. model.keyframe (a key's name, or its index: a number becomes its
// text) starts the imported keys at that keyframe. Problems are reported at model.file (model.keyframe for a
// keyframe the file lacks) and leave doc as it was.
void expand_mjcf(nlohmann::json& doc, const std::string& source, std::vector<Issue>& errors);

}  // namespace sg::scene
