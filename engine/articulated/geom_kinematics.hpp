#pragma once
// The geoms' world frames, mj_kinematics' last loop: each geom rides on its body's frame.
#include "engine/articulated/constraint_data.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tree_data.hpp"
#include "engine/core/scalar.hpp"

namespace sg {

// Geom g's frame from its body's.
template <class S>
void tree_geom_frame(const TreeConstraintModel<S>& cm, const TreeData<S>& d, TreeConstraintData<S>& cd,
                     int g) {
  const TreeGeom<S>& geom = cm.geom[g];
  cd.geom_xpos[g] = d.xpos[geom.body] + d.xmat[geom.body] * geom.pos;
  cd.geom_xquat[g] = d.xquat[geom.body] * geom.quat;
  cd.geom_xmat[g] = to_mat3(cd.geom_xquat[g]);
}

// On a tape the frames are values only (most geoms touch nothing): collision records the frames of the geoms
// in a contact when it finds one (tree_collision), so that no step tapes the frames of every geom.
template <class S>
void tree_geom_kinematics(const TreeConstraintModel<S>& cm, const TreeData<S>& d, TreeConstraintData<S>& cd) {
  const TapePause<S> values(true);
  for (int g = 0; g < cm.ngeom; ++g) tree_geom_frame(cm, d, cd, g);
}

}  // namespace sg
