// model.tree -> JointTreeModel: bodies in file order (each parent earlier, -1 the world), their joints in
// order, MuJoCo's layout built by tree_add_body / tree_add_joint. Quaternions and axes are normalised as
// MuJoCo's compiler does (the scene rules refuse zero ones).
#include "engine/problem/tree_from_config.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/articulated/actuator_acc0.hpp"
#include "engine/articulated/constraint_collision.hpp"
#include "engine/articulated/inverse_weights.hpp"
#include "engine/articulated/kinematics.hpp"
#include "engine/model/tree_lengthrange.hpp"
#include "engine/model/tree_system.hpp"
#include "engine/problem/cfd_from_config.hpp"
#include "engine/problem/json_number.hpp"
#include "engine/problem/tree_assets_from_config.hpp"

namespace sg {
namespace {

using nlohmann::json;

Vec3<double> vec3(const json& j) {
  return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()};
}

// A zero quaternion becomes the identity and a zero axis stays zero (mju_normalize4, mju_normalize3): the
// scene rules refuse the ones a joint reads, and a hinge's unused ball_qpos must not turn into NaN.
Quat<double> unit_quat(const json& j) {
  double q[4];
  for (int k = 0; k < 4; ++k) q[k] = j.at(k).get<double>();
  normalize_quat(q);
  return {q[0], q[1], q[2], q[3]};
}

Vec3<double> unit_vec3(const json& j) {
  const Vec3<double> v = vec3(j);
  const double n = std::sqrt(dot(v, v));
  return n < kTreeMinVal ? v : v * (1.0 / n);
}

JointType joint_type(const std::string& word) {
  if (word == "slide") return JointType::kSlide;
  if (word == "ball") return JointType::kBall;
  if (word == "free") return JointType::kFree;
  return JointType::kHinge;
}

// A friction loss's solreffriction and solimpfriction (its frictionloss: the joint's, or the tendon's).
void read_friction_params(const json& j, TreeFrictionLoss<double>& f) {
  for (int k = 0; k < 2; ++k) f.solref[k] = j.at("solreffriction").at(k).get<double>();
  for (int k = 0; k < 5; ++k) f.solimp[k] = j.at("solimpfriction").at(k).get<double>();
}

// A hinge or slide limit, MuJoCo's jnt_limited, jnt_range, jnt_margin, jnt_solref, jnt_solimp.
void read_limit(const json& j, TreeLimit<double>& l) {
  l.limited = j.at("limited").get<bool>();
  l.margin = j.at("margin").get<double>();
  for (int k = 0; k < 2; ++k)
    l.range[k] = j.at("range").at(k).get<double>(), l.solref[k] = j.at("solreflimit").at(k).get<double>();
  for (int k = 0; k < 5; ++k) l.solimp[k] = j.at("solimplimit").at(k).get<double>();
}

void read_joint(const json& j, int body, const std::string& path, JointTreeModel<double>& m) {
  const int k = tree_add_joint(m.tree, body, joint_type(j.at("type").get<std::string>()), vec3(j.at("pos")),
                               unit_vec3(j.at("axis")));
  if (k < 0)
    throw std::invalid_argument(path + ": more joints or dofs than a tree holds (" +
                                std::to_string(kMaxJoints) + " joints, " + std::to_string(kMaxDofs) +
                                " dofs)");
  m.tree.joint[k].stiffness = j.at("stiffness").get<double>();
  TreeJointParams<double>& p = m.joint[k];
  p.damping = j.at("damping").get<double>();
  p.armature = j.at("armature").get<double>();
  p.springref = j.at("springref").get<double>();
  p.ref = j.at("ref").get<double>();
  // The tree's own qpos0 too: the inverse weights, acc0 and the length ranges are computed there.
  const TreeJoint<double>& jn = m.tree.joint[k];
  if (jn.type == JointType::kHinge || jn.type == JointType::kSlide) m.tree.qpos0[jn.qpos_adr] = p.ref;
  p.qpos = j.at("qpos").get<double>();
  p.qvel = j.at("qvel").get<double>();
  p.ball_qpos = unit_quat(j.at("ball_qpos"));
  p.ball_qvel = vec3(j.at("ball_qvel"));
  p.free_vel = vec3(j.at("free_vel"));
  read_limit(j, m.con.limit[k]);
  p.frictionloss = j.at("frictionloss").get<double>();
  for (int v = 0; v < joint_dof_count(jn.type); ++v) {
    TreeFrictionLoss<double>& f = m.con.dof_friction[jn.dof_adr + v];
    f.frictionloss = p.frictionloss;  // TreeSystem sets it per run from the joint's (a differentiable number)
    read_friction_params(j, f);
  }
}

void read_body(const json& b, int index, JointTreeModel<double>& m) {
  const std::string path = "model.tree.bodies." + std::to_string(index);
  const int parent = b.at("parent").get<int>() + 1;  // scene -1 (world) is tree body 0
  const int id = tree_add_body(m.tree, parent, vec3(b.at("pos")), unit_quat(b.at("quat")));
  if (id < 0) throw std::invalid_argument(path + ".parent: not the world or an earlier body");
  TreeBody<double>& body = m.tree.body[id];
  body.mass = b.at("mass").get<double>();
  body.inertia = vec3(b.at("inertia"));
  body.ipos = vec3(b.at("ipos"));
  body.iquat = unit_quat(b.at("iquat"));
  const json& joints = b.at("joints");
  for (std::size_t k = 0; k < joints.size(); ++k)
    read_joint(joints[k], id, path + ".joints." + std::to_string(k), m);
}

GeomType geom_type(const std::string& word) {
  const GeomType all[] = {GeomType::plane,    GeomType::sphere,    GeomType::capsule, GeomType::box,
                          GeomType::cylinder, GeomType::ellipsoid, GeomType::mesh,    GeomType::hfield};
  for (GeomType t : all)
    if (word == geom_type_name(t)) return t;
  return GeomType::sphere;
}

// model.tree.bodies.N.geoms.M or model.tree.world_geoms.M on tree body `body`; `paths` gets its key path.
void read_geom(const json& j, int body, const std::string& path, const TreeAssets& assets,
               JointTreeModel<double>& m, std::vector<std::string>& paths) {
  if (m.con.ngeom >= kMaxTreeGeoms)
    throw std::invalid_argument(path + ": more than " + std::to_string(kMaxTreeGeoms) + " geoms in the tree");
  TreeGeom<double>& g = m.con.geom[m.con.ngeom++];
  paths.push_back(path);
  g.type = geom_type(j.at("type").get<std::string>());
  g.body = body;
  g.contype = j.at("contype").get<int>();
  g.conaffinity = j.at("conaffinity").get<int>();
  g.condim = j.at("condim").get<int>();
  g.priority = j.at("priority").get<int>();
  g.size = vec3(j.at("size"));
  g.pos = vec3(j.at("pos"));
  g.quat = unit_quat(j.at("quat"));
  set_geom_assets(j, path, assets, g);
  g.rbound = tree_geom_rbound(g.type, g.size);
  for (int k = 0; k < 3; ++k) g.friction[k] = j.at("friction").at(k).get<double>();
  g.solmix = j.at("solmix").get<double>();
  for (int k = 0; k < 2; ++k) g.solref[k] = j.at("solref").at(k).get<double>();
  for (int k = 0; k < 5; ++k) g.solimp[k] = j.at("solimp").at(k).get<double>();
  g.margin = j.at("margin").get<double>();
  g.gap = j.at("gap").get<double>();
}

void read_geoms(const json& tree, JointTreeModel<double>& m, std::vector<std::string>& paths) {
  const TreeAssets assets = read_tree_assets(tree);
  const json& bodies = tree.at("bodies");
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (!bodies[i].contains("geoms")) continue;
    const json& geoms = bodies[i].at("geoms");
    for (std::size_t k = 0; k < geoms.size(); ++k)
      read_geom(geoms[k], static_cast<int>(i) + 1,
                "model.tree.bodies." + std::to_string(i) + ".geoms." + std::to_string(k), assets, m, paths);
  }
  if (!tree.contains("world_geoms")) return;
  const json& world = tree.at("world_geoms");
  for (std::size_t k = 0; k < world.size(); ++k)
    read_geom(world[k], 0, "model.tree.world_geoms." + std::to_string(k), assets, m, paths);
}

