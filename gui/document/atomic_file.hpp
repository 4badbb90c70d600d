#pragma once
// The GUI's file access: engine/io's atomic writer (symbolic links followed, unique temporary names, fsync
// before the rename), creating the parent folders first, and a size-limited reader.
#include <filesystem>
#include <string>

namespace sg::gui {

bool write_file_atomic(const std::filesystem::path& path, const std::string& content, std::string* error);

// Files the GUI reads (settings, scenes) are small; anything over 16 MiB is refused.
bool read_file(const std::filesystem::path& path, std::string* content, std::string* error);

}  // namespace sg::gui
