#pragma once
// Writing one contact: shared by every pair so the conventions (normal from geom 1 to geom 2, position
// midway between the surfaces, the tangent frame) live in one place.
#include "engine/collision/contact_frame.hpp"
#include "engine/collision/shapes.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

// `deepest` is the point of geom 2 deepest along -normal; the contact sits dist/2 behind it.
// Returns 1 if the contact was written (dist <= margin), else 0. feature: see Contact.
template <class S>
SG_HD inline int emit_contact(const S& dist, const Vec3<S>& deepest, const Vec3<S>& normal,
                              const CollisionOptions& opt, Contact<S>* out, int feature = 0) {
  if (dist > opt.margin) return 0;
  out->feature = feature;
  out->dist = dist;
  out->pos = deepest - normal * (dist * 0.5);
  make_contact_frame(normal, smooth_proxies(opt), out->frame);
  return 1;
}

}  // namespace sg
