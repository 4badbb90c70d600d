// The output writer: written through symbolic links, special files in place, failures leave the old file.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/io/atomic_file.hpp"

namespace fs = std::filesystem;
using sg::io::check_output_path;
using sg::io::read_file_limited;
using sg::io::write_file_atomic;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("softgrad_io_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

long entries(const fs::path& dir) {
  return std::distance(fs::directory_iterator(dir), fs::directory_iterator());
}

long temporaries(const fs::path& dir) {
  long n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".tmp";
  return n;
}

}  // namespace

TEST_CASE("a write replaces the file and leaves no temporary behind") {
  const fs::path dir = fresh_dir("replace");
  std::string error;
  REQUIRE(write_file_atomic((dir / "a.json").string(), "first", &error));
  REQUIRE(write_file_atomic((dir / "a.json").string(), "second", &error));
  CHECK(slurp(dir / "a.json") == "second");
  CHECK(entries(dir) == 1);
}

TEST_CASE("a symbolic link is written through, also a dangling one") {
  const fs::path dir = fresh_dir("links");
  std::string error;
  REQUIRE(write_file_atomic((dir / "target.json").string(), "old", &error));
  fs::create_symlink("target.json", dir / "link.json");
  REQUIRE(write_file_atomic((dir / "link.json").string(), "new", &error));
  CHECK(fs::is_symlink(dir / "link.json"));
  CHECK(slurp(dir / "target.json") == "new");
  fs::create_symlink(dir / "later.json", dir / "dangling.json");
  REQUIRE(write_file_atomic((dir / "dangling.json").string(), "made", &error));
  CHECK(fs::is_symlink(dir / "dangling.json"));
  CHECK(slurp(dir / "later.json") == "made");
}

TEST_CASE("the file's permissions are kept") {
  const fs::path dir = fresh_dir("mode");
  const std::string path = (dir / "a.csv").string();
  std::string error;
  REQUIRE(write_file_atomic(path, "1", &error));
  REQUIRE(chmod(path.c_str(), 0640) == 0);
  REQUIRE(write_file_atomic(path, "2", &error));
  struct stat st;
  REQUIRE(stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
}

TEST_CASE("special files are written in place, /dev/full reports no space") {
  std::string error;
  CHECK(write_file_atomic("/dev/null", "data", &error));
  CHECK(fs::is_character_file("/dev/null"));
  if (fs::exists("/dev/full")) {
    CHECK_FALSE(write_file_atomic("/dev/full", "data", &error));
    CHECK(error.find("/dev/full") != std::string::npos);
    CHECK(error.find("space") != std::string::npos);
    CHECK(fs::is_character_file("/dev/full"));  // not replaced by a regular file, even as root
  }
}

TEST_CASE("a FIFO is written in place") {
  const fs::path dir = fresh_dir("fifo");
  const std::string path = (dir / "pipe").string();
  REQUIRE(mkfifo(path.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = slurp(path); });
  std::string error;
  CHECK(write_file_atomic(path, "through the pipe", &error));
  reader.join();
  CHECK(received == "through the pipe");
  CHECK(fs::is_fifo(path));
}

TEST_CASE("a write that fails half way leaves the previous file and no temporary") {
  const fs::path dir = fresh_dir("efbig");
  const std::string path = (dir / "out.json").string();
  std::string error;
  REQUIRE(write_file_atomic(path, "previous", &error));
  // A file size limit makes write() fail with EFBIG, as a full disk would with ENOSPC (works as root too).
  struct rlimit saved;
  REQUIRE(getrlimit(RLIMIT_FSIZE, &saved) == 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 16;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  const bool wrote = write_file_atomic(path, std::string(4096, 'x'), &error);
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  CHECK_FALSE(wrote);
  CHECK(error.find(path) != std::string::npos);
  CHECK(slurp(path) == "previous");
  CHECK(entries(dir) == 1);
}

TEST_CASE("two threads writing the same file never collide on the temporary name") {
  const fs::path dir = fresh_dir("race");
  const std::string path = (dir / "same.json").string();
  const std::string a(100000, 'a'), b(100000, 'b');
  bool ok_a = true, ok_b = true;
  std::thread first([&] {
    std::string e;
    for (int i = 0; i < 50; ++i) ok_a &= write_file_atomic(path, a, &e);
  });
  std::thread second([&] {
    std::string e;
    for (int i = 0; i < 50; ++i) ok_b &= write_file_atomic(path, b, &e);
  });
  first.join();
  second.join();
  CHECK(ok_a);
  CHECK(ok_b);
  const std::string final_text = slurp(path);
  CHECK((final_text == a || final_text == b));  // one writer's whole content, never a mix
  CHECK(entries(dir) == 1);
}

TEST_CASE("output paths that cannot work are refused up front") {
  const fs::path dir = fresh_dir("check");
  CHECK(check_output_path("") == "the output path is empty");
  CHECK(check_output_path(dir.string()).find("is a directory") != std::string::npos);
  CHECK(check_output_path((dir / "missing" / "x.json").string()).find("does not exist") != std::string::npos);
  CHECK(check_output_path((dir / "fine.json").string()).empty());
  fs::create_symlink("loop_b", dir / "loop_a");
  fs::create_symlink("loop_a", dir / "loop_b");
  CHECK(check_output_path((dir / "loop_a").string()).find("symbolic links") != std::string::npos);
  std::string error;
  CHECK_FALSE(write_file_atomic(dir.string(), "x", &error));
  CHECK(fs::is_directory(dir));
}

TEST_CASE("reading stops at the size limit, also on an endless device") {
  std::string content, error;
  CHECK_FALSE(read_file_limited("/dev/zero", 1 << 20, &content, &error));
  CHECK(error.find("1 MiB") != std::string::npos);
  const fs::path dir = fresh_dir("read");
  std::string write_error;
  REQUIRE(write_file_atomic((dir / "small.txt").string(), "hello", &write_error));
  CHECK(read_file_limited((dir / "small.txt").string(), 1 << 20, &content, &error));
  CHECK(content == "hello");
  CHECK_FALSE(read_file_limited((dir / "small.txt").string(), 3, &content, &error));
  CHECK_FALSE(read_file_limited(dir.string(), 1 << 20, &content, &error));
  CHECK(error == "it is a directory");
  CHECK_FALSE(read_file_limited((dir / "none").string(), 1 << 20, &content, &error));
  CHECK(error == "file not found");
}

// Issue #42 items 7 and 8: output paths refused before any work when a write could not do what the user
// expects (read-only, hard-linked, a FIFO nobody reads, a name too long), inputs that never block, and the
// temporary file of an interrupted write removed (at once on SIGTERM, or on the next write after a SIGKILL).

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
  const fs::path dir = fresh_dir("fifo_no_reader");
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
