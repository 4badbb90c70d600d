#pragma once
// The tendon stages' results, named after mjData's fields (site_xpos, ten_length, ten_J, ten_velocity,
// wrap_xpos). ten_J is dense nten x nv, row-major with leading dimension nv. The path's points are values
// (for drawing only).
#include "engine/articulated/tendon_model.hpp"

namespace sg {

inline constexpr int kMaxWrapPoints = 2 * kMaxWrapObjects;

template <class S>
struct TreeTendonData {
  Vec3<S> site_xpos[kMaxSites];
  S ten_length[kMaxTendons] = {};
  S ten_J[kMaxTendons * kMaxDofs] = {};
  S ten_velocity[kMaxTendons] = {};
  int ten_wrapadr[kMaxTendons] = {};
  int ten_wrapnum[kMaxTendons] = {};
  int nwrap_xpos = 0;
  double wrap_xpos[kMaxWrapPoints][3] = {};
};

}  // namespace sg
