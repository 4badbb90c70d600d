#pragma once
// Where the tests find the checkout (scenes, docs, data) and the build (the CLI binary, scratch files).
// Defined in tests/test_paths.cpp, the one file compiled with those paths: every other test object is then
// the same in any checkout, so a fresh clone's build reuses them from ccache.
#include <string>

namespace sg::test {

const std::string& source_dir();
const std::string& binary_dir();

}  // namespace sg::test
