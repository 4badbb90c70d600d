#pragma once
// The joint-tree model of a scene (model.type "tree"): engine/articulated's TreeModel plus what a scene
// says per joint and what a run starts from. Per-joint numbers (damping, armature, springref, the start)
// are held per joint, not per dof, so that every scene key has exactly one slot to differentiate; a run
// expands them onto the dofs (TreeSystem). Scene body i is tree body i + 1 (tree body 0 is the world).
#include <string>

#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/core/scalar.hpp"
#include "engine/model/tree_controls.hpp"

namespace sg {

// model.tree.bodies.N.joints.M: the numbers that are not in TreeJoint.
template <class S>
struct TreeJointParams {
  S damping{}, armature{}, springref{};
  S ref{};           // hinge, slide: qpos0, where the body is at rest
  S qpos{}, qvel{};  // hinge, slide: the start
  Quat<S> ball_qpos{S(1.0), S(0.0), S(0.0), S(0.0)};
  Vec3<S> ball_qvel{};  // local angular velocity, as MuJoCo's ball qvel (a free joint's qvel 3..5)
  Vec3<S> free_vel{};   // free: world linear velocity (qvel 0..2); its start position is the body's pos
  S frictionloss{};     // each of the joint's dofs' (TreeConstraintModel::dof_friction, set per run)
};

// A world-frame force and torque at tree body `body`'s centre of mass (MuJoCo's xfrc_applied) during output
// steps from_step <= i < to_step: the free bodies' timed forces (engine/model/tree_from_rigid.hpp).
inline constexpr int kMaxTreeTimedForces = 32;
template <class S>
struct TreeTimedForce {
  int body = 0;
  Vec3<S> force{}, torque{};
  int from_step = 0, to_step = 1;
};

template <class S>
struct JointTreeModel {
  // The ODE state: qpos (quaternions held fixed within a step), a rotation vector per ball or free joint,
  // qvel, the actuators' activations.
  static constexpr int kMaxDim = kMaxQpos + 3 * kMaxJoints + kMaxDofs + kMaxActuators;

  TreeModel<S> tree;
  TreeJointParams<S> joint[kMaxJoints];
  // model.tree.actuators: MuJoCo's actuators on joints, tendons, sites and slider-cranks (and
  // model.tree.sites and model.tree.tendons, in act.ten), each one's control and, with dynamics, its start
  // activation (scene numbers, so they are here and differentiable, not in TreeActuatorData), by actuator.
  TreeActuatorModel<S> act;
  S ctrl[kMaxActuators] = {};
  S act0[kMaxActuators] = {};
  // The control section: knots that replace an actuator's constant ctrl, output step by output step.
  TreeControls<S> controls;
  int nforce = 0;
  TreeTimedForce<S> force[kMaxTreeTimedForces];
  // Hinge and slide limits (model.tree.bodies.N.joints.M.limited, range, ...) by joint, with the inverse
  // weights at qpos0 that their rows start from (computed in double when the model is built).
  TreeConstraintModel<S> con;
  int rot_count = 0;             // ball and free joints
  int rot_adr[kMaxJoints] = {};  // each one's first phi index after qpos; -1 for hinge and slide

