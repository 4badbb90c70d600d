#include "engine/scene/text_limits.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sg::scene {
namespace {

struct Cursor {
  int line = 1;
  std::size_t line_start = 0;
  Issue at(std::size_t offset, std::string message) const {
    return Issue{"", std::move(message), line, static_cast<int>(offset - line_start) + 1};
  }
};

// One open object or array; an object remembers its keys and the line each was first seen on.
struct Frame {
  bool object = false;
  std::unordered_map<std::string, int> keys;
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
  std::size_t string_start = 0;
  // The last string closed, while it may still turn out to be a key (the next token is ':').
  std::optional<std::pair<std::string, std::size_t>> maybe_key;
  std::vector<Frame> frames;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++cursor.line;
      cursor.line_start = i + 1;
    }
    if (in_string) {
      if (c == '\\') {
        ++i;  // an escaped character never ends the string
      } else if (c == '"') {
        in_string = false;
        maybe_key.emplace(text.substr(string_start + 1, i - string_start - 1), string_start);
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == ':' && maybe_key && !frames.empty() && frames.back().object) {
      // A duplicate key: the parser would keep the last one silently (a second "model" block replacing the
      // first, a valid "dt" overriding a bad one).
      const auto [it, added] = frames.back().keys.emplace(maybe_key->first, cursor.line);
      if (!added)
        return cursor.at(maybe_key->second, "duplicate key \"" + shorten(maybe_key->first) +
                                                "\" (first on line " + std::to_string(it->second) +
                                                ", again on line " + std::to_string(cursor.line) +
                                                "): JSON keeps only the last one; remove one of them");
    }
    maybe_key.reset();
    if (c == '"') {
      in_string = true;
      string_start = i;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        return cursor.at(i, "nested deeper than " + std::to_string(max_depth) + " levels (the limit)");
      frames.push_back(Frame{c == '{', {}});
    } else if (c == ']' || c == '}') {
      --depth;
      if (!frames.empty()) frames.pop_back();
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
