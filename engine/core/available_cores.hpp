#pragma once
// The cores this process may run on (at least 1): its CPU affinity as oneTBB counts it, so that a pool of
// this size never asks TBB for more workers than it grants. std::thread::hardware_concurrency counts the
// machine's cores: under `taskset` or a container's cpuset the extra threads would only queue, and TBB
// refuses the extra workers with a warning on stderr. The default thread count of sweeps, gradients, fits
// and the GUI's jobs.
namespace sg {

int available_cores();

}  // namespace sg
