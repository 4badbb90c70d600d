#pragma once
// The constraint-solver options a scene may set over its MJCF file's (contact.mujoco.cone, impratio,
// refsafe, iterations), given to MuJoCo's model, so that a comparison or a timing against mj_step runs what
// the scene runs.
#include <mujoco/mujoco.h>

#include "engine/articulated/constraint_model.hpp"

namespace sg::mjcf {

inline void apply_scene_solver_options(const TreeConstraintModel<double>& con, mjModel* m) {
  const TreeConstraintOptions& o = con.opt;
  m->opt.cone = o.elliptic ? mjCONE_ELLIPTIC : mjCONE_PYRAMIDAL;
  m->opt.impratio = con.impratio;
  m->opt.iterations = o.iterations;
  if (o.refsafe)
    m->opt.disableflags &= ~mjDSBL_REFSAFE;
  else
    m->opt.disableflags |= mjDSBL_REFSAFE;
}

}  // namespace sg::mjcf
