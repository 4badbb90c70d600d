// The scene schema, one row per key. To add a section (e.g. rigid bodies and geoms), add an object_array
// row and rows for its element fields ("model.bodies.*.<field>"); the validator, the defaults, the GUI
// and differentiable_paths pick them up from here. Rules that tie several keys together live in
// cross_rules.cpp.
#include <limits>

#include "engine/scene/field_spec.hpp"
#include "engine/scene/schema_defaults.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Range {
  double min = -kInf, max = kInf;
  bool min_exclusive = false, max_exclusive = false;
};
constexpr Range any() {
  return {};
}
constexpr Range above(double a) {
  return {a, kInf, true, false};
}  // (a, inf)
constexpr Range at_least(double a) {
  return {a, kInf, false, false};
}  // [a, inf)
constexpr Range closed(double a, double b) {
  return {a, b, false, false};
}  // [a, b]
constexpr Range open(double a, double b) {
  return {a, b, true, true};
}  // (a, b)
constexpr Range left_open(double a, double b) {
  return {a, b, true, false};
}  // (a, b]

enum Gradient : bool { fixed = false, diff = true };

FieldSpec row(std::string path, FieldKind kind, Range range, json default_value, Gradient gradient,
              std::string help) {
  return FieldSpec{std::move(path),
                   kind,
                   range.min,
                   range.max,
                   range.min_exclusive,
                   range.max_exclusive,
                   {},
                   0,
                   std::move(default_value),
                   gradient,
                   std::move(help)};
}
FieldSpec number(std::string path, double def, Range range, Gradient gradient, std::string help) {
  return row(std::move(path), FieldKind::number, range, def, gradient, std::move(help));
}
FieldSpec integer(std::string path, long long def, Range range, std::string help) {
  return row(std::move(path), FieldKind::integer, range, def, fixed, std::move(help));
}
FieldSpec boolean(std::string path, bool def, std::string help) {
  return row(std::move(path), FieldKind::boolean, any(), def, fixed, std::move(help));
}
FieldSpec text(std::string path, std::string def, std::string help) {
  return row(std::move(path), FieldKind::text, any(), std::move(def), fixed, std::move(help));
}
FieldSpec choice(std::string path, std::vector<std::string> choices, std::string def, std::string help) {
  FieldSpec spec = row(std::move(path), FieldKind::choice, any(), std::move(def), fixed, std::move(help));
  spec.choices = std::move(choices);
  return spec;
}
FieldSpec vector(std::string path, std::vector<double> def, Range range, Gradient gradient,
                 std::string help) {
  const int length = static_cast<int>(def.size());
  FieldSpec spec = row(std::move(path), FieldKind::vector, range, json(def), gradient, std::move(help));
  spec.length = length;
  return spec;
}
FieldSpec number_or_inf(std::string path, json def, Range range, Gradient gradient, std::string help) {
  return row(std::move(path), FieldKind::number_or_inf, range, std::move(def), gradient, std::move(help));
}
// The default array starts as `count` empty objects; fill_array_defaults() resolves them afterwards.
FieldSpec object_array(std::string path, double min_count, double max_count, std::string help) {
  return row(std::move(path), FieldKind::object_array, closed(min_count, max_count),
             json::array({json::object()}), fixed, std::move(help));
}

