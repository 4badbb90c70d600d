#pragma once
// Helpers for the collision tests: random poses, surface sampling for brute-force distances, and
// forward-mode vs central-difference derivative checks.
#include <cmath>
#include <random>
#include <vector>

#include "engine/collision/collide.hpp"
#include "engine/core/dual.hpp"
#include "engine/core/quat.hpp"
#include "engine/core/vec3.hpp"

namespace sg::test {

using V = Vec3<double>;
using Q = Quat<double>;
using D1 = Dual<1>;
inline constexpr double kPiT = 3.14159265358979323846;

inline Q random_quat(std::mt19937& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  return normalized(Q(g(rng), g(rng), g(rng), g(rng)));
}

inline bool close(const V& a, const V& b, double tol) {
  return std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol;
}

// Unit directions on a latitude-longitude grid.
inline std::vector<V> sphere_directions(int n) {
  std::vector<V> out;
  for (int i = 0; i <= n; ++i) {
    const double th = kPiT * i / n;
    for (int j = 0; j < 2 * n; ++j) {
      const double ph = kPiT * j / n;
      out.push_back({std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)});
    }
  }
  return out;
}

// Points on the surface of a geom (MuJoCo sizes), in world coordinates.
inline std::vector<V> sample_surface(GeomType type, const Pose<double>& pose, const V& size, int n) {
  std::vector<V> local;
  switch (type) {
    case GeomType::sphere:
      for (const V& d : sphere_directions(n)) local.push_back(d * size.x);
      break;
    case GeomType::ellipsoid:
      for (const V& d : sphere_directions(n)) local.push_back({d.x * size.x, d.y * size.y, d.z * size.z});
      break;
    case GeomType::capsule:
      for (const V& d : sphere_directions(n)) {
        local.push_back(d * size.x + V(0, 0, d.z >= 0 ? size.y : -size.y));
      }
      for (int k = 0; k <= n; ++k) {
        const double z = -size.y + 2.0 * size.y * k / n;
        for (int j = 0; j < 2 * n; ++j) {
          const double ph = kPiT * j / n;
          local.push_back({size.x * std::cos(ph), size.x * std::sin(ph), z});
        }
      }
      break;
    case GeomType::cylinder:
      for (int k = 0; k <= n; ++k) {
        const double t = static_cast<double>(k) / n;
        for (int j = 0; j < 4 * n; ++j) {
          const double ph = kPiT * j / (2 * n);
          local.push_back({size.x * std::cos(ph), size.x * std::sin(ph), -size.y + 2.0 * size.y * t});
          local.push_back({t * size.x * std::cos(ph), t * size.x * std::sin(ph), size.y});
          local.push_back({t * size.x * std::cos(ph), t * size.x * std::sin(ph), -size.y});
        }
      }
      break;
    case GeomType::box:
      for (int a = 0; a < 3; ++a) {
        for (int sgn = -1; sgn <= 1; sgn += 2) {
          for (int i = 0; i <= n; ++i) {
            for (int j = 0; j <= n; ++j) {
              V p;
              p[a] = sgn * size[a];
              p[(a + 1) % 3] = size[(a + 1) % 3] * (-1.0 + 2.0 * i / n);
              p[(a + 2) % 3] = size[(a + 2) % 3] * (-1.0 + 2.0 * j / n);
              local.push_back(p);
            }
          }
        }
      }
      break;
    case GeomType::plane:
    case GeomType::mesh:  // no vertices here: the mesh tests sample their own
    case GeomType::hfield:
      break;
  }
  std::vector<V> world;
  world.reserve(local.size());
  for (const V& p : local) world.push_back(pose.pos + rotate(pose.rot, p));
  return world;
}

// d/dp f at p by forward mode (Dual<1>) and by central differences with step h.
template <class F>
inline void derivative_pair(F f, double p, double h, double* ad, double* fd) {
  *ad = tangent(f(seeded<D1>(p, 0)), 0);
  *fd = (value(f(D1(p + h))) - value(f(D1(p - h)))) / (2.0 * h);
}

}  // namespace sg::test
