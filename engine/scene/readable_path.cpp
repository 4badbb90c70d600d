#include "engine/scene/readable_path.hpp"

#include <cctype>
#include <utility>
#include <vector>

namespace sg::scene {
namespace {

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : path) {
    if (c == '.') {
      parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  parts.push_back(part);
  return parts;
}

bool is_index(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Words of the schema that read better spelled out; components of 3-vectors are axes.
const char* word_for(const std::string& key) {
  // Words not listed read as they are ("kappa", "mass", "friction", ...).
  static const std::pair<const char*, const char*> words[] = {
      {"pos", "position"},      {"vel", "velocity"},   {"angvel", "angular velocity"},
      {"euler", "orientation"}, {"dt", "step"},        {"k", "stiffness k"},
      {"c", "damping c"},       {"fd_eps", "FD step"},
  };
  for (const auto& [from, to] : words)
    if (key == from) return to;
  return nullptr;
}

const char* owner_for(const std::string& collection) {
  if (collection == "particles") return "particle";
  if (collection == "bodies") return "body";
  if (collection == "forces") return "pulse";
  if (collection == "terms") return "loss term";
  return nullptr;
}

}  // namespace

std::string readable_path(const std::string& path) {
  const std::vector<std::string> parts = split(path);
  std::string out, context;  // context: a trailing "(hard contact)"-like qualifier
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (i == 0 && (p == "model" || p == "integrator" || p == "gradient" || p == "sweep")) continue;
    if (i == 0 && p == "contact" && i + 2 < parts.size()) {
      context = " (" + parts[i + 1] + " contact)";
      ++i;
      continue;
    }
    if (const char* owner = owner_for(p); owner && i + 1 < parts.size() && is_index(parts[i + 1])) {
      // Force pulses belong to a body: "body 0, pulse 1 force y".
      out += std::string(out.empty() ? "" : (p == "forces" ? ", " : " ")) + owner + " " + parts[i + 1];
      ++i;
      continue;
    }
    if (is_index(p)) {
      static const char* axes[] = {"x", "y", "z"};
      const std::size_t k = static_cast<std::size_t>(std::stoul(p.substr(0, 2)));
      const bool axis = k < 3 && i > 0 &&
                        (parts[i - 1] == "pos" || parts[i - 1] == "vel" || parts[i - 1] == "angvel" ||
                         parts[i - 1] == "force" || parts[i - 1] == "torque" || parts[i - 1] == "gravity");
      out += axis ? std::string(" ") + axes[k] : "[" + p + "]";
      continue;
    }
    const char* word = word_for(p);
    out += (out.empty() ? "" : " ") + std::string(word ? word : p.c_str());
  }
  return out.empty() ? path : out + context;
}

}  // namespace sg::scene
