#pragma once
// Scheduling priority of the calling thread, for hosts that compute on every core while a thread of their own
// must stay responsive (the GUI's drawing and input): its workers lower themselves, so the host's thread
// always gets a core when it wants one and the workers get the rest.

namespace sg {

// Lowers the calling thread's priority for the rest of its life (Linux: nice 10; an unprivileged thread
// cannot raise it again). Idempotent; does nothing where unsupported or refused.
void lower_this_thread_priority();

// The calling thread's nice value (Linux; 0 elsewhere), for tests and diagnostics.
int this_thread_niceness();

}  // namespace sg
