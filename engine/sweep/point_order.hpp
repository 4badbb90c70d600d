#pragma once
// The order a sweep computes its points in: coarse to fine, so that a sweep drawn while it runs (or stopped
// early) covers the whole range at a coarser spacing instead of the left part at full resolution.
#include <vector>

namespace sg {

// A permutation of 0 .. n-1: the two ends, then every 2^k-th point for k from the largest power of two below
// n down to 0, each point once.
std::vector<long> coarse_to_fine(long n);

}  // namespace sg
