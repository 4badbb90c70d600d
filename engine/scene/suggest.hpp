#pragma once
// "Did you mean" suggestions: the closest candidate by edit distance, if it is close enough to be a typo.
#include <optional>
#include <string>
#include <vector>

namespace sg::scene {

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest candidate within a typo-sized distance; nullopt when nothing is that close.
std::optional<std::string> closest_match(const std::string& word, const std::vector<std::string>& candidates);

// The closest candidate, however far (for lists where naming the nearest entry always helps).
std::optional<std::string> nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace sg::scene
