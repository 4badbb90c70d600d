#pragma once
// The outcome of loading a scene: the resolved configuration plus every problem found on the way.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sg::scene {

struct Issue {
  std::string path;     // dotted key path, e.g. "integrator.dt"; empty when the problem has no key
  std::string message;  // what was expected and what was found
  int line = 0;         // 1-based text position for syntax errors; 0 when not applicable
  int column = 0;
};

struct LoadResult {
  nlohmann::json config;      // fully resolved: every schema key present, defaults filled in
  std::vector<Issue> errors;  // empty when ok
  std::string source;         // file path or a name for text input

  bool ok() const { return errors.empty(); }
  // One line per issue, each ending in '\n': "<source>: <path>: <message>"
  // (or "<source>:<line>:<col>: <message>" for syntax errors, "<source>: <message>" without a path).
  std::string format_errors() const;
};

}  // namespace sg::scene
