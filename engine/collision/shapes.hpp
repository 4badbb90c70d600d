#pragma once
// Plain data shared by all collision functions: a pose, a plane, a contact and the detector options.
#include "engine/collision/geom_type.hpp"
#include "engine/core/mat3.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// Output capacity every collision function may fill. The exact detector writes at most 4 contacts per
// pair (MuJoCo's limit); the smooth detector reports every candidate point inside the margin instead of
// selecting some (box: 8 corners, cylinder: 6 rim points), see docs/collision.md.
inline constexpr int kMaxContactsPerPair = 8;

template <class S>
struct Pose {
  Vec3<S> pos{};
  Quat<S> rot{};  // unit quaternion, local to world
  // rot as a matrix where the caller has it already (a body's decoded state: to_mat3(rot)), else null.
  const Mat3<S>* matrix = nullptr;
};

// The pose's rotation matrix, made from the quaternion unless the caller lent it (the same numbers).
template <class S>
SG_HD inline Mat3<S> rotation_matrix(const Pose<S>& pose) {
  return pose.matrix ? *pose.matrix : to_mat3(pose.rot);
}

// The half space below the plane is solid; `normal` is unit length and points out of it.
template <class S>
struct Plane {
  Vec3<S> point{};
  Vec3<S> normal{S(0.0), S(0.0), S(1.0)};
};

// MuJoCo's contact: frame[0] is the normal pointing from geom 1 to geom 2, frame[1] and frame[2] span
// the tangent plane (right-handed). dist < 0 means penetration; pos is midway between the surfaces.
// feature names the point of the pair the contact belongs to (a box corner, a capsule end, a cylinder rim
// point; 0 for single-contact pairs), so that the same contact can be followed from one state to the next.
template <class S>
struct Contact {
  S dist{};
  Vec3<S> pos{};
  Vec3<S> frame[3]{};
  int feature = 0;
};

// Which detector family. softgrad: the exact detector at softness 0, the smooth proxies above it;
// diffmjx: the plane-box manifold of DiffMJX's MJX fork smoothed by softjax (softness = softjax's
// softness), the other supported pairs (plane-sphere, plane-ellipsoid) exact as in that fork.
enum class Detector : unsigned char { softgrad, diffmjx };

// MPR's settings (engine/collision/mpr.hpp), MuJoCo's defaults: the convex pairs' depth tolerance (metres)
// and the penetration phase's iteration limit (opt.mpr_tolerance, opt.mpr_iterations).
struct MprSettings {
  double tolerance = 1e-6;
  int max_iterations = 50;
};

struct CollisionOptions {
  double margin = 0.0;    // report pairs with dist <= margin (Contacts From Distance needs a width)
  double softness = 0.0;  // 0: exact detector; > 0: smooth detector, a length scale in metres
  Detector detector = Detector::softgrad;
  // A sphere (or a capsule's sphere) whose centre is inside a box: MuJoCo 2.2.2's _SphereBox reports
  // dist = -radius (the joint trees follow mj_forward), softgrad's collider the depth through the nearest
  // face (the position, midway by the depth, and the normal agree).
  bool mujoco_sphere_in_box = false;
  MprSettings mpr{};
  // The pair's own margin when `margin` adds a look-ahead band (CFD), negative when it does not. MPR's result
  // depends on how far it grows the geoms, so a convex pair is collided at its own margin first, as
  // mj_collision does, and grown by `margin` only to find a contact in the band (collide_convex.hpp).
  double pair_margin = -1.0;
};

// The length the smooth proxies use: 0 (exact) unless the softgrad detector has a softness.
SG_HD inline double proxy_softness(const CollisionOptions& opt) {
  return opt.detector == Detector::softgrad ? opt.softness : 0.0;
}

SG_HD inline bool smooth_proxies(const CollisionOptions& opt) {
  return proxy_softness(opt) > 0.0;
}

}  // namespace sg
