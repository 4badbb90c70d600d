// Entry points: text or file -> parsed JSON -> overrides -> validated config with defaults.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

#include "engine/io/atomic_file.hpp"
#include "engine/scene/cross_rules.hpp"
#include "engine/scene/describe.hpp"
#include "engine/scene/mjcf_source.hpp"
#include "engine/scene/overrides.hpp"
#include "engine/scene/scene.hpp"
#include "engine/scene/schema_tree.hpp"
#include "engine/scene/text_limits.hpp"
#include "engine/scene/validate.hpp"

namespace sg::scene {
namespace {

using nlohmann::json;

// ".json" for "scenes/Box.JSON": the file name's extension in lower case.
std::string lower_extension(const std::string& file) {
  std::string extension = std::filesystem::path(file).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension;
}

std::string default_name(const std::string& source) {
  const std::filesystem::path path(source);
  if (lower_extension(source) == ".json" && !path.stem().empty()) return path.stem().string();
  return "untitled";
}

const char* type_phrase(const json& value) {
  switch (value.type()) {
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

// nlohmann reports the count of characters read; the offending character is the last one read.
Issue syntax_issue(const std::string& text, std::size_t bytes_read, const std::string& what) {
  const std::size_t offset = std::min(bytes_read > 0 ? bytes_read - 1 : 0, text.size());
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  // The parser's message repeats the position; keep only its reason.
  std::string reason = what;
  if (const auto at = reason.find("column "); at != std::string::npos) {
    if (const auto colon = reason.find(": ", at); colon != std::string::npos)
      reason = reason.substr(colon + 2);
  } else if (const auto bracket = reason.find("] "); bracket != std::string::npos) {
    reason = reason.substr(bracket + 2);
  }
  return Issue{"", "malformed JSON: " + reason, line, static_cast<int>(offset - line_start) + 1};
}

// The schema's default sweep parameter names a particle; a rigid scene sweeps its first body's height, a
// tree scene gravity's z (every tree has it). True if it chose the parameter and the scene gives no range.
bool default_rigid_sweep(json& config) {
  const auto type = get_path(config, "model.type");
  if (type != json("rigid") && type != json("tree")) return false;
  const auto sweep = config.find("sweep");
  if (sweep == config.end()) {
    config["sweep"] = json::object();
  } else if (!sweep->is_object() || sweep->contains("parameter")) {
    return false;
  }
  json& s = config["sweep"];
  s["parameter"] = *type == json("tree") ? "model.gravity.2" : "model.bodies.0.pos.2";
  return !s.contains("from") && !s.contains("to");
}

// The range of a sweep whose parameter was chosen for the scene: from the scene's own value v (where
// `simulate` runs by default: a model opened as it is falls under its own gravity) to v + |v| / 2 (half the
// gravity, half as high again), or the schema's 0 to 1 where v is 0.
void default_sweep_range(json& config) {
  const auto value = get_path(config, config["sweep"]["parameter"].get<std::string>());
  if (!value || !value->is_number()) return;
  const double v = value->get<double>();
  if (v == 0.0 || !std::isfinite(v)) return;
  config["sweep"]["from"] = v;
  config["sweep"]["to"] = v + 0.5 * std::fabs(v);
}

LoadResult failed(const std::string& source, Issue issue) {
  LoadResult result = resolve_scene(json::object(), source);
  result.errors = {std::move(issue)};
  return result;
}

LoadResult resolve_document(const json& doc, const std::string& source) {
  LoadResult result;
  result.source = source;
  json config = doc;
  if (!config.is_object()) {
    result.errors.push_back(
        {"", std::string("expected a JSON object at the top level, got ") + type_phrase(doc)});
    config = json::object();
  }
  if (!config.contains("name")) config["name"] = default_name(source);
  const bool range_to_choose = default_rigid_sweep(config);
  resolve_object(config, schema_root(), "", result.errors);
  if (range_to_choose && result.errors.empty()) default_sweep_range(config);
  // The canonical dotted form, so that "a[0].b" and "a.0.b" resolve to the same config.
  if (auto& parameter = config["sweep"]["parameter"]; parameter.is_string())
    parameter = canonical_path(parameter.get<std::string>());
  check_cross_rules(config, result.errors);
  result.config = std::move(config);
  return result;
}

// model.type, model.file and model.keyframe choose what an mjcf scene imports, so their overrides apply
// before the import; the others after it, so that they can address the imported bodies.
bool picks_model_source(const std::string& assignment) {
  std::string path = assignment.substr(0, assignment.find('='));
  const auto first = path.find_first_not_of(" \t"), last = path.find_last_not_of(" \t");
  path = first == std::string::npos ? "" : path.substr(first, last - first + 1);
  return path == "model.type" || path == "model.file" || path == "model.keyframe";
}

// Overrides, the MJCF import (model.type "mjcf"), then validation. A failed import reports only its own
// problems: the rest of the scene cannot be judged without the model.
LoadResult resolve_unchecked(json doc, const std::string& source, const std::vector<std::string>& overrides) {
  std::vector<Issue> early, import_errors;
  if (doc.is_object()) {
    std::vector<std::string> source_sets, other_sets;
    for (const auto& o : overrides) (picks_model_source(o) ? source_sets : other_sets).push_back(o);
    apply_overrides(doc, source_sets, early);
    expand_mjcf(doc, source, import_errors);
    if (import_errors.empty()) apply_overrides(doc, other_sets, early);
  }
  LoadResult result = resolve_document(doc, source);
  if (!import_errors.empty()) result.errors = std::move(import_errors);
  result.errors.insert(result.errors.begin(), early.begin(), early.end());
  return result;
}

// A scene is a JSON object; a file whose first character is '<' is taken for a MuJoCo model.
bool starts_like_xml(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '<';
}

// A MuJoCo model file where a scene is expected: the scene of that model with every other setting at its
// default, the model named relative to itself (as a scene file beside it would name it), so that
// `softgrad simulate robot.xml` and the GUI's Open take a researcher's own model as it is.
LoadResult load_mjcf_model(const std::string& file, const std::vector<std::string>& overrides) {
  const std::filesystem::path path(file);
  json doc = {{"name", path.stem().empty() ? "untitled" : path.stem().string()},
              {"model", {{"type", "mjcf"}, {"file", path.filename().string()}}}};
  try {
    return resolve_unchecked(std::move(doc), file, overrides);
  } catch (const std::exception& e) {
    return failed(file, Issue{"", std::string("internal error while loading: ") + e.what()});
  }
}

}  // namespace

LoadResult resolve_scene(const json& doc, const std::string& source) {
  try {
    return resolve_unchecked(doc, source, {});
  } catch (const std::exception& e) {
    LoadResult result;
    result.source = source;
    result.errors.push_back({"", std::string("internal error while resolving: ") + e.what()});
    return result;
  }
}

LoadResult load_scene_text(const std::string& text, const std::string& source,
                           const std::vector<std::string>& overrides) {
  try {
    if (text.size() > kMaxSceneBytes)
      return failed(source, Issue{"", "scene text is larger than " + std::to_string(kMaxSceneBytes >> 20) +
                                          " MiB, the limit"});
    if (auto issue = check_json_text(text)) return failed(source, *issue);
    json doc;
    try {
      doc = json::parse(text);
    } catch (const json::parse_error& e) {
      return failed(source, syntax_issue(text, e.byte, e.what()));
    }
    return resolve_unchecked(std::move(doc), source, overrides);
  } catch (const std::exception& e) {
    LoadResult result;
    result.source = source;
    result.errors.push_back({"", std::string("internal error while loading: ") + e.what()});
    return result;
  }
}

LoadResult load_scene_file(const std::string& file, const std::vector<std::string>& overrides) {
  if (lower_extension(file) == ".xml") return load_mjcf_model(file, overrides);
  std::string text, why;
  if (!io::read_file_limited(file, kMaxSceneBytes, &text, &why))
    return failed(file, Issue{"", "cannot read scene file: " + why});
  if (starts_like_xml(text)) return load_mjcf_model(file, overrides);
  return load_scene_text(text, file, overrides);
}

}  // namespace sg::scene
