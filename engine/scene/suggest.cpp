#include "engine/scene/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace sg::scene {
namespace {

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> nearest(const std::string& word, const std::vector<std::string>& candidates) {
  // Keys and paths are short; a long word is no typo of any, and the edit distance grows as length squared.
  constexpr std::size_t kMaxWord = 120;
  if (word.size() > kMaxWord) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  const std::string lowered = lowercase(word);
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(lowered, lowercase(candidate));
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates) {
  const auto best = nearest(word, candidates);
  if (!best) return std::nullopt;
  const std::size_t distance = edit_distance(lowercase(word), lowercase(*best));
  // A typo changes a few characters; allow about one edit per three characters, at least two.
  const std::size_t allowed = std::max<std::size_t>(2, std::max(word.size(), best->size()) / 3);
  if (distance > allowed || distance >= std::max(word.size(), best->size())) return std::nullopt;
  return best;
}

}  // namespace sg::scene
