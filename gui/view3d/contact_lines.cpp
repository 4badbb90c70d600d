#include "gui/view3d/contact_lines.hpp"

#include <algorithm>

namespace sg::gui {

namespace {

void add_contact_line(const ContactMark& mark, float length, render::Scene3D& out) {
  render::Line line;
  line.kind = mark.is_virtual ? render::LineKind::kVirtualForce : render::LineKind::kContactNormal;
  // Real contacts: the normal from the contact point. Virtual ones: centred on the gap and at least as long
  // as it, so the line shows which two surfaces "see" each other.
  const double len = mark.is_virtual ? std::max(static_cast<double>(length), mark.dist) : length;
  const double back = mark.is_virtual ? 0.5 * len : 0.0;
  for (int k = 0; k < 3; ++k) {
    line.from[k] = static_cast<float>(mark.pos[k] - back * mark.normal[k]);
    line.to[k] = static_cast<float>(mark.pos[k] + (len - back) * mark.normal[k]);
  }
  out.lines.push_back(line);
}

}  // namespace

void add_contact_lines(const Trajectory& tr, int frame, float length, render::Scene3D& out) {
  if (frame < 0 || static_cast<std::size_t>(frame) >= tr.contacts.size()) return;
  for (const ContactMark& mark : tr.contacts[static_cast<std::size_t>(frame)])
    add_contact_line(mark, length, out);
}

}  // namespace sg::gui