// An entry's body1 and body2 (indices in model.tree.bodies, -1 the world) as MuJoCo's body ids (the world
// 0): two different bodies of the tree.
std::pair<int, int> body_pair(const json& tree, const json& entry, const std::string& path) {
  const int bodies = static_cast<int>(tree.at("bodies").size());
  const int b1 = entry.at("body1").get<int>(), b2 = entry.at("body2").get<int>();
  if (b1 >= bodies || b2 >= bodies)
    throw std::invalid_argument(path + ": body index " + std::to_string(b1 >= bodies ? b1 : b2) +
                                " is past the last of the " + std::to_string(bodies) + " bodies");
  if (b1 == b2) throw std::invalid_argument(path + ": body1 and body2 are the same body");
  return {b1 + 1, b2 + 1};
}

// model.tree.excludes: body pairs (indices in model.tree.bodies, -1 the world) whose geoms never collide.
void read_excludes(const json& tree, JointTreeModel<double>& m) {
  if (!tree.contains("excludes")) return;
  const json& excludes = tree.at("excludes");
  for (std::size_t e = 0; e < excludes.size(); ++e) {
    const auto [b1, b2] = body_pair(tree, excludes[e], "model.tree.excludes." + std::to_string(e));
    int* pair = m.con.exclude[m.con.nexclude++];
    pair[0] = std::min(b1, b2);
    pair[1] = std::max(b1, b2);
  }
}

// The names of the tree's geoms in the model's order (read_geoms': the bodies' in order, then the world's).
std::vector<std::string> geom_names(const json& tree) {
  std::vector<std::string> names;
  for (const json& body : tree.at("bodies"))
    if (body.contains("geoms"))
      for (const json& g : body.at("geoms")) names.push_back(g.at("name").get<std::string>());
  if (tree.contains("world_geoms"))
    for (const json& g : tree.at("world_geoms")) names.push_back(g.at("name").get<std::string>());
  return names;
}

// The index of the one geom named by the key at `path`.
int geom_named(const std::vector<std::string>& names, const json& key, const std::string& path) {
  const std::string name = key.get<std::string>();
  if (name.empty()) throw std::invalid_argument(path + ": needs a geom's name (a geoms entry's name key)");
  int found = -1, count = 0;
  for (std::size_t g = 0; g < names.size(); ++g)
    if (names[g] == name) found = static_cast<int>(g), ++count;
  if (count == 0) throw std::invalid_argument(path + ": no geom is named '" + name + "'");
  if (count > 1)
    throw std::invalid_argument(path + ": " + std::to_string(count) + " geoms are named '" + name + "'");
  return found;
}

