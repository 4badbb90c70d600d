#include "engine/scene/describe.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "engine/scene/check_field.hpp"
#include "engine/scene/text_limits.hpp"

namespace sg::scene {

std::string format_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buffer[40];
  if (x == std::floor(x) && std::fabs(x) < 1e15) {  // counts and bounds read better as 10000000 than 1e+07
    std::snprintf(buffer, sizeof buffer, "%.0f", x);
    return buffer;
  }
  // The shortest precision that reads back to the same double.
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, x);
    if (std::strtod(buffer, nullptr) == x) break;
  }
  return buffer;
}

namespace {

// Compact JSON of value, stopping once out holds more than budget characters: a value nested 100,000 deep
// or a huge array costs no more than its first characters (the recursion depth is bounded by the budget,
// since every level adds a bracket).
void describe_into(const nlohmann::json& value, std::string& out, std::size_t budget) {
  if (out.size() > budget) return;
  if (value.is_array() || value.is_object()) {
    const bool array = value.is_array();
    out += array ? '[' : '{';
    bool first = true;
    for (auto it = value.begin(); it != value.end() && out.size() <= budget; ++it) {
      if (!first) out += ',';
      first = false;
      if (!array) out += nlohmann::json(it.key()).dump() + ':';
      describe_into(*it, out, budget);
    }
    out += array ? ']' : '}';
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    out += nlohmann::json(text.substr(0, budget + 1)).dump();
  } else {
    out += value.dump();
  }
}

}  // namespace

std::string describe_value(const nlohmann::json& value) {
  if (value.is_number_float()) return format_number(value.get<double>());
  constexpr std::size_t kMaxLength = 60;
  std::string text;
  describe_into(value, text, kMaxLength);
  return shorten(text, kMaxLength);
}

std::string describe_bounds(double min, double max, bool min_exclusive, bool max_exclusive) {
  const bool has_min = std::isfinite(min), has_max = std::isfinite(max);
  if (has_min && has_max) {
    return std::string("in ") + (min_exclusive ? "(" : "[") + format_number(min) + ", " + format_number(max) +
           (max_exclusive ? ")" : "]");
  }
  if (has_min) return std::string(min_exclusive ? "> " : ">= ") + format_number(min);
  if (has_max) return std::string(max_exclusive ? "< " : "<= ") + format_number(max);
  return "";
}

namespace {

std::string with_bounds(const std::string& noun, const FieldSpec& spec) {
  const std::string bounds = describe_bounds(spec.min, spec.max, spec.min_exclusive, spec.max_exclusive);
  return bounds.empty() ? noun : noun + " " + bounds;
}

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (const auto& c : choices) out += (out.empty() ? "" : ", ") + c;
  return out;
}

std::string count_range(const FieldSpec& spec) {
  const bool has_max = std::isfinite(spec.max);
  const std::string lo = format_number(spec.min);
  if (!has_max) return "at least " + lo;
  return lo + " to " + format_number(spec.max);
}

}  // namespace

std::string describe_expectation(const FieldSpec& spec) {
  switch (spec.kind) {
    case FieldKind::number:
      return with_bounds("a number", spec);
    case FieldKind::integer:
      if (!spec.choices.empty()) return "an integer, one of " + join_choices(spec.choices);
      return with_bounds("an integer", spec);
    case FieldKind::boolean:
      return "true or false";
    case FieldKind::choice:
      return "one of " + join_choices(spec.choices);
    case FieldKind::text:
      return "a string";
    case FieldKind::number_or_inf:
      return with_bounds("a number", spec) +
             (within_bounds(spec, -HUGE_VAL) ? ", \"inf\" or \"-inf\"" : " or \"inf\"");
    case FieldKind::vector: {
      std::string out = spec.max_length > 0
                            ? "an array of at most " + std::to_string(spec.max_length) + " numbers"
                            : "an array of " + std::to_string(spec.length) + " numbers";
      const std::string bounds = describe_bounds(spec.min, spec.max, spec.min_exclusive, spec.max_exclusive);
      return bounds.empty() ? out : out + " " + bounds;
    }
    case FieldKind::object_array:
      return "an array of " + count_range(spec) + " objects";
  }
  return "a value";
}

std::string expected_got(const FieldSpec& spec, const std::string& got) {
  const bool listed = spec.kind == FieldKind::choice || !spec.choices.empty();
  return "expected " + describe_expectation(spec) + (listed ? "; got " : ", got ") + got;
}

}  // namespace sg::scene
