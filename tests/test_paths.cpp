#include "tests/test_paths.hpp"

namespace sg::test {

const std::string& source_dir() {
  static const std::string dir = SOFTGRAD_SOURCE_DIR;
  return dir;
}

const std::string& binary_dir() {
  static const std::string dir = SOFTGRAD_BINARY_DIR;
  return dir;
}

}  // namespace sg::test
