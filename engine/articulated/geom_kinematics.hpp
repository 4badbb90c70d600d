#pragma once
// The geoms' world frames, mj_kinematics' last loop: each geom rides on its body's frame.
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tree_data.hpp"

namespace sg {

template <class S>
void tree_geom_kinematics(const TreeConstraintModel<S>& cm, const TreeData<S>& d, TreeConstraintData<S>& cd) {
  for (int g = 0; g < cm.ngeom; ++g) {
    const TreeGeom<S>& geom = cm.geom[g];
    cd.geom_xpos[g] = d.xpos[geom.body] + d.xmat[geom.body] * geom.pos;
    cd.geom_xquat[g] = d.xquat[geom.body] * geom.quat;
    cd.geom_xmat[g] = to_mat3(cd.geom_xquat[g]);
  }
}

}  // namespace sg
