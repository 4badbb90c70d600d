// Schema rows of the control section: a joint tree's actuators driven by sequences of knots over the run,
// each knot a differentiable scene number (control.actuators.N.knots.K), so that a planner, a sweep or
// `softgrad gradient --wrt all` reaches every one.
#include "engine/articulated/actuator_model.hpp"
#include "engine/model/joint_tree_model.hpp"
#include "engine/scene/schema_rows.hpp"

namespace sg::scene::rows {

std::vector<FieldSpec> control_rows() {
  const auto tree = [](FieldSpec spec) { return only(ModelScope::tree, std::move(spec)); };
  return {
      choice("control.interpolation", {"constant", "linear"}, "constant",
             "How knots become a control per output step: constant (K knots split the run into K equal "
             "spans of output steps) or linear (knots at K evenly spaced times from 0 to the end, the "
             "control at each output step's start time)."),
      tree(
          object_array("control.actuators", 0, kMaxActuators,
                       "Control sequences by actuator index (entry N drives model.tree.actuators.N); 0 to 32 "
                       "entries.",
                       0)),
      tree(number_list("control.actuators.*.knots", kMaxControlKnots, any(), diff,
                       "The actuator's control knots (MuJoCo's ctrl, clamped to ctrlrange when ctrllimited); "
                       "empty: the constant model.tree.actuators.N.ctrl. At most 256 knots in all.")),
  };
}

}  // namespace sg::scene::rows
