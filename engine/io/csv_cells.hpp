#pragma once
// The cells of one line of a measurement CSV file (trajectory data, measured tosses): trimmed, split at
// commas, each parsed as a finite number or refused.
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace sg::io {

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

inline std::vector<std::string> split_commas(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) out.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') out.push_back("");
  return out;
}

// The whole cell as a finite number; false for text, trailing characters, inf or nan.
inline bool parse_number(const std::string& cell, double* x) {
  if (cell.empty()) return false;
  std::size_t used = 0;
  try {
    *x = std::stod(cell, &used);
  } catch (...) {
    return false;
  }
  return used == cell.size() && std::isfinite(*x);
}

}  // namespace sg::io

namespace sg::io {

// The data lines of a CSV text, blank lines and # comments skipped, each split into cells and numbered for
// messages ("file:line: why").
class CsvLines {
 public:
  CsvLines(const std::string& text, std::string source) : in_(text), source_(std::move(source)) {}
  // The next data line's cells (and the trimmed line); false at the end.
  bool next(std::vector<std::string>* cells, std::string* trimmed) {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_;
      *trimmed = trim(line);
      if (trimmed->empty() || (*trimmed)[0] == '#') continue;
      *cells = split_commas(*trimmed);
      return true;
    }
    return false;
  }
  long line() const { return line_; }
  std::string where(const std::string& message) const {
    return source_ + ":" + std::to_string(line_) + ": " + message;
  }

 private:
  std::stringstream in_;
  std::string source_;
  long line_ = 0;
};

}  // namespace sg::io
