#include "engine/scene/text_limits.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace sg::scene {
namespace {

struct Cursor {
  int line = 1;
  std::size_t line_start = 0;
  Issue at(std::size_t offset, std::string message) const {
    return Issue{"", std::move(message), line, static_cast<int>(offset - line_start) + 1};
  }
};

bool number_char(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' ||
         c == '-';
}

}  // namespace

std::optional<Issue> check_json_text(const std::string& text, int max_depth) {
  Cursor cursor;
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++cursor.line;
      cursor.line_start = i + 1;
    }
    if (in_string) {
      if (c == '\\')
        ++i;  // an escaped character never ends the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        return cursor.at(i, "nested deeper than " + std::to_string(max_depth) + " levels (the limit)");
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t end = i;
      while (end < text.size() && number_char(text[end])) ++end;
      const std::string literal = text.substr(i, end - i);
      if (std::isinf(std::strtod(literal.c_str(), nullptr)))
        return cursor.at(i, "number " + shorten(literal) + " is out of a double's range (about 1.8e308)");
      i = end - 1;
    }
  }
  return std::nullopt;
}

std::string shorten(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  return text.substr(0, max_chars - 3) + "...";
}

}  // namespace sg::scene
