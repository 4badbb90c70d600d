#pragma once
// Writing output files so that a reader sees the old content or the new, never a torn or missing file:
// the data goes to a uniquely named temporary file beside the real target (symbolic links followed), is
// flushed to disk, and is renamed over the target. Special files (devices, FIFOs, /dev/fd/N) are written
// directly, since they cannot be replaced. Every failure (no space, I/O error, close) is reported and leaves
// the previous file as it was.
#include <string>

namespace sg::io {

// Empty when path can be written to (it may not exist yet); otherwise why not ("it is a directory", ...).
// Meant for checking an output path before a long computation.
std::string check_output_path(const std::string& path);

// Writes content to path as described above. On failure returns false and sets *error to a message naming
// the file.
bool write_file_atomic(const std::string& path, const std::string& content, std::string* error);

// Reads a whole file of at most max_bytes (streamed: a device such as /dev/zero stops at the limit).
bool read_file_limited(const std::string& path, std::size_t max_bytes, std::string* content,
                       std::string* error);

}  // namespace sg::io
