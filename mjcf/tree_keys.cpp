#include "mjcf/tree_keys.hpp"

#include <cmath>
#include <cstdio>

#include "engine/articulated/constraint_collision.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/collision/collide.hpp"
#include "mjcf/geom_type_map.hpp"
#include "mjcf/json_numbers.hpp"
#include "mjcf/names.hpp"

namespace sg::mjcf {
namespace {

using nlohmann::json;
using Messages = std::vector<std::string>;

// The schema's bounds: model.tree.bodies (the world not counted) and model.tree.bodies.*.joints.
constexpr int kMaxSceneBodies = kMaxTreeBodies - 1;
constexpr int kMaxBodyJoints = 4;

// An element's name, "" when it has none (the refusals name those that must have one).
std::string name_of(const mjModel* m, mjtObj type, int id) {
  const char* name = mj_id2name(m, type, id);
  return name ? name : "";
}

void elements(const mjModel* m, Messages& out) {
  for (int g = 0; g < m->ngeom; ++g)
    if (m->geom_fluid[mjNFLUID * g] > 0)
      out.push_back(element(m, mjOBJ_GEOM, g, "geom") +
                    ": fluidshape \"ellipsoid\" (MuJoCo's ellipsoid fluid model) is not supported; "
                    "without it the bodies take MuJoCo's inertia-box fluid model");
  if (m->opt.integrator == mjINT_IMPLICIT)
    out.push_back("option integrator \"implicit\" is not supported (Euler or RK4)");
  if (m->opt.noslip_iterations != 0)
    out.push_back("option noslip_iterations: the noslip solver is not supported");
  if (m->nv > kMaxDofs)
    out.push_back(std::to_string(m->nv) + " degrees of freedom; a tree scene holds at most " +
                  std::to_string(kMaxDofs) + " (a free joint takes 6)");
  if (m->nbody - 1 > kMaxSceneBodies)
    out.push_back(std::to_string(m->nbody - 1) + " bodies; a tree scene holds at most " +
                  std::to_string(kMaxSceneBodies));
}

// A muscle as <muscle> compiles it: muscle dynamics, gain and bias with the same 9 parameters.
bool is_muscle(const mjModel* m, int i) {
  if (m->actuator_dyntype[i] != mjDYN_MUSCLE || m->actuator_gaintype[i] != mjGAIN_MUSCLE ||
      m->actuator_biastype[i] != mjBIAS_MUSCLE)
    return false;
  for (int k = 0; k < 9; ++k)
    if (m->actuator_gainprm[mjNGAIN * i + k] != m->actuator_biasprm[mjNBIAS * i + k]) return false;
  return true;
}

// What model.tree.actuators cannot say: on a joint, a tendon, a site or a slider-crank; stateless or
// with integrator or filter dynamics, with fixed or affine gain and none or affine bias; or a muscle.
void actuators(const mjModel* m, Messages& out) {
  if (m->nu > 0 && (m->opt.disableflags & mjDSBL_CLAMPCTRL))
    out.push_back("option flag clampctrl=\"disable\" is not supported (controls are clamped to ctrlrange)");
  for (int i = 0; i < m->nu; ++i) {
    const std::string name = element(m, mjOBJ_ACTUATOR, i, "actuator");
    const int trn = m->actuator_trntype[i];
    if (trn == mjTRN_BODY)
      out.push_back(name +
                    ": body transmissions (adhesion) are not supported (joint, tendon, site, slider-crank)");
    else if (is_muscle(m, i))
      continue;
    else if (m->actuator_dyntype[i] == mjDYN_USER)
      out.push_back(name + ": user actuator dynamics are not supported (none, integrator, filter, muscle)");
    else if (m->actuator_dyntype[i] == mjDYN_MUSCLE)
      out.push_back(name + ": muscle dynamics without a muscle's gain and bias are not supported");
    else if ((m->actuator_gaintype[i] != mjGAIN_FIXED && m->actuator_gaintype[i] != mjGAIN_AFFINE) ||
             (m->actuator_biastype[i] != mjBIAS_NONE && m->actuator_biastype[i] != mjBIAS_AFFINE))
      out.push_back(name +
                    ": only fixed or affine gains and none or affine biases (or a <muscle>) are supported");
  }
}

// Tendons: fixed on hinge and slide joints, spatial through sites, around spheres and cylinders and over
// pulleys, with length limits and friction loss.
void tendons(const mjModel* m, Messages& out) {
  for (int i = 0; i < m->ntendon; ++i) {
    const std::string name = element(m, mjOBJ_TENDON, i, "tendon");
    for (int w = m->tendon_adr[i]; w < m->tendon_adr[i] + m->tendon_num[i]; ++w) {
      const int type = m->wrap_type[w], id = m->wrap_objid[w];
      if (type == mjWRAP_PULLEY && !(m->wrap_prm[w] > 0.0))
        out.push_back(name + ": a pulley's divisor must be > 0 (MuJoCo's 0 would divide by zero)");
      if (type == mjWRAP_JOINT && m->jnt_type[id] != mjJNT_HINGE && m->jnt_type[id] != mjJNT_SLIDE)
        out.push_back(name + ": a fixed tendon on a ball or free joint is not supported");
      const mjtObj kind = type == mjWRAP_JOINT ? mjOBJ_JOINT : type == mjWRAP_SITE ? mjOBJ_SITE : mjOBJ_GEOM;
      if (type != mjWRAP_PULLEY && !mj_id2name(m, kind, id))
        out.push_back(name + ": its path names an unnamed element");
    }
  }
}

// Whether friction loss reaches mj_forward (neither constraints nor friction loss disabled).
bool friction_loss_on(const mjModel* m) {
  return !(m->opt.disableflags & (mjDSBL_CONSTRAINT | mjDSBL_FRICTIONLOSS));
}

// Whether the equality constraints reach mj_forward (neither constraints nor equalities disabled).
bool equalities_on(const mjModel* m) {
  return !(m->opt.disableflags & (mjDSBL_CONSTRAINT | mjDSBL_EQUALITY));
}

// Equality constraints: connect, weld, and joint and tendon couplings (MuJoCo's compiler names their joints
// and tendons and refuses ball and free joints), at most kMaxTreeEqualities active ones.
void equalities(const mjModel* m, Messages& out) {
  if (!equalities_on(m)) return;
  int active = 0;
  for (int i = 0; i < m->neq; ++i) active += m->eq_active[i] ? 1 : 0;
  if (active > kMaxTreeEqualities)
    out.push_back(std::to_string(active) + " equality constraints; a tree scene holds at most " +
                  std::to_string(kMaxTreeEqualities));
}

void joints(const mjModel* m, Messages& out) {
  for (int b = 1; b < m->nbody; ++b)
    if (m->body_jntnum[b] > kMaxBodyJoints)
      out.push_back(element(m, mjOBJ_BODY, b, "body") + ": " + std::to_string(m->body_jntnum[b]) +
                    " joints; a tree scene's body holds at most " + std::to_string(kMaxBodyJoints));
  if (!friction_loss_on(m)) return;
  int rows = 0;
  for (int v = 0; v < m->nv; ++v) rows += m->dof_frictionloss[v] > 0.0 ? 1 : 0;
  for (int i = 0; i < m->ntendon; ++i) rows += m->tendon_frictionloss[i] > 0.0 ? 1 : 0;
  if (rows > kMaxTreeFrictionRows)
    out.push_back(std::to_string(rows) +
                  " friction-loss rows (dofs and tendons with frictionloss); a tree "
                  "scene holds at most " +
                  std::to_string(kMaxTreeFrictionRows));
}

// MuJoCo's broad-phase filter (mj_collision): not an excluded body pair, not within one welded body, not
// parent and child unless the parent is the world (filterparent), and contype/conaffinity compatible.
bool excluded(const mjModel* m, int body1, int body2) {
  const int lo = body1 < body2 ? body1 : body2, hi = body1 < body2 ? body2 : body1;
  for (int e = 0; e < m->nexclude; ++e)
    if (m->exclude_signature[e] == ((lo + 1) << 16) + hi + 1) return true;  // MuJoCo's ids + 1
  return false;
}

bool may_collide(const mjModel* m, int a, int b) {
  if (excluded(m, m->geom_bodyid[a], m->geom_bodyid[b])) return false;
  const int wa = m->body_weldid[m->geom_bodyid[a]], wb = m->body_weldid[m->geom_bodyid[b]];
  if (wa == wb) return false;
  if (!(m->opt.disableflags & mjDSBL_FILTERPARENT)) {
    const int pa = m->body_weldid[m->body_parentid[wa]], pb = m->body_weldid[m->body_parentid[wb]];
    if ((pa == wb && wb != 0) || (pb == wa && wa != 0)) return false;
  }
  return (m->geom_contype[a] & m->geom_conaffinity[b]) || (m->geom_contype[b] & m->geom_conaffinity[a]);
}

bool contacts_on(const mjModel* m) {
  return !(m->opt.disableflags & (mjDSBL_CONTACT | mjDSBL_CONSTRAINT));
}

// Which pairs option collision lets mj_collision test: the explicit ones (all, predefined), the filter's
// (all, dynamic).
bool explicit_pairs_collide(const mjModel* m) {
  return m->opt.collision != mjCOL_DYNAMIC;
}
bool filtered_pairs_collide(const mjModel* m) {
  return m->opt.collision != mjCOL_PAIR;
}

// Whether geom g may touch any other geom through the filter.
bool collides(const mjModel* m, int g) {
  if (!filtered_pairs_collide(m)) return false;
  for (int o = 0; o < m->ngeom; ++o)
    if (o != g && may_collide(m, g, o)) return true;
  return false;
}

bool primitive(int type) {
  return softgrad_geom_type(type).has_value();
}

// A geom the tree collides: a primitive, a mesh (as its convex hull) or a height field.
bool collidable(int type) {
  return primitive(type) || type == mjGEOM_MESH || type == mjGEOM_HFIELD;
}

// Whether geom g is in an explicit pair that collides.
bool in_explicit_pair(const mjModel* m, int g) {
  for (int p = 0; p < (explicit_pairs_collide(m) ? m->npair : 0); ++p)
    if (m->pair_geom1[p] == g || m->pair_geom2[p] == g) return true;
  return false;
}

// The geoms the scene keys hold: primitives, and meshes and height fields that may touch something (one
// that never touches is a visual, left out: drawing it is not worth its numbers in the scene).
bool kept(const mjModel* m, int g) {
  if (primitive(m->geom_type[g])) return true;
  return collidable(m->geom_type[g]) && contacts_on(m) && (collides(m, g) || in_explicit_pair(m, g));
}

GeomType softgrad_type(int type) {  // a primitive's, a mesh's or a height field's
  if (type == mjGEOM_MESH) return GeomType::mesh;
  if (type == mjGEOM_HFIELD) return GeomType::hfield;
  return softgrad_geom_type(type).value_or(GeomType::sphere);
}

std::string geom_name(const mjModel* m, int g) {
  return element(m, mjOBJ_GEOM, g, "geom") + " (" + geom_type_word(m->geom_type[g]) + ") on " +
         element(m, mjOBJ_BODY, m->geom_bodyid[g], "body");
}

// The contacts MuJoCo would compute that softgrad's constraint stage cannot: options, geoms that may touch
// but are meshes or height fields, planes on moving bodies, pairs without a collider.
void contacts(const mjModel* m, Messages& out) {
  if (!contacts_on(m)) return;
  if (m->opt.enableflags & mjENBL_OVERRIDE) out.push_back("option flag override: not supported");
  if (const std::string why = convex_collider_options(m->opt); !why.empty()) out.push_back(why);
  for (int g = 0; g < m->ngeom; ++g) {
    if (!collides(m, g)) continue;
    const std::string name = geom_name(m, g);
    if (!collidable(m->geom_type[g])) {
      out.push_back(name +
                    " may touch other geoms: softgrad has no collider for its type (set its contype "
                    "and conaffinity to 0)");
      continue;
    }
    if (m->geom_type[g] == mjGEOM_PLANE && m->body_weldid[m->geom_bodyid[g]] != 0)
      out.push_back(name + ": a plane on a moving body is not supported");
  }
  for (int p = 0; p < (explicit_pairs_collide(m) ? m->npair : 0); ++p)
    for (const int g : {m->pair_geom1[p], m->pair_geom2[p]})
      if (!collidable(m->geom_type[g]))
        out.push_back(element(m, mjOBJ_PAIR, p, "contact pair") + ": " + geom_name(m, g) +
                      ": softgrad has no collider for its type");
  for (int a = 0; a < (filtered_pairs_collide(m) ? m->ngeom : 0); ++a)
    for (int b = a + 1; b < m->ngeom; ++b) {
      if (!may_collide(m, a, b) || !collidable(m->geom_type[a]) || !collidable(m->geom_type[b])) continue;
      const GeomType ta = softgrad_type(m->geom_type[a]), tb = softgrad_type(m->geom_type[b]);
      if (tree_pair_without_collider(ta, tb) || tree_pair_supported(ta, tb, Detector::softgrad)) continue;
      out.push_back(geom_name(m, a) + " and " + geom_name(m, b) + " may touch: softgrad has no " +
                    geom_type_word(m->geom_type[a]) + "-" + geom_type_word(m->geom_type[b]) + " collider");
    }
}

// A mesh's name: its own, else (MuJoCo names a file's mesh after the file) its index.
std::string mesh_name(const mjModel* m, int mesh) {
  const std::string name = name_of(m, mjOBJ_MESH, mesh);
  return name.empty() ? "mesh " + std::to_string(mesh) : name;
}

// A height field's name: its own, else its index.
std::string hfield_name(const mjModel* m, int id) {
  const std::string name = name_of(m, mjOBJ_HFIELD, id);
  return name.empty() ? "hfield " + std::to_string(id) : name;
}

// The keys of the geoms kept (`kept`).
json geom_keys(const mjModel* m, int g) {
  const char* name = mj_id2name(m, mjOBJ_GEOM, g);
  const int condim = m->geom_condim[g];  // 1, 3, 4 or 6: MuJoCo's compiler takes no other
  json out = {{"name", name ? name : ""},
              {"type", geom_type_name(softgrad_type(m->geom_type[g]))},
              {"size", numbers(m->geom_size + 3 * g, 3)},
              {"pos", numbers(m->geom_pos + 3 * g, 3)},
              {"quat", numbers(m->geom_quat + 4 * g, 4)},
              {"contype", m->geom_contype[g]},
              {"conaffinity", m->geom_conaffinity[g]},
              {"condim", condim},
              {"priority", m->geom_priority[g]},
              {"friction", numbers(m->geom_friction + 3 * g, 3)},
              {"solmix", m->geom_solmix[g]},
              {"solref", numbers(m->geom_solref + mjNREF * g, mjNREF)},
              {"solimp", numbers(m->geom_solimp + mjNIMP * g, mjNIMP)},
              {"margin", m->geom_margin[g]},
              {"gap", m->geom_gap[g]}};
  if (m->geom_type[g] == mjGEOM_MESH) out["mesh"] = mesh_name(m, m->geom_dataid[g]);
  if (m->geom_type[g] == mjGEOM_HFIELD) out["hfield"] = hfield_name(m, m->geom_dataid[g]);
  return out;
}

// MuJoCo's compiled mesh: vertices in the geom frame, triangles, and the convex hull's graph.
json mesh_keys(const mjModel* m, int id) {
  const int v0 = m->mesh_vertadr[id], nv = m->mesh_vertnum[id];
  const int f0 = m->mesh_faceadr[id], nf = m->mesh_facenum[id];
  json out = {{"name", mesh_name(m, id)},
              {"vertices", std::vector<double>(m->mesh_vert + 3 * v0, m->mesh_vert + 3 * (v0 + nv))},
              {"faces", std::vector<int>(m->mesh_face + 3 * f0, m->mesh_face + 3 * (f0 + nf))}};
  if (const int adr = m->mesh_graphadr[id]; adr >= 0) {
    const int* graph = m->mesh_graph + adr;
    out["graph"] = std::vector<int>(graph, graph + 2 + 3 * graph[0] + 6 * graph[1]);
  }
  return out;
}

// MuJoCo's compiled height field: its grid and elevations (single precision, scaled to [0, 1]), widened.
json hfield_keys(const mjModel* m, int id) {
  const int nrow = m->hfield_nrow[id], ncol = m->hfield_ncol[id];
  const float* data = m->hfield_data + m->hfield_adr[id];
  return {{"name", hfield_name(m, id)},
          {"nrow", nrow},
          {"ncol", ncol},
          {"size", numbers(m->hfield_size + 4 * id, 4)},
          {"elevation", std::vector<double>(data, data + static_cast<std::ptrdiff_t>(nrow) * ncol)}};
}

// The height fields of the geoms kept, in MuJoCo's order.
json hfields_used(const mjModel* m) {
  std::vector<bool> used(static_cast<std::size_t>(m->nhfield), false);
  for (int g = 0; g < m->ngeom; ++g)
    if (m->geom_type[g] == mjGEOM_HFIELD && kept(m, g))
      used[static_cast<std::size_t>(m->geom_dataid[g])] = true;
  json out = json::array();
  for (int id = 0; id < m->nhfield; ++id)
    if (used[static_cast<std::size_t>(id)]) out.push_back(hfield_keys(m, id));
  return out;
}

// The meshes of the geoms kept, in MuJoCo's order.
json meshes_used(const mjModel* m) {
  std::vector<bool> used(static_cast<std::size_t>(m->nmesh), false);
  for (int g = 0; g < m->ngeom; ++g)
    if (m->geom_type[g] == mjGEOM_MESH && kept(m, g))
      used[static_cast<std::size_t>(m->geom_dataid[g])] = true;
  json out = json::array();
  for (int id = 0; id < m->nmesh; ++id)
    if (used[static_cast<std::size_t>(id)]) out.push_back(mesh_keys(m, id));
  return out;
}

json body_geoms(const mjModel* m, int b) {
  json out = json::array();
  for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; ++g)
    if (m->body_geomnum[b] > 0 && kept(m, g)) out.push_back(geom_keys(m, g));
  return out;
}

// contact.model mujoco with MuJoCo's options when contacts are on, else none.
json contact_keys(const mjModel* m) {
  if (!contacts_on(m)) return {{"model", "none"}};
  return {{"model", "mujoco"},
          {"mujoco",
           {{"refsafe", !(m->opt.disableflags & mjDSBL_REFSAFE)},
            {"impratio", m->opt.impratio},
            {"iterations", m->opt.iterations},
            {"cone", m->opt.cone == mjCONE_ELLIPTIC ? "elliptic" : "pyramidal"}}}};
}

// A hinge's, slide's or ball's limit, unless <option> disables limits or all constraints.
void joint_limit_keys(const mjModel* m, int j, json& out) {
  if (!m->jnt_limited[j] || (m->opt.disableflags & (mjDSBL_LIMIT | mjDSBL_CONSTRAINT))) return;
  out["limited"] = true;
  out["range"] = numbers(m->jnt_range + 2 * j, 2);
  out["margin"] = m->jnt_margin[j];
  out["solreflimit"] = numbers(m->jnt_solref + mjNREF * j, mjNREF);
  out["solimplimit"] = numbers(m->jnt_solimp + mjNIMP * j, mjNIMP);
}

json joint_keys(const mjModel* m, int j, bool passive) {
  const int t = m->jnt_type[j], dof = m->jnt_dofadr[j];
  const char* name = mj_id2name(m, mjOBJ_JOINT, j);
  json out = {{"name", name ? name : ""},
              {"type", joint_type_word(t)},
              {"pos", numbers(m->jnt_pos + 3 * j, 3)},
              {"stiffness", passive ? m->jnt_stiffness[j] : 0.0},
              {"damping", passive ? m->dof_damping[dof] : 0.0},
              {"armature", m->dof_armature[dof]}};
  joint_limit_keys(m, j, out);
  // Friction loss: MuJoCo's compiler gives each of the joint's dofs the joint's.
  out["frictionloss"] = friction_loss_on(m) ? m->dof_frictionloss[dof] : 0.0;
  out["solreffriction"] = numbers(m->dof_solref + mjNREF * dof, mjNREF);
  out["solimpfriction"] = numbers(m->dof_solimp + mjNIMP * dof, mjNIMP);
  if (t == mjJNT_BALL || t == mjJNT_FREE) return out;
  out["axis"] = numbers(m->jnt_axis + 3 * j, 3);
  out["springref"] = m->qpos_spring[m->jnt_qposadr[j]];
  // ref: the coordinate of the rest pose, where mj_resetData starts the joint.
  out["ref"] = m->qpos0[m->jnt_qposadr[j]];
  out["qpos"] = m->qpos0[m->jnt_qposadr[j]];
  return out;
}

json body_keys(const mjModel* m, int b, bool passive) {
  json joints = json::array();
  for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; ++j)
    joints.push_back(joint_keys(m, j, passive));
  const char* name = mj_id2name(m, mjOBJ_BODY, b);
  return {{"name", name ? name : ""},
          {"parent", m->body_parentid[b] - 1},
          {"pos", numbers(m->body_pos + 3 * b, 3)},
          {"quat", numbers(m->body_quat + 4 * b, 4)},
          {"mass", m->body_mass[b]},
          {"inertia", numbers(m->body_inertia + 3 * b, 3)},
          {"ipos", numbers(m->body_ipos + 3 * b, 3)},
          {"iquat", numbers(m->body_iquat + 4 * b, 4)},
          {"joints", std::move(joints)},
          {"geoms", body_geoms(m, b)}};
}

