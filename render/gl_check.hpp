#pragma once
// GL error reporting: callers (and tests) treat any pending GL error as a failure.
#include <string>
#include <vector>

namespace sg::render {

// Drains glGetError() and returns readable names ("GL_INVALID_ENUM", ...); empty when all is well.
std::vector<std::string> take_gl_errors();

// Returns false and writes "<where>: GL_INVALID_..." into *error when GL errors were pending.
bool check_gl(const char* where, std::string* error);

}  // namespace sg::render
