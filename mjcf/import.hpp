#pragma once
// MJCF import for model.type "mjcf" scenes (engine/scene/mjcf_source.hpp): libmujoco's own loader
// (mj_loadXML), the supported-element check, and the mapping to rigid scene keys.
#include <string>

#include "engine/scene/mjcf_source.hpp"

namespace sg::mjcf {

// Every problem names the file and the MJCF element. keyframe: the scene's model.keyframe (a key's name or
// index; empty: MuJoCo's qpos0), the start state of the keys.
scene::MjcfKeys import_mjcf(const std::string& path, const std::string& keyframe = "");

// Makes scene loading use import_mjcf; binaries linked with softgrad_mjcf call it once at start-up.
void register_importer();

}  // namespace sg::mjcf