// model.tree.pairs: explicit geom pairs, their geoms by name, with their own contact parameters.
void read_pairs(const json& tree, JointTreeModel<double>& m) {
  if (!tree.contains("pairs")) return;
  const std::vector<std::string> names = geom_names(tree);
  const json& pairs = tree.at("pairs");
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const std::string path = "model.tree.pairs." + std::to_string(k);
    const json& j = pairs[k];
    const int g1 = geom_named(names, j.at("geom1"), path + ".geom1");
    const int g2 = geom_named(names, j.at("geom2"), path + ".geom2");
    if (g1 == g2) throw std::invalid_argument(path + ".geom2: the same geom as geom1");
    // Two planes: MuJoCo has no collider for them and collides nothing.
    if (m.con.geom[g1].type == GeomType::plane && m.con.geom[g2].type == GeomType::plane) continue;
    TreePair<double>& p = m.con.pair[m.con.npair++];
    p.geom1 = g1, p.geom2 = g2;
    p.condim = j.at("condim").get<int>();
    for (int c = 0; c < 5; ++c) p.friction[c] = j.at("friction").at(c).get<double>();
    for (int c = 0; c < 2; ++c) p.solref[c] = j.at("solref").at(c).get<double>();
    for (int c = 0; c < 5; ++c) p.solimp[c] = j.at("solimp").at(c).get<double>();
    p.margin = j.at("margin").get<double>();
    p.gap = j.at("gap").get<double>();
  }
}

// contact.model "mujoco" turns the geoms' contacts on ("none": geoms are drawn only; limits still act;
// "hard": Moreau's impulses with contact.hard's kappa and iterations, the geoms' friction), with
// contact.mujoco's refsafe, impratio, iterations and cone, and contact.cfd; model.tree.filterparent and
// model.tree.collision as MuJoCo's flag and option.
void read_contact_options(const json& c, JointTreeModel<double>& m) {
  TreeConstraintOptions& o = m.con.opt;
  const json& contact = c.at("contact");
  const std::string model = contact.at("model").get<std::string>();
  o.contact = model == "mujoco";
  o.hard = model == "hard";
  o.hard_iterations = contact.at("hard").at("iterations").get<int>();
  m.con.hard_kappa = read_number_or_inf(contact.at("hard").at("kappa"));
  const json& mj = contact.at("mujoco");
  o.refsafe = mj.at("refsafe").get<bool>();
  m.con.impratio = mj.at("impratio").get<double>();
  o.iterations = mj.at("iterations").get<int>();
  o.elliptic = mj.at("cone").get<std::string>() == "elliptic";
  o.filterparent = c.at("model").at("tree").at("filterparent").get<bool>();
  const std::string collision =
      c.at("model").at("tree").at("collision").get<std::string>();  // schema-checked
  o.collision = collision == "predefined" ? TreeCollisionSet::predefined
                : collision == "dynamic"  ? TreeCollisionSet::dynamic
                                          : TreeCollisionSet::all;
  m.con.cfd = read_cfd(contact);
}

// MuJoCo collides planes only as static geoms: one on a moving body would have no collider against most.
void check_planes(const JointTreeModel<double>& m, const std::vector<std::string>& paths) {
  for (int g = 0; g < m.con.ngeom; ++g)
    if (m.con.geom[g].type == GeomType::plane && tree_weld_id(m.tree, m.con.geom[g].body) != 0)
      throw std::invalid_argument(paths[static_cast<std::size_t>(g)] +
                                  ".type: a plane on a body that moves (a plane belongs to the world or to a "
                                  "body welded to it; use a thin box)");
}

// A pair of geoms that may touch but that the narrow phase has no collider for, named by their key paths.
void check_pairs(const JointTreeModel<double>& m, const std::vector<std::string>& paths) {
  int g1 = 0, g2 = 0;
  if (!(m.con.opt.contact || m.con.opt.hard) || !tree_unsupported_pair(m.tree, m.con, &g1, &g2)) return;
  throw std::invalid_argument(
      paths[static_cast<std::size_t>(g1)] + " (" + geom_type_name(m.con.geom[g1].type) + ") and " +
      paths[static_cast<std::size_t>(g2)] + " (" + geom_type_name(m.con.geom[g2].type) +
      ") may touch, and softgrad has no collider for the pair (set their contype and "
      "conaffinity so that they cannot, or exclude their bodies' pair in model.tree.excludes)");
}

// model.tree.actuators.N -> a MuJoCo actuator on the named joint: motor (gain 1), position (gain kp, bias
// -kp q), velocity (gain kv, bias -kv qdot), general (affine gain and bias from gainprm, biasprm), as
// MuJoCo's compiler writes them; gear scales the joint coordinate (hinge and slide only, the rules say).
// The (tree body, joint in body) an actuator's joint_name names (the rules made it unique), else its body and
// joint indices.
// The (tree body, joint in body) of the joint named `name` in model.tree.bodies, or (-1, -1).
std::pair<int, int> joint_named(const json& bodies, const std::string& name) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const json& joints = bodies[i].at("joints");
    for (std::size_t k = 0; k < joints.size(); ++k)
      if (joints[k].at("name").get<std::string>() == name)
        return {static_cast<int>(i) + 1, static_cast<int>(k)};
  }
  return {-1, -1};
}

std::pair<int, int> actuated_joint(const json& a, const json& bodies) {
  const std::string name = a.at("joint_name").get<std::string>();
  if (!name.empty()) {
    const auto found = joint_named(bodies, name);
    if (found.first >= 0) return found;
  }
  return {a.at("body").get<int>() + 1, a.at("joint").get<int>()};
}

// The index of the entry of tree[array] (sites, tendons) whose name is `name`, or -1 (an empty name names
// none).
int entry_named(const json& tree, const char* array, const std::string& name) {
  if (!tree.contains(array) || name.empty()) return -1;
  const json& entries = tree.at(array);
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].at("name").get<std::string>() == name) return static_cast<int>(i);
  return -1;
}

