#include "engine/scene/issue.hpp"

namespace sg::scene {

std::string LoadResult::format_errors() const {
  std::string out;
  for (const auto& issue : errors) {
    out += source;
    if (issue.line > 0) out += ":" + std::to_string(issue.line) + ":" + std::to_string(issue.column);
    out += ": ";
    if (!issue.path.empty()) out += issue.path + ": ";
    out += issue.message + "\n";
  }
  return out;
}

}  // namespace sg::scene
