// Reads a resolved scene (validated by engine/scene, defaults filled) into numeric form.
#include <limits>
#include <stdexcept>

#include "engine/articulated/constraint_collision.hpp"
#include "engine/model/tree_from_rigid.hpp"
#include "engine/problem/cfd_from_config.hpp"
#include "engine/problem/json_number.hpp"
#include "engine/problem/problem.hpp"
#include "engine/problem/tree_from_config.hpp"

#include "engine/collision/geom_type.hpp"
#include "engine/scene/describe.hpp"
#include "engine/scene/key_range.hpp"

namespace sg {
namespace {

using nlohmann::json;

Vec3<double> read_vec3(const json& j) {
  return {j.at(0).get<double>(), j.at(1).get<double>(), j.at(2).get<double>()};
}

template <class E, std::size_t N>
E read_choice(const json& j, const char* path, const char* const (&names)[N]) {
  const std::string s = j.get<std::string>();
  for (std::size_t i = 0; i < N; ++i)
    if (s == names[i]) return static_cast<E>(i);
  throw std::invalid_argument(std::string(path) + ": unknown choice \"" + s + "\"");
}

// The size of a list the schema bounds below but whose upper bound is a compile-time capacity here.
std::size_t checked_count(const json& list, const char* path, int capacity, const char* what) {
  if (list.empty() || list.size() > static_cast<std::size_t>(capacity))
    throw std::invalid_argument(std::string(path) + ": expected 1 to " + std::to_string(capacity) + " " +
                                what);
  return list.size();
}

ParticleModel<double> read_model(const json& c) {
  ParticleModel<double> m;
  const json& model = c.at("model");
  m.gravity = read_vec3(model.at("gravity"));
  m.plane_enabled = model.at("plane").at("enabled").get<bool>();
  m.plane_height = model.at("plane").at("height").get<double>();
  const json& ps = model.at("particles");
  m.count = static_cast<int>(checked_count(ps, "model.particles", kMaxParticles, "particles"));
  for (int i = 0; i < m.count; ++i) {
    const json& p = ps[static_cast<std::size_t>(i)];
    m.particles[i] = {p.at("mass").get<double>(), p.at("radius").get<double>(), read_vec3(p.at("pos")),
                      read_vec3(p.at("vel"))};
  }
  const json& ct = c.at("contact");
  static const char* const kModels[] = {"none", "penalty", "mujoco", "elastic", "hard"};
  m.contact = read_choice<ContactModel>(ct.at("model"), "contact.model", kModels);
  m.penalty = {ct.at("penalty").at("k").get<double>(), ct.at("penalty").at("c").get<double>()};
  for (int i = 0; i < 2; ++i) m.mujoco.solref[i] = ct.at("mujoco").at("solref").at(i).get<double>();
  for (int i = 0; i < 5; ++i) m.mujoco.solimp[i] = ct.at("mujoco").at("solimp").at(i).get<double>();
  m.mujoco.refsafe = ct.at("mujoco").at("refsafe").get<bool>();
  m.elastic = {ct.at("elastic").at("restitution").get<double>(), ct.at("elastic").at("toi").get<bool>()};
  const json& hard = ct.at("hard");
  m.hard = {read_number_or_inf(hard.at("kappa")), hard.at("iterations").get<int>(),
            hard.at("friction").get<double>()};
  return m;
}

Surface<double> read_surface(const json& j) {
  Surface<double> s;
  s.friction = j.at("friction").at(0).get<double>();
  for (int i = 0; i < 2; ++i) s.solref[i] = j.at("solref").at(i).get<double>();
  for (int i = 0; i < 5; ++i) s.solimp[i] = j.at("solimp").at(i).get<double>();
  s.condim = j.at("condim").get<int>();
  s.margin = j.value("margin", 0.0);
  return s;
}

RigidBody<double> read_body(const json& j) {
  RigidBody<double> b;
  static const char* const kShapes[] = {"plane", "sphere", "capsule", "box", "cylinder", "ellipsoid"};
  b.shape = read_choice<GeomType>(j.at("shape"), "model.bodies.*.shape", kShapes);
  b.size = read_vec3(j.at("size"));
  b.density = j.at("density").get<double>();
  b.mass = j.at("mass").get<double>();
  b.pos = read_vec3(j.at("pos"));
  b.euler_deg = read_vec3(j.at("euler"));
  b.vel = read_vec3(j.at("vel"));
  b.angvel = read_vec3(j.at("angvel"));
  b.surface = read_surface(j);
  b.damping = j.at("damping").get<double>();
  const json& forces = j.at("forces");
  if (forces.size() > static_cast<std::size_t>(kMaxTimedForces))
    throw std::invalid_argument("model.bodies.*.forces: at most " + std::to_string(kMaxTimedForces) +
                                " forces");
  b.force_count = static_cast<int>(forces.size());
  for (int k = 0; k < b.force_count; ++k) {
    const json& f = forces[static_cast<std::size_t>(k)];
    b.forces[k] = {read_vec3(f.at("force")), read_vec3(f.at("torque")), f.at("from_step").get<int>(),
                   f.at("to_step").get<int>()};
  }
  return b;
}

RigidModel<double> read_rigid(const json& c) {
  RigidModel<double> m;
  const json& model = c.at("model");
  m.gravity = read_vec3(model.at("gravity"));
  m.plane_enabled = model.at("plane").at("enabled").get<bool>();
  m.plane_height = model.at("plane").at("height").get<double>();
  m.plane = read_surface(model.at("plane"));
  m.collide_bodies = model.at("collide_bodies").get<bool>();
  const json& bodies = model.at("bodies");
  m.count = static_cast<int>(checked_count(bodies, "model.bodies", kMaxBodies, "bodies"));
  for (int i = 0; i < m.count; ++i) m.bodies[i] = read_body(bodies[static_cast<std::size_t>(i)]);
  const json& ct = c.at("contact");
  static const char* const kModels[] = {"none", "penalty", "mujoco", "elastic", "hard"};
  m.contact = read_choice<ContactModel>(ct.at("model"), "contact.model", kModels);
  if (m.contact != ContactModel::none && m.contact != ContactModel::mujoco && m.contact != ContactModel::hard)
    throw std::invalid_argument("contact.model: rigid bodies support \"none\", \"mujoco\" and \"hard\"");
  const json& hard = ct.at("hard");
  m.hard = {read_number_or_inf(hard.at("kappa")), hard.at("iterations").get<int>(),
            hard.at("friction").get<double>()};
  const json& mj = ct.at("mujoco");
  m.impratio = mj.at("impratio").get<double>();
  m.iterations = mj.at("iterations").get<int>();
  m.refsafe = mj.at("refsafe").get<bool>();
  m.as_tree = model.at("run_as").get<std::string>() == "tree";
  m.elliptic = mj.at("cone").get<std::string>() == "elliptic";
  if (m.elliptic && !m.as_tree)
    throw std::invalid_argument(
        "contact.mujoco.cone: free bodies take \"pyramidal\" only; \"elliptic\" runs with model.run_as=tree");
  m.cfd = read_cfd(ct);
  m.softness = c.at("collision").at("softness").get<double>();
  // auto, exact and smooth are all softgrad's detector, told apart by the softness (the scene rules
  // reject exact with a softness and smooth without one).
  if (c.at("collision").at("mode").get<std::string>() == "diffmjx") m.detector = Detector::diffmjx;
  return m;
}

// model.run_as "tree": a pair of bodies the tree's narrow phase has no collider for (the free bodies' own
// list is checked by the scene rules), named by the bodies' key paths.
void check_rigid_as_tree(const RigidModel<double>& r) {
  const auto tree = tree_of_rigid(r);
  int g1 = 0, g2 = 0;
  const bool collides = tree->con.opt.contact || tree->con.opt.hard;
  if (!collides || !tree_unsupported_pair(tree->tree, tree->con, &g1, &g2)) return;
  const auto name = [&](int g) {
    const std::string shape = geom_type_name(tree->con.geom[g].type);
    return (g < r.count ? "model.bodies." + std::to_string(g) : std::string("model.plane")) + " (" + shape +
           ")";
  };
  throw std::invalid_argument("model.run_as: " + name(g1) + " and " + name(g2) +
                              " may touch, and the joint tree has no collider for the pair; set "
                              "model.run_as=free_bodies or model.collide_bodies=false");
}

IntegratorSettings read_integrator(const json& c) {
  const json& j = c.at("integrator");
  IntegratorSettings s;
  static const char* const kMethods[] = {"euler", "moreau", "rk4", "bosh3", "dopri5", "tsit5", "dopri8"};
  s.method = read_choice<Method>(j.at("type"), "integrator.type", kMethods);
  s.dt = j.at("dt").get<double>();
  s.steps = j.at("steps").get<long>();
  s.substeps = j.at("substeps").get<long>();
  s.rtol = j.at("rtol").get<double>();
  s.atol = j.at("atol").get<double>();
  s.max_steps = j.at("max_steps").get<long>();
  s.auto_initial_step = j.at("initial_step").get<std::string>() == "auto";
  s.dt_min = j.at("dt_min").get<double>();
  s.events = j.at("events").get<bool>();
  s.step_to_outputs = j.at("step_to_outputs").get<bool>();
  const json& k = j.at("controller");
  s.controller = {k.at("pcoeff").get<double>(),           k.at("icoeff").get<double>(),
                  k.at("dcoeff").get<double>(),           k.at("safety").get<double>(),
                  k.at("factor_min").get<double>(),       k.at("factor_max").get<double>(),
                  k.at("reject_factor_max").get<double>()};
  s.through_controller = c.at("gradient").at("through_controller").get<bool>();
  s.control_tangents = c.at("gradient").at("control_tangents").get<bool>();
  return s;
}

// The tree joint a qpos or qvel term names (loss.terms.N.joint), and its coordinate (component) checked
// against the joint's type.
int scored_joint(const json& c, const json& t, const std::string& path, const ProblemData<double>& data,
                 bool velocity) {
  if (data.type != ModelType::tree)
    throw std::invalid_argument(path + ".quantity: qpos and qvel need a joint tree (model.type tree)");
  const std::string name = t.at("joint").get<std::string>();
  const json& bodies = c.at("model").at("tree").at("bodies");
  int found = -1;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const json& joints = bodies[i].at("joints");
    for (std::size_t k = 0; k < joints.size(); ++k)
      if (!name.empty() && joints[k].at("name").get<std::string>() == name) {
        if (found >= 0)
          throw std::invalid_argument(path + ".joint: several joints are called \"" + name + "\"");
        found = data.tree.tree.body[i + 1].jnt_adr + static_cast<int>(k);
      }
  }
  if (found < 0)
    throw std::invalid_argument(path + ".joint: no joint called \"" + name +
                                "\" (model.tree.bodies.*.joints.*.name)");
  const JointType type = data.tree.tree.joint[found].type;
  const int count = velocity ? joint_dof_count(type) : joint_qpos_count(type);
  const int component = t.at("component").get<int>();
  if (component >= count)
    throw std::invalid_argument(path + ".component: the joint \"" + name + "\" has " + std::to_string(count) +
                                (velocity ? " velocity" : " position") + " coordinate" +
                                (count == 1 ? "" : "s"));
  return found;
}

// The tree site a site term names (loss.terms.N.site).
int scored_site(const json& c, const json& t, const std::string& path, const ProblemData<double>& data) {
  if (data.type != ModelType::tree)
    throw std::invalid_argument(path + ".quantity: site needs a joint tree (model.type tree)");
  const std::string name = t.at("site").get<std::string>();
  const json& tree = c.at("model").at("tree");
  if (tree.contains("sites"))
    for (std::size_t i = 0; i < tree.at("sites").size(); ++i)
      if (!name.empty() && tree.at("sites")[i].at("name").get<std::string>() == name)
        return static_cast<int>(i);
  throw std::invalid_argument(path + ".site: no site called \"" + name + "\" (model.tree.sites.*.name)");
}

LossSpec<double> read_loss(const json& c, const ProblemData<double>& data) {
  const int bodies = scored_body_count(data);
  LossSpec<double> loss;
  const json& terms = c.at("loss").at("terms");
  loss.count = static_cast<int>(checked_count(terms, "loss.terms", kMaxLossTerms, "terms"));
  static const char* const kQuantities[] = {"position", "velocity", "qpos", "qvel", "site"};
  static const char* const kAxes[] = {"x", "y", "z"};
  static const char* const kKinds[] = {"value", "abs", "square"};
  for (int i = 0; i < loss.count; ++i) {
    const json& t = terms[static_cast<std::size_t>(i)];
    const std::string path = "loss.terms." + std::to_string(i);
    LossTerm<double>& out = loss.terms[i];
    out.quantity = read_choice<LossQuantity>(t.at("quantity"), (path + ".quantity").c_str(), kQuantities);
    if (out.quantity == LossQuantity::qpos || out.quantity == LossQuantity::qvel) {
      out.body = scored_joint(c, t, path, data, out.quantity == LossQuantity::qvel);
      out.axis = t.at("component").get<int>();
    } else if (out.quantity == LossQuantity::site) {
      out.body = scored_site(c, t, path, data);
      out.axis = read_choice<int>(t.at("axis"), (path + ".axis").c_str(), kAxes);
    } else {
      out.body = t.at("body").get<int>();
      if (out.body < 0 || out.body >= bodies)
        throw std::invalid_argument(path + ".body: no body " + std::to_string(out.body));
      out.axis = read_choice<int>(t.at("axis"), (path + ".axis").c_str(), kAxes);
    }
    out.kind = read_choice<LossKind>(t.at("kind"), (path + ".kind").c_str(), kKinds);
    out.target = t.at("target").get<double>();
    out.weight = t.at("weight").get<double>();
  }
  return loss;
}

// A path the identify section names (at `key`) must be a differentiable number of this model.
std::string identify_path(const json& entry, const std::string& key, ProblemData<double>& data) {
  const std::string path = entry.at("path").get<std::string>();
  if (!parameter_slot(data, path))
    throw std::invalid_argument(key + ": \"" + path + "\" is not a differentiable number of this scene");
  return path;
}

// A fitted number's bounds must leave room, and its start must lie within them and within its key's range.
void check_fit_range(const std::string& key, const std::string& path, const IdentifySpec& spec) {
  const double lo = spec.min.back(), hi = spec.max.back(), start = spec.start.back();
  if (!(lo < hi))
    throw std::invalid_argument(key + ".min: " + scene::format_number(lo) + " is not below max " +
                                scene::format_number(hi));
  const scene::KeyRange own = scene::key_range(path);
  if (!own.contains(start))
    throw std::invalid_argument(key + ".start: " + scene::format_number(start) + " is outside the range of " +
                                path + " (" + own.text() + ")");
  if (start < lo || start > hi)
    throw std::invalid_argument(key + ".start: " + scene::format_number(start) + " is outside [" +
                                scene::format_number(lo) + ", " + scene::format_number(hi) + "]");
}

// The fitted paths must be differentiable numbers of this model, each named once; a rollout sets one that
// is not fitted.
IdentifySpec read_identify(const json& id, ProblemData<double>& data) {
  IdentifySpec out;
  const json& params = id.at("parameters");
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::string key = "identify.parameters." + std::to_string(i) + ".path";
    const std::string path = identify_path(params[i], key, data);
    for (const std::string& earlier : out.paths)
      if (earlier == path) throw std::invalid_argument(key + ": \"" + path + "\" is listed twice");
    out.paths.push_back(path);
    out.start.push_back(params[i].at("start").get<double>());
    out.min.push_back(read_number_or_inf(params[i].at("min")));
    out.max.push_back(read_number_or_inf(params[i].at("max")));
    check_fit_range("identify.parameters." + std::to_string(i), path, out);
  }
  out.noise = id.at("noise").get<double>();
  out.seed = id.at("seed").get<unsigned long>();
  out.adam = id.at("method").get<std::string>() == "adam";
  out.steps = id.at("steps").get<int>();
  out.profile = id.at("profile").get<bool>();
  out.level = id.at("level").get<double>();
  out.bootstrap = id.at("bootstrap").get<int>();
  out.bootstrap_from_fit = id.at("bootstrap_from").get<std::string>() == "fit";
  if (out.bootstrap == 1)
    throw std::invalid_argument("identify.bootstrap: 1 draw gives no interval; 0 (none) or at least 2");
  const json& rollouts = id.at("rollouts");
  for (std::size_t i = 0; i < rollouts.size(); ++i) {
    const std::string key = "identify.rollouts." + std::to_string(i) + ".path";
    const std::string path = identify_path(rollouts[i], key, data);
    for (std::size_t j = 0; j < out.paths.size(); ++j)
      if (out.paths[j] == path)
        throw std::invalid_argument(key + ": \"" + path + "\" is fitted (identify.parameters." +
                                    std::to_string(j) + "): a rollout cannot set it");
    out.rollout_paths.push_back(path);
    out.rollout_values.push_back(rollouts[i].at("value").get<double>());
  }
  return out;
}

}  // namespace

