#pragma once
// What differs between two scenes, in a reader's words: labels for pinned sweeps ("kappa (hard contact) 300,
// CFD off") and anything else that compares settings.
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sg::scene {

// Every leaf of `a` whose value differs from `b` (or that `b` lacks), as "name value" with a's value, in the
// order of a's keys (alphabetical within an object). Arrays of numbers compare and print whole ("solref
// [0.01, 1]"); booleans read on/off
// ("CFD off"); what does not enter a sweep (the description, the optimize.* settings of gradient descent) is
// left out.
std::vector<std::string> describe_differences(const nlohmann::json& a, const nlohmann::json& b);

// Whether two resolved scenes give the same sweep: they differ at most in the description and optimize.*.
bool same_sweep_settings(const nlohmann::json& a, const nlohmann::json& b);

// The first max_items differences joined by ", ", then "+N more"; "same settings" when none.
std::string difference_label(const nlohmann::json& a, const nlohmann::json& b, std::size_t max_items = 3);

}  // namespace sg::scene
