#pragma once
// The range of values a scene number may take, as an interval: the schema's bounds of a key (every component
// of a vector shares them), narrowed by further limits such as a fit's identify.parameters.*.min / max.
#include <limits>
#include <optional>
#include <string>

namespace sg::scene {

struct FieldSpec;

struct KeyRange {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false, max_open = false;  // an open end is not part of the range

  bool contains(double x) const;
  // Both limits: the larger minimum, the smaller maximum (an end equal in both is open if either is).
  KeyRange narrowed(const KeyRange& other) const;
  // A move from `from` (inside) to `to`, kept inside: `to` itself if inside, else the closed end it passed,
  // or half the way from `from` to the open end it reached (a fit's and a profile's steps).
  double step_toward(double from, double to) const;
  // "> 0", "in [0, 1]", "any number" when unbounded.
  std::string text() const;
};

// A schema row's bounds (for a vector, every component's).
KeyRange spec_range(const FieldSpec& spec);

// The range of the number at a concrete dotted path ("model.bodies.0.friction.0"): the schema's, narrowed
// for solimp's components by their own (mujoco_parameter_rules.cpp); unbounded for a path outside the schema.
KeyRange key_range(const std::string& path);

// The range of one solimp component ("model.plane.solimp.3": mid, in (0, 1)); nothing for other paths.
std::optional<KeyRange> solimp_component_range(const std::string& path);

}  // namespace sg::scene
