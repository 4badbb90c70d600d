#pragma once
// A height field geom as the collider sees it: MuJoCo's hfield (its compiled form, hfield_* in mjModel). A
// grid of nrow x ncol elevations in [0, 1] over the rectangle [-size[0], size[0]] x [-size[1], size[1]] of
// the geom's frame, row r at y = -size[1] + 2 size[1] r / (nrow - 1), column c at x likewise; elevation e
// stands at height e size[2], and the solid goes down to -size[3] (the base). Plain pointers into data the
// model owns for the whole run (engine/model/tree_hfield_store.hpp), so that the step allocates nothing.
#include "engine/core/platform.hpp"

namespace sg {

struct HeightField {
  int nrow = 0, ncol = 0;                 // at least 2 each
  double size[4] = {1.0, 1.0, 1.0, 1.0};  // x and y half sizes, top height, base depth (all > 0)
  const double* data = nullptr;  // nrow * ncol elevations in [0, 1], row by row (MuJoCo's hfield_data)
};

// Elevation of grid point (r, c), in m above the geom frame's origin.
SG_HD inline double hfield_height(const HeightField& h, int r, int c) {
  return h.data[r * h.ncol + c] * h.size[2];
}

}  // namespace sg
