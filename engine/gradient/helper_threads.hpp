#pragma once
// Threads kept for work beside the caller (a gradient's runs, a checkpointed adjoint's replay): started on
// first use and kept until the program ends, so that their reverse-mode tapes stay grown and their memory
// warm between the many gradients of a fit.
#include <cstddef>
#include <functional>

namespace sg {

// Runs own() on the calling thread and task(0), ..., task(helpers - 1) on helper threads at the same time;
// returns when all have returned. Fewer helpers run (none, at worst) when another caller holds them or a
// thread cannot start, so the work must not depend on their number: task and own share it out. Neither
// may throw.
void run_beside_helpers(int helpers, const std::function<void(int)>& task, const std::function<void()>& own);

// job(k, thread) for k = 0 .. count - 1, taken one at a time by up to `threads` threads (the caller is
// thread 0, helpers 1, 2, ...; each thread index runs on one thread at a time). The first exception a job
// throws stops the others taking more and is rethrown here, as a loop on one thread would throw it.
void for_each_index(std::size_t count, int threads, const std::function<void(std::size_t, int)>& job);

}  // namespace sg