std::vector<FieldSpec> build_table() {
  std::vector<FieldSpec> t = {
      text("name", "untitled", "Scene name; defaults to the file's stem."),
      text("description", "", "Free-form description of the scene."),

      vector("model.gravity", {0, 0, -9.81}, any(), diff, "Gravitational acceleration in m/s^2 (z is up)."),
      boolean("model.plane.enabled", true, "Whether the ground plane z = height (normal +z) takes part."),
      number("model.plane.height", 0, any(), diff, "Height of the ground plane in m."),
      object_array("model.particles", 1, 16, "Point masses (spheres when radius > 0); 1 to 16 entries."),
      number("model.particles.*.mass", 1, above(0), diff, "Particle mass in kg."),
      number("model.particles.*.radius", 0, at_least(0), diff,
             "Particle radius in m; contact at z = radius."),
      vector("model.particles.*.pos", {0, 0, 1}, any(), diff, "Initial position in m."),
      vector("model.particles.*.vel", {0, 0, 0}, any(), diff, "Initial velocity in m/s."),

      choice("contact.model", {"none", "penalty", "mujoco", "elastic", "hard"}, "penalty",
             "Contact model used against the ground plane."),
      number("contact.penalty.k", 50, at_least(0), diff,
             "Penalty stiffness: f = k*pen - c*v_n while penetrating."),
      number("contact.penalty.c", 1, at_least(0), diff,
             "Penalty damping: f = k*pen - c*v_n while penetrating."),
      vector("contact.mujoco.solref", {0.02, 1}, any(), diff,
             "MuJoCo solref: (timeconst, dampratio) both > 0, or (-stiffness, -damping) both <= 0."),
      vector("contact.mujoco.solimp", {0.9, 0.95, 0.001, 0.5, 2}, any(), diff,
             "MuJoCo solimp (dmin, dmax, width, mid, power): impedance as a function of penetration."),
      boolean("contact.mujoco.refsafe", true, "MuJoCo's safety clamp timeconst >= 2*dt (off in DiffMJX)."),
      number("contact.elastic.restitution", 1, closed(0, 1), diff,
             "Coefficient of restitution: the normal velocity is reflected and scaled by it."),
      boolean("contact.elastic.toi", false,
              "Resolve the impact at the exact time of impact within the step."),
      number_or_inf("contact.hard.kappa", "inf", above(0), diff,
                    "Complementarity smoothing kappa; \"inf\" is the hard (non-smooth) model."),
      integer("contact.hard.iterations", 10, closed(1, 1000), "Fixed-point iterations of the impulse solve."),
      number("contact.hard.friction", 0, at_least(0), diff, "Coulomb friction coefficient mu."),

      choice("integrator.type", {"euler", "moreau", "rk4", "bosh3", "dopri5", "tsit5"}, "euler",
             "Time integrator: fixed step (euler, moreau, rk4) or adaptive (bosh3, dopri5, tsit5)."),
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
      number("integrator.dt_min", 0, at_least(0), fixed,
             "Adaptive solvers: smallest step before giving up (0 = no limit)."),
      number("integrator.controller.pcoeff", 0, any(), fixed,
             "PID step controller: proportional coefficient."),
      number("integrator.controller.icoeff", 1, any(), fixed, "PID step controller: integral coefficient."),
      number("integrator.controller.dcoeff", 0, any(), fixed, "PID step controller: derivative coefficient."),
      number("integrator.controller.safety", 0.9, left_open(0, 1), fixed,
             "Safety factor on the proposed step."),
      number("integrator.controller.factor_min", 0.2, open(0, 1), fixed,
             "Smallest factor by which a step may shrink."),
      number("integrator.controller.factor_max", 10, above(1), fixed,
             "Largest factor by which a step may grow."),
      number("integrator.controller.reject_factor_max", 0.9, left_open(0, 1), fixed,
             "Largest step factor after a rejected step."),

      number("gradient.fd_eps", 1e-6, above(0), fixed, "Finite-difference step for reference gradients."),
      boolean("gradient.through_controller", false,
              "Propagate derivatives through the adaptive step-size controller (Diffrax stops them)."),
      integer("gradient.smoothing.samples", 0, closed(0, 100000),
              "Randomised-smoothing samples for the gradient (0 = off)."),
      number("gradient.smoothing.sigma", 0.05, above(0), fixed, "Standard deviation of the smoothing noise."),
      integer("gradient.smoothing.seed", 1, at_least(0), "Random seed for the smoothing noise."),

      object_array("loss.terms", 1, kInf,
                   "Loss = sum of weight * kind(quantity of body along axis - target)."),
      choice("loss.terms.*.quantity", {"position", "velocity"}, "position", "Final-state quantity to score."),
      integer("loss.terms.*.body", 0, at_least(0), "Index of the particle scored."),
      choice("loss.terms.*.axis", {"x", "y", "z"}, "z", "Component of the quantity."),
      choice("loss.terms.*.kind", {"value", "abs", "square"}, "value",
             "Applied to (component - target): as is, absolute value or square."),
      number("loss.terms.*.target", 0, any(), diff, "Target subtracted from the component."),
      number("loss.terms.*.weight", 1, any(), fixed, "Weight of this term in the sum."),

      text("sweep.parameter", "model.particles.0.pos.2",
           "Path of the differentiable parameter swept (one of the differentiable paths)."),
      number("sweep.from", 0, any(), fixed, "First value of the swept parameter."),
      number("sweep.to", 1, any(), fixed, "Last value of the swept parameter."),
      integer("sweep.points", 200, closed(1, 1000000), "Number of evenly spaced sweep points."),
  };
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
