#include "cli/gradient_note.hpp"

#include <cstdio>
#include <string>

#include "engine/gradient/reference.hpp"

namespace sg::cli {

void note_straight_through(const Problem& problem) {
  if (const std::string caveat = straight_through_caveat(problem); !caveat.empty())
    std::printf("note: %s\n", caveat.c_str());
}

}  // namespace sg::cli
