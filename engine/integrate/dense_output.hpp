#pragma once
// The state inside an accepted step, for locating switches. A method's interpolant stands for the step up to
// a located switch where it is as accurate as the step itself: Tsit5's free fourth-order continuous extension
// (Tsitouras 2011, the weights Diffrax also uses), Dopri5's fourth-order interpolant (Shampine's midpoint, as
// Diffrax's) and Bosh3's cubic Hermite interpolant of the step's ends (third order, as the method; free for
// FSAL methods: f(y1) is the last stage). The state at the switch is then the interpolant's, so the switching
// function is zero where the mode switches (to the root finder's tolerance). Dopri8's interpolant (Bogacki
// and Shampine's from its 14 stages, as Diffrax's) is less accurate than its steps: it locates the switch,
// the step to it is redone, and the redone step's end is checked (event_step.hpp, step_to_switch). (Redoing the step after locating on a less accurate interpolant switched at
// states where the function had not crossed, or had long crossed: on billiards Dopri5 with a cubic Hermite
// was 1e-8 off in its loss at every tolerance.) Output times inside a step (step_to_outputs off) use
// Diffrax's interpolants (output_state, below), so that the outputs match Diffrax's SaveAt(ts).
#include "engine/core/platform.hpp"
#include "engine/integrate/tableau.hpp"

namespace sg {

// y(theta) for theta in [0, 1] over a step of size h.
template <class S>
SG_HD void hermite_state(const S* y0, const S* y1, const S* f0, const S* f1, double h, double theta, int n,
                         S* out) {
  const double t2 = theta * theta, t3 = t2 * theta;
  const double h00 = 2.0 * t3 - 3.0 * t2 + 1.0, h10 = t3 - 2.0 * t2 + theta;
  const double h01 = -2.0 * t3 + 3.0 * t2, h11 = t3 - t2;
  for (int i = 0; i < n; ++i) out[i] = h00 * y0[i] + (h10 * h) * f0[i] + h01 * y1[i] + (h11 * h) * f1[i];
}

// Tsitouras' interpolation weights b_i(theta): y(theta) = y0 + h sum_i b_i(theta) k_i; b_i(1) are the
// method's weights b.
SG_HD inline void tsit5_dense_weights(double t, double* b) {
  const double t2 = t * t;
  b[0] =
      -1.0530884977290216 * t * (t - 1.3299890189751412) * (t2 - 1.4364028541716351 * t + 0.7139816917074209);
  b[1] = 0.1017 * t2 * (t2 - 2.1966568338249754 * t + 1.2949852507374631);
  b[2] = 2.490627285651252793 * t2 * (t2 - 2.38535645472061657 * t + 1.57803468208092486);
  b[3] = -16.54810288924490272 * (t - 1.21712927295533244) * (t - 0.61620406037800089) * t2;
  b[4] = 47.37952196281928122 * (t - 1.203071208372362603) * (t - 0.658047292653547382) * t2;
  b[5] = -34.87065786149660974 * (t - 1.2) * (t - 0.666666666666666667) * t2;
  b[6] = 2.5 * (t - 1.0) * (t - 0.6) * t2;
}

// Bogacki and Shampine's (1990) interpolant of Dopri8 from its 14 stages, Diffrax's _Dopri8Interpolation:
// b_i(theta) = theta * p_i(theta), p_i of degree 5 (coefficients from the highest power down); stages 2 to 5
// do not enter. b_i(1) are the method's weights b.
// clang-format off
SG_TABLE double kDopri8Dense[kMaxStages][6] = {
    {-6.3448349392860401388, 22.1396504998094068976, -30.0610568289666450593, 19.9990069333683970610,
     -6.6910181737837595697, 1.0},
    {}, {}, {}, {},
    {-39.6107919852202505218, 116.4422149550342161651, -121.4999627731334642623, 52.2273532792945524050,
     -7.6142658045872677172, 0.0},
    {20.3761213808791436958, -67.1451318825957197185, 83.1721004639847717481, -46.8919164181093621583,
     10.7281392630428866124, 0.0},
    {7.3347098826795362023, -16.5672243527496524646, 9.5724507555993664382, -0.1890893225010595467,
     0.5526637063753648783, 0.0},
    {32.8801774352459155182, -89.9916014847245016028, 87.8406057677205645007, -35.7075975946222072821,
     4.2186562625665153803, 0.0},
    {-10.1588990526426760954, 22.6237489648532849093, -17.4152107770762969005, 6.2736448083240352160,
     -0.6627209125361597559, 0.0},
    {-12.5401268098782561200, 32.2362340167355370113, -28.5903289514790976966, 10.3160881272450748458,
     -1.2636789001135462218, 0.0},
    {29.5553001484516038033, -82.1020315488359848644, 81.6630950584341412934, -34.7650769866611817349,
     5.4106037898590422230, 0.0},
    {-41.7923486424390588923, 116.2662185791119533462, -114.9375291377009418170, 47.7457971078225540396,
     -7.0321379067945741781, 0.0},
    {20.3006925822100825485, -53.9020777466385396792, 50.2558364226176017553, -19.0082099341608028453,
     2.3537586759714983486, 0.0}};
// clang-format on

SG_HD inline void dopri8_dense_weights(double t, double* b) {
  for (int i = 0; i < kMaxStages; ++i) {
    const double* c = kDopri8Dense[i];
    b[i] = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) * t;
  }
}

// Tableaus are compared by value (stages, order and c2 tell the adaptive ones apart), not by address:
// comparing the addresses of two objects is not a constant expression under AddressSanitizer.
template <const Tableau& a, const Tableau& b>
constexpr bool same_tableau() {
  return a.stages == b.stages && a.order == b.order && a.a[1][0] == b.a[1][0];
}

