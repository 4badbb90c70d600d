#pragma once
// fork() copies only the calling thread. In a child made after the engine started threads (oneTBB's workers
// of the parallel loops, the gradient helpers), those threads are gone, and the locks or counters they held
// stay as they were at the fork: a child that handed work to them would wait forever (a Python
// multiprocessing worker on Linux, whose default start method is fork). Such a child runs the engine's
// parallel loops on its calling thread alone; a child of a process that had started none runs as any process.
namespace sg {

// True in a process made by fork() after the engine had started threads in its parent.
bool in_forked_child();

// The pools call this before they start their first thread.
void note_engine_threads_started();

}  // namespace sg
