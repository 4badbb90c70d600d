#pragma once
// A reader's name for a dotted scene path, for plot labels and status text: "model.bodies.0.vel.2" ->
// "body 0 velocity z", "contact.hard.kappa" -> "kappa (hard contact)". Unknown words pass through, so any
// path gets a name; the path itself stays the precise reference (docs, --set).
#include <string>

namespace sg::scene {

std::string readable_path(const std::string& path);

}  // namespace sg::scene
