#include "engine/scene/overrides.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "engine/scene/check_field.hpp"
#include "engine/scene/describe.hpp"
#include "engine/scene/path.hpp"
#include "engine/scene/schema_tree.hpp"
#include "engine/scene/text_limits.hpp"
#include "engine/scene/validate.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Whether lowercase text has a word nan, inf or infinity (a plain scan: std::regex recurses per character and
// overflows the stack on long input).
bool mentions_non_finite(const std::string& text) {
  auto word_char = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < text.size();) {
    if (!word_char(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && word_char(text[end])) ++end;
    const std::string word = text.substr(i, end - i);
    if (word == "nan" || word == "inf" || word == "infinity") return true;
    i = end;
  }
  return false;
}

// What an override's path lands on decides how its value text is read.
struct Target {
  const FieldSpec* spec = nullptr;  // null for plain objects and array entries
  bool component = false;           // one component of a vector
};

// JSON when the text is JSON, else the bare text (so contact.model=hard works). Bare inf / nan are
// numbers the user meant; only number_or_inf fields take "inf", and NaN is never a valid value.
std::optional<json> parse_value(const std::string& text, const Target& target, const std::string& path,
                                std::vector<Issue>& errors) {
  FieldSpec as_number;
  const FieldSpec* spec = target.spec;
  if (spec && target.component) {
    as_number = *spec;
    as_number.kind = FieldKind::number;
    spec = &as_number;
  }
  if (text.size() > kMaxOverrideBytes) {
    errors.push_back({path, "value is longer than " + std::to_string(kMaxOverrideBytes >> 10) +
                                " KiB, the limit for --set (got " + shorten(text) + ")"});
    return std::nullopt;
  }
  const bool textual = spec && (spec->kind == FieldKind::text || spec->kind == FieldKind::choice);
  // Deep nesting and out-of-range numbers inside arrays are reported before the parser sees them.
  const auto text_issue = check_json_text(text);
  if (textual) {
    if (text_issue) return json(text);
    const json parsed = json::parse(text, nullptr, false);
    return parsed.is_string() ? parsed : json(text);
  }
  const std::string word = lowercase(text);
  auto reject = [&](const std::string& got) -> std::optional<json> {
    errors.push_back({path, spec ? expected_got(*spec, got) : "expected a finite value, got " + got});
    return std::nullopt;
  };
  if (word == "nan" || word == "+nan" || word == "-nan") {
    errors.push_back({path, "NaN is not allowed" +
                                (spec ? " (expected " + describe_expectation(*spec) + ")" : std::string())});
    return std::nullopt;
  }
  if (word == "inf" || word == "+inf" || word == "infinity" || word == "+infinity") {
    if (spec && spec->kind == FieldKind::number_or_inf) return json("inf");
    return reject("inf");
  }
  if (word == "-inf" || word == "-infinity") {
    if (spec && spec->kind == FieldKind::number_or_inf && within_bounds(*spec, -HUGE_VAL))
      return json("-inf");
    return reject("-inf");
  }
  // A bare number beyond a double's range: reported as a number, not as text.
  char* end = nullptr;
  const double overflow = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size() && std::isinf(overflow))
    return reject(shorten(text) + " (too large for a double)");
  if (text_issue) {
    errors.push_back({path, text_issue->message + " at character " + std::to_string(text_issue->column)});
    return std::nullopt;
  }
  const json parsed = json::parse(text, nullptr, false);
  if (!parsed.is_discarded()) return parsed;
  // Non-finite numbers inside an array or object ("[0, nan, 1]") are not JSON; name the real problem.
  if (mentions_non_finite(word)) {
    errors.push_back({path, "NaN and infinity are not allowed, got " + shorten(text)});
    return std::nullopt;
  }
  return json(text);
}

class OverrideWalker {
 public:
  OverrideWalker(json& doc, std::vector<Issue>& errors) : doc_(doc), errors_(errors) {}

  void apply(const std::string& override_text) {
    const auto eq = override_text.find('=');
    if (eq == std::string::npos)
      return fail("", "override \"" + shorten(override_text) + "\" must have the form path=value");
    const std::string path_text = trim(override_text.substr(0, eq));
    const std::string value_text = trim(override_text.substr(eq + 1));
    std::string why;
    const auto segments = split_path(path_text, &why);
    if (!segments) return fail(path_text, why);
    if (segments->empty()) return fail("", "override \"" + shorten(override_text) + "\" has an empty path");
    walk(*segments, value_text);
  }

 private:
  void fail(const std::string& path, const std::string& message) { errors_.push_back({path, message}); }

  // Follows the schema and the document together, creating defaults along the way so that e.g.
  // model.particles.0.mass works on a file that never mentions particles.
  void walk(const std::vector<std::string>& segments, const std::string& value_text) {
    const SchemaNode* schema = &schema_root();
    json* node = &doc_;
    std::string here;
    std::size_t i = 0;
    for (; i < segments.size(); ++i) {
      const std::string& key = segments[i];
      const bool last = i + 1 == segments.size();
      if (!node->is_object()) return fail(here, "cannot set " + join_path(segments) + ": not an object");
      const SchemaNode* child = schema->child(key);
      const std::string path = child_path(here, key);
      if (!child) return fail(path, override_unknown(unknown_key_message(key, *schema, here)));
      if (last) return set(node, key, value_text, Target{child->spec, false}, path);
      if (!node->contains(key))
        (*node)[key] = child->is_object() ? json::object() : child->spec->default_value;
      node = &(*node)[key];
      here = path;
      schema = child;
      if (child->is_object()) continue;
      // Past a leaf: only an array entry or a vector component can follow.
      const std::string& next = segments[i + 1];
      const FieldKind kind = child->spec->kind;
      std::size_t index = 0;
      if (kind != FieldKind::object_array && kind != FieldKind::vector)
        return fail(here, "is a " + std::string(field_kind_name(kind)) + " and has no field \"" +
                              shorten(next) + "\"");
      if (!is_index_segment(next, &index))
        return fail(here, "expected an index after it, got \"" + shorten(next) + "\"");
      if (!node->is_array()) return fail(here, "cannot index into " + describe_value(*node));
      if (index >= node->size())
        return fail(child_path(here, next), "index " + next + " out of range: " + here + " has " +
                                                std::to_string(node->size()) + " entr" +
                                                (node->size() == 1 ? "y" : "ies"));
      ++i;
      here = child_path(here, next);
      if (kind == FieldKind::vector) {
        if (i + 1 < segments.size())
          return fail(here, "is a number and has no field \"" + shorten(segments[i + 1]) + "\"");
        return set_element(*node, index, value_text, Target{child->spec, true}, here);
      }
      if (i + 1 == segments.size()) return set_element(*node, index, value_text, Target{}, here);
      node = &(*node)[index];
    }
  }

  static std::string override_unknown(std::string message) {
    return message.replace(0, std::string("unknown key").size(), "unknown override path");
  }

  void set(json* object, const std::string& key, const std::string& text, const Target& target,
           const std::string& path) {
    if (auto value = parse_value(text, target, path, errors_)) (*object)[key] = std::move(*value);
  }
  void set_element(json& array, std::size_t index, const std::string& text, const Target& target,
                   const std::string& path) {
    if (auto value = parse_value(text, target, path, errors_)) array[index] = std::move(*value);
  }

  json& doc_;
  std::vector<Issue>& errors_;
};

}  // namespace

void apply_overrides(json& doc, const std::vector<std::string>& overrides, std::vector<Issue>& errors) {
  OverrideWalker walker(doc, errors);
  for (const auto& text : overrides) walker.apply(text);
}

}  // namespace sg::scene
