#pragma once
// What the constraint stage needs beyond the smooth tree (TreeModel): geoms on the bodies, joint limits,
// the inverse weights MuJoCo's compiler computes at qpos0 (mj_setConst: body_invweight0, dof_invweight0, the
// diagonal approximation R starts from) and the solver options. A separate struct, so that TreeModel and
// everything built on it stay as they are.
#include <cmath>

#include "engine/articulated/tendon_model.hpp"
#include "engine/articulated/tree_hfield.hpp"
#include "engine/articulated/tree_mesh.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/collision/geom_type.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/contact/cfd.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

inline constexpr int kMaxTreeGeoms = 128;
inline constexpr int kMaxTreeExcludes = 32;  // body pairs that never collide (MuJoCo's <exclude>)
inline constexpr int kMaxTreeEqualities = 16;
inline constexpr int kMaxTreeFrictionRows = 16;  // dofs and tendons with frictionloss > 0 (refused beyond)
inline constexpr int kMaxTreePairs = 32;         // explicit geom pairs (MuJoCo's <contact><pair>)

template <class S>
struct TreeGeom {
  GeomType type = GeomType::sphere;
  int body = 0;
  int contype = 1, conaffinity = 1;
  int condim = 3;
  int priority = 0;
  Vec3<S> size{};  // MuJoCo's size vector
  Vec3<S> pos{};   // frame in the body frame
  Quat<S> quat{};
  S rbound{};  // bounding sphere radius (0 for a plane), a cheap filter before the narrow phase
  S friction[3] = {S(1.0), S(0.005), S(0.0001)};
  S solmix = S(1.0);
  S solref[2] = {S(0.02), S(1.0)};
  S solimp[5] = {S(0.9), S(0.95), S(0.001), S(0.5), S(2.0)};
  S margin{}, gap{};
  const TreeMesh* mesh = nullptr;      // type mesh: its vertices and hull (size then holds its aabb)
  const TreeHField* hfield = nullptr;  // type hfield: its grid (size then holds MuJoCo's geom size)
};

// An explicit geom pair (MuJoCo's <contact><pair>): collided whatever the geoms' contype, conaffinity,
// bodies and excludes say, with its own contact parameters instead of the geoms' mix.
template <class S>
struct TreePair {
  int geom1 = 0, geom2 = 0;  // indices in TreeConstraintModel::geom
  int condim = 3;
  S friction[5] = {S(1.0), S(1.0), S(0.005), S(0.0001), S(0.0001)};  // two sliding, torsional, two rolling
  S solref[2] = {S(0.02), S(1.0)};
  S solimp[5] = {S(0.9), S(0.95), S(0.001), S(0.5), S(2.0)};
  S margin{}, gap{};
};

// A hinge's, slide's or tendon's limit: rows when qpos (the tendon's length) is within margin of range[0] or
// range[1].
template <class S>
struct TreeLimit {
  bool limited = false;
  S range[2] = {};
  S margin{};
  S solref[2] = {S(0.02), S(1.0)};
  S solimp[5] = {S(0.9), S(0.95), S(0.001), S(0.5), S(2.0)};
};

// MuJoCo's equality constraints (mjtEq's values): connect (two bodies share a point, 3 rows), weld (two
// bodies keep their relative pose, 6 rows), joint and tendon (obj1's coordinate or length follows a quartic
// of obj2's, 1 row). Rows always act (no active set); solref and solimp as a contact's.
enum class EqualityType : int { kConnect = 0, kWeld = 1, kJoint = 2, kTendon = 3 };

template <class S>
struct TreeEquality {
  EqualityType type = EqualityType::kJoint;
  // connect, weld: tree bodies (0: the world); joint: tree joints (hinge or slide); tendon: tendons. obj2 -1:
  // none (joint, tendon: obj1 held at its qpos0 or length0 plus polycoef[0]).
  int obj1 = 0, obj2 = -1;
  // The shared point in body1's and in body2's frames (MuJoCo's eq_data 0-2 and 3-5 for connect, 3-5 and 0-2
  // for weld): connect gives it in body1's frame, weld in body2's, and the compiler puts it in the other
  // body's frame where it sits at qpos0 (mj_setConst; tree_constraint_setconst).
  Vec3<S> anchor1{}, anchor2{};
  // weld: body2's orientation relative to body1's that the weld keeps (MuJoCo's relpose quaternion, eq_data
  // 6-9; all zero: the one at qpos0, anchor1 then computed too), and the rotation rows' scale (torquescale,
  // eq_data 10).
  Quat<S> relpose{S(0.0), S(0.0), S(0.0), S(0.0)};
  S torquescale = S(1.0);
  // joint, tendon: x1 - x1_0 = sum_k polycoef[k] (x2 - x2_0)^k (without obj2: x1 - x1_0 = polycoef[0]).
  S polycoef[5] = {S(0.0), S(1.0), S(0.0), S(0.0), S(0.0)};
  S solref[2] = {S(0.02), S(1.0)};
  S solimp[5] = {S(0.9), S(0.95), S(0.001), S(0.5), S(2.0)};
};

