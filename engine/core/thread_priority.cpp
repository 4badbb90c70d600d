#include "engine/core/thread_priority.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace sg {

namespace {
constexpr int kBackgroundNiceness = 10;  // CFS weight about a tenth of a default thread's
}

#if defined(__linux__)
// On Linux a nice value belongs to a thread (PRIO_PROCESS with a thread id), not to the whole process.
int this_thread_niceness() {
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
  return errno == 0 ? nice : 0;
}

void follow_priority(int niceness) {
  if (this_thread_niceness() >= niceness) return;
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), niceness);
}
#else
int this_thread_niceness() {
  return 0;
}
void follow_priority(int) {}
#endif

void lower_this_thread_priority() {
  follow_priority(kBackgroundNiceness);
}

}  // namespace sg
