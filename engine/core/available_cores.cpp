#include "engine/core/available_cores.hpp"

#include <algorithm>

#include <tbb/info.h>

namespace sg {

int available_cores() {
  return std::max(1, tbb::info::default_concurrency());
}

}  // namespace sg