// Whether the tableau has its own continuous extension (used to locate switches and for output times).
template <const Tableau& tab>
constexpr bool has_dense_output() {
  return same_tableau<tab, kTsit5>() || same_tableau<tab, kDopri8>();
}

// Whether the method's interpolant is accurate enough to stand for the step to theta: Tsit5's, Dopri5's and
// Bosh3's are, to about the step's own error. Dopri8's is not at tight tolerances: inside a step its error
// shrinks as h^6 where the step's shrinks as h^9 (tests/engine/test_convergence_order.cpp), so a Dopri8 step
// to a switch is redone.
template <const Tableau& tab>
constexpr bool extension_stands_for_step() {
  return same_tableau<tab, kTsit5>() || same_tableau<tab, kBosh3>() || same_tableau<tab, kDopri5>();
}

// The weights b_i(theta) of a tableau with its own continuous extension (has_dense_output).
template <const Tableau& tab>
SG_HD inline void dense_weights(double theta, double* b) {
  if constexpr (same_tableau<tab, kDopri8>()) {
    dopri8_dense_weights(theta, b);
  } else {
    tsit5_dense_weights(theta, b);
  }
}

// Dopri5's midpoint weights for its fourth-order interpolant (Shampine 1986; Diffrax's _Dopri5Interpolation).
// clang-format off
SG_TABLE double kDopri5Mid[7] = {
    6025192743.0 / 30085553152.0 / 2,     0.0,
    51252292925.0 / 65400821598.0 / 2,    -2691868925.0 / 45128329728.0 / 2,
    187940372067.0 / 1594534317056.0 / 2, -1776094331.0 / 19743644256.0 / 2,
    11237099.0 / 235043384.0 / 2};
// clang-format on

// Dopri5's fourth-order interpolant (Shampine), in Diffrax's form on the stage increments h k_j.
template <class S, int Dim, class H>
SG_HD void dopri5_state(const S* y0, const S* y1, const S (&k)[kMaxStages][Dim], const H& h, double theta,
                        int n, S* out) {
  for (int i = 0; i < n; ++i) {
    S mid = 0.0;
    for (int j = 0; j < 7; ++j) mid += kDopri5Mid[j] * (k[j][i] * h);
    const S ymid = y0[i] + mid, f0 = k[0][i] * h, f1 = k[6][i] * h;
    const S a = 2.0 * (f1 - f0) - 8.0 * (y1[i] + y0[i]) + 16.0 * ymid;
    const S b = 5.0 * f0 - 3.0 * f1 + 18.0 * y0[i] + 14.0 * y1[i] - 32.0 * ymid;
    const S c = f1 - 4.0 * f0 - 11.0 * y0[i] - 5.0 * y1[i] + 16.0 * ymid;
    out[i] = (((a * theta + b) * theta + c) * theta + f0) * theta + y0[i];
  }
}

// y(theta) inside the step from y0 to y1 whose stages are k[0..stages-1], by the interpolant that locates
// switches (and stands for the step to one where extension_stands_for_step).
template <const Tableau& tab, class S, int Dim>
SG_HD void dense_state(const S* y0, const S* y1, const S (&k)[kMaxStages][Dim], double h, double theta, int n,
                       S* out) {
  if constexpr (has_dense_output<tab>()) {
    (void)y1;
    double b[kMaxStages];
    dense_weights<tab>(theta, b);
    for (int i = 0; i < n; ++i) {
      S acc = 0.0;
      for (int j = 0; j < tab.stages; ++j)
        if (b[j] != 0.0) acc += b[j] * k[j][i];
      out[i] = y0[i] + h * acc;
    }
  } else if constexpr (same_tableau<tab, kDopri5>()) {
    dopri5_state(y0, y1, k, h, theta, n, out);
  } else {
    hermite_state(y0, y1, k[0], k[tab.stages - 1], h, theta, n, out);
  }
}

// The state at an output time inside an accepted step, by Diffrax's interpolant of the method (SaveAt(ts)
// without step_ts): Tsit5's and Dopri8's own, Dopri5's fourth-order polynomial, Bosh3's cubic Hermite.
// Written in Diffrax's form, on the stage increments h k_j, with the polynomials in Horner form as
// jnp.polyval.
template <const Tableau& tab, class S, int Dim, class H>
SG_HD void output_state(const S* y0, const S* y1, const S (&k)[kMaxStages][Dim], const H& h, double theta,
                        int n, S* out) {
  const int last = tab.stages - 1;
  if constexpr (has_dense_output<tab>()) {
    double b[kMaxStages];
    dense_weights<tab>(theta, b);
    for (int i = 0; i < n; ++i) {
      S acc = 0.0;
      for (int j = 0; j < tab.stages; ++j)
        if (b[j] != 0.0) acc += b[j] * (k[j][i] * h);
      out[i] = y0[i] + acc;
    }
  } else if constexpr (same_tableau<tab, kDopri5>()) {
    dopri5_state(y0, y1, k, h, theta, n, out);
  } else {
    for (int i = 0; i < n; ++i) {
      const S k0 = k[0][i] * h, k1 = k[last][i] * h;
      const S a = k0 + k1 + 2.0 * y0[i] - 2.0 * y1[i];
      const S b = -2.0 * k0 - k1 - 3.0 * y0[i] + 3.0 * y1[i];
      out[i] = ((a * theta + b) * theta + k0) * theta + y0[i];
    }
  }
}

}  // namespace sg