// A muscle (MuJoCo's <muscle>): muscle dynamics, gain and bias, gainprm = biasprm = (range, force, scale,
// lmin, lmax, vmax, fpmax, fvmax), dynprm = timeconst.
void read_muscle(const json& a, const std::string& path, TreeActuator<double>& act) {
  act.dyntype = ActuatorDynamics::kMuscle;
  act.gaintype = ActuatorGain::kMuscle, act.biastype = ActuatorBias::kMuscle;
  const double prm[9] = {
      a.at("range").at(0).get<double>(), a.at("range").at(1).get<double>(), a.at("force").get<double>(),
      a.at("scale").get<double>(),       a.at("lmin").get<double>(),        a.at("lmax").get<double>(),
      a.at("vmax").get<double>(),        a.at("fpmax").get<double>(),       a.at("fvmax").get<double>()};
  for (int k = 0; k < 9; ++k) act.gainprm[k] = act.biasprm[k] = prm[k];
  for (int k = 0; k < 2; ++k)
    act.dynprm[k] = a.at("timeconst").at(k).get<double>(),
    act.lengthrange[k] = a.at("lengthrange").at(k).get<double>();
  act.acc0 = a.at("acc0").get<double>();
  if (!(prm[0] < prm[1])) throw std::invalid_argument(path + ".range: lo < hi");
}

// Integrator or filter dynamics (MuJoCo's dyntype): the gain then multiplies the activation; a filter's time
// constant is timeconst.0 (dynprm[0]).
void read_dynamics(const json& a, const std::string& path, const std::string& kind,
                   TreeActuator<double>& act) {
  const std::string dyn = a.at("dyntype").get<std::string>();
  if (dyn == "none") return;
  if (kind == "muscle")
    throw std::invalid_argument(path + ".dyntype: a muscle has its own activation dynamics (leave \"none\")");
  act.dyntype = dyn == "integrator" ? ActuatorDynamics::kIntegrator : ActuatorDynamics::kFilter;
  for (int k = 0; k < 2; ++k) act.dynprm[k] = a.at("timeconst").at(k).get<double>();
  if (act.dyntype == ActuatorDynamics::kFilter && !(act.dynprm[0] > 0.0))
    throw std::invalid_argument(path + ".timeconst.0: a filter's time constant must be > 0");
}

// actlimited and actrange: a range lo < hi on an actuator that has an activation.
void read_activation_limit(const json& a, const std::string& path, TreeActuator<double>& act) {
  act.actlimited = a.at("actlimited").get<bool>();
  for (int c = 0; c < 2; ++c) act.actrange[c] = a.at("actrange").at(c).get<double>();
  if (!act.actlimited) return;
  if (act.dyntype == ActuatorDynamics::kNone)
    throw std::invalid_argument(path +
                                ".actlimited: the actuator has no activation to limit (dyntype integrator or "
                                "filter, or a muscle, has one)");
  if (!(act.actrange[0] < act.actrange[1])) throw std::invalid_argument(path + ".actrange: expected lo < hi");
}

// Limited activations are clamped after each step, as MuJoCo's mj_advance does: the fixed-step integrators
// do so; an adaptive one would need each bound as an event. (backsolve, which would not see the clamp,
// needs an adaptive integrator anyway.)
void check_activation_limits(const json& c, const JointTreeModel<double>& m) {
  const std::string method = c.at("integrator").at("type").get<std::string>();
  if (method == "euler" || method == "rk4" || method == "moreau") return;
  for (int i = 0; i < m.act.nu; ++i)
    if (m.act.actuator[i].actlimited)
      throw std::invalid_argument("model.tree.actuators." + std::to_string(i) +
                                  ".actlimited: activation limits clamp after each step (MuJoCo's "
                                  "mj_advance): set integrator.type euler, rk4 or moreau (this scene's " +
                                  method + " would need each bound as an event)");
}

// A slider-crank on the sites a's cranksite and slidersite name; its index, or -1 when full.
int add_slider_crank(const json& a, const json& tree, const std::string& path, JointTreeModel<double>& m) {
  const std::string crank = a.at("cranksite").get<std::string>(),
                    slider = a.at("slidersite").get<std::string>();
  const int c = entry_named(tree, "sites", crank), s = entry_named(tree, "sites", slider);
  if (c < 0)
    throw std::invalid_argument(path + ".cranksite: no site named '" + crank + "' in model.tree.sites");
  if (slider.empty())
    throw std::invalid_argument(path +
                                ".slidersite: a slider-crank needs its slider site (cranksite is set)");
  if (s < 0)
    throw std::invalid_argument(path + ".slidersite: no site named '" + slider + "' in model.tree.sites");
  const int i = tree_add_actuator(m.act, m.tree, 0);
  if (i < 0) return i;
  TreeActuator<double>& act = m.act.actuator[i];
  act.trntype = ActuatorTransmission::kSliderCrank, act.joint = c, act.slidersite = s;
  act.cranklength = a.at("cranklength").get<double>();
  return i;
}

// A site transmission on the site a's site names, relative to refsite when that is not empty; its index, or
// -1 when full.
int add_site_transmission(const json& a, const json& tree, const std::string& path,
                          JointTreeModel<double>& m) {
  const std::string site = a.at("site").get<std::string>(), ref = a.at("refsite").get<std::string>();
  const int s = entry_named(tree, "sites", site), r = entry_named(tree, "sites", ref);
  if (s < 0) throw std::invalid_argument(path + ".site: no site named '" + site + "' in model.tree.sites");
  if (!ref.empty() && r < 0)
    throw std::invalid_argument(path + ".refsite: no site named '" + ref + "' in model.tree.sites");
  const int i = tree_add_actuator(m.act, m.tree, 0);
  if (i < 0) return i;
  m.act.actuator[i].trntype = ActuatorTransmission::kSite, m.act.actuator[i].joint = s;
  m.act.actuator[i].refsite = r;
  return i;
}

