#include "engine/scene/issue.hpp"
#include "engine/scene/text_limits.hpp"

namespace sg::scene {

std::string LoadResult::format_errors() const {
  // A broken file can have thousands of problems; the first ones are what the user fixes first.
  constexpr std::size_t kMaxReported = 20;
  std::string out;
  for (std::size_t i = 0; i < errors.size() && i < kMaxReported; ++i) {
    const Issue& issue = errors[i];
    out += source;
    if (issue.line > 0) out += ":" + std::to_string(issue.line) + ":" + std::to_string(issue.column);
    out += ": ";
    if (!issue.path.empty()) out += shorten(issue.path, 120) + ": ";
    out += issue.message + "\n";
  }
  if (errors.size() > kMaxReported)
    out += source + ": ... and " + std::to_string(errors.size() - kMaxReported) + " more problems\n";
  return out;
}

}  // namespace sg::scene
