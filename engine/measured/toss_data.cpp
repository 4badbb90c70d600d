#include "engine/measured/toss_data.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/io/atomic_file.hpp"
#include "engine/io/csv_cells.hpp"

namespace sg {
namespace {

constexpr std::size_t kMaxTossBytes = 256u << 20;  // 256 MiB: about 2.5 million frames
constexpr double kUnitTolerance = 1e-6;            // |q| - 1 allowed: rounding of the file's digits
// Of dt, between consecutive frames: the file's times carry 9 or 10 digits; a missing frame is a whole dt.
constexpr double kTimeTolerance = 0.01;
const char* const kColumns[15] = {"toss", "t",  "x",  "y",  "z",  "qw", "qx", "qy",
                                  "qz",   "vx", "vy", "vz", "wx", "wy", "wz"};

std::string number_text(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", x);
  return b;
}

bool header_ok(const std::vector<std::string>& cells) {
  if (cells.size() != 15) return false;
  for (std::size_t k = 0; k < 15; ++k)
    if (cells[k] != kColumns[k]) return false;
  return true;
}

// One data row into frame and toss number; "" or why not (with "column C (name): ").
std::string parse_row(const std::vector<std::string>& cells, TossFrame* f, int* toss) {
  if (cells.size() != 15)
    return "expected 15 values (toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz), got " +
           std::to_string(cells.size());
  double v[15];
  for (std::size_t k = 0; k < 15; ++k)
    if (!io::parse_number(cells[k], &v[k]))
      return "column " + std::to_string(k + 1) + " (" + kColumns[k] + "): expected a finite number, got \"" +
             cells[k].substr(0, 40) + "\"";
  if (v[0] != std::floor(v[0]) || v[0] < 0.0 || v[0] > 1e9)
    return "column 1 (toss): expected a toss number (an integer >= 0), got " + cells[0];
  *toss = static_cast<int>(v[0]);
  f->t = v[1];
  for (int k = 0; k < 3; ++k) f->pos[k] = v[2 + k], f->vel[k] = v[9 + k], f->angvel[k] = v[12 + k];
  for (int k = 0; k < 4; ++k) f->quat[k] = v[5 + k];
  const double norm = std::sqrt(v[5] * v[5] + v[6] * v[6] + v[7] * v[7] + v[8] * v[8]);
  if (std::fabs(norm - 1.0) > kUnitTolerance)
    return "columns 6-9 (qw,qx,qy,qz): not a unit quaternion (|q| = " + number_text(norm) + ")";
  return "";
}

}  // namespace

const Toss* TossSet::find(int number) const {
  for (const Toss& t : tosses)
    if (t.number == number) return &t;
  return nullptr;
}

long TossSet::frames() const {
  long n = 0;
  for (const Toss& t : tosses) n += static_cast<long>(t.frames.size());
  return n;
}

bool parse_tosses(const std::string& text, const std::string& source, TossSet* out, std::string* error) {
  TossSet set;
  set.source = source;
  io::CsvLines lines(text, source);
  std::vector<std::string> cells;
  std::string t;  // the trimmed line
  bool header = false;
  auto fail = [&](const std::string& message) {
    *error = lines.where(message);
    return false;
  };
  while (lines.next(&cells, &t)) {
    if (!header) {
      if (!header_ok(cells))
        return fail("expected the header toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz, got \"" +
                    t.substr(0, 80) + "\"");
      header = true;
      continue;
    }
    TossFrame f;
    int number = 0;
    const std::string why = parse_row(cells, &f, &number);
    if (!why.empty()) return fail(why);
    if (set.tosses.empty() || set.tosses.back().number != number) {
      if (const Toss* seen = set.find(number))
        return fail("column 1 (toss): toss " + std::to_string(number) +
                    " appears again (its rows began at line " + std::to_string(seen->first_line) +
                    "): a toss's rows must be consecutive");
      set.tosses.push_back({number, lines.line(), {}});
    }
    Toss& toss = set.tosses.back();
    if (!toss.frames.empty()) {
      const double step = f.t - toss.frames.back().t;
      if (set.dt == 0.0) {
        if (!(step > 0.0)) return fail("column 2 (t): times must increase within a toss");
        set.dt = step;
      } else if (std::fabs(step - set.dt) > kTimeTolerance * set.dt) {
        return fail("column 2 (t): a gap in time: t = " + cells[1] +
                    " follows t = " + number_text(toss.frames.back().t) + " (step " + number_text(step) +
                    " s) where frames are " + number_text(set.dt) + " s apart");
      }
    }
    toss.frames.push_back(f);
  }
  if (!header) return fail("empty: expected the header toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz and rows");
  if (set.tosses.empty()) return fail("no data rows after the header");
  if (set.dt == 0.0) {
    *error = source + ": every toss has a single frame: the frames' spacing is unknown";
    return false;
  }
  // The spacing to the file's precision: over the longest toss rather than one rounded step.
  const Toss* longest = &set.tosses.front();
  for (const Toss& toss : set.tosses)
    if (toss.frames.size() > longest->frames.size()) longest = &toss;
  set.dt = (longest->frames.back().t - longest->frames.front().t) /
           static_cast<double>(longest->frames.size() - 1);
  *out = std::move(set);
  return true;
}

bool read_tosses(const std::string& path, TossSet* out, std::string* error) {
  std::string text, why;
  if (!io::read_file_limited(path, kMaxTossBytes, &text, &why)) {
    *error = path + ": cannot read the tosses: " + why;
    return false;
  }
  return parse_tosses(text, path, out, error);
}

bool select_tosses(const TossSet& set, const std::string& spec, std::vector<int>* numbers,
                   std::string* error) {
  numbers->clear();
  if (spec == "all") {
    for (const Toss& t : set.tosses) numbers->push_back(t.number);
    return true;
  }
  std::stringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = io::trim(item);
    double a = 0.0, b = 0.0;
    const auto dash = item.find('-', 1);
    const bool range = dash != std::string::npos;
    if (!io::parse_number(range ? item.substr(0, dash) : item, &a) ||
        (range && !io::parse_number(item.substr(dash + 1), &b)) || a != std::floor(a) || a < 0.0 ||
        (range && (b != std::floor(b) || b < a)) || (range ? b : a) > 1e9) {
      *error = "\"" + item + "\": expected a toss number or a range such as 0-39";
      return false;
    }
    std::vector<int> picked;
    if (!range && set.find(static_cast<int>(a))) picked.push_back(static_cast<int>(a));
    for (const Toss& t : set.tosses)  // a range takes the file's tosses within it (numbers may skip)
      if (range && t.number >= a && t.number <= b) picked.push_back(t.number);
    if (picked.empty()) {
      *error = (range ? "no toss numbered " + item + " in " : "toss " + item + ": not in ") + set.source;
      return false;
    }
    for (int n : picked) {
      for (int seen : *numbers)
        if (seen == n) {
          *error = "toss " + std::to_string(n) + ": selected twice";
          return false;
        }
      numbers->push_back(n);
    }
  }
  if (numbers->empty()) {
    *error = "no toss selected";
    return false;
  }
  return true;
}

}  // namespace sg
