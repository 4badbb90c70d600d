#pragma once
// Dotted key paths into JSON documents. "a.b.0.c" and "a.b[0].c" name the same element.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sg::scene {

// Splits a path into its segments; nullopt (and *error set) for malformed paths such as "a..b" or "a[x]".
// The empty string is the root and has no segments.
std::optional<std::vector<std::string>> split_path(const std::string& path, std::string* error);
std::string join_path(const std::vector<std::string>& segments);
// The dotted form of a well-formed path ("a.b[0]" -> "a.b.0"); malformed paths come back unchanged.
std::string canonical_path(const std::string& path);
// A segment made only of decimal digits; sets *index when given.
bool is_index_segment(const std::string& segment, std::size_t* index = nullptr);

std::optional<nlohmann::json> get_path(const nlohmann::json& doc, const std::string& path);
// Creates missing intermediate objects; array elements must already exist. On failure returns false,
// leaves doc unchanged and explains why in *error (when error is not null).
bool set_path(nlohmann::json& doc, const std::string& path, const nlohmann::json& value, std::string* error);

}  // namespace sg::scene