  SG_HD int bodies() const { return tree.nbody - 1; }
  SG_HD int dim() const { return tree.nq + 3 * rot_count + tree.nv + act.na; }
  SG_HD int vel_offset() const { return tree.nq + 3 * rot_count; }
  SG_HD int act_offset() const { return vel_offset() + tree.nv; }
  // Whether a step needs the constraint stage (tree_forward_constrained) rather than the smooth one.
  SG_HD bool constrained() const {
    if (con.ngeom > 0 || con.neq > 0) return true;
    for (int j = 0; j < tree.njnt; ++j)
      if (con.limit[j].limited) return true;
    for (int t = 0; t < act.ten.ntendon; ++t)
      if (con.tendon_limit[t].limited || value(con.tendon_friction[t].frictionloss) > 0.0) return true;
    return friction_rows() > 0;
  }
  // The friction-loss rows: every dof of a joint whose frictionloss is > 0, every such tendon.
  SG_HD int friction_rows() const {
    int n = 0;
    for (int j = 0; j < tree.njnt; ++j)
      if (value(joint[j].frictionloss) > 0.0) n += joint_dof_count(tree.joint[j].type);
    for (int t = 0; t < act.ten.ntendon; ++t) n += value(con.tendon_friction[t].frictionloss) > 0.0 ? 1 : 0;
    return n;
  }
};

// The wrap geoms' copies in the tendon model from the constraint model's geoms they stand for (frame and
// radius, with whatever derivatives those carry).
template <class S>
void tree_sync_wrap_geoms(const TreeConstraintModel<S>& con, TreeTendonModel<S>& tm) {
  for (int i = 0; i < tm.ngeom; ++i) {
    TreeWrapGeom<S>& w = tm.geom[i];
    if (w.source < 0 || w.source >= con.ngeom) continue;
    const TreeGeom<S>& g = con.geom[w.source];
    w.body = g.body, w.pos = g.pos, w.quat = g.quat, w.radius = g.size.x;
  }
}

// After the joints are added: where each rotating joint's phi lives.
template <class S>
void tree_index_rotations(JointTreeModel<S>& m) {
  m.rot_count = 0;
  for (int j = 0; j < m.tree.njnt; ++j) {
    const JointType t = m.tree.joint[j].type;
    const bool rotates = t == JointType::kBall || t == JointType::kFree;
    m.rot_adr[j] = rotates ? m.tree.nq + 3 * m.rot_count++ : -1;
  }
}

namespace tree_detail {
template <class T, class S>
Vec3<T> vec(const Vec3<S>& v) {
  return {T(value(v.x)), T(value(v.y)), T(value(v.z))};
}
template <class T, class S>
Quat<T> quat(const Quat<S>& q) {
  return {T(value(q.w)), T(value(q.x)), T(value(q.y)), T(value(q.z))};
}
}  // namespace tree_detail

// The actuators, tendons and controls over another scalar, values only.
template <class T, class S>
void convert_actuators(const JointTreeModel<S>& in, JointTreeModel<T>& out) {
  tree_actuator_convert(in.act, out.act);
  for (int i = 0; i < in.act.nu; ++i) out.ctrl[i] = T(value(in.ctrl[i])), out.act0[i] = T(value(in.act0[i]));
  const TreeControls<S>& a = in.controls;
  TreeControls<T>& b = out.controls;
  b.interpolation = a.interpolation, b.steps = a.steps, b.total = a.total;
  for (int i = 0; i < kMaxActuators; ++i) b.count[i] = a.count[i], b.first[i] = a.first[i];
  for (int k = 0; k < a.total; ++k) b.knot[k] = T(value(a.knot[k]));
}

// The same model over another scalar, values only (a parameter's tangent is seeded afterwards).
template <class T, class S>
JointTreeModel<T> convert_model(const JointTreeModel<S>& in) {
  using tree_detail::quat;
  using tree_detail::vec;
  JointTreeModel<T> out;
  const TreeModel<S>& a = in.tree;
  TreeModel<T>& b = out.tree;
  b.nbody = a.nbody, b.njnt = a.njnt, b.nq = a.nq, b.nv = a.nv;
  for (int i = 0; i < a.nbody; ++i) {
    const TreeBody<S>& x = a.body[i];
    TreeBody<T>& y = b.body[i];
    y.parent = x.parent, y.root = x.root, y.jnt_adr = x.jnt_adr, y.jnt_num = x.jnt_num;
    y.dof_adr = x.dof_adr, y.dof_num = x.dof_num;
    y.pos = vec<T>(x.pos), y.quat = quat<T>(x.quat), y.ipos = vec<T>(x.ipos), y.iquat = quat<T>(x.iquat);
    y.mass = T(value(x.mass)), y.inertia = vec<T>(x.inertia);
  }
  for (int j = 0; j < a.njnt; ++j) {
    const TreeJoint<S>& x = a.joint[j];
    TreeJoint<T>& y = b.joint[j];
    y.type = x.type, y.body = x.body, y.qpos_adr = x.qpos_adr, y.dof_adr = x.dof_adr;
    y.pos = vec<T>(x.pos), y.axis = vec<T>(x.axis), y.stiffness = T(value(x.stiffness));
    const TreeJointParams<S>& p = in.joint[j];
    out.joint[j] = {T(value(p.damping)), T(value(p.armature)),    T(value(p.springref)), T(value(p.ref)),
                    T(value(p.qpos)),    T(value(p.qvel)),        quat<T>(p.ball_qpos),  vec<T>(p.ball_qvel),
                    vec<T>(p.free_vel),  T(value(p.frictionloss))};
    out.rot_adr[j] = in.rot_adr[j];
  }
  for (int v = 0; v < a.nv; ++v) {
    b.dof_body[v] = a.dof_body[v], b.dof_joint[v] = a.dof_joint[v], b.dof_parent[v] = a.dof_parent[v];
    b.armature[v] = T(value(a.armature[v])), b.damping[v] = T(value(a.damping[v]));
  }
  for (int q = 0; q < a.nq; ++q)
    b.qpos0[q] = T(value(a.qpos0[q])), b.qpos_spring[q] = T(value(a.qpos_spring[q]));
  b.gravity = vec<T>(a.gravity);
  b.density = T(value(a.density)), b.viscosity = T(value(a.viscosity)), b.wind = vec<T>(a.wind);
  out.rot_count = in.rot_count;
  out.nforce = in.nforce;
  for (int k = 0; k < in.nforce; ++k) {
    const TreeTimedForce<S>& f = in.force[k];
    out.force[k] = {f.body, vec<T>(f.force), vec<T>(f.torque), f.from_step, f.to_step};
  }
  convert_actuators(in, out);
  tree_constraint_convert(in.con, out.con);
  return out;
}

// Calls f(path, S&) for the differentiable numbers of tree body `body`'s geoms, in scene order (`prefix`
// ends in "geoms.").
template <class S, class F>
void visit_geoms(TreeConstraintModel<S>& con, int body, const std::string& prefix, F&& f) {
  int k = 0;
  for (int g = 0; g < con.ngeom; ++g) {
    TreeGeom<S>& geom = con.geom[g];
    if (geom.body != body) continue;
    const std::string p = prefix + std::to_string(k++);
    for (int c = 0; c < 3; ++c) f(p + ".size." + std::to_string(c), geom.size[c]);
    for (int c = 0; c < 3; ++c) f(p + ".pos." + std::to_string(c), geom.pos[c]);
    f(p + ".friction.0", geom.friction[0]);
    for (int c = 0; c < 2; ++c) f(p + ".solref." + std::to_string(c), geom.solref[c]);
    for (int c = 0; c < 5; ++c) f(p + ".solimp." + std::to_string(c), geom.solimp[c]);
  }
}

// Calls f(path, S&) for every differentiable number with its scene path. Every joint visits every key, the
// ones its type does not read included (their gradient is 0), so the list matches the scene's schema.
template <class S, class F>
void visit_model_params(JointTreeModel<S>& m, F&& f) {
  auto vec = [&](const std::string& p, Vec3<S>& v) {
    for (int k = 0; k < 3; ++k) f(p + "." + std::to_string(k), v[k]);
  };
  vec("model.gravity", m.tree.gravity);
  for (int i = 1; i < m.tree.nbody; ++i) {
    TreeBody<S>& b = m.tree.body[i];
    const std::string p = "model.tree.bodies." + std::to_string(i - 1);
    vec(p + ".pos", b.pos);
    f(p + ".mass", b.mass);
    vec(p + ".inertia", b.inertia);
    vec(p + ".ipos", b.ipos);
    for (int k = 0; k < b.jnt_num; ++k) {
      const int j = b.jnt_adr + k;
      const std::string q = p + ".joints." + std::to_string(k);
      TreeJointParams<S>& jp = m.joint[j];
      vec(q + ".pos", m.tree.joint[j].pos);
      f(q + ".stiffness", m.tree.joint[j].stiffness);
      f(q + ".springref", jp.springref);
      f(q + ".ref", jp.ref);
      f(q + ".damping", jp.damping);
      f(q + ".frictionloss", jp.frictionloss);
      f(q + ".armature", jp.armature);
      f(q + ".qpos", jp.qpos);
      f(q + ".qvel", jp.qvel);
      vec(q + ".ball_qvel", jp.ball_qvel);
      vec(q + ".free_vel", jp.free_vel);
    }
    visit_geoms(m.con, i, p + ".geoms.", f);
  }
  for (int i = 0; i < m.act.ten.nsite; ++i)
    vec("model.tree.sites." + std::to_string(i) + ".pos", m.act.ten.site[i].pos);
  for (int i = 0; i < m.act.ten.ntendon; ++i) {
    TreeTendon<S>& t = m.act.ten.tendon[i];
    const std::string p = "model.tree.tendons." + std::to_string(i);
    f(p + ".stiffness", t.stiffness);
    f(p + ".damping", t.damping);
    f(p + ".springlength", t.lengthspring);
    f(p + ".frictionloss", m.con.tendon_friction[i].frictionloss);
  }
  for (int i = 0; i < m.act.nu; ++i) {
    const std::string a = "model.tree.actuators." + std::to_string(i);
    TreeActuator<S>& act = m.act.actuator[i];
    f(a + ".cranklength", act.cranklength);
    f(a + ".ctrl", m.ctrl[i]);
    f(a + ".gear", act.gear[0]);
    for (int k = 0; k < 5; ++k) f(a + ".gear_rest." + std::to_string(k), act.gear[k + 1]);
    f(a + ".act", m.act0[i]);
    for (int k = 0; k < 2; ++k) f(a + ".timeconst." + std::to_string(k), act.dynprm[k]);
  }
  visit_geoms(m.con, 0, "model.tree.world_geoms.", f);
  f("model.tree.fluid.density", m.tree.density);  // the schema's order: after the world's geoms
  f("model.tree.fluid.viscosity", m.tree.viscosity);
  vec("model.tree.fluid.wind", m.tree.wind);
  for (int k = 0; k < m.con.npair; ++k) {  // the schema's order: after the fluid and the excludes
    TreePair<S>& pair = m.con.pair[k];
    const std::string p = "model.tree.pairs." + std::to_string(k);
    for (int c = 0; c < 5; ++c) f(p + ".friction." + std::to_string(c), pair.friction[c]);
    for (int c = 0; c < 2; ++c) f(p + ".solref." + std::to_string(c), pair.solref[c]);
    for (int c = 0; c < 5; ++c) f(p + ".solimp." + std::to_string(c), pair.solimp[c]);
  }
  for (int e = 0; e < m.con.neq; ++e) {
    TreeEquality<S>& eq = m.con.eq[e];
    const std::string p = "model.tree.equalities." + std::to_string(e);
    for (int k = 0; k < 5; ++k) f(p + ".polycoef." + std::to_string(k), eq.polycoef[k]);
    for (int k = 0; k < 2; ++k) f(p + ".solref." + std::to_string(k), eq.solref[k]);
    for (int k = 0; k < 5; ++k) f(p + ".solimp." + std::to_string(k), eq.solimp[k]);
  }
  f("contact.mujoco.impratio", m.con.impratio);
  visit_cfd_params(m.con.cfd, f);
  f("contact.hard.kappa", m.con.hard_kappa);  // the schema's order: after contact.cfd
  // The control section comes after the model and the contact section in the schema.
  for (int i = 0; i < m.act.nu; ++i)
    for (int k = 0; k < m.controls.count[i]; ++k)
      f("control.actuators." + std::to_string(i) + ".knots." + std::to_string(k),
        m.controls.knot[m.controls.first[i] + k]);
}

}  // namespace sg
