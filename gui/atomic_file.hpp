#pragma once
// Crash-safe file replacement: readers see either the old or the new content, never a torn file.
#include <filesystem>
#include <string>

namespace sg::gui {

// Writes content to "<path>.tmp", flushes, then renames over path (creating parent folders).
bool write_file_atomic(const std::filesystem::path& path, const std::string& content, std::string* error);

bool read_file(const std::filesystem::path& path, std::string* content, std::string* error);

}  // namespace sg::gui
