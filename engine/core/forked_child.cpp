#include "engine/core/forked_child.hpp"

#include <pthread.h>

#include <atomic>

namespace sg {
namespace {

std::atomic<bool> threads_started{false};
std::atomic<bool> forked_child{false};

// Runs in the child right after fork(), with one thread: the parent's flag tells whether threads were lost.
void mark_child() {
  if (threads_started.load(std::memory_order_relaxed)) forked_child.store(true, std::memory_order_relaxed);
}

}  // namespace

bool in_forked_child() {
  return forked_child.load(std::memory_order_relaxed);
}

void note_engine_threads_started() {
  static const bool registered = pthread_atfork(nullptr, nullptr, &mark_child) == 0;
  (void)registered;
  threads_started.store(true, std::memory_order_relaxed);
}

}  // namespace sg