// The actuator's transmission (at most one of site, cranksite and tendon, else a joint): its index, or -1
// when full.
int add_transmission(const json& a, const json& tree, const std::string& path, JointTreeModel<double>& m) {
  const std::string site = a.at("site").get<std::string>(), crank = a.at("cranksite").get<std::string>(),
                    tendon = a.at("tendon").get<std::string>();
  if (!site.empty() + !crank.empty() + !tendon.empty() > 1)
    throw std::invalid_argument(path + ": give one transmission (site, cranksite, tendon or a joint)");
  if (site.empty() && !a.at("refsite").get<std::string>().empty())
    throw std::invalid_argument(path + ".refsite: a reference site needs site (a site transmission)");
  if (!site.empty()) return add_site_transmission(a, tree, path, m);
  if (!crank.empty()) return add_slider_crank(a, tree, path, m);
  if (!tendon.empty()) {
    const int t = entry_named(tree, "tendons", tendon);
    if (t < 0)
      throw std::invalid_argument(path + ".tendon: no tendon named '" + tendon + "' in model.tree.tendons");
    const int i = tree_add_actuator(m.act, m.tree, 0);
    if (i >= 0) m.act.actuator[i].trntype = ActuatorTransmission::kTendon, m.act.actuator[i].joint = t;
    return i;
  }
  const auto [body, k] = actuated_joint(a, tree.at("bodies"));
  if (body < 1 || body >= m.tree.nbody || k < 0 || k >= m.tree.body[body].jnt_num)
    throw std::invalid_argument(path + ": no joint " + std::to_string(k) + " on body " +
                                std::to_string(body - 1));
  const int i = tree_add_actuator(m.act, m.tree, m.tree.body[body].jnt_adr + k);
  if (i >= 0 && a.at("jointinparent").get<bool>())
    m.act.actuator[i].trntype = ActuatorTransmission::kJointInParent;
  return i;
}

void read_actuator(const json& a, const json& tree, const std::string& path, JointTreeModel<double>& m) {
  const int i = add_transmission(a, tree, path, m);
  if (i < 0)
    throw std::invalid_argument(path + ": more than " + std::to_string(kMaxActuators) + " actuators");
  TreeActuator<double>& act = m.act.actuator[i];
  act.gear[0] = a.at("gear").get<double>();
  for (int k = 0; k < 5; ++k) act.gear[k + 1] = a.at("gear_rest").at(k).get<double>();
  const std::string kind = a.at("kind").get<std::string>();
  if (kind == "muscle") read_muscle(a, path, act);
  read_dynamics(a, path, kind, act);
  const double kp = a.at("kp").get<double>(), kv = a.at("kv").get<double>();
  if (kind == "position") {
    act.biastype = ActuatorBias::kAffine;
    act.gainprm[0] = kp, act.biasprm[1] = -kp;
  } else if (kind == "velocity") {
    act.biastype = ActuatorBias::kAffine;
    act.gainprm[0] = kv, act.biasprm[2] = -kv;
  } else if (kind == "general") {
    act.gaintype = ActuatorGain::kAffine, act.biastype = ActuatorBias::kAffine;
    for (int c = 0; c < 3; ++c)
      act.gainprm[c] = a.at("gainprm").at(c).get<double>(),
      act.biasprm[c] = a.at("biasprm").at(c).get<double>();
  }
  act.ctrllimited = a.at("ctrllimited").get<bool>();
  act.forcelimited = a.at("forcelimited").get<bool>();
  for (int c = 0; c < 2; ++c)
    act.ctrlrange[c] = a.at("ctrlrange").at(c).get<double>(),
    act.forcerange[c] = a.at("forcerange").at(c).get<double>();
  m.ctrl[i] = a.at("ctrl").get<double>();
  m.act0[i] = a.at("act").get<double>();
  read_activation_limit(a, path, act);
}

// The index in con.geom (read_geoms' order: bodies' geoms, then the world's) of the geom named `name`, or -1.
int geom_index(const json& tree, const std::string& name) {
  int index = 0;
  const json& bodies = tree.at("bodies");
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (!bodies[i].contains("geoms")) continue;
    for (const json& g : bodies[i].at("geoms")) {
      if (g.at("name").get<std::string>() == name) return index;
      ++index;
    }
  }
  if (tree.contains("world_geoms"))
    for (const json& g : tree.at("world_geoms")) {
      if (g.at("name").get<std::string>() == name) return index;
      ++index;
    }
  return -1;
}

// model.tree.sites: each on its body (-1 the world).
void read_sites(const json& tree, JointTreeModel<double>& m) {
  if (!tree.contains("sites")) return;
  const json& sites = tree.at("sites");
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const int body = sites[i].at("body").get<int>() + 1;
    if (body >= m.tree.nbody)
      throw std::invalid_argument("model.tree.sites." + std::to_string(i) + ".body: no body " +
                                  std::to_string(body - 1) + " in model.tree.bodies");
    TreeSite<double>& s = m.act.ten.site[m.act.ten.nsite++];
    s.body = body;
    s.pos = vec3(sites[i].at("pos"));
    s.quat = unit_quat(sites[i].at("quat"));
  }
}

// The tree joint index of the joint named `name`, or -1.
int joint_index(const JointTreeModel<double>& m, const json& bodies, const std::string& name) {
  const auto [body, k] = joint_named(bodies, name);
  return body < 0 ? -1 : m.tree.body[body].jnt_adr + k;
}

