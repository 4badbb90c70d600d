#pragma once
// Scheduling priority of the calling thread, for hosts that compute on every core while a thread of their own
// must stay responsive (the GUI's drawing and input): its workers lower themselves, so the host's thread
// always gets a core when it wants one and the workers get the rest.

namespace sg {

// Lowers the calling thread's priority for the rest of its life (Linux: nice 10; an unprivileged thread
// cannot raise it again). Idempotent; does nothing where unsupported or refused.
void lower_this_thread_priority();

// The calling thread's nice value (Linux; 0 elsewhere).
int this_thread_niceness();

// Lowers the calling thread to at least `niceness` (never raises it). The engine's parallel loops call it on
// their workers with their caller's niceness: pooled worker threads do not inherit the priority of the thread
// that hands them work, and a loop started from a lowered thread (a GUI job) must not compete with the UI.
void follow_priority(int niceness);

}  // namespace sg