// MuJoCo's gain/bias as the scene's kind: motor, position (kp), velocity (kv) when the compiled numbers are
// exactly those, else general with the affine prm[0..2] (a fixed gain or absent bias written as zeros).
void actuator_kind(const mjModel* m, int i, json& out) {
  const mjtNum* g = m->actuator_gainprm + mjNGAIN * i;
  const mjtNum* b = m->actuator_biasprm + mjNBIAS * i;
  const bool fixed = m->actuator_gaintype[i] == mjGAIN_FIXED,
             no_bias = m->actuator_biastype[i] == mjBIAS_NONE;
  if (fixed && no_bias && g[0] == 1.0) {
    out["kind"] = "motor";
  } else if (fixed && !no_bias && b[0] == 0.0 && b[1] == -g[0] && b[2] == 0.0) {
    out["kind"] = "position", out["kp"] = g[0];
  } else if (fixed && !no_bias && b[0] == 0.0 && b[1] == 0.0 && b[2] == -g[0]) {
    out["kind"] = "velocity", out["kv"] = g[0];
  } else {
    out["kind"] = "general";
    out["gainprm"] = fixed ? json({g[0], 0.0, 0.0}) : numbers(g, 3);
    out["biasprm"] = no_bias ? json({0.0, 0.0, 0.0}) : numbers(b, 3);
  }
}

