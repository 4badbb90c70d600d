#include "mjcf/tree_constraints_from_mjmodel.hpp"

#include <string>

#include "engine/articulated/constraint_collision.hpp"
#include "engine/articulated/constraint_make.hpp"
#include "mjcf/geom_type_map.hpp"

namespace sg::mjcf {
namespace {

std::string num(int i) {
  return std::to_string(i);
}

// Options and model-wide features the constraint stage does not build.
std::string model_refusal(const mjModel* m) {
  if (m->ngeom > kMaxTreeGeoms) return "too many geoms: " + num(m->ngeom);
  if (m->opt.collision != mjCOL_ALL) return "only the default collision mode (all) is supported";
  if (m->opt.enableflags & mjENBL_OVERRIDE) return "the override flag is not supported";
  if (m->npair > 0) return "explicit contact pairs are not supported";
  if (m->nexclude > kMaxTreeExcludes) return "too many contact excludes: " + num(m->nexclude);
  if (m->neq > 0 && !(m->opt.disableflags & (mjDSBL_CONSTRAINT | mjDSBL_EQUALITY)))
    return "equality constraints are not supported";
  for (int v = 0; v < m->nv; ++v)
    if (m->dof_frictionloss[v] > 0 && !(m->opt.disableflags & (mjDSBL_CONSTRAINT | mjDSBL_FRICTIONLOSS)))
      return "dof " + num(v) + " has frictionloss: not supported";
  for (int t = 0; t < m->ntendon; ++t)
    if (m->tendon_limited[t] || m->tendon_frictionloss[t] > 0)
      return "tendon " + num(t) + " is limited or has frictionloss: not supported";
  for (int j = 0; j < m->njnt; ++j)
    if (m->jnt_limited[j] && m->jnt_type[j] == mjJNT_FREE)
      return "joint " + num(j) + ": a free joint's limit is not supported";
  return {};
}

std::string add_geom(const mjModel* m, const TreeModel<double>& tree, int g, TreeGeom<double>& out) {
  const std::optional<GeomType> type = softgrad_geom_type(m->geom_type[g]);
  if (!type) return "geom " + num(g) + " is a height field or mesh";
  out.type = *type;
  out.body = m->geom_bodyid[g];
  if (out.type == GeomType::plane && tree_weld_id(tree, out.body) != 0)
    return "geom " + num(g) + " is a plane on a moving body";
  out.contype = m->geom_contype[g];
  out.conaffinity = m->geom_conaffinity[g];
  out.condim = m->geom_condim[g];
  if ((out.contype || out.conaffinity) && !tree_condim_supported(out.condim))
    return "geom " + num(g) + " has condim " + num(out.condim) + ": only 1, 3, 4 and 6 are supported";
  out.priority = m->geom_priority[g];
  const mjtNum* s = m->geom_size + 3 * g;
  const mjtNum* p = m->geom_pos + 3 * g;
  const mjtNum* q = m->geom_quat + 4 * g;
  out.size = {s[0], s[1], s[2]};
  out.pos = {p[0], p[1], p[2]};
  out.quat = {q[0], q[1], q[2], q[3]};
  out.rbound = m->geom_rbound[g];
  for (int k = 0; k < 3; ++k) out.friction[k] = m->geom_friction[3 * g + k];
  out.solmix = m->geom_solmix[g];
  for (int k = 0; k < mjNREF; ++k) out.solref[k] = m->geom_solref[mjNREF * g + k];
  for (int k = 0; k < mjNIMP; ++k) out.solimp[k] = m->geom_solimp[mjNIMP * g + k];
  out.margin = m->geom_margin[g];
  out.gap = m->geom_gap[g];
  return {};
}

void copy_limits(const mjModel* m, TreeConstraintModel<double>& out) {
  for (int j = 0; j < m->njnt; ++j) {
    TreeLimit<double>& l = out.limit[j];
    l.limited = m->jnt_limited[j] != 0;
    l.range[0] = m->jnt_range[2 * j];
    l.range[1] = m->jnt_range[2 * j + 1];
    l.margin = m->jnt_margin[j];
    for (int k = 0; k < mjNREF; ++k) l.solref[k] = m->jnt_solref[mjNREF * j + k];
    for (int k = 0; k < mjNIMP; ++k) l.solimp[k] = m->jnt_solimp[mjNIMP * j + k];
  }
}

void copy_options(const mjModel* m, TreeConstraintModel<double>& out) {
  const int off = m->opt.disableflags;
  out.opt.timestep = m->opt.timestep;
  out.impratio = m->opt.impratio;
  out.opt.refsafe = !(off & mjDSBL_REFSAFE);
  out.opt.filterparent = !(off & mjDSBL_FILTERPARENT);
  out.opt.contact = !(off & (mjDSBL_CONSTRAINT | mjDSBL_CONTACT)) && m->nbody > 1;
  out.opt.limit = !(off & (mjDSBL_CONSTRAINT | mjDSBL_LIMIT));
  out.opt.iterations = m->opt.iterations;
  out.opt.elliptic = m->opt.cone == mjCONE_ELLIPTIC;
  out.opt.tolerance = m->opt.tolerance;
  for (int b = 0; b < m->nbody; ++b)
    for (int k = 0; k < 2; ++k) out.body_invweight0[b][k] = m->body_invweight0[2 * b + k];
  for (int v = 0; v < m->nv; ++v) out.dof_invweight0[v] = m->dof_invweight0[v];
  out.nexclude = m->nexclude;  // signature ((body1 + 1) << 16) + body2 + 1, body1 < body2
  for (int e = 0; e < m->nexclude; ++e) {
    out.exclude[e][0] = (m->exclude_signature[e] >> 16) - 1;
    out.exclude[e][1] = (m->exclude_signature[e] & 0xFFFF) - 1;
  }
}

std::string map_constraints(const mjModel* m, const TreeModel<double>& tree,
                            TreeConstraintModel<double>& out) {
  if (!m) return "no model";
  if (std::string why = model_refusal(m); !why.empty()) return why;
  out = TreeConstraintModel<double>{};
  out.ngeom = m->ngeom;
  for (int g = 0; g < m->ngeom; ++g)
    if (std::string why = add_geom(m, tree, g, out.geom[g]); !why.empty()) return why;
  copy_limits(m, out);
  copy_options(m, out);
  int g1 = 0, g2 = 0;
  if (out.opt.contact && tree_unsupported_pair(tree, out, &g1, &g2))
    return "geoms " + num(g1) + " (" + geom_type_name(out.geom[g1].type) + ") and " + num(g2) + " (" +
           geom_type_name(out.geom[g2].type) + ") may touch: softgrad has no collider for the pair";
  return {};
}

}  // namespace

std::string tree_constraints_from_mjmodel(const mjModel* m, const TreeModel<double>& tree,
                                          TreeConstraintModel<double>& out) {
  // A failed allocation while composing a message is the only thing that can throw: keep it inside.
  try {
    return map_constraints(m, tree, out);
  } catch (...) {
    return "out of memory";
  }
}

}  // namespace sg::mjcf
