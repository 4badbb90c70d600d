#pragma once
// Spring-damper penalty contact: f = k pen - c v_n while penetrating (pen = -r > 0), zero otherwise.
// The DiffMJX toy uses k = 50, c = 1 on a unit mass.
#include "engine/core/scalar.hpp"

namespace sg {

// r: signed distance (negative inside), vn: normal velocity (negative approaching).
template <class S>
SG_HD inline S penalty_normal_force(const S& k, const S& c, const S& r, const S& vn) {
  if (!(r < 0.0)) return S(0.0);
  return -k * r - c * vn;
}

}  // namespace sg