// A muscle's parameters as the scene's keys (gainprm = biasprm = range, force, scale, lmin, lmax, vmax,
// fpmax, fvmax; dynprm = timeconst), with the compiler's lengthrange and acc0.
void muscle_keys(const mjModel* m, int i, json& out) {
  const mjtNum* g = m->actuator_gainprm + mjNGAIN * i;
  out["kind"] = "muscle";
  out["range"] = numbers(g, 2);
  out["force"] = g[2], out["scale"] = g[3], out["lmin"] = g[4], out["lmax"] = g[5], out["vmax"] = g[6];
  out["fpmax"] = g[7], out["fvmax"] = g[8];
  out["timeconst"] = numbers(m->actuator_dynprm + mjNDYN * i, 2);
  out["lengthrange"] = numbers(m->actuator_lengthrange + 2 * i, 2);
  out["acc0"] = m->actuator_acc0[i];
}

json actuator_keys(const mjModel* m, int i) {
  const int j = m->actuator_trnid[2 * i];
  const char* name = mj_id2name(m, mjOBJ_ACTUATOR, i);
  json out = {{"name", name ? name : ""},
              {"gear", m->actuator_gear[6 * i]},
              {"ctrllimited", m->actuator_ctrllimited[i] != 0},
              {"ctrlrange", numbers(m->actuator_ctrlrange + 2 * i, 2)},
              {"forcelimited", m->actuator_forcelimited[i] != 0},
              {"forcerange", numbers(m->actuator_forcerange + 2 * i, 2)}};
  if (m->actuator_trntype[i] == mjTRN_TENDON) {
    out["tendon"] = name_of(m, mjOBJ_TENDON, j);
  } else if (m->actuator_trntype[i] == mjTRN_SLIDERCRANK) {  // MJCF names both sites
    out["cranksite"] = name_of(m, mjOBJ_SITE, j);
    out["slidersite"] = name_of(m, mjOBJ_SITE, m->actuator_trnid[2 * i + 1]);
    out["cranklength"] = m->actuator_cranklength[i];
  } else if (m->actuator_trntype[i] == mjTRN_SITE) {  // MJCF names the sites too
    out["site"] = name_of(m, mjOBJ_SITE, j);
    const int ref = m->actuator_trnid[2 * i + 1];
    if (ref >= 0) out["refsite"] = name_of(m, mjOBJ_SITE, ref);
    out["gear_rest"] = numbers(m->actuator_gear + 6 * i + 1, 5);
  } else {
    const int body = m->jnt_bodyid[j];
    out["body"] = body - 1;
    out["joint"] = j - m->body_jntadr[body];
    if (m->jnt_type[j] == mjJNT_BALL || m->jnt_type[j] == mjJNT_FREE) {
      out["gear_rest"] = numbers(m->actuator_gear + 6 * i + 1, 5);
      if (m->actuator_trntype[i] == mjTRN_JOINTINPARENT) out["jointinparent"] = true;
    }
  }
  if (m->actuator_dyntype[i] != mjDYN_NONE && m->actuator_actlimited[i]) {  // MuJoCo ignores it without one
    out["actlimited"] = true;
    out["actrange"] = numbers(m->actuator_actrange + 2 * i, 2);
  }
  if (is_muscle(m, i)) {
    muscle_keys(m, i, out);
    return out;
  }
  actuator_kind(m, i, out);
  const int dyn = m->actuator_dyntype[i];
  if (dyn == mjDYN_INTEGRATOR || dyn == mjDYN_FILTER) {
    out["dyntype"] = dyn == mjDYN_INTEGRATOR ? "integrator" : "filter";
    out["timeconst"] = numbers(m->actuator_dynprm + mjNDYN * i, 2);
  }
  return out;
}

