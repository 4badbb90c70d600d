#include "engine/simulate/sink_check.hpp"

#include <cmath>
#include <cstdio>

namespace sg {

std::string sunk_through_plane(const Problem& problem, const Trajectory& tr) {
  if (problem.data.type != ModelType::rigid || tr.layout != "rigid") return "";
  const RigidModel<double>& m = problem.data.rigid;
  if (!m.plane_enabled) return "";
  for (std::size_t i = 0; i < tr.q.size(); ++i)
    for (int b = 0; b < m.count; ++b) {
      const std::size_t z = static_cast<std::size_t>(b) * 7 + 2;
      if (z >= tr.q[i].size()) break;
      const Vec3<double>& s = m.bodies[b].size;
      const double size = std::sqrt(s.x * s.x + s.y * s.y + s.z * s.z);
      const double depth = m.plane_height - tr.q[i][z];
      if (depth > size) {
        char text[240];
        std::snprintf(
            text, sizeof text,
            "body %d went through the plane: at t = %g its centre is %.3g m below it, more than its "
            "size (%.3g m); the contact is too weak for what presses it down (friction, solref?)",
            b, tr.t[i], depth, size);
        return text;
      }
    }
  return "";
}

}  // namespace sg