// A wrap geom (a sphere or cylinder by name) copied into the tendon model; its index there.
int wrap_geom(const json& tree, const std::string& name, const std::string& path, JointTreeModel<double>& m) {
  const int g = geom_index(tree, name);
  if (g < 0) throw std::invalid_argument(path + ".geom: no geom named '" + name + "'");
  const TreeGeom<double>& geom = m.con.geom[g];
  if (geom.type != GeomType::sphere && geom.type != GeomType::cylinder)
    throw std::invalid_argument(path + ".geom: '" + name + "' is a " + geom_type_name(geom.type) +
                                "; tendons wrap around spheres and cylinders");
  TreeTendonModel<double>& tm = m.act.ten;
  if (tm.ngeom >= kMaxWrapGeoms)
    throw std::invalid_argument(path + ".geom: more than " + std::to_string(kMaxWrapGeoms) + " wrap geoms");
  tm.geom[tm.ngeom] =
      TreeWrapGeom<double>{g, geom.type == GeomType::cylinder, geom.body, geom.pos, geom.quat, geom.size.x};
  return tm.ngeom++;
}

// One path entry of tendon `t`: a joint (fixed) or a site, a wrap geom or a pulley (spatial).
TreeWrap<double> read_wrap(const json& w, const json& tree, const std::string& path, bool spatial,
                           JointTreeModel<double>& m) {
  const std::string site = w.at("site").get<std::string>(), geom = w.at("geom").get<std::string>(),
                    joint = w.at("joint").get<std::string>();
  const double divisor = w.at("pulley").get<double>();
  if (!site.empty() + !geom.empty() + !joint.empty() + (divisor > 0.0) != 1)
    throw std::invalid_argument(path + ": give exactly one of site, geom, joint and pulley");
  if (!joint.empty() == spatial)
    throw std::invalid_argument(path +
                                ": a tendon's path is joints only (a fixed tendon) or sites, geoms and "
                                "pulleys only (a spatial tendon)");
  TreeWrap<double> out;
  if (divisor > 0.0) {
    out.kind = WrapKind::kPulley;
    out.coef = divisor;
    return out;
  }
  if (!joint.empty()) {
    out.kind = WrapKind::kJoint;
    out.id = joint_index(m, tree.at("bodies"), joint);
    out.coef = w.at("coef").get<double>();
    if (out.id < 0) throw std::invalid_argument(path + ".joint: no joint named '" + joint + "'");
    const JointType type = m.tree.joint[out.id].type;
    if (type != JointType::kHinge && type != JointType::kSlide)
      throw std::invalid_argument(path + ".joint: '" + joint + "' is not a hinge or slide joint");
    return out;
  }
  if (!site.empty()) {
    out.kind = WrapKind::kSite;
    out.id = entry_named(tree, "sites", site);
    if (out.id < 0)
      throw std::invalid_argument(path + ".site: no site named '" + site + "' in model.tree.sites");
    return out;
  }
  out.kind = WrapKind::kGeom;
  out.id = wrap_geom(tree, geom, path, m);
  const std::string side = w.at("sidesite").get<std::string>();
  out.sidesite = entry_named(tree, "sites", side);
  if (!side.empty() && out.sidesite < 0)
    throw std::invalid_argument(path + ".sidesite: no site named '" + side + "' in model.tree.sites");
  return out;
}

// A spatial path runs site to site, a geom only between two sites, a pulley starts a new branch of at
// least two sites (MuJoCo's compiler rules).
void check_spatial_path(const TreeTendonModel<double>& tm, const TreeTendon<double>& t,
                        const std::string& path) {
  const auto kind = [&](int k) { return tm.wrap[t.adr + k].kind; };
  if (t.num < 2 || kind(0) == WrapKind::kGeom || kind(t.num - 1) != WrapKind::kSite)
    throw std::invalid_argument(path + ": a spatial tendon's path starts and ends at a site (at least two)");
  for (int k = 0; k < t.num; ++k) {
    const std::string entry = path + "." + std::to_string(k);
    const bool pulley_before = k == 0 || kind(k - 1) == WrapKind::kPulley;
    const bool pulley_after = k == t.num - 1 || kind(k + 1) == WrapKind::kPulley;
    if (kind(k) == WrapKind::kGeom && (kind(k - 1) != WrapKind::kSite || kind(k + 1) != WrapKind::kSite))
      throw std::invalid_argument(entry + ": a wrap geom sits between two sites");
    if (kind(k) == WrapKind::kPulley && k > 0 && kind(k - 1) == WrapKind::kPulley)
      throw std::invalid_argument(entry + ": two pulleys in a row");
    if (kind(k) == WrapKind::kSite && pulley_before && pulley_after)
      throw std::invalid_argument(entry + ": a site between pulleys (a branch needs two sites)");
  }
}

// model.tree.tendons: fixed (joints) or spatial (sites and wrap geoms), with their springs.
void read_tendons(const json& tree, JointTreeModel<double>& m) {
  if (!tree.contains("tendons")) return;
  const json& tendons = tree.at("tendons");
  TreeTendonModel<double>& tm = m.act.ten;
  for (std::size_t i = 0; i < tendons.size(); ++i) {
    const std::string path = "model.tree.tendons." + std::to_string(i);
    const json& t = tendons[i];
    const json& entries = t.at("path");
    if (entries.empty()) throw std::invalid_argument(path + ".path: empty");
    TreeTendon<double>& out = tm.tendon[tm.ntendon++];
    out.spatial = entries[0].at("joint").get<std::string>().empty();
    out.adr = tm.nwrap;
    out.num = static_cast<int>(entries.size());
    if (tm.nwrap + out.num > kMaxWrapObjects)
      throw std::invalid_argument(path + ".path: more than " + std::to_string(kMaxWrapObjects) +
                                  " path entries in all tendons");
    for (std::size_t k = 0; k < entries.size(); ++k)
      tm.wrap[tm.nwrap++] = read_wrap(entries[k], tree, path + ".path." + std::to_string(k), out.spatial, m);
    if (out.spatial) check_spatial_path(tm, out, path + ".path");
    out.stiffness = t.at("stiffness").get<double>();
    out.damping = t.at("damping").get<double>();
    out.lengthspring = t.at("springlength").get<double>();
    read_limit(t, m.con.tendon_limit[tm.ntendon - 1]);
    TreeFrictionLoss<double>& f = m.con.tendon_friction[tm.ntendon - 1];
    f.frictionloss = t.at("frictionloss").get<double>();
    read_friction_params(t, f);
  }
}

