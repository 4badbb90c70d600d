// Schema rows of the 3-D rigid-body model (model.type = "rigid"): the bodies, their forces and the
// MuJoCo contact parameters of every geom. Shapes and parameters follow MuJoCo's conventions.
#include "engine/scene/schema_rows.hpp"

namespace sg::scene::rows {

std::vector<FieldSpec> geom_contact_rows(const std::string& prefix) {
  const auto rigid = [](FieldSpec spec) { return only(ModelScope::rigid, std::move(spec)); };
  return {
      // Only sliding friction is differentiated: condim 3 contacts never read the other two.
      rigid(gradient_in_first(1, vector(prefix + ".friction", {1, 0.005, 0.0001}, at_least(0), diff,
                                        "MuJoCo friction (sliding, torsional, rolling); a contact uses the "
                                        "larger value of its two geoms."))),
      rigid(vector(prefix + ".solref", {0.02, 1}, any(), diff,
                   "MuJoCo solref: (timeconst, dampratio) both > 0, or (-stiffness, -damping) both <= 0.")),
      rigid(vector(prefix + ".solimp", {0.9, 0.95, 0.001, 0.5, 2}, any(), diff,
                   "MuJoCo solimp (dmin, dmax, width, mid, power): impedance as a function of penetration.")),
      rigid(integer_of(prefix + ".condim", 3, {1, 3},
                       "MuJoCo contact dimensionality: 1 frictionless, 3 sliding friction.")),
      rigid(number(prefix + ".margin", 0, at_least(0), fixed,
                   "MuJoCo contact margin in m: contacts are generated within this distance (a pair uses the "
                   "larger value of its two geoms).")),
  };
}

std::vector<FieldSpec> rigid_body_rows() {
  const auto rigid = [](FieldSpec spec) { return only(ModelScope::rigid, std::move(spec)); };
  std::vector<FieldSpec> t = {
      rigid(object_array("model.bodies", 0, 8,
                         "Free-floating rigid bodies, one geom each; 0 to 8 entries (model.type rigid).", 0)),
      rigid(choice("model.bodies.*.shape", {"sphere", "capsule", "box", "cylinder", "ellipsoid"}, "sphere",
                   "Geom shape.")),
      rigid(vector("model.bodies.*.size", {0.05, 0.05, 0.05}, above(0), diff,
                   "MuJoCo geom size in m: sphere [r], capsule and cylinder [r, half length], box half "
                   "sizes, ellipsoid semi-axes; unused components are ignored.")),
      rigid(
          number("model.bodies.*.density", 1000, above(0), diff, "Density in kg/m^3, used when mass is 0.")),
      rigid(number("model.bodies.*.mass", 0, at_least(0), diff,
                   "Mass in kg; 0 computes it from the shape and density.")),
      rigid(vector("model.bodies.*.pos", {0, 0, 0}, closed(-1e6, 1e6), diff,
                   "Initial position of the centre in m (within 1e6 m, as model.plane.height).")),
      rigid(vector("model.bodies.*.euler", {0, 0, 0}, any(), diff,
                   "Initial orientation as intrinsic xyz Euler angles in degrees (MuJoCo's default).")),
      rigid(vector("model.bodies.*.vel", {0, 0, 0}, any(), diff,
                   "Initial linear velocity in m/s, world frame.")),
      rigid(vector("model.bodies.*.angvel", {0, 0, 0}, any(), diff,
                   "Initial angular velocity in rad/s, body frame (as MuJoCo's free joint).")),
  };
  for (auto& spec : geom_contact_rows("model.bodies.*")) t.push_back(std::move(spec));
  const std::vector<FieldSpec> rest = {
      rigid(number("model.bodies.*.damping", 0, at_least(0), diff,
                   "Linear and angular velocity damping in 1/s.")),
      rigid(object_array("model.bodies.*.forces", 0, 4, "External force and torque pulses; 0 to 4 entries.",
                         0)),
      rigid(vector("model.bodies.*.forces.*.force", {0, 0, 0}, any(), diff,
                   "Force in N applied at the centre, world frame.")),
      rigid(vector("model.bodies.*.forces.*.torque", {0, 0, 0}, any(), diff, "Torque in N m, world frame.")),
      rigid(integer("model.bodies.*.forces.*.from_step", 0, at_least(0),
                    "First output step during which the force acts.")),
      rigid(integer("model.bodies.*.forces.*.to_step", 1, at_least(1),
                    "Output step at which the force stops acting (exclusive).")),
  };
  t.insert(t.end(), rest.begin(), rest.end());
  return t;
}

}  // namespace sg::scene::rows
