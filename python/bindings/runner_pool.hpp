#pragma once
// Long-lived threads that run the jobs of python/bindings/interruptible.hpp. A thread made per call costs a
// sweep of the toy about 3% (its first entry into oneTBB's arena, fresh allocator state); these threads are
// made once and reused, one per job running at the same time (Python threads may sweep concurrently).
#include <functional>

namespace sg::python {

// Runs job on a pooled thread and returns at once; the job says itself when it is done.
void run_pooled(std::function<void()> job);

}  // namespace sg::python
