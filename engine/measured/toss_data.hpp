#pragma once
// Measured tosses of one rigid body (the ContactNets cube, ../shared/data/contactnets/README.md): a CSV file
// with the header toss,t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz and one row per frame: the toss's number, the
// time since its first frame (s), the centre (m), the orientation as a unit quaternion (w first), the linear
// velocity (m/s, world) and the angular velocity (rad/s, body frame), frames a fixed time apart. Every
// problem is refused with the file, line and column: nothing is fitted to a malformed row, a quaternion that
// is not unit length, a gap in time or a toss that appears twice.
#include <string>
#include <vector>

namespace sg {

struct TossFrame {
  double t = 0.0;
  double pos[3] = {0.0, 0.0, 0.0};
  double quat[4] = {1.0, 0.0, 0.0, 0.0};  // w, x, y, z
  double vel[3] = {0.0, 0.0, 0.0};
  double angvel[3] = {0.0, 0.0, 0.0};
};

struct Toss {
  int number = 0;
  long first_line = 0;  // of its first frame, for messages
  std::vector<TossFrame> frames;
};

struct TossSet {
  std::string source;  // the file, for messages
  double dt = 0.0;     // the frames' spacing, s
  std::vector<Toss> tosses;
  const Toss* find(int number) const;
  long frames() const;
};

// False with "file:line: column C (name): why" (or "file: why") in *error.
bool parse_tosses(const std::string& text, const std::string& source, TossSet* out, std::string* error);
bool read_tosses(const std::string& path, TossSet* out, std::string* error);

// Toss numbers from a list such as "0-39,45,50-52" or "all" (every toss in the file, in its order); a range
// takes the file's tosses within it (numbers may skip: held-out tosses). False with the reason in *error: a
// number the file does not hold (naming the file), a range with none, a toss named twice.
bool select_tosses(const TossSet& set, const std::string& spec, std::vector<int>* numbers,
                   std::string* error);

}  // namespace sg
