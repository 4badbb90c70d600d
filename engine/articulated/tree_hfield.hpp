#pragma once
// A height field of a joint tree (model.tree.hfields): what MuJoCo's compiler makes of an MJCF <hfield>
// (hfield_nrow, hfield_ncol, hfield_size, hfield_data: elevations scaled to [0, 1]). The collider reads it
// through `field` (engine/collision/height_field.hpp), whose pointer addresses `data`; the viewer draws the
// grid. Built once per scene and never changed or freed while a model may point at it
// (engine/model/tree_hfield_store.hpp), so models stay plain copyable data.
#include <string>
#include <vector>

#include "engine/collision/height_field.hpp"

namespace sg {

inline constexpr int kMaxTreeHFields = 16;
// Elevations in one field: MuJoCo's own limit is memory; a 1000 x 1000 grid is far finer than a contact
// needs and still a few MB.
inline constexpr int kMaxTreeHFieldPoints = 1000000;

struct TreeHField {
  std::string name;
  std::vector<double> data;  // nrow * ncol elevations in [0, 1], row by row
  HeightField field;
};

}  // namespace sg
