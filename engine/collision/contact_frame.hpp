#pragma once
// Tangent frame around a contact normal. No tangent field on the sphere of normals is continuous
// everywhere (hairy-ball theorem), so some jump is unavoidable; the two modes place it differently:
// - exact: MuJoCo's mju_makeFrame: seed (0,1,0) if |n_y| < 0.5, otherwise (0,0,1); jumps at |n_y| = 0.5.
// - smooth: always seed (0,1,0); identical to MuJoCo wherever |n_y| < 0.5 (every upward plane normal,
//   all horizontal normals within 60 degrees of x) and continuous everywhere except at n = +-y.
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

template <class S>
SG_HD inline void make_contact_frame(const Vec3<S>& normal, bool smooth, Vec3<S>* frame) {
  const Vec3<S> ey(S(0.0), S(1.0), S(0.0));
  const Vec3<S> ez(S(0.0), S(0.0), S(1.0));
  const double ny = value(normal.y);
  const bool use_y = smooth || (ny < 0.5 && ny > -0.5);
  Vec3<S> t = use_y ? ey : ez;
  t -= normal * dot(normal, t);
  if (value(norm2(t)) < 1e-20) {  // smooth mode with n = +-y: the one unavoidable singular direction
    t = ez - normal * dot(normal, ez);
  }
  t = t / norm(t);
  frame[0] = normal;
  frame[1] = t;
  frame[2] = cross(normal, t);
}

}  // namespace sg