// Sites, by MuJoCo's site order, each on its body (-1 the world).
json site_keys(const mjModel* m) {
  json out = json::array();
  for (int s = 0; s < m->nsite; ++s) {
    const char* name = mj_id2name(m, mjOBJ_SITE, s);
    out.push_back({{"name", name ? name : ""},
                   {"body", m->site_bodyid[s] - 1},
                   {"pos", numbers(m->site_pos + 3 * s, 3)},
                   {"quat", numbers(m->site_quat + 4 * s, 4)}});
  }
  return out;
}

// A tendon's path by names (tendons() refused the unnamed), with its spring (0 when passive forces are
// disabled, as mj_passive then adds none).
json tendon_keys(const mjModel* m, int i, bool passive) {
  json path = json::array();
  for (int w = m->tendon_adr[i]; w < m->tendon_adr[i] + m->tendon_num[i]; ++w) {
    const int type = m->wrap_type[w], id = m->wrap_objid[w];
    if (type == mjWRAP_JOINT) {
      path.push_back({{"joint", name_of(m, mjOBJ_JOINT, id)}, {"coef", m->wrap_prm[w]}});
    } else if (type == mjWRAP_SITE) {
      path.push_back({{"site", name_of(m, mjOBJ_SITE, id)}});
    } else if (type == mjWRAP_PULLEY) {
      path.push_back({{"pulley", m->wrap_prm[w]}});
    } else {
      json geom = {{"geom", name_of(m, mjOBJ_GEOM, id)}};
      const int side = static_cast<int>(std::lround(m->wrap_prm[w]));
      if (side >= 0) geom["sidesite"] = name_of(m, mjOBJ_SITE, side);
      path.push_back(std::move(geom));
    }
  }
  const char* name = mj_id2name(m, mjOBJ_TENDON, i);
  return {{"name", name ? name : ""},
          {"path", std::move(path)},
          {"stiffness", passive ? m->tendon_stiffness[i] : 0.0},
          {"damping", passive ? m->tendon_damping[i] : 0.0},
          {"springlength", m->tendon_lengthspring[i]},
          {"limited", m->tendon_limited[i] != 0},
          {"range", numbers(m->tendon_range + 2 * i, 2)},
          {"solreflimit", numbers(m->tendon_solref_lim + mjNREF * i, mjNREF)},
          {"solimplimit", numbers(m->tendon_solimp_lim + mjNIMP * i, mjNIMP)},
          {"margin", m->tendon_margin[i]},
          {"frictionloss", friction_loss_on(m) ? m->tendon_frictionloss[i] : 0.0},
          {"solreffriction", numbers(m->tendon_solref_fri + mjNREF * i, mjNREF)},
          {"solimpfriction", numbers(m->tendon_solimp_fri + mjNIMP * i, mjNIMP)}};
}