Problem problem_from_config(const json& c) {
  Problem p;
  p.config = c;
  p.name = c.value("name", std::string("untitled"));
  const std::string type = c.at("model").value("type", std::string("particles"));
  if (type == "rigid") {
    p.data.type = ModelType::rigid;
    p.data.rigid = read_rigid(c);
    if (p.data.rigid.as_tree) check_rigid_as_tree(p.data.rigid);
  } else if (type == "tree") {
    p.data.type = ModelType::tree;
    p.data.tree = read_tree(c);
  } else {
    p.data.model = read_model(c);
  }
  p.data.loss = read_loss(c, p.data);
  p.integrator = read_integrator(c);
  const json& g = c.at("gradient");
  p.gradient.fd_eps = g.at("fd_eps").get<double>();
  p.gradient.reverse = g.at("mode").get<std::string>() == "reverse";
  p.gradient.backsolve = g.at("mode").get<std::string>() == "backsolve";
  p.gradient.checkpoint_steps = g.at("checkpoint_steps").get<long>();
  const std::string reference = g.at("reference").get<std::string>();
  p.gradient.reference = reference == "fd_tight"   ? Reference::fd_tight
                         : reference == "ad_tight" ? Reference::ad_tight
                                                   : Reference::fd;
  p.gradient.tight = {g.at("tight").at("rtol").get<double>(), g.at("tight").at("substeps").get<long>()};
  p.gradient.smoothing = {g.at("smoothing").at("samples").get<long>(),
                          g.at("smoothing").at("sigma").get<double>(),
                          g.at("smoothing").at("seed").get<unsigned long>()};
  const json& opt = c.at("optimize");
  p.descent = {opt.at("starts").get<long>(), opt.at("steps").get<long>(), opt.at("lr").get<double>(),
               opt.at("lr_final").get<double>()};
  p.identify = read_identify(c.at("identify"), p.data);
  const json& sw = c.at("sweep");
  p.sweep = {sw.at("parameter").get<std::string>(), sw.at("from").get<double>(), sw.at("to").get<double>(),
             sw.at("points").get<long>()};
  if (!parameter_slot(p.data, p.sweep.parameter))
    throw std::invalid_argument("sweep.parameter: \"" + p.sweep.parameter +
                                "\" is not a differentiable parameter");
  return p;
}

std::vector<std::string> differentiable_parameters(const Problem& p) {
  std::vector<std::string> out;
  ProblemData<double> copy = p.data;
  visit_problem_params(copy, [&](const std::string& name, double&) { out.push_back(name); });
  return out;
}

}  // namespace sg
