// The joint tree's Cholesky skips each row's leading zeros (engine/articulated/envelope_cholesky.hpp); it
// must give the dense factorisation's numbers exactly, so that trees keep MuJoCo's (dense) results.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <random>

#include "engine/articulated/envelope_cholesky.hpp"
#include "engine/contact/dense_cholesky.hpp"

namespace {

// A random SPD matrix as the tree's are: diagonal blocks (bodies) plus J' J of sparse rows that couple two
// dofs anywhere (contacts between bodies), so that envelopes reach back past their blocks.
void tree_like_matrix(std::mt19937& rng, int n, double* A) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < n * n; ++k) A[k] = 0.0;
  const int block = 1 + static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) {
    A[i * n + i] = 2.0 + u(rng);
    for (int j = 0; j < i; ++j)
      if (i / block == j / block) A[i * n + j] = A[j * n + i] = 0.1 * u(rng);
  }
  const int rows = static_cast<int>(rng() % 8);
  for (int r = 0; r < rows; ++r) {
    const int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
    double row[sg::kMaxDofs] = {};
    row[a] = u(rng), row[b] += u(rng);
    for (int p = 0; p < n; ++p)
      for (int q = 0; q < n; ++q) A[p * n + q] += row[p] * row[q];
  }
}

}  // namespace

TEST_CASE("the envelope Cholesky factor and solve equal the dense ones bit for bit") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int differing = 0, compared = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 40);
    static double A[sg::kMaxDofs * sg::kMaxDofs], B[sg::kMaxDofs * sg::kMaxDofs];
    tree_like_matrix(rng, n, A);
    std::memcpy(B, A, sizeof(double) * n * n);
    sg::FactorEnvelope env;
    REQUIRE(sg::envelope_factor(A, n, env));
    REQUIRE(sg::cholesky_factor(B, n, n));
    double x[sg::kMaxDofs], y[sg::kMaxDofs];
    for (int i = 0; i < n; ++i) x[i] = y[i] = u(rng);
    sg::envelope_solve(A, n, env, x);
    sg::cholesky_solve(B, n, n, y);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j, ++compared) differing += A[i * n + j] != B[i * n + j];
      differing += std::memcmp(&x[i], &y[i], sizeof(double)) != 0;
      ++compared;
    }
  }
  CHECK(compared > 10000);
  CHECK(differing == 0);
}

TEST_CASE("the envelope Cholesky refuses a matrix that is not positive definite") {
  double A[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 2.0, 1.0};  // the lower 2 x 2 block is indefinite
  sg::FactorEnvelope env;
  CHECK_FALSE(sg::envelope_factor(A, 3, env));
  double nan_diagonal[1] = {std::numeric_limits<double>::quiet_NaN()};
  CHECK_FALSE(sg::envelope_factor(nan_diagonal, 1, env));
}
