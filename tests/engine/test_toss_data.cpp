// Measured tosses (engine/measured/toss_data.hpp): the reader takes the ContactNets format and refuses every
// malformed file with the file, line and column; the selection of tosses; the Euler angles a measured
// orientation starts a run with.
#include <doctest/doctest.h>
#include "tests/test_paths.hpp"

#include <cmath>
#include <filesystem>
#include <random>
#include <string>

#include "engine/core/quat.hpp"
#include "engine/measured/toss_data.hpp"
#include "engine/optimize/toss_segments.hpp"

namespace sg {
namespace {

const std::string kHeader = "toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
const std::string kRow0 = "3,0,0.1,0.2,0.3,1,0,0,0,1,0,0,0,0,1\n";
const std::string kRow1 = "3,0.01,0.11,0.2,0.3,1,0,0,0,1,0,0,0,0,1\n";
const std::string kRow2 = "5,0,0.0,0.0,0.2,0.6,0.8,0,0,0,0,-1,0,0,0\n";
const std::string kRow3 = "5,0.01,0.0,0.0,0.19,0.6,0.8,0,0,0,0,-1,0,0,0\n";

std::string parse_error(const std::string& text) {
  TossSet set;
  std::string error;
  CHECK_FALSE(parse_tosses(text, "t.csv", &set, &error));
  return error;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("a tosses file parses into tosses with their frames and the frames' spacing") {
  TossSet set;
  std::string error;
  REQUIRE(parse_tosses(kHeader + kRow0 + kRow1 + kRow2 + kRow3, "t.csv", &set, &error));
  REQUIRE(set.tosses.size() == 2);
  CHECK(set.tosses[0].number == 3);
  CHECK(set.tosses[1].number == 5);
  CHECK(set.tosses[1].first_line == 4);
  CHECK(set.frames() == 4);
  CHECK(set.dt == doctest::Approx(0.01).epsilon(1e-12));
  CHECK(set.tosses[0].frames[1].pos[0] == 0.11);
  CHECK(set.tosses[1].frames[0].quat[1] == 0.8);
  CHECK(set.tosses[0].frames[0].angvel[2] == 1.0);
  CHECK(set.find(5) == &set.tosses[1]);
  CHECK(set.find(4) == nullptr);
}

TEST_CASE("malformed tosses files are refused with the file, line and column") {
  CHECK(contains(parse_error(""), "t.csv:0: empty"));
  CHECK(contains(parse_error("t,body,x,y,z\n"), "t.csv:1: expected the header toss,t,x,y,z"));
  CHECK(contains(parse_error(kHeader), "no data rows"));
  CHECK(contains(parse_error(kHeader + "3,0,0.1\n"), "t.csv:2: expected 15 values"));
  CHECK(contains(parse_error(kHeader + "3,0,0.1,abc,0.3,1,0,0,0,1,0,0,0,0,1\n"),
                 "t.csv:2: column 4 (y): expected a finite number, got \"abc\""));
  CHECK(contains(parse_error(kHeader + "3,0,0.1,0.2,nan,1,0,0,0,1,0,0,0,0,1\n"), "column 5 (z)"));
  CHECK(contains(parse_error(kHeader + "3.5,0,0.1,0.2,0.3,1,0,0,0,1,0,0,0,0,1\n"), "column 1 (toss)"));
  CHECK(contains(parse_error(kHeader + "3,0,0.1,0.2,0.3,1,0.1,0,0,1,0,0,0,0,1\n"),
                 "t.csv:2: columns 6-9 (qw,qx,qy,qz): not a unit quaternion (|q| = 1.00498756)"));
  CHECK(contains(parse_error(kHeader + kRow0 + kRow1 + "3,0.03,0.12,0.2,0.3,1,0,0,0,1,0,0,0,0,1\n"),
                 "t.csv:4: column 2 (t): a gap in time: t = 0.03 follows t = 0.01"));
  CHECK(contains(parse_error(kHeader + kRow0 + kRow1 + kRow2 + kRow3 + kRow0),
                 "t.csv:6: column 1 (toss): toss 3 appears again (its rows began at line 2)"));
  CHECK(contains(parse_error(kHeader + kRow0 + kRow2), "every toss has a single frame"));
  CHECK(contains(parse_error(kHeader + kRow1 + kRow0), "times must increase"));
  TossSet set;
  std::string error;
  CHECK_FALSE(read_tosses("/nonexistent/tosses.csv", &set, &error));
  CHECK(contains(error, "/nonexistent/tosses.csv: cannot read the tosses"));
}

TEST_CASE("tosses are selected by number and range, and an unknown or repeated toss is refused") {
  TossSet set;
  std::string error;
  REQUIRE(parse_tosses(kHeader + kRow0 + kRow1 + kRow2 + kRow3, "t.csv", &set, &error));
  std::vector<int> picked;
  CHECK(select_tosses(set, "all", &picked, &error));
  CHECK(picked == std::vector<int>{3, 5});
  CHECK(select_tosses(set, "5, 3", &picked, &error));
  CHECK(picked == std::vector<int>{5, 3});
  CHECK(select_tosses(set, "3-3", &picked, &error));
  CHECK(picked == std::vector<int>{3});
  CHECK(select_tosses(set, "0-10", &picked, &error));  // the file's tosses in the range
  CHECK(picked == std::vector<int>{3, 5});
  CHECK_FALSE(select_tosses(set, "4", &picked, &error));
  CHECK(error == "toss 4: not in t.csv");
  CHECK_FALSE(select_tosses(set, "6-9", &picked, &error));
  CHECK(error == "no toss numbered 6-9 in t.csv");
  CHECK_FALSE(select_tosses(set, "3,3", &picked, &error));
  CHECK(error == "toss 3: selected twice");
  CHECK_FALSE(select_tosses(set, "x", &picked, &error));
  CHECK(contains(error, "expected a toss number or a range"));
  CHECK_FALSE(select_tosses(set, "5-3", &picked, &error));
  CHECK_FALSE(select_tosses(set, "", &picked, &error));
  CHECK(error == "no toss selected");
}

// |R(euler(q)) - R(q)|, entrywise maximum.
double euler_round_trip(const double q[4]) {
  double e[3];
  euler_xyz_degrees(q, e);
  const Mat3<double> a = to_mat3(from_euler_xyz(e[0], e[1], e[2]));
  const Mat3<double> b = to_mat3(normalized(Quat<double>(q[0], q[1], q[2], q[3])));
  double worst = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) worst = std::max(worst, std::fabs(a.m[i][j] - b.m[i][j]));
  return worst;
}

TEST_CASE("Euler angles of a measured orientation give it back to rounding, also near the gimbal lock") {
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0.0, 1.0);
  double worst = 0.0;
  for (int k = 0; k < 20000; ++k) {
    double q[4] = {n(rng), n(rng), n(rng), n(rng)};
    const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (double& c : q) c /= norm;
    worst = std::max(worst, euler_round_trip(q));
  }
  CHECK(worst < 1e-14);
  // Turned about y by 90 degrees (cos b = 0) and within 1e-9 rad of it, then about x and z.
  for (double off : {0.0, 1e-12, 1e-9, -1e-7}) {
    const Quat<double> q = from_euler_xyz(30.0, 90.0 + off * 180.0 / 3.14159265358979323846, -70.0);
    const double c[4] = {q.w, q.x, q.y, q.z};
    CAPTURE(off);
    CHECK(euler_round_trip(c) < 1e-14);
  }
  // Every frame of the measured tosses (when the data is there).
  const std::string file = sg::test::source_dir() + "/../shared/data/contactnets/tosses.csv";
  if (!std::filesystem::exists(file)) {
    MESSAGE("no measured tosses at " << file << ": the check over the real frames is left out");
    return;
  }
  TossSet set;
  std::string error;
  REQUIRE_MESSAGE(read_tosses(file, &set, &error), error);
  double real = 0.0;
  for (const Toss& t : set.tosses)
    for (const TossFrame& f : t.frames) real = std::max(real, euler_round_trip(f.quat));
  CHECK(set.tosses.size() == 400);
  CHECK(set.frames() == 41898);
  CHECK(real < 1e-14);
}

}  // namespace
}  // namespace sg