// model.tree.equalities: the active equality constraints (an inactive one adds no rows in mj_forward).
// connect, weld: MuJoCo's bodies (the world 0) as scene indices (the world -1), the anchor (connect: in
// body1's frame, weld: in body2's), a weld's relpose (the compiled one: the anchor in body1's frame and the
// orientation, as given or at qpos0) and torquescale; a connect's anchor in body2 is computed again;
// joint, tendon: the elements by name (MuJoCo's <equality> names them), polycoef.
json equality_keys(const mjModel* m) {
  json out = json::array();
  for (int i = 0; i < m->neq; ++i) {
    if (!m->eq_active[i]) continue;
    const mjtNum* data = m->eq_data + mjNEQDATA * i;
    const char* name = mj_id2name(m, mjOBJ_EQUALITY, i);
    json e = {{"name", name ? name : ""},
              {"solref", numbers(m->eq_solref + mjNREF * i, mjNREF)},
              {"solimp", numbers(m->eq_solimp + mjNIMP * i, mjNIMP)}};
    const int id1 = m->eq_obj1id[i], id2 = m->eq_obj2id[i];
    if (m->eq_type[i] == mjEQ_CONNECT || m->eq_type[i] == mjEQ_WELD) {
      const bool weld = m->eq_type[i] == mjEQ_WELD;
      e["type"] = weld ? "weld" : "connect";
      e["body1"] = id1 - 1, e["body2"] = id2 - 1;
      e["anchor"] = numbers(data, 3);
      if (weld) e["relpose"] = numbers(data + 3, 7), e["torquescale"] = data[10];
    } else {
      const bool joint = m->eq_type[i] == mjEQ_JOINT;
      const mjtObj kind = joint ? mjOBJ_JOINT : mjOBJ_TENDON;
      e["type"] = joint ? "joint" : "tendon";
      e[joint ? "joint1" : "tendon1"] = name_of(m, kind, id1);
      e[joint ? "joint2" : "tendon2"] = id2 >= 0 ? name_of(m, kind, id2) : "";
      e["polycoef"] = numbers(data, 5);
    }
    out.push_back(std::move(e));
  }
  return out;
}

