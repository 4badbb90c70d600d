#pragma once
// The same rigid-body scene in MuJoCo 2.2.2: an MJCF text written from a RigidModel<double> (so the two
// engines cannot drift apart by a typo), loaded through MuJoCo's virtual file system, and stepped with the
// model's timed forces applied through xfrc_applied. Shared by the comparison tests and bench/mujoco_compare.
#include <mujoco/mujoco.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/model/rigid_model.hpp"

namespace sg::mjcmp {

// MuJoCo's solver settings for a comparison: Newton run to a tight tolerance, so that its answer is the exact
// solution of the constraint problem our fixed-count PGS approximates.
struct MujocoSolver {
  int iterations = 100;
  double tolerance = 1e-10;
};

// Our shape names are MJCF's geom type names.
inline const char* mjcf_geom_type(GeomType t) { return geom_type_name(t); }

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

// Owns a loaded model and its data.
struct MujocoSim {
  mjModel* m = nullptr;
  mjData* d = nullptr;
  MujocoSim() = default;
  MujocoSim(const MujocoSim&) = delete;
  MujocoSim& operator=(const MujocoSim&) = delete;
  ~MujocoSim() {
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
  }
};

inline std::unique_ptr<MujocoSim> load_mujoco(const std::string& xml) {
  auto vfs = std::make_unique<mjVFS>();  // about 2 MB of file-name slots: not on the stack
  mj_defaultVFS(vfs.get());
  const char* name = "softgrad_compare.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0)
    throw std::runtime_error("mj_makeEmptyFileVFS failed");
  const int slot = mj_findFileVFS(vfs.get(), name);
  std::memcpy(vfs->filedata[slot], xml.data(), xml.size());
  char error[1000] = "";
  auto sim = std::make_unique<MujocoSim>();
  sim->m = mj_loadXML(name, vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (!sim->m) throw std::runtime_error(std::string("mj_loadXML: ") + error + "\n" + xml);
  sim->d = mj_makeData(sim->m);
  return sim;
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

// Writes the timed forces acting during output step `step` into xfrc_applied (world force, world torque).
inline void apply_timed_forces(const RigidModel<double>& model, long step, MujocoSim& sim) {
  for (int i = 0; i < model.count; ++i) {
    mjtNum* xfrc = sim.d->xfrc_applied + 6 * (i + 1);  // body 0 is the world
    for (int k = 0; k < 6; ++k) xfrc[k] = 0.0;
    const RigidBody<double>& b = model.bodies[i];
    for (int f = 0; f < b.force_count; ++f) {
      const TimedForce<double>& tf = b.forces[f];
      if (step < tf.from_step || step >= tf.to_step) continue;
      for (int k = 0; k < 3; ++k) {
        xfrc[k] += tf.force[k];
        xfrc[3 + k] += tf.torque[k];
      }
    }
  }
}

}  // namespace sg::mjcmp
