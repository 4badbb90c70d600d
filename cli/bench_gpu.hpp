#pragma once
// `softgrad bench --only gpu`: the GPU issue's targets measured side by side in one run on the machine it
// runs on: the GPU's sweeps against the same binary's sweeps on all of the machine's cores (toy 2000
// points, repeated: the first sweep and the ones after it; billiards and the DiffMJX box toss at 10,000
// points), with their agreement. Says why and skips where there is no GPU.
#include <string>

namespace sg::cli {

void bench_gpu(const std::string& scenes);

}  // namespace sg::cli
