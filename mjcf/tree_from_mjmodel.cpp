#include "mjcf/tree_from_mjmodel.hpp"

#include <string>

namespace sg::mjcf {
namespace {

Vec3<double> vec3_at(const mjtNum* p) {
  return {p[0], p[1], p[2]};
}

Quat<double> quat_at(const mjtNum* p) {
  return {p[0], p[1], p[2], p[3]};
}

// Sizes, features the smooth tree cannot represent, and joint types.
std::string refusal(const mjModel* m) {
  if (m->nbody > kMaxTreeBodies) return "too many bodies: " + std::to_string(m->nbody);
  if (m->njnt > kMaxJoints) return "too many joints: " + std::to_string(m->njnt);
  if (m->nv > kMaxDofs || m->nq > kMaxQpos) return "too many dofs: nv = " + std::to_string(m->nv);
  for (int g = 0; g < m->ngeom; ++g)
    if (m->geom_fluid[mjNFLUID * g] > 0)
      return "geom " + std::to_string(g) + " has the ellipsoid fluid model";
  for (int t = 0; t < m->ntendon; ++t)
    if (m->tendon_stiffness[t] != 0 || m->tendon_damping[t] != 0)
      return "tendon " + std::to_string(t) + " has a spring or damper: tendons are not supported";
  for (int i = 1; i < m->nbody; ++i) {
    if (m->body_mocapid[i] >= 0) return "body " + std::to_string(i) + " is a mocap body";
    if (m->body_parentid[i] >= i) return "body " + std::to_string(i) + " precedes its parent";
  }
  for (int j = 0; j < m->njnt; ++j) {
    const int t = m->jnt_type[j], b = m->jnt_bodyid[j];
    if (t != mjJNT_FREE && t != mjJNT_BALL && t != mjJNT_SLIDE && t != mjJNT_HINGE)
      return "joint " + std::to_string(j) + " has unknown type " + std::to_string(t);
    if (t == mjJNT_FREE && m->body_jntnum[b] != 1)
      return "free joint " + std::to_string(j) + " shares its body with other joints";
  }
  return {};
}

// Body i and its joints, appended in MuJoCo's order.
std::string add_body(const mjModel* m, int i, TreeModel<double>& out) {
  const int b =
      tree_add_body(out, m->body_parentid[i], vec3_at(m->body_pos + 3 * i), quat_at(m->body_quat + 4 * i));
  if (b != i) return "body " + std::to_string(i) + " could not be added";
  TreeBody<double>& body = out.body[b];
  body.ipos = vec3_at(m->body_ipos + 3 * i);
  body.iquat = quat_at(m->body_iquat + 4 * i);
  body.mass = m->body_mass[i];
  body.inertia = vec3_at(m->body_inertia + 3 * i);
  for (int j = m->body_jntadr[i]; j < m->body_jntadr[i] + m->body_jntnum[i]; ++j) {
    const int k = tree_add_joint(out, b, static_cast<JointType>(m->jnt_type[j]), vec3_at(m->jnt_pos + 3 * j),
                                 vec3_at(m->jnt_axis + 3 * j));
    if (k != j || out.joint[k].qpos_adr != m->jnt_qposadr[j] || out.joint[k].dof_adr != m->jnt_dofadr[j])
      return "joint " + std::to_string(j) + " does not follow MuJoCo's qpos / dof layout";
    out.joint[k].stiffness = m->jnt_stiffness[j];
  }
  return {};
}

// The dof-level parameters and configurations, checked against MuJoCo's own tree.
std::string copy_dofs(const mjModel* m, TreeModel<double>& out) {
  if (out.nq != m->nq || out.nv != m->nv) return "qpos or qvel sizes differ from MuJoCo's";
  for (int v = 0; v < m->nv; ++v) {
    if (out.dof_parent[v] != m->dof_parentid[v] || out.dof_body[v] != m->dof_bodyid[v])
      return "dof " + std::to_string(v) + " has another parent than in MuJoCo";
    out.armature[v] = m->dof_armature[v];
    out.damping[v] = m->dof_damping[v];
  }
  for (int q = 0; q < m->nq; ++q) {
    out.qpos0[q] = m->qpos0[q];
    out.qpos_spring[q] = m->qpos_spring[q];
  }
  return {};
}

// The medium and gravity; mj_passive and mj_rne skip what the disable flags turn off.
void apply_disable_flags(const mjModel* m, TreeModel<double>& out) {
  out.gravity = vec3_at(m->opt.gravity);
  if (m->opt.disableflags & mjDSBL_GRAVITY) out.gravity = {0.0, 0.0, 0.0};
  out.density = m->opt.density, out.viscosity = m->opt.viscosity, out.wind = vec3_at(m->opt.wind);
  if (m->opt.disableflags & mjDSBL_PASSIVE) {
    out.density = out.viscosity = 0.0;
    for (int j = 0; j < out.njnt; ++j) out.joint[j].stiffness = 0.0;
    for (int v = 0; v < out.nv; ++v) out.damping[v] = 0.0;
  }
}

std::string map_tree(const mjModel* m, TreeModel<double>& out) {
  if (!m) return "no model";
  if (std::string why = refusal(m); !why.empty()) return why;
  out = TreeModel<double>{};
  for (int i = 1; i < m->nbody; ++i)
    if (std::string why = add_body(m, i, out); !why.empty()) return why;
  if (std::string why = copy_dofs(m, out); !why.empty()) return why;
  apply_disable_flags(m, out);
  return {};
}

}  // namespace

std::string tree_from_mjmodel(const mjModel* m, TreeModel<double>& out) {
  // A failed allocation while composing a message is the only thing that can throw: keep it inside.
  try {
    return map_tree(m, out);
  } catch (...) {
    return "out of memory";
  }
}

}  // namespace sg::mjcf
