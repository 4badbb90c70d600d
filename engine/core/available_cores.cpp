#include "engine/core/available_cores.hpp"

#include <algorithm>

#include <tbb/global_control.h>
#include <tbb/info.h>

namespace sg {

int available_cores() {
  return std::max(1, tbb::info::default_concurrency());
}

int arena_threads(int requested) {
  const int granted =
      static_cast<int>(tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism));
  return std::clamp(requested, 1, std::max(1, std::min(granted, available_cores())));
}

}  // namespace sg
