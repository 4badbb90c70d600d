#pragma once
// Helpers shared by the scene tests.
#include <string>

#include "engine/scene/scene.hpp"

namespace sg::scene::test {

// The issue reported at exactly `path`, or nullptr.
inline const Issue* issue_at(const LoadResult& result, const std::string& path) {
  for (const auto& issue : result.errors)
    if (issue.path == path) return &issue;
  return nullptr;
}

// The message at `path` ("" when there is none), for CHECK(message_at(...) == "...").
inline std::string message_at(const LoadResult& result, const std::string& path) {
  const Issue* issue = issue_at(result, path);
  return issue ? issue->message : std::string();
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace sg::scene::test
