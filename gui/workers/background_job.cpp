#include "gui/workers/background_job.hpp"
#include "engine/core/available_cores.hpp"
#include "engine/core/thread_priority.hpp"

#include <algorithm>

#include <pthread.h>

#include <ctime>
#include <utility>

namespace sg::gui {

int worker_threads(int requested) {
  return requested > 0 ? requested : available_cores();
}

BackgroundJob::BackgroundJob() : thread_([this] { loop(); }) {}

BackgroundJob::~BackgroundJob() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    pending_ = nullptr;
    if (current_cancel_) current_cancel_->store(true);
  }
  wake_.notify_all();
  thread_.join();
}

void BackgroundJob::submit(Job job, std::chrono::milliseconds delay) {
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(job);
    due_ = std::chrono::steady_clock::now() + delay;
    if (current_cancel_) current_cancel_->store(true);
  }
  wake_.notify_all();
}

void BackgroundJob::cancel() {
  {
    std::lock_guard lock(mutex_);
    pending_ = nullptr;
    if (current_cancel_) current_cancel_->store(true);
  }
  wake_.notify_all();
  idle_.notify_all();
}

bool BackgroundJob::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || pending_ != nullptr;
}

bool BackgroundJob::wait_idle(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, timeout, [this] { return !running_ && pending_ == nullptr; });
}

double BackgroundJob::cpu_seconds() const {
  clockid_t clock = 0;
  timespec ts{};
  if (pthread_getcpuclockid(const_cast<std::thread&>(thread_).native_handle(), &clock) != 0) return 0.0;
  if (clock_gettime(clock, &ts) != 0) return 0.0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void BackgroundJob::loop() {
  // Jobs compute below the UI's priority, and so do the workers of the engine's parallel loops they start
  // (sweeps, maps, descents and gradient helpers run no higher than their caller).
  lower_this_thread_priority();
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || pending_ != nullptr; });
    if (stop_) return;
    // Debounce: a newer submission during the wait moves the due time (and replaces the job).
    while (!stop_ && pending_ && std::chrono::steady_clock::now() < due_) wake_.wait_until(lock, due_);
    if (stop_) return;
    if (!pending_) {
      idle_.notify_all();
      continue;
    }
    Job job = std::move(pending_);
    pending_ = nullptr;
    std::atomic<bool> cancel{false};
    current_cancel_ = &cancel;
    running_ = true;
    lock.unlock();
    job(cancel);
    lock.lock();
    current_cancel_ = nullptr;
    running_ = false;
    if (!pending_) idle_.notify_all();
  }
}

}  // namespace sg::gui
