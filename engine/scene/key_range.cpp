#include "engine/scene/key_range.hpp"

#include "engine/scene/describe.hpp"
#include "engine/scene/field_spec.hpp"

namespace sg::scene {

bool KeyRange::contains(double x) const {
  return (min_open ? x > min : x >= min) && (max_open ? x < max : x <= max);
}

double KeyRange::step_toward(double from, double to) const {
  if (to < min || (min_open && to <= min)) return min_open ? min + 0.5 * (from - min) : min;
  if (to > max || (max_open && to >= max)) return max_open ? max - 0.5 * (max - from) : max;
  return to;
}

KeyRange KeyRange::narrowed(const KeyRange& o) const {
  KeyRange r = *this;
  if (o.min > min || (o.min == min && o.min_open)) {
    r.min = o.min;
    r.min_open = o.min_open;
  }
  if (o.max < max || (o.max == max && o.max_open)) {
    r.max = o.max;
    r.max_open = o.max_open;
  }
  return r;
}

std::string KeyRange::text() const {
  const std::string bounds = describe_bounds(min, max, min_open, max_open);
  return bounds.empty() ? "any number" : bounds;
}

KeyRange spec_range(const FieldSpec& spec) {
  return {spec.min, spec.max, spec.min_exclusive, spec.max_exclusive};
}

KeyRange key_range(const std::string& path) {
  const FieldSpec* spec = find_field(path);
  if (!spec || (spec->kind != FieldKind::number && spec->kind != FieldKind::vector &&
                spec->kind != FieldKind::number_or_inf))
    return {};
  const KeyRange own = spec_range(*spec);
  const std::optional<KeyRange> component = solimp_component_range(path);
  return component ? own.narrowed(*component) : own;
}

}  // namespace sg::scene
