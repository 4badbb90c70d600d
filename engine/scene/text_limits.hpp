#pragma once
// Limits on scene text, checked before the JSON parser builds anything: a scene is a few kilobytes, so
// these are generous, and they keep hostile input (a 100,000-deep array, /dev/zero, a number beyond a
// double's range) from exhausting the stack or memory, or failing without a position.
#include <cstddef>
#include <optional>
#include <string>

#include "engine/scene/issue.hpp"

namespace sg::scene {

constexpr std::size_t kMaxSceneBytes = 4u << 20;      // a scene file
constexpr std::size_t kMaxOverrideBytes = 64u << 10;  // one --set value
constexpr int kMaxNesting = 32;                       // arrays and objects inside each other
constexpr std::size_t kMaxTextChars = 16u << 10;      // a text field (a description, a path, a name)

// The first problem in text that the parser would not report well: nesting deeper than max_depth, a number
// literal too large for a double, or a key given twice in one object (the parser keeps the last silently).
// Positions are 1-based line and column.
std::optional<Issue> check_json_text(const std::string& text, int max_depth = kMaxNesting);

// At most max_chars of text, with "..." when cut (for echoing user input in messages).
std::string shorten(const std::string& text, std::size_t max_chars = 60);

}  // namespace sg::scene