// The friction-loss rows fit the contact modes' room for them.
void check_friction_rows(const JointTreeModel<double>& m) {
  if (m.friction_rows() > kMaxTreeFrictionRows)
    throw std::invalid_argument(
        "model.tree: " + std::to_string(m.friction_rows()) +
        " friction-loss rows (a row per dof of a joint with frictionloss > 0, one per "
        "such tendon); a tree holds at most " +
        std::to_string(kMaxTreeFrictionRows));
}

// An equality's joint (hinge or slide) or tendon (`tendon`) by name under `key`: its index, or -1 for an
// empty optional name.
int equality_object(const JointTreeModel<double>& m, const json& tree, const json& e, const std::string& key,
                    bool tendon, bool optional, const std::string& path) {
  const std::string name = e.at(key).get<std::string>();
  if (name.empty()) {
    if (optional) return -1;
    throw std::invalid_argument(path + "." + key + ": empty (name the " + (tendon ? "tendon" : "joint") +
                                ")");
  }
  if (tendon) {
    const int t = entry_named(tree, "tendons", name);
    if (t < 0) throw std::invalid_argument(path + "." + key + ": no tendon named \"" + name + "\"");
    return t;
  }
  const int j = joint_index(m, tree.at("bodies"), name);
  if (j < 0) throw std::invalid_argument(path + "." + key + ": no joint named \"" + name + "\"");
  const JointType t = m.tree.joint[j].type;
  if (t != JointType::kHinge && t != JointType::kSlide)
    throw std::invalid_argument(path + "." + key + ": joint \"" + name + "\" is not a hinge or slide");
  return j;
}

// model.tree.equalities: connect and weld (bodies by index, -1 the world), joint and tendon (by name).
void read_equalities(const json& tree, JointTreeModel<double>& m) {
  if (!tree.contains("equalities")) return;
  const json& list = tree.at("equalities");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "model.tree.equalities." + std::to_string(i);
    const json& e = list[i];
    TreeEquality<double>& eq = m.con.eq[m.con.neq++];
    const std::string type = e.at("type").get<std::string>();
    if (type == "connect" || type == "weld") {
      eq.type = type == "connect" ? EqualityType::kConnect : EqualityType::kWeld;
      std::tie(eq.obj1, eq.obj2) = body_pair(tree, e, path);
      (eq.type == EqualityType::kConnect ? eq.anchor1 : eq.anchor2) = vec3(e.at("anchor"));
      const json& r = e.at("relpose");
      if (eq.type == EqualityType::kWeld) {
        eq.anchor1 = {r.at(0).get<double>(), r.at(1).get<double>(), r.at(2).get<double>()};
        eq.relpose = {r.at(3).get<double>(), r.at(4).get<double>(), r.at(5).get<double>(),
                      r.at(6).get<double>()};
      }
      eq.torquescale = e.at("torquescale").get<double>();
    } else {
      const bool tendon = type == "tendon";
      eq.type = tendon ? EqualityType::kTendon : EqualityType::kJoint;
      const std::string k1 = tendon ? "tendon1" : "joint1", k2 = tendon ? "tendon2" : "joint2";
      eq.obj1 = equality_object(m, tree, e, k1, tendon, false, path);
      eq.obj2 = equality_object(m, tree, e, k2, tendon, true, path);
      if (eq.obj1 == eq.obj2) throw std::invalid_argument(path + ": " + k1 + " and " + k2 + " are the same");
    }
    for (int k = 0; k < 5; ++k)
      eq.polycoef[k] = e.at("polycoef").at(k).get<double>(),
      eq.solimp[k] = e.at("solimp").at(k).get<double>();
    for (int k = 0; k < 2; ++k) eq.solref[k] = e.at("solref").at(k).get<double>();
  }
}

// Muscles without a length range (lo < hi) get MuJoCo's compiler's (tree_lengthrange.hpp), at the path of
// the one it fails for. Needs the inverse weights (the joint limits' rows).
void set_lengthranges(JointTreeModel<double>& m) {
  for (int i = 0; i < m.act.nu; ++i) {
    TreeActuator<double>& a = m.act.actuator[i];
    if (a.gaintype != ActuatorGain::kMuscle || a.lengthrange[0] < a.lengthrange[1]) continue;
    double range[2] = {0.0, 0.0};
    const std::string why = tree_lengthrange(m, i, range);
    if (!why.empty())
      throw std::invalid_argument("model.tree.actuators." + std::to_string(i) +
                                  ".lengthrange: MuJoCo's length-range computation for this muscle failed: " +
                                  why + " (give the range [lo, hi], lo < hi)");
    a.lengthrange[0] = range[0], a.lengthrange[1] = range[1];
  }
}

// Muscles that leave acc0 at 0 get MuJoCo's at qpos0.
void set_acc0(JointTreeModel<double>& m) {
  bool needed = false;
  for (int i = 0; i < m.act.nu; ++i)
    needed = needed || (m.act.actuator[i].gaintype == ActuatorGain::kMuscle && m.act.actuator[i].acc0 == 0.0);
  if (!needed) return;
  auto d = std::make_unique<TreeData<double>>();
  auto ad = std::make_unique<TreeActuatorData<double>>();
  double acc0[kMaxActuators] = {};
  if (!tree_actuator_acc0(m.tree, m.act, *d, *ad, acc0)) return;  // check_inertia reports the singular qM
  for (int i = 0; i < m.act.nu; ++i)
    if (m.act.actuator[i].gaintype == ActuatorGain::kMuscle && m.act.actuator[i].acc0 == 0.0)
      m.act.actuator[i].acc0 = acc0[i];
}

