#include "engine/gradient/trajectory_data.hpp"

#include <cmath>

#include "engine/io/atomic_file.hpp"
#include "engine/io/csv_cells.hpp"

namespace sg {
namespace {

constexpr std::size_t kMaxDataBytes = 64u << 20;  // 64 MiB: about a million rows

using io::parse_number;

}  // namespace

bool parse_trajectory_data(const std::string& text, const std::string& source, double dt, long steps,
                           int bodies, TrajectoryData* out, std::string* error) {
  TrajectoryData data;
  data.source = source;
  data.by_step.assign(static_cast<std::size_t>(steps + 1), {});
  io::CsvLines lines(text, source);
  std::vector<std::string> cells;
  std::string t;
  bool header = false;
  auto fail = [&](const std::string& message) {
    *error = lines.where(message);
    return false;
  };
  while (lines.next(&cells, &t)) {
    if (!header) {
      if (cells != std::vector<std::string>{"t", "body", "x", "y", "z"})
        return fail("expected the header t,body,x,y,z, got \"" + t.substr(0, 60) + "\"");
      header = true;
      continue;
    }
    if (cells.size() != 5)
      return fail("expected 5 values (t,body,x,y,z), got " + std::to_string(cells.size()));
    double v[5];
    static const char* names[5] = {"t", "body", "x", "y", "z"};
    for (int k = 0; k < 5; ++k)
      if (!parse_number(cells[static_cast<std::size_t>(k)], &v[k]))
        return fail(std::string(names[k]) + ": expected a finite number, got \"" +
                    cells[static_cast<std::size_t>(k)].substr(0, 40) + "\"");
    const double index = v[0] / dt;
    const long i = std::lround(index);
    if (v[0] < 0.0 || i > steps)
      return fail("t = " + cells[0] + " is outside the scene's horizon [0, " + std::to_string(dt * steps) +
                  "]");
    if (std::fabs(index - static_cast<double>(i)) > 1e-6)
      return fail("t = " + cells[0] + " is not on the output grid (integrator.dt = " + std::to_string(dt) +
                  ")");
    if (v[1] != std::floor(v[1]) || v[1] < 0.0 || v[1] >= bodies)
      return fail("body = " + cells[1] + " is not a body index of the scene (0 to " +
                  std::to_string(bodies - 1) + ")");
    PositionSample s;
    s.body = static_cast<int>(v[1]);
    for (int k = 0; k < 3; ++k) s.pos[k] = v[2 + k];
    data.by_step[static_cast<std::size_t>(i)].push_back(s);
    ++data.count;
  }
  if (!header) return fail("empty: expected the header t,body,x,y,z and data rows");
  if (data.count == 0) return fail("no data rows after the header");
  *out = std::move(data);
  return true;
}

bool read_trajectory_data(const std::string& path, double dt, long steps, int bodies, TrajectoryData* out,
                          std::string* error) {
  std::string text, why;
  if (!io::read_file_limited(path, kMaxDataBytes, &text, &why)) {
    *error = path + ": cannot read data file: " + why;
    return false;
  }
  return parse_trajectory_data(text, path, dt, steps, bodies, out, error);
}

}  // namespace sg
