#pragma once
// A trajectory frame's contacts in the 3-D view (rigid bodies and joint trees alike): a real contact as its
// normal from the contact point, a virtual one (Contacts From Distance) centred on the gap it spans.
#include "engine/simulate/trajectory.hpp"
#include "render/scene3d.hpp"

namespace sg::gui {

// length: how long a real contact's normal is drawn (it starts inside the second body, so longer than it).
void add_contact_lines(const Trajectory& tr, int frame, float length, render::Scene3D& out);

}  // namespace sg::gui
