#pragma once
// The same rigid-body scene in MuJoCo 2.2.2: an MJCF text written from a RigidModel<double> (so the two
// engines cannot drift apart by a typo), loaded through MuJoCo's virtual file system, and stepped with the
// model's timed forces applied through xfrc_applied. Shared by the comparison tests and bench/mujoco_compare;
// the model owner and loader are mjcf/mujoco_sim.hpp.
#include <mujoco/mujoco.h>

#include <memory>
#include <sstream>
#include <string>

#include "engine/model/rigid_model.hpp"
#include "mjcf/mujoco_sim.hpp"

namespace sg::mjcmp {

// MuJoCo's solver settings for a comparison: Newton run to a tight tolerance, so that its answer is the exact
// solution of the constraint problem our fixed-count PGS approximates.
struct MujocoSolver {
  int iterations = 100;
  double tolerance = 1e-10;
};

// Our shape names are MJCF's geom type names.
inline const char* mjcf_geom_type(GeomType t) {
  return geom_type_name(t);
}

// MuJoCo's size vector has as many entries as the shape uses.
inline int mjcf_size_count(GeomType t) {
  switch (t) {
    case GeomType::sphere:
      return 1;
    case GeomType::capsule:
    case GeomType::cylinder:
      return 2;
    default:
      return 3;
  }
}

// Contact attributes of a geom. Torsional and rolling friction are written but unused (condim <= 3).
inline void write_surface(std::ostream& os, const Surface<double>& s) {
  os << " friction=\"" << s.friction << " 0.005 0.0001\" condim=\"" << s.condim << "\" margin=\"" << s.margin
     << "\" solref=\"" << s.solref[0] << ' ' << s.solref[1] << "\" solimp=\"";
  for (int k = 0; k < 5; ++k) os << s.solimp[k] << (k < 4 ? " " : "\"");
}

inline std::string mujoco_xml(const RigidModel<double>& m, double timestep, const MujocoSolver& solver) {
  std::ostringstream os;
  os.precision(17);
  os << "<mujoco model=\"softgrad_compare\">\n"
     << "  <compiler angle=\"degree\" eulerseq=\"xyz\"/>\n"
     << "  <size nconmax=\"100\" njmax=\"400\"/>\n"
     << "  <option timestep=\"" << timestep << "\" integrator=\"Euler\" cone=\"pyramidal\" impratio=\""
     << m.impratio << "\" solver=\"Newton\" iterations=\"" << solver.iterations << "\" tolerance=\""
     << solver.tolerance << "\" noslip_iterations=\"0\" gravity=\"" << m.gravity.x << ' ' << m.gravity.y
     << ' ' << m.gravity.z << "\">\n"
     << "    <flag refsafe=\"" << (m.refsafe ? "enable" : "disable") << "\"/>\n"
     << "  </option>\n  <worldbody>\n";
  if (m.plane_enabled) {
    os << "    <geom name=\"plane\" type=\"plane\" size=\"10 10 0.1\" pos=\"0 0 " << m.plane_height << "\"";
    write_surface(os, m.plane);
    os << "/>\n";
  }
  for (int i = 0; i < m.count; ++i) {
    const RigidBody<double>& b = m.bodies[i];
    os << "    <body name=\"b" << i << "\" pos=\"" << b.pos.x << ' ' << b.pos.y << ' ' << b.pos.z
       << "\" euler=\"" << b.euler_deg.x << ' ' << b.euler_deg.y << ' ' << b.euler_deg.z << "\">\n"
       << "      <freejoint/>\n      <geom type=\"" << mjcf_geom_type(b.shape) << "\" size=\"";
    for (int k = 0; k < mjcf_size_count(b.shape); ++k) os << (k ? " " : "") << b.size[k];
    os << "\"";
    if (b.mass > 0.0) {
      os << " mass=\"" << b.mass << "\"";
    } else {
      os << " density=\"" << b.density << "\"";
    }
    if (!m.collide_bodies) os << " contype=\"1\" conaffinity=\"0\"";  // plane (1/1) still collides
    write_surface(os, b.surface);
    os << "/>\n    </body>\n";
  }
  os << "  </worldbody>\n</mujoco>\n";
  return os.str();
}

// Puts the model's initial velocities into qvel (free joint: linear world, angular body frame, as ours).
inline void set_initial_velocities(const RigidModel<double>& model, MujocoSim& sim) {
  for (int i = 0; i < model.count; ++i) {
    const RigidBody<double>& b = model.bodies[i];
    mjtNum* qvel = sim.d->qvel + 6 * i;
    for (int k = 0; k < 3; ++k) {
      qvel[k] = b.vel[k];
      qvel[3 + k] = b.angvel[k];
    }
  }
}

inline std::unique_ptr<MujocoSim> make_mujoco(const RigidModel<double>& model, double timestep,
                                              const MujocoSolver& solver = {}) {
  auto sim = load_mujoco(mujoco_xml(model, timestep, solver));
  set_initial_velocities(model, *sim);
  return sim;
}

}  // namespace sg::mjcmp
