// The output writer: written through symbolic links, special files in place, failures leave the old file.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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
