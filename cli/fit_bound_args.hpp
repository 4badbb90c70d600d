#pragma once
// `softgrad fit --bound PATH=MIN:MAX`: a range for one fitted number on the command line, as
// identify.parameters.*.min / max give one in the scene (either end may be left out: `0.1:`, `:5`).
#include <string>
#include <vector>

#include "engine/scene/key_range.hpp"

namespace sg::cli {

// Narrows bounds[j] of each path named by an argument. False with *error naming the argument when one does
// not parse, names a path that is not fitted, or leaves no room (MIN not below MAX).
bool apply_bound_args(const std::vector<std::string>& args, const std::vector<std::string>& paths,
                      std::vector<scene::KeyRange>* bounds, std::string* error);

}  // namespace sg::cli
