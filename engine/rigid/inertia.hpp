#pragma once
// Mass and principal (diagonal, body-frame) inertia of a solid primitive of uniform density, with
// MuJoCo's formulas (mjCGeom::SetInertia, volume inertia). Templated so a shape size or the density
// can carry derivatives (e.g. identifying a cube's side length from data).
#include "engine/collision/geom_type.hpp"
#include "engine/core/platform.hpp"
#include "engine/core/scalar.hpp"
#include "engine/core/vec3.hpp"

namespace sg {

template <class S>
struct MassInertia {
  S mass{};
  Vec3<S> inertia{};  // principal moments about the shape's local x, y, z through its centre
};

namespace inertia_detail {
inline constexpr double kPi = 3.14159265358979323846;
}  // namespace inertia_detail

template <class S>
SG_HD inline MassInertia<S> sphere_mass_inertia(const S& r, const S& density) {
  const S m = density * (4.0 / 3.0 * inertia_detail::kPi) * r * r * r;
  const S i = 0.4 * m * r * r;
  return {m, {i, i, i}};
}

// Capsule = cylinder of height 2 half_length plus two hemispheres. Each hemisphere's inertia about the
// capsule centre follows from the parallel-axis theorem through its own centre of mass (3r/8 from the
// flat face); summed this gives m_s (2r^2/5 + h^2/4 + 3hr/8) with h the cylinder height, as MuJoCo.
template <class S>
SG_HD inline MassInertia<S> capsule_mass_inertia(const S& r, const S& half_length, const S& density) {
  const S h = 2.0 * half_length;
  const S m_cyl = density * inertia_detail::kPi * r * r * h;
  const S m_sph = density * (4.0 / 3.0 * inertia_detail::kPi) * r * r * r;
  const S ixy = m_cyl * (3.0 * r * r + h * h) / 12.0 + m_sph * (0.4 * r * r + h * (3.0 * r + 2.0 * h) / 8.0);
  const S iz = m_cyl * r * r * 0.5 + 0.4 * m_sph * r * r;
  return {m_cyl + m_sph, {ixy, ixy, iz}};
}

template <class S>
SG_HD inline MassInertia<S> box_mass_inertia(const Vec3<S>& half, const S& density) {
  const S m = density * 8.0 * half.x * half.y * half.z;
  const S xx = half.x * half.x, yy = half.y * half.y, zz = half.z * half.z;
  return {m, {m * (yy + zz) / 3.0, m * (xx + zz) / 3.0, m * (xx + yy) / 3.0}};
}

template <class S>
SG_HD inline MassInertia<S> cylinder_mass_inertia(const S& r, const S& half_length, const S& density) {
  const S h = 2.0 * half_length;
  const S m = density * inertia_detail::kPi * r * r * h;
  const S ixy = m * (3.0 * r * r + h * h) / 12.0;
  return {m, {ixy, ixy, m * r * r * 0.5}};
}

template <class S>
SG_HD inline MassInertia<S> ellipsoid_mass_inertia(const Vec3<S>& abc, const S& density) {
  const S m = density * (4.0 / 3.0 * inertia_detail::kPi) * abc.x * abc.y * abc.z;
  const S aa = abc.x * abc.x, bb = abc.y * abc.y, cc = abc.z * abc.z;
  return {m, {m * (bb + cc) / 5.0, m * (aa + cc) / 5.0, m * (aa + bb) / 5.0}};
}

// By geom type and MuJoCo size vector; a plane has no mass (it is static).
template <class S>
SG_HD inline MassInertia<S> geom_mass_inertia(GeomType type, const Vec3<S>& size, const S& density) {
  switch (type) {
    case GeomType::sphere:
      return sphere_mass_inertia(size.x, density);
    case GeomType::capsule:
      return capsule_mass_inertia(size.x, size.y, density);
    case GeomType::box:
      return box_mass_inertia(size, density);
    case GeomType::cylinder:
      return cylinder_mass_inertia(size.x, size.y, density);
    case GeomType::ellipsoid:
      return ellipsoid_mass_inertia(size, density);
    case GeomType::plane:
    case GeomType::mesh:  // free bodies have no meshes; a tree's mass comes from MuJoCo's compiler
    case GeomType::hfield:
      break;
  }
  return {};
}

}  // namespace sg
