// Issue #42 items 7 and 8: output paths refused before any work when a write could not do what the user
// expects (read-only, hard-linked, a FIFO nobody reads, a name too long), inputs that never block, and the
// temporary file of an interrupted write removed (at once on SIGTERM, or on the next write after a SIGKILL).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/io/atomic_file.hpp"

namespace fs = std::filesystem;
using sg::io::check_output_path;
using sg::io::read_file_limited;
using sg::io::write_file_atomic;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("softgrad_out_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

long temporaries(const fs::path& dir) {
  long n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".tmp";
  return n;
}

}  // namespace

TEST_CASE("a read-only or hard-linked file is refused, as cp without -f would") {
  const fs::path dir = fresh_dir("refuse");
  const std::string locked = (dir / "locked.json").string();
  std::ofstream(locked) << "old";
  REQUIRE(chmod(locked.c_str(), 0444) == 0);
  CHECK(check_output_path(locked).find("read-only") != std::string::npos);
  std::string error;
  CHECK_FALSE(write_file_atomic(locked, "new", &error));
  std::ifstream in(locked);
  std::string text;
  in >> text;
  CHECK(text == "old");
  const std::string linked = (dir / "a.json").string();
  std::ofstream(linked) << "shared";
  fs::create_hard_link(linked, dir / "b.json");
  CHECK(check_output_path(linked).find("2 hard links") != std::string::npos);
}

TEST_CASE("a file name longer than the file system takes is refused before the run") {
  const fs::path dir = fresh_dir("long");
  const std::string why = check_output_path((dir / std::string(300, 'x')).string());
  CHECK(why.find("300 characters long") != std::string::npos);
}

TEST_CASE("a FIFO without a reader is refused as output, and read as empty input without blocking") {
  const fs::path dir = fresh_dir("fifo");
  const std::string fifo = (dir / "pipe").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(check_output_path(fifo).find("FIFO (named pipe) with no reader") != std::string::npos);
  const auto start = std::chrono::steady_clock::now();
  std::string content, error;
  CHECK(read_file_limited(fifo, 1 << 20, &content, &error));  // no writer: empty, at once
  CHECK(content.empty());
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE(
    "SIGTERM during a long write removes the temporary file; a stale one is removed on the next write") {
  const fs::path dir = fresh_dir("signal");
  const std::string target = (dir / "big.json").string();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGTERM, SIG_DFL);  // the test runner's own handler would keep the writer's out
    std::string error;
    write_file_atomic(target, std::string(size_t{600} << 20, 'x'), &error);  // 600 MB: long enough to signal
    _exit(0);
  }
  // Signal only once the temporary exists, so the test checks the interrupted write, not a finished one.
  for (int i = 0; i < 20000 && temporaries(dir) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const bool seen = temporaries(dir) > 0;
  kill(child, SIGTERM);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(seen);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(temporaries(dir) == 0);
  CHECK_FALSE(fs::exists(target));  // the rename never happened: no torn file either

  // A temporary of a process that is gone (SIGKILL leaves it) is removed by the next write of that target.
  const fs::path stale = dir / ".big.json.999999999.0.1234.tmp";
  std::ofstream(stale) << "left behind";
  std::string error;
  REQUIRE(write_file_atomic(target, "fresh", &error));
  CHECK_FALSE(fs::exists(stale));
  fs::remove_all(dir);
}