// <contact><pair>s by their geoms' names (MuJoCo's pairs name both geoms), with the compiled parameters.
json pair_keys(const mjModel* m) {
  json out = json::array();
  for (int p = 0; p < m->npair; ++p)
    out.push_back({{"name", name_of(m, mjOBJ_PAIR, p)},
                   {"geom1", name_of(m, mjOBJ_GEOM, m->pair_geom1[p])},
                   {"geom2", name_of(m, mjOBJ_GEOM, m->pair_geom2[p])},
                   {"condim", m->pair_dim[p]},
                   {"friction", numbers(m->pair_friction + 5 * p, 5)},
                   {"solref", numbers(m->pair_solref + mjNREF * p, mjNREF)},
                   {"solimp", numbers(m->pair_solimp + mjNIMP * p, mjNIMP)},
                   {"margin", m->pair_margin[p]},
                   {"gap", m->pair_gap[p]}});
  return out;
}

// <contact><exclude>: body pairs by their index in model.tree.bodies (-1 the world). The compiler's
// signature is ((body1 + 1) << 16) + body2 + 1 with MuJoCo's body ids (the world 0), body1 < body2.
json excludes(const mjModel* m) {
  json out = json::array();
  for (int e = 0; e < m->nexclude; ++e) {
    const int sig = m->exclude_signature[e];
    out.push_back({{"body1", (sig >> 16) - 2}, {"body2", (sig & 0xFFFF) - 2}});
  }
  return out;
}

}  // namespace

