#pragma once
// The cores this process may run on (at least 1): its CPU affinity as oneTBB counts it, so that a pool of
// this size never asks TBB for more workers than it grants. std::thread::hardware_concurrency counts the
// machine's cores: under `taskset` or a container's cpuset the extra threads would only queue, and TBB
// refuses the extra workers with a warning on stderr. The default thread count of sweeps, gradients, fits
// and the GUI's jobs.
namespace sg {

int available_cores();

// A requested thread count for a oneTBB arena, capped at what TBB grants this process (its cores): `--threads
// 1024` on 2 cores would otherwise make TBB print a warning and the sweep build 1024 evaluators to run 2.
int arena_threads(int requested);

}  // namespace sg
