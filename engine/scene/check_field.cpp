#include "engine/scene/check_field.hpp"

#include <algorithm>
#include <cmath>

#include "engine/scene/describe.hpp"
#include "engine/scene/key_range.hpp"
#include "engine/scene/suggest.hpp"
#include "engine/scene/text_limits.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

void add(std::vector<Issue>& errors, const std::string& path, std::string message) {
  errors.push_back(Issue{path, std::move(message)});
}

// Non-finite numbers cannot come from JSON text but can from code or overrides.
bool reject_non_finite(const FieldSpec& spec, double x, const std::string& path, std::vector<Issue>& errors) {
  if (std::isfinite(x)) return false;
  if (std::isnan(x)) {
    add(errors, path, "NaN is not allowed (expected " + describe_expectation(spec) + ")");
  } else {
    add(errors, path, expected_got(spec, format_number(x)));
  }
  return true;
}

void check_number(const FieldSpec& spec, json& value, const std::string& path, std::vector<Issue>& errors) {
  if (!value.is_number()) return add(errors, path, expected_got(spec, describe_value(value)));
  const double x = value.get<double>();
  if (reject_non_finite(spec, x, path, errors)) return;
  if (!within_bounds(spec, x)) return add(errors, path, expected_got(spec, describe_value(value)));
  value = x;
}

void check_integer(const FieldSpec& spec, json& value, const std::string& path, std::vector<Issue>& errors) {
  if (!value.is_number()) return add(errors, path, expected_got(spec, describe_value(value)));
  const double x = value.get<double>();
  if (reject_non_finite(spec, x, path, errors)) return;
  // Beyond 2^53 doubles skip integers, and no count or seed here needs that many.
  constexpr double kLargestExact = 9007199254740992.0;
  if (x != std::floor(x) || std::fabs(x) > kLargestExact || !within_bounds(spec, x))
    return add(errors, path, expected_got(spec, describe_value(value)));
  if (!spec.choices.empty() &&
      std::find(spec.choices.begin(), spec.choices.end(), format_number(x)) == spec.choices.end())
    return add(errors, path, expected_got(spec, describe_value(value)));
  value = value.is_number_float() ? static_cast<long long>(x) : value.get<long long>();  // 2.0 becomes 2
}

void check_choice(const FieldSpec& spec, json& value, const std::string& path, std::vector<Issue>& errors) {
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (std::find(spec.choices.begin(), spec.choices.end(), s) != spec.choices.end()) return;
    std::string message = expected_got(spec, describe_value(value));
    if (const auto close = closest_match(s, spec.choices)) message += " (did you mean \"" + *close + "\"?)";
    return add(errors, path, message);
  }
  add(errors, path, expected_got(spec, describe_value(value)));
}

void check_number_or_inf(const FieldSpec& spec, json& value, const std::string& path,
                         std::vector<Issue>& errors) {
  if (value.is_string()) {
    const std::string& word = value.get_ref<const std::string&>();
    if (word == "inf" || word == "-inf") {
      if (!within_bounds(spec, word == "inf" ? HUGE_VAL : -HUGE_VAL))
        add(errors, path, expected_got(spec, "\"" + word + "\""));
      return;
    }
  }
  if (value.is_number() && std::isinf(value.get<double>()) && within_bounds(spec, value.get<double>())) {
    value = value.get<double>() > 0 ? "inf" : "-inf";  // one spelling of each infinity in resolved configs
    return;
  }
  check_number(spec, value, path, errors);
}

void check_vector(const FieldSpec& spec, json& value, const std::string& path, std::vector<Issue>& errors) {
  const bool fits =
      value.is_array() && (spec.max_length > 0 ? value.size() <= static_cast<std::size_t>(spec.max_length)
                                               : value.size() == static_cast<std::size_t>(spec.length));
  if (!fits) return add(errors, path, expected_got(spec, describe_value(value)));
  FieldSpec component = spec;
  component.kind = FieldKind::number;
  for (std::size_t i = 0; i < value.size(); ++i)
    check_number(component, value[i], path + "." + std::to_string(i), errors);
}

}  // namespace

bool within_bounds(const FieldSpec& spec, double x) {
  return spec_range(spec).contains(x);
}

void check_field(const FieldSpec& spec, json& value, const std::string& path, std::vector<Issue>& errors) {
  switch (spec.kind) {
    case FieldKind::number:
      return check_number(spec, value, path, errors);
    case FieldKind::integer:
      return check_integer(spec, value, path, errors);
    case FieldKind::boolean:
      if (!value.is_boolean()) add(errors, path, expected_got(spec, describe_value(value)));
      return;
    case FieldKind::choice:
      return check_choice(spec, value, path, errors);
    case FieldKind::text:
      if (!value.is_string()) return add(errors, path, expected_got(spec, describe_value(value)));
      // One message with the limit, before any rule looks at a path or name 100,000 characters long.
      if (const std::size_t n = value.get_ref<const std::string&>().size(); n > kMaxTextChars) {
        add(errors, path,
            "expected a string of at most " + std::to_string(kMaxTextChars) + " characters, got " +
                std::to_string(n));
        value = spec.default_value;  // reported once: the rules after this see the default
      }
      return;
    case FieldKind::number_or_inf:
      return check_number_or_inf(spec, value, path, errors);
    case FieldKind::vector:
      return check_vector(spec, value, path, errors);
    case FieldKind::object_array:
      return;  // walked by the validator, entry by entry
  }
}

}  // namespace sg::scene
