#include "engine/io/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace sg::io {
namespace {

std::string errno_text(int code) {
  return std::strerror(code);
}

std::string describe_size(std::size_t bytes) {
  constexpr std::size_t kMiB = 1024 * 1024;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " bytes";
}

std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Follows a chain of symbolic links whose end does not exist yet (a dangling link is written through to the
// file it names). Empty on a loop.
std::string follow_dangling_links(std::string path) {
  for (int hop = 0; hop < 40; ++hop) {
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char buffer[PATH_MAX];
    const ssize_t n = readlink(path.c_str(), buffer, sizeof buffer - 1);
    if (n <= 0) return path;
    const std::string link(buffer, static_cast<std::size_t>(n));
    path = link.front() == '/' ? link : parent_of(path) + "/" + link;
  }
  return "";
}

bool write_all(int fd, const std::string& content, int* error_code) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error_code = n < 0 ? errno : EIO;
      return false;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

bool fail(std::string* error, const std::string& path, const std::string& why) {
  if (error) *error = path + ": cannot write: " + why;
  return false;
}

// A device, FIFO or /dev/fd/N: written in place (it cannot be replaced by a rename).
bool write_special(const std::string& path, const std::string& content, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return fail(error, path, errno_text(errno));
  int code = 0;
  const bool wrote = write_all(fd, content, &code);
  const int closed = ::close(fd);
  if (!wrote) return fail(error, path, errno_text(code));
  if (closed != 0) return fail(error, path, errno_text(errno));
  return true;
}

// The temporary files being written right now, so that SIGINT or SIGTERM during a long write removes them
// (unlink is async-signal-safe) before the process ends as the signal says. A slot is claimed by its flag.
constexpr int kTempSlots = 16;
struct TempSlot {
  std::atomic<bool> claimed{false};  // taken by a writer
  std::atomic<bool> ready{false};    // path complete: the handler may unlink it
  char path[PATH_MAX];
};
TempSlot temp_slots[kTempSlots];

extern "C" void remove_temps_and_reraise(int signal) {
  for (TempSlot& slot : temp_slots)
    if (slot.ready.load()) ::unlink(slot.path);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// On every write (a few system calls): signals whose action is still the default get the cleanup; a program's
// own handler is left alone.
void install_signal_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;  // the program's own
    struct sigaction action {};
    action.sa_handler = remove_temps_and_reraise;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
  }
}

int claim_temp_slot(const std::string& temp) {
  if (temp.size() >= PATH_MAX) return -1;
  for (int k = 0; k < kTempSlots; ++k) {
    bool expected = false;
    if (temp_slots[k].claimed.compare_exchange_strong(expected, true)) {
      std::memcpy(temp_slots[k].path, temp.c_str(), temp.size() + 1);
      temp_slots[k].ready.store(true);
      return k;
    }
  }
  return -1;  // more than 16 writes at once: this one is not cleaned on a signal
}

void release_temp_slot(int k) {
  if (k < 0) return;
  temp_slots[k].ready.store(false);
  temp_slots[k].claimed.store(false);
}

// Temporaries of our own pattern (".NAME.PID.N.RAND.tmp") beside target whose process is gone: a SIGKILL or
// a crash left them. Removed on the next write of the same target.
void remove_stale_temps(const std::string& target) {
  const std::string dir = parent_of(target), prefix = "." + name_of(target) + ".";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  while (const dirent* entry = ::readdir(d)) {
    const std::string name = entry->d_name;
    if (name.rfind(prefix, 0) != 0 || name.size() < prefix.size() + 4 ||
        name.compare(name.size() - 4, 4, ".tmp") != 0)
      continue;
    const std::string rest = name.substr(prefix.size());  // PID.N.RAND.tmp
    char* end = nullptr;
    const long pid = std::strtol(rest.c_str(), &end, 10);
    if (end == rest.c_str() || *end != '.' || pid <= 0) continue;
    if (pid == ::getpid() || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    ::unlink((dir + "/" + name).c_str());
  }
  ::closedir(d);
}

// A fresh temporary file beside target, created with O_EXCL (so two writers never share one) and the
// umask's permissions.
int create_temp(const std::string& target, std::string* temp) {
  static std::atomic<unsigned> counter{0};
  thread_local std::mt19937 random{std::random_device{}()};
  for (int attempt = 0; attempt < 100; ++attempt) {
    *temp = parent_of(target) + "/." + name_of(target) + "." + std::to_string(getpid()) + "." +
            std::to_string(counter++) + "." + std::to_string(random() % 1000000) + ".tmp";
    const int fd = ::open(temp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

bool replace_regular(const std::string& target, const std::string& content, const struct stat* old,
                     std::string* error) {
  install_signal_cleanup();
  remove_stale_temps(target);
  std::string temp;
  const int fd = create_temp(target, &temp);
  if (fd < 0) return fail(error, target, errno_text(errno));
  struct SlotGuard {
    int k;
    ~SlotGuard() { release_temp_slot(k); }
  } slot{claim_temp_slot(temp)};
  int code = 0;
  bool ok = write_all(fd, content, &code);
  if (ok && old) (void)fchmod(fd, old->st_mode & 07777);  // keep the file's permissions
  if (ok && ::fsync(fd) != 0) ok = false, code = errno;   // the data is on disk before the rename
  if (::close(fd) != 0 && ok) ok = false, code = errno;
  if (ok && std::rename(temp.c_str(), target.c_str()) != 0) ok = false, code = errno;
  if (!ok) {
    ::unlink(temp.c_str());
    return fail(error, target, errno_text(code));
  }
  const int dir = ::open(parent_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {  // best effort: make the rename itself durable
    (void)::fsync(dir);
    ::close(dir);
  }
  return true;
}

}  // namespace

namespace {

// probe_fifo: refuse a FIFO nobody reads now (the up-front check of an output option); the writer itself does
// not probe, since a reader may open the FIFO just after it (the write then blocks until one does, as a write
// to a FIFO does).
std::string check_output(const std::string& path, bool probe_fifo) {
  if (path.empty()) return "the output path is empty";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return path + ": is a directory, not a file";
    if (S_ISFIFO(st.st_mode) && probe_fifo) {
      // Opening a FIFO for writing blocks until someone reads it: refuse one with no reader now.
      const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (fd < 0) return path + ": a FIFO (named pipe) with no reader";
      ::close(fd);
      return "";
    }
    if (!S_ISREG(st.st_mode)) return "";
    // As cp without -f: a read-only file is not replaced behind the user's back (root included).
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) return path + ": the file is read-only";
    // A rename would give this name a new file and leave the other names with the old content.
    if (st.st_nlink > 1)
      return path + ": the file has " + std::to_string(st.st_nlink) +
             " hard links; replacing it would break them (write elsewhere or remove the other links)";
    return "";
  }
  const std::string target = follow_dangling_links(path);
  if (target.empty()) return path + ": too many levels of symbolic links";
  if (target.back() == '/') return path + ": names a directory, not a file";
  if (name_of(target).size() > NAME_MAX)
    return path + ": the file name is " + std::to_string(name_of(target).size()) +
           " characters long, over the " + std::to_string(NAME_MAX) + " a file system takes";
  const std::string parent = parent_of(target);
  if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return path + ": the folder " + parent + " does not exist";
  if (::access(parent.c_str(), W_OK) != 0) return path + ": the folder " + parent + " is not writable";
  return "";
}

}  // namespace

std::string check_output_path(const std::string& path) {
  return check_output(path, true);
}

bool write_file_atomic(const std::string& path, const std::string& content, std::string* error) {
  if (const std::string why = check_output(path, false); !why.empty()) {
    if (error) *error = why;
    return false;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return write_special(path, content, error);
    char real[PATH_MAX];
    if (!::realpath(path.c_str(), real)) return fail(error, path, errno_text(errno));
    return replace_regular(real, content, &st, error);
  }
  return replace_regular(follow_dangling_links(path), content, nullptr, error);
}

bool read_file_limited(const std::string& path, std::size_t max_bytes, std::string* content,
                       std::string* error) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (error) *error = errno == ENOENT ? "file not found" : errno_text(errno);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    if (error) *error = "it is a directory";
    return false;
  }
  // Opened without blocking (a FIFO with no writer would wait forever), then read as usual: a FIFO without a
  // writer reads as empty, one with a writer (a shell's <(...)) delivers its data.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (error) *error = errno_text(errno);
    return false;
  }
  (void)::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    if (error) *error = errno_text(errno);
    ::close(fd);
    return false;
  }
  content->clear();
  char buffer[1 << 16];
  bool ok = true;
  while (true) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file);
    if (content->size() + n > max_bytes) {
      if (error) *error = "larger than " + describe_size(max_bytes) + ", the limit";
      ok = false;
      break;
    }
    content->append(buffer, n);
    if (n < sizeof buffer) {
      if (std::ferror(file)) {
        if (error) *error = errno_text(errno);
        ok = false;
      }
      break;
    }
  }
  std::fclose(file);
  return ok;
}

}  // namespace sg::io