// MuJoCo's opt.collision: which geom pairs mj_collision tests. all: the explicit pairs merged with the
// broad-phase filter's; predefined: the explicit pairs only (excludes play no part); dynamic: the filter's
// only (explicit pairs ignored).
enum class TreeCollisionSet { all, predefined, dynamic };

struct TreeConstraintOptions {
  double timestep = 0.002;  // refsafe: solref[0] >= 2 timestep
  bool refsafe = true;
  bool filterparent = true;  // bodies do not collide with their (welded) parent
  TreeCollisionSet collision = TreeCollisionSet::all;
  bool contact = true;
  bool limit = true;
  bool equality = true;
  bool frictionloss = true;  // MuJoCo's mjDSBL_FRICTIONLOSS off
  // contact.model "hard": contacts act as impulses of Moreau's midpoint step (engine/articulated/
  // hard_contact.hpp), not as MuJoCo's rows (contact is then false).
  bool hard = false;
  int hard_iterations = 10;  // Gauss-Seidel sweeps
  bool elliptic = false;  // MuJoCo's cone="elliptic": a contact's rows are its frame's, one cone per contact
  int iterations = 100;
  double tolerance = 1e-8;
  // The narrow phase's detector (engine/collision/shapes.hpp): MuJoCo's exact one unless free bodies run as a
  // tree with smooth (softness > 0) or DiffMJX collision.
  double collision_softness = 0.0;
  Detector detector = Detector::softgrad;
};

// A dof's or tendon's friction loss (MuJoCo's frictionloss with solreffriction, solimpfriction): a row
// whose force is bounded by frictionloss, quadratic (a soft constraint holding the velocity) inside the
// bound.
template <class S>
struct TreeFrictionLoss {
  S frictionloss{};  // rows only where > 0
  S solref[2] = {S(0.02), S(1.0)};
  S solimp[5] = {S(0.9), S(0.95), S(0.001), S(0.5), S(2.0)};
};

template <class S>
struct TreeConstraintModel {
  int ngeom = 0;
  TreeGeom<S> geom[kMaxTreeGeoms];
  int nexclude = 0;
  int exclude[kMaxTreeExcludes][2] = {};  // body pairs (0: the world), the smaller id first
  int npair = 0;
  TreePair<S> pair[kMaxTreePairs];
  TreeLimit<S> limit[kMaxJoints];
  TreeLimit<S> tendon_limit[kMaxTendons];  // by tendon (the tendons are the actuator model's)
  TreeFrictionLoss<S> dof_friction[kMaxDofs];
  TreeFrictionLoss<S> tendon_friction[kMaxTendons];
  S body_invweight0[kMaxTreeBodies][2] = {};  // translation, rotation
  S dof_invweight0[kMaxDofs] = {};
  // Equality constraints, and the tendons' lengths and inverse weights at qpos0 their rows start from
  // (mj_setConst's tendon_length0, tendon_invweight0: tree_constraint_setconst).
  int neq = 0;
  TreeEquality<S> eq[kMaxTreeEqualities];
  S tendon_length0[kMaxTendons] = {};
  S tendon_invweight0[kMaxTendons] = {};
  TreeConstraintOptions opt;
  // MuJoCo's opt.impratio (frictional over normal impedance): a number of the model, so it can be swept and
  // differentiated like the geoms' solref.
  S impratio = S(1.0);
  // The hard contact's sigmoid stiffness kappa (inf: hard), a number of the model (contact.hard.kappa).
  S hard_kappa = S(kInf);
  // Contacts From Distance: the laws a CFD stage (tree_forward_constrained's `cfd`) gives contact rows.
  CfdParams<S> cfd;
};

// MuJoCo's geom_rbound, the bounding-sphere radius its compiler gives a geom (a plane: 0, no bound): a filter
// before the narrow phase, so a value without derivatives.
inline double tree_geom_rbound(GeomType t, const Vec3<double>& s) {
  switch (t) {
    case GeomType::sphere:
      return s.x;
    case GeomType::capsule:
      return s.x + s.y;
    case GeomType::cylinder:
      return std::sqrt(s.x * s.x + s.y * s.y);
    case GeomType::box:
    case GeomType::mesh:  // s: the mesh's aabb
      return std::sqrt(dot(s, s));
    case GeomType::ellipsoid:
      return std::fmax(s.x, std::fmax(s.y, s.z));
    case GeomType::plane:
    case GeomType::hfield:  // MuJoCo's compiler gives it none: every geom is tested against it
      break;
  }
  return 0.0;
}

// MuJoCo's body_weldid: the body itself if it has dofs, else the body it is welded to (0: the world).
template <class S>
int tree_weld_id(const TreeModel<S>& m, int b) {
  while (b > 0 && m.body[b].dof_num == 0) b = m.body[b].parent;
  return b;
}

}  // namespace sg

