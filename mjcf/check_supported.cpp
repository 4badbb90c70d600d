#include "mjcf/check_supported.hpp"

#include <cmath>

#include "engine/rigid/inertia.hpp"
#include "mjcf/free_bodies.hpp"
#include "mjcf/geom_type_map.hpp"
#include "mjcf/names.hpp"

namespace sg::mjcf {
namespace {

using Messages = std::vector<std::string>;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

bool is_static(const mjModel* m, int body) {
  return m->body_weldid[body] == 0 && m->body_mocapid[body] < 0;
}

// Elements softgrad has nothing for, whatever they say.
void element_lists(const mjModel* m, Messages& out) {
  struct List {
    int count;
    mjtObj type;
    const char* kind;
    const char* why;
  };
  const List lists[] = {
      {m->nu, mjOBJ_ACTUATOR, "actuator",
       "actuators are not supported (forces come from the scene's model.bodies.N.forces)"},
      {m->ntendon, mjOBJ_TENDON, "tendon", "tendons are not supported"},
      {m->neq, mjOBJ_EQUALITY, "equality", "equality constraints are not supported"},
      {m->nsensor, mjOBJ_SENSOR, "sensor", "sensors are not supported"},
      {m->nmesh, mjOBJ_MESH, "mesh",
       "meshes are not supported (geoms: sphere, capsule, box, cylinder, ellipsoid, and one plane)"},
      {m->nhfield, mjOBJ_HFIELD, "hfield", "height fields are not supported"},
      {m->nskin, mjOBJ_SKIN, "skin", "skins are not supported"},
      {m->npair, mjOBJ_PAIR, "contact pair", "explicit contact pairs are not supported"},
      {m->nexclude, mjOBJ_EXCLUDE, "contact exclude", "contact excludes are not supported"},
  };
  for (const List& l : lists)
    for (int i = 0; i < l.count; ++i) out.push_back(element(m, l.type, i, l.kind) + ": " + l.why);
}

void joints(const mjModel* m, Messages& out) {
  for (int j = 0; j < m->njnt; ++j) {
    const std::string name = element(m, mjOBJ_JOINT, j, "joint") + " (" + joint_type_word(m->jnt_type[j]) +
                             ") on " + element(m, mjOBJ_BODY, m->jnt_bodyid[j], "body");
    if (m->jnt_type[j] != mjJNT_FREE) {
      out.push_back(name + ": only free joints are supported");
      continue;
    }
    if (m->jnt_stiffness[j] != 0.0) out.push_back(name + ": joint stiffness is not supported");
    const int dof = m->jnt_dofadr[j];
    for (int k = 0; k < 6; ++k) {
      if (m->dof_damping[dof + k] != 0.0) {
        out.push_back(name + ": damping " + number(m->dof_damping[dof + k]) +
                      " is not supported (MuJoCo's joint damping is a force per velocity; softgrad's "
                      "model.bodies.N.damping is one rate in 1/s for linear and angular velocity)");
        break;
      }
    }
    for (int k = 0; k < 6; ++k) {
      if (m->dof_armature[dof + k] != 0.0 || m->dof_frictionloss[dof + k] != 0.0) {
        out.push_back(name + ": armature and frictionloss are not supported");
        break;
      }
    }
  }
}

void bodies(const mjModel* m, Messages& out) {
  for (int b = 1; b < m->nbody; ++b) {
    const std::string name = element(m, mjOBJ_BODY, b, "body");
    if (m->body_mocapid[b] >= 0) {
      out.push_back(name + ": mocap bodies are not supported");
      continue;
    }
    if (is_static(m, b)) continue;  // its geoms are checked as static geoms
    const int parent = m->body_parentid[b];
    if (parent != 0) {
      out.push_back(name + " is nested in " + element(m, mjOBJ_BODY, parent, "body") +
                    ": softgrad's bodies are free bodies directly under worldbody");
      continue;
    }
    if (m->body_geomnum[b] != 1)
      out.push_back(name + " has " + std::to_string(m->body_geomnum[b]) +
                    " geoms: a softgrad body carries exactly one geom");
  }
}

// Largest |a - b| over the inertia tensor, both in the geom frame.
double inertia_mismatch(const mjModel* m, int body, int geom, const double expected[3]) {
  mjtNum ri[9], rg[9];
  mju_quat2Mat(ri, m->body_iquat + 4 * body);
  mju_quat2Mat(rg, m->geom_quat + 4 * geom);
  const mjtNum* d = m->body_inertia + 3 * body;
  double worst = 0.0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      // (Rg^T Ri diag(d) Ri^T Rg)_rc
      double sum = 0.0;
      for (int k = 0; k < 3; ++k) {
        double a = 0.0, b = 0.0;
        for (int i = 0; i < 3; ++i) {
          a += rg[3 * i + r] * ri[3 * i + k];
          b += rg[3 * i + c] * ri[3 * i + k];
        }
        sum += a * d[k] * b;
      }
      worst = std::fmax(worst, std::fabs(sum - (r == c ? expected[r] : 0.0)));
    }
  return worst;
}

// softgrad puts the centre of mass at the geom's centre and takes the inertia from the geom's shape scaled to
// the body's mass; MuJoCo's must agree (it does when it infers them from the single geom).
void mass_frames(const mjModel* m, Messages& out) {
  for (const FreeBody& fb : free_bodies(m)) {
    const auto shape = body_shape(m->geom_type[fb.geom]);
    if (!shape) continue;
    const std::string name = element(m, mjOBJ_BODY, fb.body, "body");
    const std::string geom = element(m, mjOBJ_GEOM, fb.geom, "geom");
    const double scale = m->geom_rbound[fb.geom] > 0.0 ? m->geom_rbound[fb.geom] : 1.0;
    double offset = 0.0;
    for (int k = 0; k < 3; ++k)
      offset = std::fmax(offset, std::fabs(m->body_ipos[3 * fb.body + k] - m->geom_pos[3 * fb.geom + k]));
    if (offset > 1e-9 * scale) {
      out.push_back(name + ": its centre of mass is " + number(offset) + " m from the centre of " + geom +
                    " (softgrad puts it at the geom's centre; remove the <inertial> pos)");
      continue;
    }
    const MassInertia<double> unit = geom_mass_inertia(*shape, scene_size(m, fb.geom), 1.0);
    const double mass = m->body_mass[fb.body];
    const double expected[3] = {unit.inertia.x * mass / unit.mass, unit.inertia.y * mass / unit.mass,
                                unit.inertia.z * mass / unit.mass};
    const double largest = std::fmax(expected[0], std::fmax(expected[1], expected[2]));
    if (inertia_mismatch(m, fb.body, fb.geom, expected) > 1e-9 * largest)
      out.push_back(name + ": its inertia differs from that of " + geom + " (" +
                    geom_type_word(m->geom_type[fb.geom]) + ") with the body's mass " + number(mass) +
                    " kg; softgrad computes the inertia from the geom's shape (remove the <inertial> element "
                    "or the compiler's inertia settings)");
  }
}

// Static geoms: one level plane. Geoms of free bodies: the primitives softgrad collides.
void geoms(const mjModel* m, const mjData* d, Messages& out) {
  int planes = 0;
  for (int g = 0; g < m->ngeom; ++g) {
    const int body = m->geom_bodyid[g];
    const int type = m->geom_type[g];
    const std::string name = element(m, mjOBJ_GEOM, g, "geom") + " (" + geom_type_word(type) + ")";
    if (m->body_mocapid[body] >= 0) continue;  // the body is reported
    if (is_static(m, body)) {
      if (type != mjGEOM_PLANE) {
        out.push_back(name +
                      " is static (fixed to the world): softgrad's only static geom is the ground plane");
        continue;
      }
      if (++planes > 1) {
        out.push_back(name + " is a second plane: softgrad has one ground plane");
        continue;
      }
      if (std::fabs(d->geom_xmat[9 * g + 8] - 1.0) > 1e-12)
        out.push_back(name + " is tilted: softgrad's ground plane is level (normal +z)");
    } else if (!body_shape(type)) {
      out.push_back(name + " on a free body is not supported (sphere, capsule, box, cylinder, ellipsoid)");
      continue;
    }
    if (m->geom_condim[g] != 1 && m->geom_condim[g] != 3)
      out.push_back(name + ": condim " + std::to_string(m->geom_condim[g]) + " is not supported (1 or 3)");
    if (m->geom_gap[g] != 0.0) out.push_back(name + ": gap is not supported");
  }
}

bool collide(const mjModel* m, int a, int b) {
  return (m->geom_contype[a] & m->geom_conaffinity[b]) || (m->geom_contype[b] & m->geom_conaffinity[a]);
}

int static_plane(const mjModel* m) {
  for (int g = 0; g < m->ngeom; ++g)
    if (m->geom_type[g] == mjGEOM_PLANE && is_static(m, m->geom_bodyid[g])) return g;
  return -1;
}

// softgrad has one switch for the plane against every body and one for every body pair, and one pair rule
// (MuJoCo's for equal priority and solmix).
void pair_rules(const mjModel* m, Messages& out) {
  const std::vector<FreeBody> fbs = free_bodies(m);
  if (fbs.empty()) return;
  const int plane = static_plane(m);
  std::vector<int> geoms;
  if (plane >= 0) geoms.push_back(plane);
  for (const FreeBody& fb : fbs) geoms.push_back(fb.geom);
  for (int g : geoms) {
    const std::string name = element(m, mjOBJ_GEOM, g, "geom");
    if (m->geom_priority[g] != m->geom_priority[geoms[0]])
      out.push_back(name + ": priority " + std::to_string(m->geom_priority[g]) + " differs from " +
                    element(m, mjOBJ_GEOM, geoms[0], "geom") +
                    "'s: softgrad combines every pair by MuJoCo's equal-priority rule");
    if (m->geom_solmix[g] != m->geom_solmix[geoms[0]])
      out.push_back(name + ": solmix " + number(m->geom_solmix[g]) + " differs from " +
                    element(m, mjOBJ_GEOM, geoms[0], "geom") + "'s: softgrad averages solref and solimp");
  }
  if (plane >= 0) {
    const bool first = collide(m, plane, fbs[0].geom);
    for (const FreeBody& fb : fbs)
      if (collide(m, plane, fb.geom) != first) {
        out.push_back(element(m, mjOBJ_GEOM, fb.geom, "geom") + (first ? " does not collide" : " collides") +
                      " with " + element(m, mjOBJ_GEOM, plane, "geom") + " (contype/conaffinity) unlike " +
                      element(m, mjOBJ_GEOM, fbs[0].geom, "geom") +
                      ": softgrad's plane collides with every body or none");
        break;
      }
  }
  if (fbs.size() < 2) return;
  const bool first = collide(m, fbs[0].geom, fbs[1].geom);
  for (std::size_t i = 0; i < fbs.size(); ++i)
    for (std::size_t j = i + 1; j < fbs.size(); ++j)
      if (collide(m, fbs[i].geom, fbs[j].geom) != first) {
        out.push_back(
            element(m, mjOBJ_GEOM, fbs[i].geom, "geom") + " and " +
            element(m, mjOBJ_GEOM, fbs[j].geom, "geom") + (first ? " do not collide" : " collide") +
            " (contype/conaffinity) unlike other body pairs: softgrad's model.collide_bodies is one "
            "switch for every pair");
        return;
      }
}

void options(const mjModel* m, Messages& out) {
  const mjOption& o = m->opt;
  if (o.integrator == mjINT_IMPLICIT)
    out.push_back("option integrator \"implicit\" is not supported (Euler or RK4)");
  if (o.collision != mjCOL_ALL)
    out.push_back(std::string("option collision \"") +
                  (o.collision == mjCOL_PAIR ? "predefined" : "dynamic") +
                  "\" is not supported by free bodies (all; a joint tree takes it)");
  if (o.density != 0.0 || o.viscosity != 0.0)
    out.push_back("option density and viscosity: fluid forces are not supported");
  if (o.noslip_iterations != 0) out.push_back("option noslip_iterations: the noslip solver is not supported");
  if (o.enableflags & mjENBL_OVERRIDE)
    out.push_back(
        "option flag override: contact parameter overrides are not supported (set the geoms' "
        "margin, solref and solimp)");
  if (const std::string why = convex_collider_options(o); !why.empty()) out.push_back(why);
}

}  // namespace

std::vector<std::string> unsupported(const mjModel* m, const mjData* d) {
  Messages out;
  options(m, out);
  element_lists(m, out);
  joints(m, out);
  bodies(m, out);
  geoms(m, d, out);
  if (out.empty()) {  // these read the bodies and geoms the checks above admitted
    pair_rules(m, out);
    mass_frames(m, out);
  }
  if (out.empty() && free_bodies(m).empty())
    out.push_back("the model has no free body (a body under worldbody with a <freejoint/> and one geom)");
  return out;
}

}  // namespace sg::mjcf
