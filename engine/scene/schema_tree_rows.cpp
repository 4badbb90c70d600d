// Schema rows of the joint-tree model (model.type "tree"): bodies in MuJoCo's layout (each body's pose in
// its parent, its inertial frame, its joints), numbers as MuJoCo's compiled mjModel holds them, so an MJCF
// import writes them one to one. Scene body i is MuJoCo body i + 1; parent -1 is the world.
#include <string>

#include "engine/articulated/actuator_model.hpp"
#include "engine/articulated/constraint_model.hpp"
#include "engine/articulated/tendon_model.hpp"
#include "engine/articulated/tree_model.hpp"
#include "engine/scene/schema_rows.hpp"

namespace sg::scene::rows {
namespace {

FieldSpec tree(FieldSpec spec) {
  return only(ModelScope::tree, std::move(spec));
}

std::vector<FieldSpec> tree_joint_rows() {
  const std::string j = "model.tree.bodies.*.joints.*";
  return {
      tree(text(j + ".name", "", "Joint name (from the MJCF file); actuators can name their joint by it.")),
      tree(choice(j + ".type", {"hinge", "slide", "ball", "free"}, "hinge",
                  "Joint type as MuJoCo's: hinge (rotation about axis), slide (translation along axis), "
                  "ball (free rotation about pos), free (a floating base: the body moves freely, the only "
                  "joint of a body whose parent is the world).")),
      tree(vector(j + ".pos", {0, 0, 0}, any(), diff, "Joint anchor in m, in the body's frame.")),
      tree(vector(j + ".axis", {0, 0, 1}, any(), fixed,
                  "Hinge or slide axis in the body's frame; normalised on loading (not 0).")),
      tree(number(j + ".stiffness", 0, at_least(0), diff,
                  "Joint spring stiffness (N m/rad or N/m) towards springref (a ball: towards its rest "
                  "orientation).")),
      tree(number(j + ".springref", 0, any(), diff, "Hinge or slide: the spring's rest coordinate.")),
      tree(
          number(j + ".ref", 0, any(), diff,
                 "Hinge or slide: the coordinate at which the body has its rest pose (MuJoCo's ref, qpos0); "
                 "the body turns or moves by qpos - ref. qpos starts at 0 unless set (an MJCF import sets it "
                 "to ref, as mj_resetData does).")),
      tree(number(j + ".damping", 0, at_least(0), diff,
                  "Damping of each of the joint's dofs (N m s/rad or N s/m), MuJoCo's dof damping.")),
      tree(number(j + ".frictionloss", 0, at_least(0), diff,
                  "Dry friction of each of the joint's dofs (N m or N; MuJoCo's frictionloss): a constraint "
                  "row per dof whose force is at most this, holding the dof still below it (soft, with "
                  "solreffriction and solimpfriction). 0: none.")),
      tree(vector(j + ".solreffriction", {0.02, 1}, any(), fixed,
                  "The friction loss's solref (timeconst, dampratio; negative: stiffness, damping), as "
                  "MuJoCo's.")),
      tree(vector(j + ".solimpfriction", {0.9, 0.95, 0.001, 0.5, 2}, any(), fixed,
                  "The friction loss's solimp, as MuJoCo's.")),
      tree(number(j + ".armature", 0, at_least(0), diff,
                  "Armature inertia added to each of the joint's dofs (MuJoCo's armature).")),
      tree(number(j + ".qpos", 0, any(), diff,
                  "Hinge or slide: the initial coordinate (rad or m), MuJoCo's qpos of this joint.")),
      tree(number(j + ".qvel", 0, any(), diff, "Hinge or slide: the initial velocity (rad/s or m/s).")),
      tree(vector(j + ".ball_qpos", {1, 0, 0, 0}, any(), fixed,
                  "Ball or free: the initial orientation relative to the rest pose (free: to the body's "
                  "quat), a quaternion (w, x, y, z); normalised on loading (not 0).")),
      tree(vector(j + ".ball_qvel", {0, 0, 0}, any(), diff,
                  "Ball or free: the initial angular velocity in rad/s, in the body's frame (MuJoCo's ball "
                  "qvel, a free joint's qvel 3..5).")),
      tree(
          vector(j + ".free_vel", {0, 0, 0}, any(), diff,
                 "Free: the initial linear velocity of the body frame's origin in m/s, world frame (MuJoCo's "
                 "free qvel 0..2). The start position is the body's pos.")),
      tree(boolean(j + ".limited", false,
                   "Hinge, slide or ball: the joint has a limit (MuJoCo's limited); a free joint has none.")),
      tree(vector(
          j + ".range", {0, 0}, any(), fixed,
          "Hinge or slide: the limit's [lo, hi] in rad or m (the compiled mjModel's jnt_range), lo <= hi; "
          "ball: the rotation angle from the rest pose is kept below the larger end, in rad (MuJoCo's "
          "cone limit; write [0, max]).")),
      tree(vector(j + ".solreflimit", {0.02, 1}, any(), fixed,
                  "The limit's solref (timeconst, dampratio; negative: stiffness, damping), as MuJoCo's.")),
      tree(vector(j + ".solimplimit", {0.9, 0.95, 0.001, 0.5, 2}, any(), fixed,
                  "The limit's solimp (dmin, dmax, width, midpoint, power), as MuJoCo's.")),
      tree(number(j + ".margin", 0, at_least(0), fixed,
                  "The limit becomes active this far (rad or m) before range (MuJoCo's joint margin).")),
  };
}

// MuJoCo's actuators on a joint, a tendon, a site or a slider-crank: force = gain (ctrl, or the activation of
// a muscle or of integrator or filter dynamics) + bias, joint forces = moment force.
std::vector<FieldSpec> tree_actuator_rows() {
  const std::string a = "model.tree.actuators.*";
  return {
      tree(object_array("model.tree.actuators", 0, kMaxActuators,
                        "Actuators on the tree's joints, tendons, sites or slider-cranks (MuJoCo's <motor>, "
                        "<position>, <velocity>, <general>, <muscle>); 0 to " +
                            std::to_string(kMaxActuators) + " entries.",
                        0)),
      tree(text(a + ".name", "", "Actuator name (from the MJCF file); for reading only.")),
      tree(integer(a + ".body", 0, at_least(0), "Index in model.tree.bodies of the actuated joint's body.")),
      tree(integer(a + ".joint", 0, at_least(0), "Index of the actuated joint in that body's joints.")),
      tree(text(a + ".joint_name", "",
                "The actuated joint by its name (model.tree.bodies.*.joints.*.name); when not empty, it "
                "replaces body and joint.")),
      tree(text(a + ".tendon", "",
                "A tendon transmission: the tendon's name (model.tree.tendons.*.name); when not empty it "
                "replaces body, joint and joint_name, the actuator length being gear times the tendon's.")),
      tree(text(
          a + ".cranksite", "",
          "A slider-crank transmission (MuJoCo's cranksite): the site (model.tree.sites.*.name) where a "
          "rod of length cranklength is hinged to the crank; when not empty it replaces body, joint and "
          "joint_name (at most one of site, cranksite and tendon), and slidersite must name the slider's "
          "site.")),
      tree(text(a + ".slidersite", "",
                "A slider-crank's slider site: the rod's other end slides along this site's z axis, and the "
                "actuator length is gear times the slider's position along it.")),
      tree(number(a + ".cranklength", 1, above(0), diff,
                  "A slider-crank's rod length in m (MuJoCo's cranklength). When the rod cannot reach the "
                  "slider's axis the length is the crank site's position along it, as in MuJoCo.")),
      tree(choice(a + ".kind", {"motor", "position", "velocity", "general", "muscle"}, "motor",
                  "motor: force = ctrl; position: kp (ctrl - q); velocity: kv (ctrl - qdot); general: "
                  "(gainprm.0 + gainprm.1 q + gainprm.2 qdot) ctrl + biasprm.0 + biasprm.1 q + biasprm.2 "
                  "qdot, with q and qdot the actuator length gear q and velocity gear qdot; muscle: MuJoCo's "
                  "muscle (force-length-velocity curves times an activation that follows ctrl with time "
                  "constants timeconst, plus a passive force), on a tendon or joint.")),
      tree(number(a + ".ctrl", 0, any(), diff,
                  "The control, constant over the run (MuJoCo's ctrl); clamped to ctrlrange when "
                  "ctrllimited.")),
      tree(number(
          a + ".gear", 1, any(), diff,
          "Transmission gear (MuJoCo's gear[0]): length = gear q, joint force = gear actuator force.")),
      tree(vector(
          a + ".gear_rest", {0, 0, 0, 0, 0}, any(), diff,
          "MuJoCo's gear[1..5]: with gear, the 6-number gear that ball and free joints and sites read "
          "(a site's or free joint's force (gear, gear_rest.0, gear_rest.1) and torque gear_rest.2..4; a "
          "ball joint's torque axis (gear, gear_rest.0, gear_rest.1)); the other transmissions use gear "
          "alone.")),
      tree(boolean(a + ".jointinparent", false,
                   "A ball or free joint's gear is in the parent body's frame, not the joint's (MuJoCo's "
                   "jointinparent); hinges and slides are the same either way.")),
      tree(text(
          a + ".site", "",
          "A site transmission (MuJoCo's site): the wrench (gear, gear_rest) in this site's frame, by "
          "the site's name (model.tree.sites.*.name); it replaces body, joint and joint_name. Its length "
          "is 0 without refsite.")),
      tree(text(a + ".refsite", "",
                "A site transmission's reference site: the length is the site's position and rotation "
                "relative to it along the gear, and the wrench is in its frame (MuJoCo's refsite).")),
      tree(number(a + ".kp", 1, at_least(0), fixed, "position: the position gain.")),
      tree(number(a + ".kv", 1, at_least(0), fixed, "velocity: the velocity gain.")),
      tree(vector(a + ".gainprm", {1, 0, 0}, any(), fixed, "general: MuJoCo's gainprm[0..2] (affine gain).")),
      tree(vector(a + ".biasprm", {0, 0, 0}, any(), fixed, "general: MuJoCo's biasprm[0..2] (affine bias).")),
      tree(boolean(a + ".ctrllimited", false, "Clamp ctrl to ctrlrange.")),
      tree(vector(a + ".ctrlrange", {0, 0}, any(), fixed, "Control range [lo, hi] when ctrllimited.")),
      tree(boolean(a + ".forcelimited", false, "Clamp the actuator force to forcerange.")),
      tree(vector(a + ".forcerange", {0, 0}, any(), fixed, "Force range [lo, hi] when forcelimited.")),
      tree(
          choice(a + ".dyntype", {"none", "integrator", "filter"}, "none",
                 "Activation dynamics (MuJoCo's dyntype; a muscle has its own): none: the gain multiplies "
                 "ctrl; integrator: it multiplies an activation act with d act/dt = ctrl; filter: d act/dt = "
                 "(ctrl - act) / timeconst.0.")),
      tree(boolean(a + ".actlimited", false,
                   "Clamp the activation to actrange after each step (MuJoCo's actlimited; mj_advance's "
                   "clamp). Needs an activation (dyntype integrator or filter, or a muscle) and a "
                   "fixed-step integrator (euler, rk4, moreau).")),
      tree(vector(a + ".actrange", {0, 0}, any(), fixed,
                  "Activation range [lo, hi], lo < hi, when actlimited.")),
      tree(number(
          a + ".act", 0, any(), diff,
          "The activation at the start (MuJoCo's act) of a muscle or of dyntype integrator or filter.")),
      tree(vector(
          a + ".timeconst", {0.01, 0.04}, at_least(0), diff,
          "muscle: activation and deactivation time constants in s; dyntype filter: timeconst.0 is the "
          "filter's time constant, > 0 (MuJoCo's dynprm[0..1]; MuJoCo's default for a filter is 1 s, "
          "this key's 0.01 s: an MJCF import writes it).")),
      tree(vector(a + ".range", {0.75, 1.05}, any(), fixed,
                  "muscle: the operating range of the normalised length (lo < hi).")),
      tree(number(a + ".force", -1, any(), fixed,
                  "muscle: the peak active force in N; negative: scale / acc0.")),
      tree(number(a + ".scale", 200, any(), fixed, "muscle: the peak force is scale / acc0 when force < 0.")),
      tree(number(a + ".lmin", 0.5, any(), fixed,
                  "muscle: the normalised length where the active force ends below.")),
      tree(number(a + ".lmax", 1.6, any(), fixed,
                  "muscle: the normalised length where the active force ends above.")),
      tree(
          number(a + ".vmax", 1.5, any(), fixed,
                 "muscle: the shortening velocity (optimal lengths per s) where the active force vanishes.")),
      tree(number(a + ".fpmax", 1.3, any(), fixed,
                  "muscle: the passive force at lmax, relative to the peak force.")),
      tree(number(a + ".fvmax", 1.2, any(), fixed,
                  "muscle: the active force when lengthening fast, relative to the peak force.")),
      tree(vector(a + ".lengthrange", {0, 0}, any(), fixed,
                  "muscle: the actuator length's range in m that range maps onto (MuJoCo's compiler computes "
                  "it: an MJCF import writes it); lo < hi.")),
      tree(
          number(a + ".acc0", 0, at_least(0), fixed,
                 "muscle: |qM^-1 moment| at qpos0 (MuJoCo's actuator_acc0, from an MJCF import); 0: computed "
                 "when the scene is built, as MuJoCo's compiler does.")),
  };
}

// Sites (points on bodies that spatial tendons pass through) and tendons (MuJoCo's <spatial> and <fixed>).
std::vector<FieldSpec> tree_tendon_rows() {
  const std::string s = "model.tree.sites.*", t = "model.tree.tendons.*", w = t + ".path.*";
  return {
      tree(object_array(
          "model.tree.sites", 0, kMaxSites,
          "Sites: points fixed on bodies (MuJoCo's sites); 0 to " + std::to_string(kMaxSites) + ".", 0)),
      tree(text(s + ".name", "", "Site name; tendon paths name their sites by it.")),
      tree(integer(s + ".body", -1, at_least(-1),
                   "Index in model.tree.bodies of the site's body; -1 is the world.")),
      tree(vector(s + ".pos", {0, 0, 0}, closed(-1e6, 1e6), diff, "Position in m in the body's frame.")),
      tree(vector(
          s + ".quat", {1, 0, 0, 0}, any(), fixed,
          "Orientation in the body's frame (w, x, y, z); normalised on loading (not 0). A slider-crank "
          "slides along its slider site's z axis.")),
      tree(object_array("model.tree.tendons", 0, kMaxTendons,
                        "Tendons (MuJoCo's <spatial> and <fixed>); actuators act on them by name; 0 to " +
                            std::to_string(kMaxTendons) + ".",
                        0)),
      tree(text(t + ".name", "", "Tendon name; actuators name their tendon by it.")),
      tree(
          object_array(t + ".path", 0, kMaxWrapObjects,
                       "The path: sites with sphere or cylinder geoms between them to wrap around (a spatial "
                       "tendon, from a site to a site), or joints with coefficients (a fixed tendon); " +
                           std::to_string(kMaxWrapObjects) + " entries in all tendons.",
                       0)),
      tree(text(w + ".site", "", "A site of a spatial tendon, by name.")),
      tree(text(w + ".geom", "",
                "A sphere or cylinder geom (by name) that the segment between the sites before and after it "
                "wraps around.")),
      tree(text(w + ".sidesite", "",
                "With geom: a site (by name) on the side to wrap around; inside a cylinder or sphere it "
                "selects MuJoCo's inside wrap.")),
      tree(text(w + ".joint", "", "A hinge or slide joint of a fixed tendon, by name.")),
      tree(number(w + ".coef", 1, any(), fixed, "With joint: the length is the sum of coef times qpos.")),
      tree(number(w + ".pulley", 0, at_least(0), fixed,
                  "A pulley (MuJoCo's <pulley divisor>) when > 0 and site, geom and joint are empty: the "
                  "spatial path branches here, and the lengths of the branches after it count divided by "
                  "this divisor.")),
      tree(number(t + ".stiffness", 0, at_least(0), diff,
                  "Spring stiffness in N/m along the tendon, towards springlength.")),
      tree(number(t + ".damping", 0, at_least(0), diff, "Damping in N s/m along the tendon.")),
      tree(number(t + ".springlength", 0, any(), diff,
                  "The spring's rest length in m (MuJoCo's lengthspring).")),
      tree(number(t + ".frictionloss", 0, at_least(0), diff,
                  "Dry friction along the tendon in N (MuJoCo's tendon frictionloss): a constraint row whose "
                  "force is at most this. 0: none.")),
      tree(
          vector(t + ".solreffriction", {0.02, 1}, any(), fixed, "The friction loss's solref, as MuJoCo's.")),
      tree(vector(t + ".solimpfriction", {0.9, 0.95, 0.001, 0.5, 2}, any(), fixed,
                  "The friction loss's solimp, as MuJoCo's.")),
      tree(boolean(t + ".limited", false, "The tendon's length has a limit (MuJoCo's tendon limited).")),
      tree(vector(t + ".range", {0, 0}, any(), fixed, "The length's limit [lo, hi] in m, lo <= hi.")),
      tree(vector(t + ".solreflimit", {0.02, 1}, any(), fixed, "The limit's solref, as MuJoCo's.")),
      tree(vector(t + ".solimplimit", {0.9, 0.95, 0.001, 0.5, 2}, any(), fixed,
                  "The limit's solimp, as MuJoCo's.")),
      tree(number(t + ".margin", 0, at_least(0), fixed,
                  "The limit becomes active this far (m) before range (MuJoCo's tendon margin).")),
  };
}

// MuJoCo's equality constraints: connect, weld, joint and tendon.
std::vector<FieldSpec> tree_equality_rows() {
  const std::string e = "model.tree.equalities.*";
  return {
      tree(object_array("model.tree.equalities", 0, kMaxTreeEqualities,
                        "Equality constraints (MuJoCo's <equality>: connect, weld, joint, tendon); soft rows "
                        "that always act, solved with the contacts; 0 to " +
                            std::to_string(kMaxTreeEqualities) + " entries.",
                        0)),
      tree(text(e + ".name", "", "Name (from the MJCF file); for reading only.")),
      tree(choice(e + ".type", {"connect", "weld", "joint", "tendon"}, "joint",
                  "connect: a point of body1 (anchor) stays where it was on body2 at qpos0, a ball joint "
                  "(3 rows); weld: body1 keeps its pose relative to body2 (6 rows); joint: joint1's "
                  "coordinate follows polycoef of joint2's, each relative to its ref (1 row); tendon: the "
                  "same with tendon lengths relative to their lengths at qpos0.")),
      tree(integer(e + ".body1", 0, at_least(-1),
                   "connect, weld: index in model.tree.bodies of the first body; -1 is the world.")),
      tree(integer(e + ".body2", -1, at_least(-1),
                   "connect, weld: index in model.tree.bodies of the other body; -1 is the world.")),
      tree(vector(e + ".anchor", {0, 0, 0}, closed(-1e6, 1e6), fixed,
                  "connect: the shared point in m in body1's frame; weld: the point whose positions on the "
                  "two bodies coincide, in body2's frame (as MuJoCo's anchor).")),
      tree(vector(e + ".relpose", {0, 0, 0, 0, 0, 0, 0}, closed(-1e6, 1e6), fixed,
                  "weld: as MuJoCo's relpose, the anchor's position in body1's frame (m) and body2's "
                  "orientation in body1's frame (w, x, y, z) that the weld keeps; a zero quaternion: both "
                  "as they are at qpos0.")),
      tree(number(e + ".torquescale", 1, at_least(0), fixed,
                  "weld: the scale of the rotation rows against the translation rows (MuJoCo's "
                  "torquescale).")),
      tree(text(e + ".joint1", "", "joint: the constrained hinge or slide joint, by name.")),
      tree(text(e + ".joint2", "",
                "joint: the hinge or slide joint it follows, by name; empty: joint1 is held at its ref plus "
                "polycoef.0.")),
      tree(text(e + ".tendon1", "", "tendon: the constrained tendon, by name (model.tree.tendons.*.name).")),
      tree(text(e + ".tendon2", "",
                "tendon: the tendon it follows, by name; empty: tendon1 is held at its length at qpos0 plus "
                "polycoef.0.")),
      tree(vector(e + ".polycoef", {0, 1, 0, 0, 0}, any(), diff,
                  "joint, tendon: x1 - x1_0 = p0 + p1 (x2 - x2_0) + ... + p4 (x2 - x2_0)^4 (MuJoCo's "
                  "polycoef).")),
      tree(vector(e + ".solref", {0.02, 1}, any(), diff,
                  "The constraint's solref (timeconst, dampratio; negative: stiffness, damping), as "
                  "MuJoCo's.")),
      tree(vector(e + ".solimp", {0.9, 0.95, 0.001, 0.5, 2}, any(), diff,
                  "The constraint's solimp (dmin, dmax, width, midpoint, power), as MuJoCo's; a connect's "
                  "impedance is taken at the distance between its two points.")),
  };
}

// A geom on a tree body or on the world, as MuJoCo's compiled mjModel holds it (geom_type, geom_size,
// geom_pos, geom_quat in the body frame, the contact parameters). Geoms collide; they do not add mass (the
// body's mass and inertia are given).
std::vector<FieldSpec> tree_geom_rows(const std::string& array, const std::string& where) {
  const std::string g = array + ".*";
  return {
      tree(object_array(array, 0, kMaxTreeGeoms,
                        "Geoms " + where + " (MuJoCo's geoms); 0 to " + std::to_string(kMaxTreeGeoms) +
                            " entries, " + std::to_string(kMaxTreeGeoms) + " in all.",
                        0)),
      tree(text(g + ".name", "", "Geom name (from the MJCF file); for reading only.")),
      tree(choice(g + ".type",
                  {"sphere", "capsule", "box", "cylinder", "ellipsoid", "plane", "mesh", "hfield"}, "sphere",
                  "Geom type; a plane only on the world or on a body welded to it; a mesh collides as its "
                  "convex hull (MuJoCo's); an hfield is a height field (terrain).")),
      tree(text(g + ".mesh", "",
                "A mesh geom's mesh (model.tree.meshes.*.name); its size is then the mesh's bounding box.")),
      tree(text(g + ".hfield", "",
                "An hfield geom's height field (model.tree.hfields.*.name); its size is then the field's "
                "(x and y half sizes, the mean of top and base).")),
      tree(vector(g + ".size", {0.05, 0.05, 0.05}, at_least(0), diff,
                  "MuJoCo geom size in m: sphere [r], capsule and cylinder [r, half length], box half sizes, "
                  "ellipsoid semi-axes; unused components are ignored (a plane is infinite).")),
      tree(vector(g + ".pos", {0, 0, 0}, closed(-1e6, 1e6), diff, "Geom centre in m, in the body's frame.")),
      tree(vector(g + ".quat", {1, 0, 0, 0}, any(), fixed,
                  "Geom orientation in the body's frame (w, x, y, z); normalised on loading (not 0). A "
                  "capsule or cylinder lies along its z axis; a plane's normal is its z axis.")),
      tree(integer(g + ".contype", 1, at_least(0),
                   "MuJoCo contype bits: two geoms may touch if one's contype shares a bit with the other's "
                   "conaffinity; 0 and 0: never (a visual geom).")),
      tree(integer(g + ".conaffinity", 1, at_least(0), "MuJoCo conaffinity bits (see contype).")),
      tree(integer_of(g + ".condim", 3, {1, 3, 4, 6},
                      "MuJoCo contact dimensionality: 1 frictionless, 3 sliding friction, 4 also torsional "
                      "friction (friction.1), 6 also rolling friction (friction.2).")),
      tree(integer(g + ".priority", 0, any(),
                   "MuJoCo priority: a pair takes the higher-priority geom's parameters, else mixes them.")),
      tree(
          gradient_in_first(1, vector(g + ".friction", {1, 0.005, 0.0001}, at_least(0), diff,
                                      "MuJoCo friction (sliding, torsional, rolling); a pair uses the larger "
                                      "value of its two geoms."))),
      tree(number(g + ".solmix", 1, at_least(0), fixed,
                  "MuJoCo solmix: the weight of this geom's solref and solimp in a pair's mix.")),
      tree(vector(g + ".solref", {0.02, 1}, any(), diff,
                  "MuJoCo solref: (timeconst, dampratio) both > 0, or (-stiffness, -damping) both <= 0.")),
      tree(vector(g + ".solimp", {0.9, 0.95, 0.001, 0.5, 2}, any(), diff,
                  "MuJoCo solimp (dmin, dmax, width, mid, power): impedance as a function of penetration.")),
      tree(number(g + ".margin", 0, at_least(0), fixed,
                  "MuJoCo contact margin in m: contacts are generated within this distance (a pair uses the "
                  "larger value).")),
      tree(number(g + ".gap", 0, at_least(0), fixed,
                  "MuJoCo gap in m: contacts within the gap of the margin are detected but exert no force.")),
  };
}

// Meshes (MuJoCo's <mesh> as its compiler leaves them) that mesh geoms name.
std::vector<FieldSpec> tree_mesh_rows() {
  const std::string m = "model.tree.meshes.*";
  return {
      tree(object_array(
          "model.tree.meshes", 0, kMaxTreeMeshes,
          "Meshes that geoms of type mesh name (an MJCF import writes MuJoCo's compiled ones); 0 "
          "to " +
              std::to_string(kMaxTreeMeshes) + ".",
          0)),
      tree(text(m + ".name", "", "Mesh name; a mesh geom names its mesh by it.")),
      tree(
          number_list(m + ".vertices", kMaxTreeMeshNumbers, closed(-1e6, 1e6), fixed,
                      "Vertices in m in the geom's frame, 3 numbers each, at least 4 vertices; the colliders "
                      "use their convex hull.")),
      tree(number_list(m + ".faces", kMaxTreeMeshNumbers, at_least(0), fixed,
                       "Triangles for drawing, 3 vertex indices each (none: the hull's faces are drawn).")),
      tree(number_list(m + ".graph", kMaxTreeMeshNumbers, at_least(-1), fixed,
                       "MuJoCo's convex-hull graph (mesh_graph, from an MJCF import): the support and the "
                       "plane contacts walk it as MuJoCo does; none: every vertex is tried.")),
  };
}

// Height fields (MuJoCo's <hfield> as its compiler leaves them) that hfield geoms name.
std::vector<FieldSpec> tree_hfield_rows() {
  const std::string h = "model.tree.hfields.*";
  return {
      tree(object_array("model.tree.hfields", 0, kMaxTreeHFields,
                        "Height fields (terrain) that geoms of type hfield name; 0 to " +
                            std::to_string(kMaxTreeHFields) + ".",
                        0)),
      tree(text(h + ".name", "", "Height field name; an hfield geom names its field by it.")),
      tree(
          integer(h + ".nrow", 2, closed(2, kMaxTreeHFieldPoints / 2),
                  "Grid rows (along y), at least 2; row r lies at y = -size[1] + 2 size[1] r / (nrow - 1).")),
      tree(integer(h + ".ncol", 2, closed(2, kMaxTreeHFieldPoints / 2),
                   "Grid columns (along x), at least 2; nrow x ncol at most " +
                       std::to_string(kMaxTreeHFieldPoints) + ".")),
      tree(
          vector(h + ".size", {1.0, 1.0, 0.1, 0.1}, at_least(0), fixed,
                 "MuJoCo's hfield size in m: x and y half sizes, the height of elevation 1, the depth of the "
                 "base below the geom frame; all positive.")),
      tree(
          number_list(h + ".elevation", kMaxTreeHFieldPoints, closed(0, 1), fixed,
                      "nrow x ncol elevations in [0, 1], row by row (MuJoCo scales its data so); elevation e "
                      "stands e size[2] above the geom frame.")),
  };
}

// Explicit geom pairs (MuJoCo's <contact><pair>): they collide whatever the filter says, with their own
// parameters.
std::vector<FieldSpec> tree_pair_rows() {
  const std::string p = "model.tree.pairs.*";
  return {
      tree(object_array(
          "model.tree.pairs", 0, kMaxTreePairs,
          "Geom pairs that collide whatever their contype, conaffinity, bodies and excludes say, "
          "with their own contact parameters (MuJoCo's <contact><pair>); 0 to " +
              std::to_string(kMaxTreePairs) + " entries.",
          0)),
      tree(text(p + ".name", "", "Pair name (from the MJCF file); for reading only.")),
      tree(text(p + ".geom1", "", "The name of one geom of the pair (a geom's name key).")),
      tree(text(p + ".geom2", "", "The name of the other geom.")),
      tree(integer_of(
          p + ".condim", 3, {1, 3, 4, 6},
          "Contact dimensionality of the pair's contacts: 1 frictionless, 3 sliding friction, 4 also "
          "torsional, 6 also rolling.")),
      tree(vector(p + ".friction", {1, 1, 0.005, 0.0001, 0.0001}, at_least(0), diff,
                  "MuJoCo's 5-d pair friction: two sliding (one per tangent direction), torsional, two "
                  "rolling.")),
      tree(vector(p + ".solref", {0.02, 1}, any(), diff,
                  "MuJoCo solref of the pair's contacts: (timeconst, dampratio) both > 0, or (-stiffness, "
                  "-damping) both <= 0.")),
      tree(vector(p + ".solimp", {0.9, 0.95, 0.001, 0.5, 2}, any(), diff,
                  "MuJoCo solimp (dmin, dmax, width, mid, power) of the pair's contacts.")),
      tree(number(p + ".margin", 0, at_least(0), fixed,
                  "Contact margin in m: contacts are generated within this distance.")),
      tree(number(p + ".gap", 0, at_least(0), fixed,
                  "Gap in m: contacts within the gap of the margin are detected but exert no force.")),
  };
}

// The medium the bodies move through (MuJoCo's <option density viscosity wind>, its inertia-box model).
std::vector<FieldSpec> tree_fluid_rows() {
  return {
      tree(number("model.tree.fluid.density", 0, closed(0, 1e6), diff,
                  "Density of the medium in kg/m^3 (MuJoCo's option density; air 1.2, water 1000): each body "
                  "with mass meets quadratic drag on the faces of the box with its inertia (MuJoCo's "
                  "inertia-box fluid model). 0: none.")),
      tree(number("model.tree.fluid.viscosity", 0, closed(0, 1e6), diff,
                  "Dynamic viscosity of the medium in Pa s (MuJoCo's option viscosity; air 1.8e-5, water "
                  "9e-4): Stokes drag on the sphere of the inertia box's mean side. 0: none.")),
      tree(vector("model.tree.fluid.wind", {0, 0, 0}, closed(-1e6, 1e6), diff,
                  "Velocity of the medium in m/s, world frame (MuJoCo's option wind); it acts through "
                  "density and viscosity only.")),
  };
}

}  // namespace

std::vector<FieldSpec> tree_body_rows() {
  const std::string b = "model.tree.bodies.*";
  std::vector<FieldSpec> t = {
      tree(object_array("model.tree.bodies", 0, kMaxTreeBodies - 1,
                        "Bodies of a joint tree, each after its parent; 0 to " +
                            std::to_string(kMaxTreeBodies - 1) +
                            " entries (at least 1 when model.type is tree).",
                        0)),
      tree(text(b + ".name", "", "Body name (from the MJCF file); for reading only.")),
      tree(integer(b + ".parent", -1, at_least(-1),
                   "Index of the parent body in model.tree.bodies, an earlier entry; -1 is the world.")),
      tree(vector(b + ".pos", {0, 0, 0}, closed(-1e6, 1e6), diff,
                  "Body frame's position in m in the parent's frame, before the joints move it.")),
      tree(vector(b + ".quat", {1, 0, 0, 0}, any(), fixed,
                  "Body frame's orientation in the parent's frame (w, x, y, z); normalised on loading "
                  "(not 0).")),
      tree(number(b + ".mass", 1, at_least(0), diff, "Mass in kg.")),
      tree(vector(b + ".inertia", {0.001, 0.001, 0.001}, at_least(0), diff,
                  "Principal moments of inertia in kg m^2 about the centre of mass.")),
      tree(vector(b + ".ipos", {0, 0, 0}, any(), diff, "Centre of mass in m, in the body's frame.")),
      tree(vector(b + ".iquat", {1, 0, 0, 0}, any(), fixed,
                  "Principal axes of inertia in the body's frame (w, x, y, z); normalised on loading "
                  "(not 0).")),
      tree(object_array(b + ".joints", 0, 4,
                        "Joints connecting the body to its parent, applied in order; 0 to 4 entries (none: "
                        "welded to the parent).",
                        0)),
  };
  for (auto& spec : tree_joint_rows()) t.push_back(std::move(spec));
  for (auto& spec : tree_geom_rows(b + ".geoms", "on this body")) t.push_back(std::move(spec));
  for (auto& spec : tree_tendon_rows()) t.push_back(std::move(spec));
  for (auto& spec : tree_actuator_rows()) t.push_back(std::move(spec));
  for (auto& spec : tree_geom_rows("model.tree.world_geoms", "fixed to the world (a ground plane, walls)"))
    t.push_back(std::move(spec));
  for (auto& spec : tree_mesh_rows()) t.push_back(std::move(spec));
  for (auto& spec : tree_hfield_rows()) t.push_back(std::move(spec));
  t.push_back(
      tree(boolean("model.tree.filterparent", true,
                   "MuJoCo's filterparent: a body does not collide with its parent (unless the parent "
                   "is the world).")));
  t.push_back(tree(choice("model.tree.collision", {"all", "predefined", "dynamic"}, "all",
                          "MuJoCo's option collision: which geom pairs collide. all: model.tree.pairs and "
                          "the pairs the filter lets through; predefined: model.tree.pairs only; dynamic: "
                          "the filter's only.")));
  for (auto& spec : tree_fluid_rows()) t.push_back(std::move(spec));
  t.push_back(tree(object_array("model.tree.excludes", 0, kMaxTreeExcludes,
                                "Body pairs whose geoms never collide (MuJoCo's <contact><exclude>); 0 to " +
                                    std::to_string(kMaxTreeExcludes) + " entries.",
                                0)));
  t.push_back(tree(integer("model.tree.excludes.*.body1", 0, at_least(-1),
                           "Index in model.tree.bodies of one body of the pair; -1 is the world.")));
  t.push_back(tree(integer("model.tree.excludes.*.body2", -1, at_least(-1),
                           "Index in model.tree.bodies of the other body; -1 is the world.")));
  for (auto& spec : tree_pair_rows()) t.push_back(std::move(spec));
  for (auto& spec : tree_equality_rows()) t.push_back(std::move(spec));
  return t;
}

}  // namespace sg::scene::rows
