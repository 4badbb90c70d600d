#include "gui/document/atomic_file.hpp"

#include <system_error>

#include "engine/io/atomic_file.hpp"

namespace sg::gui {

bool write_file_atomic(const std::filesystem::path& path, const std::string& content, std::string* error) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    if (error) *error = "cannot create " + path.parent_path().string() + ": " + ec.message();
    return false;
  }
  return io::write_file_atomic(path.string(), content, error);
}

bool read_file(const std::filesystem::path& path, std::string* content, std::string* error) {
  constexpr std::size_t kMaxBytes = 16u << 20;
  std::string why;
  if (io::read_file_limited(path.string(), kMaxBytes, content, &why)) return true;
  if (error) *error = "cannot read " + path.string() + ": " + why;
  return false;
}

}  // namespace sg::gui
