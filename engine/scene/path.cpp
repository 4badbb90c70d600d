#include "engine/scene/path.hpp"

#include "engine/scene/text_limits.hpp"

#include <cctype>
#include <limits>

namespace sg::scene {

bool is_index_segment(const std::string& segment, std::size_t* index) {
  if (segment.empty() || segment.size() > 18) return false;
  std::size_t value = 0;
  for (char c : segment) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  if (index) *index = value;
  return true;
}

std::optional<std::vector<std::string>> split_path(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<std::vector<std::string>> {
    if (error) *error = "malformed path \"" + path + "\": " + why;
    return std::nullopt;
  };
  std::vector<std::string> segments;
  if (path.empty()) return segments;
  std::size_t i = 0;
  // A segment ends at '.', '[' or the end; "[N]" is a segment of its own and may follow without a dot.
  bool expect_segment = true;
  while (i < path.size()) {
    const char c = path[i];
    if (c == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos) return fail("'[' without ']'");
      std::string inner = path.substr(i + 1, close - i - 1);
      if (!is_index_segment(inner))
        return fail("expected an index inside [], got \"" + shorten(inner) + "\"");
      if (segments.empty()) return fail("a path cannot start with an index");
      segments.push_back(inner);
      i = close + 1;
      expect_segment = false;
      if (i < path.size() && path[i] != '.' && path[i] != '[') return fail("expected '.' or '[' after ']'");
      if (i < path.size() && path[i] == '.') {
        ++i;
        expect_segment = true;
        if (i == path.size()) return fail("ends with '.'");
      }
      continue;
    }
    if (c == ']') return fail("']' without '['");
    if (!expect_segment) return fail("expected '.' between segments");
    std::size_t end = i;
    while (end < path.size() && path[end] != '.' && path[end] != '[' && path[end] != ']') ++end;
    if (end == i) return fail("empty segment");
    segments.push_back(path.substr(i, end - i));
    i = end;
    expect_segment = false;
    if (i < path.size() && path[i] == '.') {
      ++i;
      expect_segment = true;
      if (i == path.size()) return fail("ends with '.'");
    }
  }
  return segments;
}

std::string join_path(const std::vector<std::string>& segments) {
  std::string out;
  for (const auto& s : segments) {
    if (!out.empty()) out += '.';
    out += s;
  }
  return out;
}

std::string canonical_path(const std::string& path) {
  const auto segments = split_path(path, nullptr);
  return segments ? join_path(*segments) : path;
}

std::optional<nlohmann::json> get_path(const nlohmann::json& doc, const std::string& path) {
  const auto segments = split_path(path, nullptr);
  if (!segments) return std::nullopt;
  const nlohmann::json* node = &doc;
  for (const auto& segment : *segments) {
    if (node->is_object()) {
      const auto it = node->find(segment);
      if (it == node->end()) return std::nullopt;
      node = &*it;
    } else if (node->is_array()) {
      std::size_t index = 0;
      if (!is_index_segment(segment, &index) || index >= node->size()) return std::nullopt;
      node = &(*node)[index];
    } else {
      return std::nullopt;
    }
  }
  return *node;
}

bool set_path(nlohmann::json& doc, const std::string& path, const nlohmann::json& value, std::string* error) {
  std::string why;
  const auto segments = split_path(path, &why);
  auto fail = [&](const std::string& message) {
    if (error) *error = message;
    return false;
  };
  if (!segments) return fail(why);
  // Check the whole walk first so that a failure leaves doc untouched.
  const nlohmann::json* probe = &doc;
  std::size_t depth = 0;
  for (; depth < segments->size() && probe; ++depth) {
    const std::string& segment = (*segments)[depth];
    const std::string here = join_path({segments->begin(), segments->begin() + static_cast<long>(depth)});
    if (probe->is_array()) {
      std::size_t index = 0;
      if (!is_index_segment(segment, &index))
        return fail((here.empty() ? std::string("the document") : here) + " is an array; \"" + segment +
                    "\" is not an index");
      if (index >= probe->size())
        return fail("index " + segment +
                    " out of range: " + (here.empty() ? std::string("the document") : here) + " has " +
                    std::to_string(probe->size()) + " entries");
      probe = &(*probe)[index];
    } else if (probe->is_object()) {
      const auto it = probe->find(segment);
      probe = it == probe->end() ? nullptr : &*it;
    } else if (!probe->is_null()) {
      return fail((here.empty() ? std::string("the document") : here) + " is not an object or an array");
    } else {
      probe = nullptr;
    }
  }
  // Past the existing part only objects are created, so an index there would name a missing element.
  const std::size_t first_created = probe ? depth : depth - 1;
  for (std::size_t k = first_created; k < segments->size(); ++k) {
    if (k > 0 && is_index_segment((*segments)[k]))
      return fail("no array at " + join_path({segments->begin(), segments->begin() + static_cast<long>(k)}));
  }
  nlohmann::json* node = &doc;
  for (const auto& segment : *segments) {
    if (node->is_array()) {
      std::size_t index = 0;
      is_index_segment(segment, &index);
      node = &(*node)[index];
    } else {
      if (node->is_null()) *node = nlohmann::json::object();
      node = &(*node)[segment];
    }
  }
  *node = value;
  return true;
}

}  // namespace sg::scene
