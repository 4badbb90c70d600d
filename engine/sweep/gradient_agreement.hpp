#pragma once
// How far a sweep's AD gradient is from its reference (FD of the same simulation, or a tight reference),
// point by point, in one place for the CLI summary, the JSON stats, the error plot and the GUI's markers.
//
// A point where both gradients are zero (a ball that never touches: AD 0, FD 0; or AD 1e-40 and FD exactly
// 0) carries no information about the gradient's accuracy: it is reported apart, never as a perfect match
// and never as a 100% disagreement. "Zero" is relative to the sweep: below kZeroRelative times the largest
// finite |gradient| of the sweep (AD or reference), or exactly zero when the whole sweep is.
#include <string>
#include <vector>

#include "engine/sweep/sweep.hpp"

namespace sg {

inline constexpr double kZeroRelative = 1e-9;
inline constexpr double kOffThreshold = 0.1;  // a point is "off" when its relative difference exceeds this

enum class AgreementKind {
  not_compared,  // not computed, failed, or a non-finite AD or reference value
  both_zero,     // AD and reference both zero at the sweep's scale: left out of the statistics
  compared,
};

struct PointAgreement {
  AgreementKind kind = AgreementKind::not_compared;
  double relative = 0.0;    // |g - r| / max(|g|, |r|): 1 where exactly one of them is zero
  bool wrong_sign = false;  // both nonzero and of opposite sign
  bool same_sign = false;   // equal signs at the sweep's zero level (a zero counts as its own sign)
  bool off = false;         // relative > kOffThreshold
};

// The level below which a gradient of this sweep counts as zero.
double gradient_zero_level(const std::vector<PointResult>& points, Reference reference);

PointAgreement compare_gradient(const PointResult& p, Reference reference, double zero_level);

// The statistics over a sweep's points (summarize_sweep copies them into SweepStats).
struct AgreementSummary {
  long compared = 0;
  long both_zero = 0;
  long off = 0;         // compared points off by more than kOffThreshold
  long wrong_sign = 0;  // compared points with opposite signs
  long same_sign = 0;   // compared points whose signs agree (zero counts as its own sign)
  double median = 0.0;  // of the relative difference over compared points; NaN when none
};

AgreementSummary summarize_agreement(const std::vector<PointResult>& points, Reference reference);

// "k of n (p%)", where p reads 100% or 0% only when k is n or 0 (0.9995 is not "100.0%").
std::string share_text(long k, long n);

// One line for the CLI summary and the GUI's status bar, e.g. "AD vs FD over 86 points (114 both zero, left
// out): median |AD-FD|/max 0.26, off by >10% 72 of 86 (83.7%), wrong sign 2 of 86 (2.3%)".
std::string agreement_text(const SweepStats& stats, const std::string& reference_name);

}  // namespace sg