// The control section: knots by actuator index, spanning integrator.steps output steps.
void read_controls(const json& c, JointTreeModel<double>& m) {
  TreeControls<double>& out = m.controls;
  const json& control = c.at("control");
  out.interpolation = control.at("interpolation").get<std::string>() == "linear"
                          ? ControlInterpolation::linear
                          : ControlInterpolation::constant;
  out.steps = c.at("integrator").at("steps").get<long>();
  const json& entries = control.at("actuators");
  for (std::size_t a = 0; a < entries.size(); ++a) {
    const std::string path = "control.actuators." + std::to_string(a);
    const json& knots = entries[a].at("knots");
    if (knots.empty()) continue;
    if (static_cast<int>(a) >= m.act.nu)
      throw std::invalid_argument(path + ": no actuator " + std::to_string(a) +
                                  " (model.tree.actuators has " + std::to_string(m.act.nu) + ")");
    if (out.total + static_cast<int>(knots.size()) > kMaxControlKnots)
      throw std::invalid_argument(path + ".knots: more than " + std::to_string(kMaxControlKnots) +
                                  " knots in all");
    out.first[a] = out.total;
    out.count[a] = static_cast<int>(knots.size());
    for (const json& k : knots) out.knot[out.total++] = k.get<double>();
  }
}

// mj_setConst's inverse weights at qpos0, on the tree with the joints' armature on its dofs (as a run
// expands it). A singular inertia leaves them 0; check_inertia then reports it.
void set_inverse_weights(JointTreeModel<double>& m) {
  if (!m.constrained()) return;
  auto t = std::make_unique<TreeModel<double>>(m.tree);
  for (int j = 0; j < t->njnt; ++j)
    for (int k = 0; k < joint_dof_count(t->joint[j].type); ++k)
      t->armature[t->joint[j].dof_adr + k] = m.joint[j].armature;
  auto d = std::make_unique<TreeData<double>>();
  if (!tree_inverse_weights(*t, m.con, *d) || (m.con.neq == 0 && m.act.ten.ntendon == 0)) return;
  auto ten = std::make_unique<TreeTendonModel<double>>(m.act.ten);
  tree_sync_wrap_geoms(m.con, *ten);
  auto td = std::make_unique<TreeTendonData<double>>();
  tree_constraint_setconst(*t, *ten, m.con, *d, *td);
}

// A dof that moves no mass and has no armature has no acceleration (qM is singular): refused by name at
// load, not found as a non-finite state in the first step.
void check_inertia(const JointTreeModel<double>& m) {
  const auto sys = std::make_unique<TreeSystem<double>>(&m, 0.0);  // TreeData is large for the stack
  std::vector<double> y(static_cast<std::size_t>(sys->dim()));
  sys->initial_state(y.data());
  sys->forward(y.data());
  const TreeModel<double>& t = sys->tree();
  for (int i = 0; i < t.nv; ++i) {
    if (sys->data().qM[i * t.nv + i] > kTreeMinVal) continue;
    const int j = t.dof_joint[i], b = t.joint[j].body;
    const std::string body = "model.tree.bodies." + std::to_string(b - 1);
    throw std::invalid_argument(body + ".joints." + std::to_string(j - t.body[b].jnt_adr) +
                                ": the joint moves no mass (a singular inertia matrix): give " + body +
                                " or a body below it mass and inertia, or the joint armature");
  }
  for (int i = 0; i < t.nv; ++i)
    if (!std::isfinite(sys->data().qacc[i]))
      throw std::invalid_argument(
          "model.tree.bodies: the inertia matrix is singular at the start (joints "
          "that move no mass in some direction); add mass, inertia or armature");
}

}  // namespace

JointTreeModel<double> read_tree(const json& c) {
  JointTreeModel<double> m;
  const json& model = c.at("model");
  m.tree.gravity = vec3(model.at("gravity"));
  const json& fluid = model.at("tree").at("fluid");
  m.tree.density = fluid.at("density").get<double>();
  m.tree.viscosity = fluid.at("viscosity").get<double>();
  m.tree.wind = vec3(fluid.at("wind"));
  const json& bodies = model.at("tree").at("bodies");
  if (bodies.empty() || bodies.size() >= static_cast<std::size_t>(kMaxTreeBodies))
    throw std::invalid_argument("model.tree.bodies: expected 1 to " + std::to_string(kMaxTreeBodies - 1) +
                                " bodies");
  for (std::size_t i = 0; i < bodies.size(); ++i) read_body(bodies[i], static_cast<int>(i), m);
  tree_index_rotations(m);
  const json& tree = model.at("tree");
  std::vector<std::string> geom_paths;
  read_geoms(tree, m, geom_paths);
  read_sites(tree, m);
  read_tendons(tree, m);
  if (tree.contains("actuators"))
    for (std::size_t i = 0; i < tree.at("actuators").size(); ++i)
      read_actuator(tree.at("actuators")[i], tree, "model.tree.actuators." + std::to_string(i), m);
  tree_index_activations(m.act);
  check_activation_limits(c, m);
  read_controls(c, m);
  read_excludes(tree, m);
  read_pairs(tree, m);
  read_equalities(tree, m);
  check_friction_rows(m);
  read_contact_options(c, m);
  check_planes(m, geom_paths);
  check_pairs(m, geom_paths);
  set_inverse_weights(m);
  set_lengthranges(m);
  set_acc0(m);
  check_inertia(m);
  return m;
}

}  // namespace sg
