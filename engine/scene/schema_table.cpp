// The scene schema, one row per key. To add a section, add an object_array row and rows for its element
// fields ("model.bodies.*.<field>"); the validator, the defaults, the GUI and differentiable_paths pick
// them up from here. The rigid bodies' rows live in schema_rigid_rows.cpp. Rules that tie several keys
// together live in cross_rules.cpp.
#include "engine/scene/field_spec.hpp"
#include "engine/scene/schema_defaults.hpp"
#include "engine/scene/schema_rows.hpp"

namespace sg::scene {
namespace {

using namespace rows;

FieldSpec particles_only(FieldSpec spec) {
  return only(ModelScope::particles, std::move(spec));
}
FieldSpec rigid_only(FieldSpec spec) {
  return only(ModelScope::rigid, std::move(spec));
}
FieldSpec bodies_only(FieldSpec spec) {  // free bodies and joint trees
  return only(ModelScope::bodies, std::move(spec));
}

void append(std::vector<FieldSpec>& table, std::vector<FieldSpec> more) {
  for (auto& spec : more) table.push_back(std::move(spec));
}

std::vector<FieldSpec> build_table() {
  std::vector<FieldSpec> t = {
      text("name", "untitled", "Scene name; defaults to the file's stem."),
      text("description", "", "Free-form description of the scene."),

      choice("model.type", {"particles", "rigid", "tree", "mjcf"}, "particles",
             "Which model the scene simulates: point masses, free 3-D rigid bodies or a joint tree; the "
             "other blocks are ignored. mjcf imports the model from model.file and reads as rigid (free "
             "bodies) or tree (joints) once loaded."),
      text("model.file", "",
           "MJCF file of a model.type mjcf scene, relative to the scene file; after loading, the record of "
           "where the rigid model came from."),
      text("model.keyframe", "",
           "MJCF scenes: the keyframe (<keyframe><key>, by its name or its index) whose qpos, qvel, act and "
           "ctrl start the run, as mj_resetDataKeyframe; empty: MuJoCo's qpos0 (mj_resetData). The scene's "
           "own start keys still win over the keyframe's."),
      vector("model.gravity", {0, 0, -9.81}, any(), diff, "Gravitational acceleration in m/s^2 (z is up)."),
      boolean("model.plane.enabled", true, "Whether the ground plane z = height (normal +z) takes part."),
      number("model.plane.height", 0, closed(-1e6, 1e6), diff,
             "Height of the ground plane in m (within 1e6 m, where double arithmetic still resolves contact "
             "depths of 1e-9 m; at 1e200 a body 1 m above it is exactly on it)."),
  };
  append(t, geom_contact_rows("model.plane"));
  append(
      t,
      {
          particles_only(object_array("model.particles", 1, 16,
                                      "Point masses (spheres when radius > 0); 1 to 16 entries.")),
          particles_only(number("model.particles.*.mass", 1, above(0), diff, "Particle mass in kg.")),
          particles_only(number("model.particles.*.radius", 0, at_least(0), diff,
                                "Particle radius in m; contact at z = radius.")),
          particles_only(vector("model.particles.*.pos", {0, 0, 1}, closed(-1e6, 1e6), diff,
                                "Initial position in m (within 1e6 m, as model.plane.height).")),
          particles_only(vector("model.particles.*.vel", {0, 0, 0}, any(), diff, "Initial velocity in m/s.")),
      });
  append(t, rigid_body_rows());
  append(t, tree_body_rows());
  append(t, control_rows());
  append(
      t,
      {
          rigid_only(
              choice("model.run_as", {"free_bodies", "tree"}, "tree",
                     "Which engine runs the free bodies: tree (each a joint tree of one free joint, "
                     "MuJoCo's pipeline, the one engine of every scene; CPU only) or free_bodies (their "
                     "own code, which the GPU kernels run; pyramidal cones only).")),
          boolean(
              "model.collide_bodies", true,
              "Whether rigid bodies collide with each other (plane contacts follow model.plane.enabled)."),

          choice("contact.model", {"none", "penalty", "mujoco", "elastic", "hard"}, "penalty",
                 "Contact model used against the ground plane."),
          particles_only(number("contact.penalty.k", 50, at_least(0), diff,
                                "Penalty stiffness: f = k*pen - c*v_n while penetrating.")),
          particles_only(number("contact.penalty.c", 1, at_least(0), diff,
                                "Penalty damping: f = k*pen - c*v_n while penetrating.")),
          // Rigid scenes take solref and solimp from their geoms (model.plane, model.bodies.*).
          particles_only(
              vector("contact.mujoco.solref", {0.02, 1}, any(), diff,
                     "MuJoCo solref: (timeconst, dampratio) both > 0, or (-stiffness, -damping) both <= 0.")),
          particles_only(vector(
              "contact.mujoco.solimp", {0.9, 0.95, 0.001, 0.5, 2}, any(), diff,
              "MuJoCo solimp (dmin, dmax, width, mid, power): impedance as a function of penetration.")),
          boolean("contact.mujoco.refsafe", true,
                  "MuJoCo's safety clamp timeconst >= 2*dt (off in DiffMJX)."),
          bodies_only(number("contact.mujoco.impratio", 1, above(0), diff,
                             "Ratio of frictional to normal constraint impedance (MuJoCo impratio).")),
          choice("contact.mujoco.cone", {"pyramidal", "elliptic"}, "pyramidal",
                 "MuJoCo friction cone type (both on trees and free bodies run as trees; "
                 "model.run_as=free_bodies takes pyramidal only)."),
          integer("contact.mujoco.iterations", 100, closed(1, 10000),
                  "Most Newton iterations of the contact solver; where they do not converge it stops there "
                  "with the last iterate, as MuJoCo does (trees and free bodies alike)."),
          boolean("contact.cfd.enabled", false,
                  "Contacts From Distance: contact forces act before touching (needs contact.model mujoco)."),
          choice("contact.cfd.mode", {"straight_through", "forward"}, "straight_through",
                 "straight_through: simulate without CFD, differentiate the CFD model; forward: simulate "
                 "with CFD."),
          boolean("contact.cfd.surrogate_events", true,
                  "Straight-through with adaptive steps and integrator.events: the surrogate's own switches "
                  "(its rows' active set, its band's outer edge) are located and end steps, so that its "
                  "tangents integrate a smooth field. false: the surrogate is solved afresh at every "
                  "evaluation, and its tangents pick up errors at those switches (the oscillations of "
                  "DiffMJX Fig. S3; docs/engine.md, \"Straight-through CFD\")."),
          bodies_only(vector("contact.cfd.solimp", {0, 0.01, 0.1, 1, 2}, any(), diff,
                             "CFD impedance over distance (d_far, d_near, width, mid, power).")),
          bodies_only(number(
              "contact.cfd.beta", 1e6, above(0), diff,
              "Sharpness of the softplus that stands for min(r, 0) in the reference acceleration, in 1/m "
              "(1e6: exact to a micrometre, as DiffMJX; small values distort stiff contact).")),
          particles_only(
              number("contact.elastic.restitution", 1, closed(0, 1), diff,
                     "Coefficient of restitution: the normal velocity is reflected and scaled by it.")),
          boolean("contact.elastic.toi", false,
                  "Resolve the impact at the exact time of impact within the step."),
          number_or_inf("contact.hard.kappa", "inf", above(0), diff,
                        "Complementarity smoothing kappa; \"inf\" is the hard (non-smooth) model."),
          integer("contact.hard.iterations", 10, closed(1, 1000),
                  "Fixed-point iterations of the impulse solve."),
          particles_only(
              number("contact.hard.friction", 0, at_least(0), diff, "Coulomb friction coefficient mu.")),

          rigid_only(choice("collision.mode", {"auto", "exact", "smooth", "diffmjx"}, "auto",
                            "Collision detector: auto (exact at softness 0, smooth above), exact, smooth, or "
                            "diffmjx (DiffMJX's softjax-smoothed box manifold; box, sphere, ellipsoid).")),
          rigid_only(number("collision.softness", 0, at_least(0), fixed,
                            "Collision smoothing length in m: the smooth proxies' (0 = exact), or softjax's "
                            "softness in mode diffmjx (DiffMJX: 0.1).")),

          choice(
              "integrator.type", {"euler", "moreau", "rk4", "bosh3", "dopri5", "tsit5", "dopri8"}, "euler",
              "Time integrator: fixed step (euler, moreau, rk4) or adaptive (bosh3, dopri5, tsit5, dopri8)."),
          number("integrator.dt", 0.01, above(0), fixed,
                 "Output step in s: the fixed step, or the adaptive solver's first trial step."),
          integer("integrator.steps", 100, closed(1, 10000000), "Number of output steps."),
          integer("integrator.substeps", 1, closed(1, 1000000),
                  "Fixed-step integrators: internal steps per output step."),
          number("integrator.rtol", 1e-6, above(0), fixed, "Adaptive solvers: relative error tolerance."),
          number("integrator.atol", 1e-6, above(0), fixed, "Adaptive solvers: absolute error tolerance."),
          integer("integrator.max_steps", 4096, at_least(1),
                  "Adaptive solvers: budget of step attempts, accepted or rejected, over the whole solve."),
          choice("integrator.initial_step", {"dt", "auto"}, "dt",
                 "Adaptive solvers: first trial step is dt, or \"auto\" for Hairer's rule."),
          boolean("integrator.events", true,
                  "Adaptive solvers: end steps at contact switches (onset, separation, solver rows, grazing) "
                  "and add their jumps to the gradient; false steps across them as DiffMJX."),
          boolean("integrator.step_to_outputs", true,
                  "Adaptive solvers: every output time ends a step (Diffrax's step_ts); false steps across "
                  "them and interpolates the outputs, as DiffMJX (needs integrator.events = false)."),
          number("integrator.dt_min", 0, at_least(0), fixed,
                 "Adaptive solvers: smallest step before giving up (0 = no limit)."),
          number("integrator.controller.pcoeff", 0, any(), fixed,
                 "PID step controller: proportional coefficient."),
          number("integrator.controller.icoeff", 1, any(), fixed,
                 "PID step controller: integral coefficient."),
          number("integrator.controller.dcoeff", 0, any(), fixed,
                 "PID step controller: derivative coefficient."),
          number("integrator.controller.safety", 0.9, left_open(0, 1), fixed,
                 "Safety factor on the proposed step."),
          number("integrator.controller.factor_min", 0.2, open(0, 1), fixed,
                 "Smallest factor by which a step may shrink."),
          number("integrator.controller.factor_max", 10, above(1), fixed,
                 "Largest factor by which a step may grow."),
          number("integrator.controller.reject_factor_max", 0.9, left_open(0, 1), fixed,
                 "Largest step factor after a rejected step."),

          number("gradient.fd_eps", 1e-6, above(0), fixed, "Finite-difference step for reference gradients."),
          choice(
              "gradient.mode", {"forward", "reverse", "backsolve"}, "forward",
              "How the AD gradient is computed: forward (a dual number, one tangent per run), reverse (one "
              "run replayed on a tape from checkpoints and swept back, every parameter at once; the same "
              "curve as forward) or backsolve (the continuous adjoint integrated backwards in time, as "
              "DiffMJX offers; adaptive solvers only; it can be wrong on stiff contact, where integrating "
              "backwards does not retrace the run)."),
          integer(
              "gradient.checkpoint_steps", 8, closed(0, 100000000),
              "Reverse mode: accepted steps per checkpointed segment; memory is one segment's tape plus a "
              "few kB per checkpoint, whatever the run's length (0: tape the whole run at once)."),
          choice("gradient.reference", {"fd", "fd_tight", "ad_tight"}, "fd",
                 "What the AD curve is compared against: fd (central FD of the same simulation: exact for "
                 "fixed steps, noisy across adaptive step decisions), fd_tight (central FD of the simulation "
                 "at the tight settings), ad_tight (forward-mode AD at the tight settings)."),
          number(
              "gradient.tight.rtol", 1e-10, above(0), fixed,
              "Tight reference, adaptive solvers: rtol = atol of the reference runs (64x the step budget)."),
          integer("gradient.tight.substeps", 100, closed(1, 1000000),
                  "Tight reference, fixed-step solvers: the reference runs take this many times "
                  "integrator.substeps."),
          boolean(
              "gradient.through_controller", false,
              "Propagate derivatives through the adaptive step-size controller (Diffrax stops them). Across "
              "contact this is the derivative of a map whose accept/reject pieces are tiny: it can be huge "
              "(1e13 on the box toss without events) while being exact on its piece (docs/engine.md)."),
          boolean(
              "gradient.control_tangents", false,
              "Let the adaptive step-size controller see the forward-mode tangents' error too (AD runs "
              "only): needed where the derivative has dynamics of its own, as with straight-through CFD."),
          integer("gradient.smoothing.samples", 0, closed(0, 100000),
                  "Randomised-smoothing samples for the gradient (0 = off)."),
          number("gradient.smoothing.sigma", 0.05, above(0), fixed,
                 "Standard deviation of the smoothing noise."),
          integer("gradient.smoothing.seed", 1, at_least(0), "Random seed for the smoothing noise."),

          object_array("loss.terms", 1, kInf,
                       "Loss = sum of weight * kind(quantity of body along axis - target)."),
          choice("loss.terms.*.quantity", {"position", "velocity", "qpos", "qvel", "site"}, "position",
                 "Final-state quantity to score: a body's position or velocity along axis, or (joint trees) "
                 "a joint's coordinate qpos or velocity qvel, or a site's position along axis."),
          integer(
              "loss.terms.*.body", 0, at_least(0),
              "Index of the particle (model.type rigid: of the body; tree: of model.tree.bodies) scored."),
          choice("loss.terms.*.axis", {"x", "y", "z"}, "z", "Component of the quantity."),
          text("loss.terms.*.joint", "",
               "qpos and qvel: the joint's name (model.tree.bodies.*.joints.*.name)."),
          text("loss.terms.*.site", "", "site: the site's name (model.tree.sites.*.name)."),
          integer("loss.terms.*.component", 0, at_least(0),
                  "qpos and qvel: which of the joint's coordinates (a hinge or slide has one; a ball's qpos "
                  "is a quaternion w, x, y, z and its qvel 3 rates; a free joint's qpos is position and "
                  "quaternion, its qvel linear then angular velocity)."),
          choice("loss.terms.*.kind", {"value", "abs", "square"}, "value",
                 "Applied to (component - target): as is, absolute value or square."),
          number("loss.terms.*.target", 0, any(), diff, "Target subtracted from the component."),
          number("loss.terms.*.weight", 1, any(), fixed, "Weight of this term in the sum."),

          text("sweep.parameter", "model.particles.0.pos.2",
               "Path of the differentiable parameter swept (one of the differentiable paths)."),
          number("sweep.from", 0, any(), fixed, "First value of the swept parameter."),
          number("sweep.to", 1, any(), fixed, "Last value of the swept parameter."),
          integer("sweep.points", 200, closed(1, 1000000), "Number of evenly spaced sweep points."),

          integer(
              "optimize.starts", 5, closed(1, 64),
              "Gradient descent on the loss plot: Adam from this many starts spread over the sweep range."),
          integer("optimize.steps", 30, closed(0, 100000), "Gradient descent: Adam steps from each start."),
          number("optimize.lr", 0.1, above(0), fixed,
                 "Gradient descent: Adam's learning rate, in units of the swept parameter."),
          number("optimize.lr_final", 0, at_least(0), fixed,
                 "Gradient descent: the learning rate of the last step; it falls geometrically from lr to "
                 "this, so that the last steps settle instead of circling a noisy minimum (0: constant lr)."),

          object_array(
              "identify.parameters", 0, 16,
              "Identification (softgrad fit, the Identify tab): the scene numbers fitted to measured "
              "positions; the scene's own values are the truth synthetic measurements come from.",
              0),
          text("identify.parameters.*.path", "",
               "Dotted path of a differentiable number of the scene (softgrad gradient --wrt all lists "
               "them)."),
          number("identify.parameters.*.start", 1, any(), fixed, "Where the fit starts for this number."),
          number_or_inf("identify.parameters.*.min", "-inf", any(), fixed,
                        "Lowest value the fit may give this number (it also keeps the number's own range)."),
          number_or_inf("identify.parameters.*.max", "inf", any(), fixed,
                        "Highest value the fit may give this number (it also keeps the number's own range)."),
          number("identify.noise", 0, closed(0, 1), fixed,
                 "Synthetic measurements: Gaussian noise (m) added to every measured coordinate."),
          integer("identify.seed", 1, at_least(0), "Random seed of the measurement noise."),
          choice(
              "identify.method", {"lm", "adam"}, "lm",
              "lm: Levenberg-Marquardt on the position errors; adam: gradient descent on their mean square."),
          integer("identify.steps", 200, closed(0, 100000), "Iterations of the fit."),
          boolean("identify.profile", false,
                  "After the fit, profile-likelihood intervals: each number held at values stepped away "
                  "from its fit while the others are fitted again (docs/identification.md)."),
          number("identify.level", 0.6827, open(0, 1), fixed,
                 "Confidence level of the profile and bootstrap intervals (0.6827: one standard error where "
                 "the model is linear; 0.95)."),
          integer(
              "identify.bootstrap", 0, closed(0, 10000),
              "After the fit, this many parametric bootstrap draws (0: none): measurements drawn from the "
              "fitted model with the fit's noise level, each fitted again (docs/identification.md)."),
          choice(
              "identify.bootstrap_from", {"start", "fit"}, "start",
              "Where each bootstrap refit starts: start, where the fit started (each draw repeats the whole "
              "estimate, the valleys it may stop in included); fit, the fitted values (the spread within "
              "the fit's own valley)."),
          object_array("identify.rollouts", 0, 8,
                       "More measured runs fitted together with the scene's own (the same parameters): each "
                       "is the scene with one number set to another value, such as another throw or tilt.",
                       0),
          text("identify.rollouts.*.path", "",
               "Dotted path of the number this rollout sets (a differentiable number of the scene that is "
               "not fitted)."),
          number("identify.rollouts.*.value", 0, any(), fixed, "Its value in this rollout."),
      });
  append(t, mpc_rows());
  fill_array_defaults(t);
  return t;
}

}  // namespace

const std::vector<FieldSpec>& scene_fields() {
  static const std::vector<FieldSpec> table = build_table();
  return table;
}

const char* field_kind_name(FieldKind kind) {
  switch (kind) {
    case FieldKind::number:
      return "number";
    case FieldKind::integer:
      return "integer";
    case FieldKind::boolean:
      return "boolean";
    case FieldKind::choice:
      return "choice";
    case FieldKind::text:
      return "text";
    case FieldKind::number_or_inf:
      return "number_or_inf";
    case FieldKind::vector:
      return "vector";
    case FieldKind::object_array:
      return "object_array";
  }
  return "unknown";
}

}  // namespace sg::scene