namespace sg {

// The same constraint model over another scalar, values only (a double model lifted to duals or the tape, to
// seed a parameter; or back).
template <class T, class S>
void tree_constraint_convert(const TreeConstraintModel<S>& in, TreeConstraintModel<T>& out) {
  const auto vec = [](const Vec3<S>& v) { return Vec3<T>(T(value(v.x)), T(value(v.y)), T(value(v.z))); };
  out.ngeom = in.ngeom;
  out.opt = in.opt;
  out.impratio = T(value(in.impratio));
  out.hard_kappa = T(value(in.hard_kappa));
  out.cfd = convert_cfd<T>(in.cfd);
  out.nexclude = in.nexclude;
  for (int e = 0; e < in.nexclude; ++e)
    out.exclude[e][0] = in.exclude[e][0], out.exclude[e][1] = in.exclude[e][1];
  out.npair = in.npair;
  for (int p = 0; p < in.npair; ++p) {
    const TreePair<S>& a = in.pair[p];
    TreePair<T>& b = out.pair[p];
    b.geom1 = a.geom1, b.geom2 = a.geom2, b.condim = a.condim;
    for (int k = 0; k < 5; ++k) b.friction[k] = T(value(a.friction[k])), b.solimp[k] = T(value(a.solimp[k]));
    for (int k = 0; k < 2; ++k) b.solref[k] = T(value(a.solref[k]));
    b.margin = T(value(a.margin)), b.gap = T(value(a.gap));
  }
  for (int g = 0; g < in.ngeom; ++g) {
    const TreeGeom<S>& a = in.geom[g];
    TreeGeom<T>& b = out.geom[g];
    b.type = a.type, b.body = a.body, b.contype = a.contype, b.conaffinity = a.conaffinity;
    b.condim = a.condim, b.priority = a.priority;
    b.size = vec(a.size), b.pos = vec(a.pos), b.rbound = T(value(a.rbound)), b.mesh = a.mesh;
    b.hfield = a.hfield;
    b.quat = Quat<T>(T(value(a.quat.w)), T(value(a.quat.x)), T(value(a.quat.y)), T(value(a.quat.z)));
    for (int k = 0; k < 3; ++k) b.friction[k] = T(value(a.friction[k]));
    b.solmix = T(value(a.solmix)), b.margin = T(value(a.margin)), b.gap = T(value(a.gap));
    for (int k = 0; k < 2; ++k) b.solref[k] = T(value(a.solref[k]));
    for (int k = 0; k < 5; ++k) b.solimp[k] = T(value(a.solimp[k]));
  }
  const auto limit = [](const TreeLimit<S>& a, TreeLimit<T>& b) {
    b.limited = a.limited, b.margin = T(value(a.margin));
    for (int k = 0; k < 2; ++k) b.range[k] = T(value(a.range[k])), b.solref[k] = T(value(a.solref[k]));
    for (int k = 0; k < 5; ++k) b.solimp[k] = T(value(a.solimp[k]));
  };
  for (int j = 0; j < kMaxJoints; ++j) limit(in.limit[j], out.limit[j]);
  for (int t = 0; t < kMaxTendons; ++t) limit(in.tendon_limit[t], out.tendon_limit[t]);
  const auto friction = [](const TreeFrictionLoss<S>& a, TreeFrictionLoss<T>& b) {
    b.frictionloss = T(value(a.frictionloss));
    for (int k = 0; k < 2; ++k) b.solref[k] = T(value(a.solref[k]));
    for (int k = 0; k < 5; ++k) b.solimp[k] = T(value(a.solimp[k]));
  };
  for (int v = 0; v < kMaxDofs; ++v) friction(in.dof_friction[v], out.dof_friction[v]);
  for (int t = 0; t < kMaxTendons; ++t) friction(in.tendon_friction[t], out.tendon_friction[t]);
  out.neq = in.neq;
  for (int e = 0; e < in.neq; ++e) {
    const TreeEquality<S>& a = in.eq[e];
    TreeEquality<T>& b = out.eq[e];
    b.type = a.type, b.obj1 = a.obj1, b.obj2 = a.obj2;
    b.anchor1 = vec(a.anchor1), b.anchor2 = vec(a.anchor2);
    b.relpose =
        Quat<T>(T(value(a.relpose.w)), T(value(a.relpose.x)), T(value(a.relpose.y)), T(value(a.relpose.z)));
    b.torquescale = T(value(a.torquescale));
    for (int k = 0; k < 5; ++k) b.polycoef[k] = T(value(a.polycoef[k])), b.solimp[k] = T(value(a.solimp[k]));
    for (int k = 0; k < 2; ++k) b.solref[k] = T(value(a.solref[k]));
  }
  for (int t = 0; t < kMaxTendons; ++t) {
    out.tendon_length0[t] = T(value(in.tendon_length0[t]));
    out.tendon_invweight0[t] = T(value(in.tendon_invweight0[t]));
  }
  for (int b = 0; b < kMaxTreeBodies; ++b)
    for (int k = 0; k < 2; ++k) out.body_invweight0[b][k] = T(value(in.body_invweight0[b][k]));
  for (int v = 0; v < kMaxDofs; ++v) out.dof_invweight0[v] = T(value(in.dof_invweight0[v]));
}

}  // namespace sg