bool has_joint_tree(const mjModel* m) {
  for (int j = 0; j < m->njnt; ++j)
    if (m->jnt_type[j] != mjJNT_FREE) return true;
  return false;
}

std::vector<std::string> tree_unsupported(const mjModel* m) {
  Messages out;
  elements(m, out);
  actuators(m, out);
  tendons(m, out);
  equalities(m, out);
  joints(m, out);
  contacts(m, out);
  return out;
}

nlohmann::json tree_scene_keys(const mjModel* m) {
  const mjOption& o = m->opt;
  const bool gravity = !(o.disableflags & mjDSBL_GRAVITY);
  const bool passive = !(o.disableflags & mjDSBL_PASSIVE);
  json bodies = json::array();
  for (int b = 1; b < m->nbody; ++b) bodies.push_back(body_keys(m, b, passive));
  json actuators = json::array();  // none when actuation is disabled, as mj_fwdActuation then adds none
  if (!(o.disableflags & mjDSBL_ACTUATION))
    for (int i = 0; i < m->nu; ++i) actuators.push_back(actuator_keys(m, i));
  json tree = {{"bodies", std::move(bodies)},
               {"world_geoms", body_geoms(m, 0)},
               {"filterparent", !(o.disableflags & mjDSBL_FILTERPARENT)}};
  if (o.collision != mjCOL_ALL) tree["collision"] = o.collision == mjCOL_PAIR ? "predefined" : "dynamic";
  if (!actuators.empty()) tree["actuators"] = std::move(actuators);
  if (m->nsite > 0) tree["sites"] = site_keys(m);
  if (m->ntendon > 0) {
    json tendons = json::array();
    for (int i = 0; i < m->ntendon; ++i) tendons.push_back(tendon_keys(m, i, passive));
    tree["tendons"] = std::move(tendons);
  }
  if (m->nexclude > 0) tree["excludes"] = excludes(m);
  if (m->npair > 0) tree["pairs"] = pair_keys(m);
  if (json meshes = meshes_used(m); !meshes.empty()) tree["meshes"] = std::move(meshes);
  if (json fields = hfields_used(m); !fields.empty()) tree["hfields"] = std::move(fields);
  if (passive && (o.density > 0 || o.viscosity > 0))  // mj_passive skips the fluid when passive is off
    tree["fluid"] = {{"density", o.density}, {"viscosity", o.viscosity}, {"wind", numbers(o.wind, 3)}};
  if (m->neq > 0 && equalities_on(m)) tree["equalities"] = equality_keys(m);
  json model = {{"type", "tree"},
                {"gravity", gravity ? numbers(o.gravity, 3) : json({0.0, 0.0, 0.0})},
                {"tree", std::move(tree)}};
  return {{"model", std::move(model)},
          {"contact", contact_keys(m)},
          {"integrator", {{"dt", o.timestep}, {"type", o.integrator == mjINT_RK4 ? "rk4" : "euler"}}}};
}

}  // namespace sg::mjcf
