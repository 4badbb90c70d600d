#pragma once
// Long runs from Python: the job runs on a worker thread (python/bindings/runner_pool.hpp) while the calling
// thread waits without the GIL (other Python threads go on), waking every 50 ms to report progress and to
// look for Ctrl-C. Progress callbacks are thus called from the caller's Python thread, never from the
// engine's workers. A KeyboardInterrupt (or an exception raised by the callback) sets the job's cancel flag,
// waits for the job to stop, and propagates.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>

#include <pybind11/pybind11.h>

#include "python/bindings/runner_pool.hpp"

namespace sg::python {

// job() must return once *cancel is set (the sweeps check it between points). done may be null.
template <class Job>
void run_interruptible(Job&& job, std::atomic<bool>* cancel, const std::atomic<long>* done, long total,
                       const pybind11::object& progress) {
  namespace py = pybind11;
  std::mutex m;
  std::condition_variable cv;
  bool finished = false;
  std::exception_ptr failure;
  run_pooled([&] {
    try {
      job();
    } catch (...) {
      failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(m);
    finished = true;
    cv.notify_all();
  });
  auto join = [&] {
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [&] { return finished; });
  };
  auto stop_and_join = [&] {
    cancel->store(true);
    py::gil_scoped_release unlocked;
    join();
  };
  for (;;) {
    bool over = false;
    {
      py::gil_scoped_release unlocked;
      std::unique_lock<std::mutex> lock(m);
      over = cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; });
    }
    if (over) break;
    if (PyErr_CheckSignals() != 0) {
      stop_and_join();
      throw py::error_already_set();
    }
    if (!progress.is_none() && done) {
      try {
        progress(done->load(), total);
      } catch (...) {
        stop_and_join();
        throw;
      }
    }
  }
  join();
  if (failure) std::rethrow_exception(failure);
  if (!progress.is_none() && done) progress(done->load(), total);
}

}  // namespace sg::python
