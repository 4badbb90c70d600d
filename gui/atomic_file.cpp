#include "gui/atomic_file.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

namespace sg::gui {

bool write_file_atomic(const std::filesystem::path& path, const std::string& content, std::string* error) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    if (error) *error = "cannot create " + path.parent_path().string() + ": " + ec.message();
    return false;
  }
  std::filesystem::path temp = path;
  temp += ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      if (error) *error = "cannot write " + temp.string();
      return false;
    }
  }
  std::filesystem::rename(temp, path, ec);  // atomic on POSIX within one file system
  if (ec) {
    if (error) *error = "cannot rename " + temp.string() + " to " + path.string() + ": " + ec.message();
    std::filesystem::remove(temp, ec);
    return false;
  }
  return true;
}

bool read_file(const std::filesystem::path& path, std::string* content, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open " + path.string();
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *content = buffer.str();
  return true;
}

}  // namespace sg::gui
