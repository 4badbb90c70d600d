#pragma once
// MuJoCo's elliptic friction cone on the primal side (2.2.2 engine_core_constraint.c mj_constraintUpdate,
// engine_solver.c CGprepare, CGeval, HessianCone). A contact's dim rows are the normal and its frictional
// directions; with jar = J a - aref per row, U = (mu jar_0, f_1 jar_1, ..., f_{dim-1} jar_{dim-1}) maps the
// cone to a circular one, N = U_0 and T = |U_1..|. The contact's cost is
//   top zone    N >= mu T:        0 (the contact separates or sticks without force)
//   bottom zone mu N + T <= 0:    sum_j 1/2 D_j jar_j^2 (every row pushes, as a quadratic)
//   middle zone otherwise:        1/2 Dm (N - mu T)^2, Dm = D_0 / (mu^2 (1 + mu^2))
// convex and once continuously differentiable across the zones; the forces are -d cost / d jar. mu is the
// regularised cone's friction (friction[0] sqrt(R_1 / R_0)), f_k the contact's friction coefficients.
#include <cmath>

namespace sg {

enum class ConeZone : unsigned char { top, bottom, middle };

inline ConeZone cone_zone(double N, double T, double mu) {
  if (N >= mu * T || (T <= 0.0 && N >= 0.0)) return ConeZone::top;
  if (mu * N + T <= 0.0 || (T <= 0.0 && N < 0.0)) return ConeZone::bottom;
  return ConeZone::middle;
}

// T = |U_1..| from a contact's rows' jar (values).
inline double cone_tangent(const double* jar, int dim, const double* friction) {
  double tt = 0.0;
  for (int j = 1; j < dim; ++j) tt += (jar[j] * friction[j - 1]) * (jar[j] * friction[j - 1]);
  return std::sqrt(tt);
}

// The zone of a contact from its rows' jar (values).
inline ConeZone cone_zone_of(const double* jar, int dim, double mu, const double* friction) {
  return cone_zone(jar[0] * mu, cone_tangent(jar, dim, friction), mu);
}

// The zone whose cost a solve follows: a frozen contact mode's held zone (null: none), continued past its
// boundaries, except a held middle zone at T = 0, whose cost's derivatives divide by T: there the zone the
// cone is in (own).
inline ConeZone followed_zone(ConeZone own, const ConeZone* held, double T) {
  if (!held || (*held == ConeZone::middle && !(T > 0.0))) return own;
  return *held;
}

// The rows' forces -d cost / d jar in the given zone (decided on values, so that a scalar carrying
// derivatives follows the same branch). T is any scalar with sqrt.
template <class T>
void cone_forces(ConeZone zone, int dim, const T* jar, const T* D, const T& mu, const T* friction, T* force) {
  if (zone == ConeZone::top) {
    for (int j = 0; j < dim; ++j) force[j] = T(0.0);
    return;
  }
  if (zone == ConeZone::bottom) {
    for (int j = 0; j < dim; ++j) force[j] = -(D[j] * jar[j]);
    return;
  }
  T U[6];
  T tt = T(0.0);
  for (int j = 1; j < dim; ++j) {
    U[j] = jar[j] * friction[j - 1];
    tt += U[j] * U[j];
  }
  using std::sqrt;
  const T tan = sqrt(tt);
  const T Dm = D[0] / (mu * mu * (1.0 + mu * mu));
  const T NmT = jar[0] * mu - mu * tan;
  force[0] = -(Dm * NmT * mu);
  for (int j = 1; j < dim; ++j) force[j] = -force[0] / tan * U[j] * friction[j - 1];
}

// The middle zone's cost Hessian over the contact's rows (dim x dim, row-major): the second derivative of
// 1/2 Dm (N - mu T)^2 in jar.
inline void cone_hessian(int dim, const double* jar, double D0, double mu, const double* friction,
                         double* H) {
  double U[6], scale[6];
  scale[0] = mu;
  for (int j = 1; j < dim; ++j) scale[j] = friction[j - 1];
  double tt = 0.0;
  for (int j = 0; j < dim; ++j) U[j] = jar[j] * scale[j];
  for (int j = 1; j < dim; ++j) tt += U[j] * U[j];
  const double tan = std::sqrt(tt), N = U[0];
  const double Dm = D0 / (mu * mu * (1.0 + mu * mu));
  // In U: d2/dN2 = 1, d2/dN dU_j = -mu U_j / T, d2/dU_j dU_k = mu N U_j U_k / T^3 + (mu^2 - mu N / T)
  // delta_jk.
  for (int k = 0; k < dim; ++k)
    for (int j = 0; j < dim; ++j) {
      double h;
      if (k == 0 && j == 0) {
        h = 1.0;
      } else if (k == 0 || j == 0) {
        h = -mu * U[k == 0 ? j : k] / tan;
      } else {
        h = mu * N * U[j] * U[k] / (tan * tan * tan) + (j == k ? mu * mu - mu * N / tan : 0.0);
      }
      H[k * dim + j] = Dm * scale[k] * scale[j] * h;
    }
}

// A contact's share of the line search phi(alpha) = cost(a + alpha dir): prepared once per direction from
// jar and jdir = J dir of its rows, then its first and second derivative at any alpha (CGeval's cone part).
struct ConeLine {
  double U0, V0, UU, UV, VV, Dm, mu;
  double b1, b2;  // the bottom zone's quadratic: d/dalpha = b1 + alpha b2
};

inline ConeLine cone_line(int dim, const double* jar, const double* jdir, const double* D, double mu,
                          const double* friction) {
  ConeLine c{jar[0] * mu, jdir[0] * mu, 0.0, 0.0, 0.0, D[0] / (mu * mu * (1.0 + mu * mu)), mu, 0.0, 0.0};
  for (int j = 0; j < dim; ++j) {
    c.b1 += D[j] * jar[j] * jdir[j];
    c.b2 += D[j] * jdir[j] * jdir[j];
  }
  for (int j = 1; j < dim; ++j) {
    const double u = jar[j] * friction[j - 1], v = jdir[j] * friction[j - 1];
    c.UU += u * u, c.UV += u * v, c.VV += v * v;
  }
  return c;
}

// held: a frozen contact mode's zone (followed_zone); null: the zone at alpha.
inline void cone_line_derivatives(const ConeLine& c, double alpha, double& d1, double& d2,
                                  const ConeZone* held = nullptr) {
  const double N = c.U0 + alpha * c.V0;
  const double tt = c.UU + alpha * (2.0 * c.UV + alpha * c.VV);
  const double tan = tt > 0.0 ? std::sqrt(tt) : 0.0;
  const ConeZone zone = followed_zone(cone_zone(N, tan, c.mu), held, tan);
  if (zone == ConeZone::top) return;
  if (zone == ConeZone::bottom) {
    d1 += c.b1 + alpha * c.b2;
    d2 += c.b2;
    return;
  }
  const double T1 = (c.UV + alpha * c.VV) / tan;
  const double T2 = c.VV / tan - (c.UV + alpha * c.VV) * T1 / (tan * tan);
  const double NmT = N - c.mu * tan, slope = c.V0 - c.mu * T1;
  d1 += c.Dm * NmT * slope;
  d2 += c.Dm * (slope * slope - NmT * c.mu * T2);
}

}  // namespace sg
