#pragma once
// Free bodies as a joint tree (model.run_as "tree"): each body of a RigidModel becomes a tree body under the
// world with one free joint and its geom at the body's origin, and the plane a world geom, so that the
// articulated engine (TreeSystem, MuJoCo's pipeline) runs today's free-body scenes with the same numbers.
// The step towards one model (docs/engine.md, "One model"). Built once per run in the run's scalar, so that
// derivatives with respect to sizes, densities, masses, surfaces and the start flow into the tree.
#include <cmath>
#include <memory>

#include "engine/model/joint_tree_model.hpp"
#include "engine/model/rigid_model.hpp"
#include "engine/rigid/body_state.hpp"

namespace sg {

namespace rigid_tree_detail {

// A free body's surface as a geom on tree body `body`. The contact types keep bodies off each other when the
// model says so: bodies (1, 2) and the plane (2, 1) collide only across, all (1, 1) otherwise.
template <class S>
SG_HD void set_geom(TreeGeom<S>& g, GeomType type, int body, const Vec3<S>& size, const Surface<S>& s,
                    bool collide_bodies) {
  g = TreeGeom<S>{};
  g.type = type;
  g.body = body;
  const bool plane = type == GeomType::plane;
  g.contype = collide_bodies || !plane ? 1 : 2;
  g.conaffinity = collide_bodies || plane ? 1 : 2;
  g.condim = s.condim;
  g.size = size;
  g.quat = Quat<S>(S(1.0), S(0.0), S(0.0), S(0.0));
  g.rbound = S(tree_geom_rbound(type, Vec3<double>(value(size.x), value(size.y), value(size.z))));
  g.friction[0] = s.friction;
  for (int k = 0; k < 2; ++k) g.solref[k] = s.solref[k];
  for (int k = 0; k < 5; ++k) g.solimp[k] = s.solimp[k];
  g.margin = S(s.margin);
}

// mj_setConst's inverse weights of a lone free body with its centre of mass at the frame's origin: the
// translation's 1/m and the rotation's mean of 1/I over the principal axes, on the body and on the joint's
// translational and rotational dofs. Computed in S (MuJoCo's are constants of the compiled model; here they
// follow the mass, as the free bodies' own rows do).
template <class S>
SG_HD void set_free_weights(TreeConstraintModel<S>& cm, int body, int dof, const BodyMass<S>& mass) {
  const S trans = mass.inverse.inv_mass;
  const Vec3<S>& ii = mass.inverse.inv_inertia;
  const S rot = (ii.x + ii.y + ii.z) * (1.0 / 3.0);
  cm.body_invweight0[body][0] = trans;
  cm.body_invweight0[body][1] = rot;
  for (int k = 0; k < 3; ++k) cm.dof_invweight0[dof + k] = trans, cm.dof_invweight0[dof + 3 + k] = rot;
}

}  // namespace rigid_tree_detail

// m (freshly constructed) becomes r's bodies as a tree: body i is tree body i + 1 with free joint i, whose
// start is the body's pos, Euler orientation, world velocity and body-frame angular velocity, and whose
// damping is the body's (MuJoCo's joint damping acts on all six dofs as the free bodies' damping does).
// Contacts follow contact.model mujoco (none: no contacts) with contact.mujoco's options and contact.cfd;
// timed forces become xfrc_applied; smooth and DiffMJX collision are the narrow phase's detector; the scene
// rules refuse what a tree cannot run (hard contact).
template <class S>
void tree_from_rigid(const RigidModel<S>& r, JointTreeModel<S>& m) {
  using namespace rigid_tree_detail;
  m.tree.gravity = r.gravity;
  const Vec3<S> origin(S(0.0), S(0.0), S(0.0));
  for (int b = 0; b < r.count; ++b) {
    const RigidBody<S>& rb = r.bodies[b];
    const Quat<S> q = from_euler_xyz(rb.euler_deg.x, rb.euler_deg.y, rb.euler_deg.z);
    const int id = tree_add_body(m.tree, 0, rb.pos, q);
    const int j = tree_add_joint(m.tree, id, JointType::kFree, origin, Vec3<S>(S(0.0), S(0.0), S(1.0)));
    const BodyMass<S> mass = body_mass(rb);
    TreeBody<S>& tb = m.tree.body[id];
    tb.mass = mass.mass;
    tb.inertia = mass.inertia;
    tb.iquat = Quat<S>(S(1.0), S(0.0), S(0.0), S(0.0));
    TreeJointParams<S>& p = m.joint[j];
    p.damping = rb.damping;
    p.free_vel = rb.vel;
    p.ball_qvel = rb.angvel;
    set_geom(m.con.geom[m.con.ngeom++], rb.shape, id, rb.size, rb.surface, r.collide_bodies);
    for (int k = 0; k < rb.force_count && m.nforce < kMaxTreeTimedForces; ++k) {
      const TimedForce<S>& f = rb.forces[k];
      m.force[m.nforce++] = {id, f.force, f.torque, f.from_step, f.to_step};
    }
    set_free_weights(m.con, id, m.tree.joint[j].dof_adr, mass);
  }
  tree_index_rotations(m);
  tree_index_activations(m.act);
  if (r.plane_enabled) {
    TreeGeom<S>& plane = m.con.geom[m.con.ngeom++];
    set_geom(plane, GeomType::plane, 0, Vec3<S>(S(1.0), S(1.0), S(0.1)), r.plane, r.collide_bodies);
    plane.pos = Vec3<S>(S(0.0), S(0.0), r.plane_height);
  }
  TreeConstraintOptions& o = m.con.opt;
  o.contact = r.contact == ContactModel::mujoco;
  o.hard = r.contact == ContactModel::hard;
  o.hard_iterations = r.hard.iterations;
  m.con.hard_kappa = r.hard.kappa;
  o.iterations = r.iterations;
  o.refsafe = r.refsafe;
  o.elliptic = r.elliptic;
  o.collision_softness = r.softness;
  o.detector = r.detector;
  m.con.impratio = r.impratio;
  m.con.cfd = r.cfd;
}

// The same on the heap (a JointTreeModel is large), for a run that outlives its system.
template <class S>
std::unique_ptr<JointTreeModel<S>> tree_of_rigid(const RigidModel<S>& r) {
  auto m = std::make_unique<JointTreeModel<S>>();
  tree_from_rigid(r, *m);
  return m;
}

}  // namespace sg
