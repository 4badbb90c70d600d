#include "engine/sweep/gradient_agreement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sg {
namespace {

bool computed(const PointResult& p) {
  return p.status == "ok";
}

int sign_at(double x, double zero_level) {
  if (std::fabs(x) <= zero_level) return 0;
  return x > 0.0 ? 1 : -1;
}

}  // namespace

double gradient_zero_level(const std::vector<PointResult>& points, Reference reference) {
  double largest = 0.0;
  for (const PointResult& p : points) {
    if (!computed(p)) continue;
    for (double g : {p.grad, reference_gradient(p, reference)})
      if (std::isfinite(g)) largest = std::max(largest, std::fabs(g));
  }
  return kZeroRelative * largest;
}

PointAgreement compare_gradient(const PointResult& p, Reference reference, double zero_level) {
  PointAgreement a;
  const double ref = reference_gradient(p, reference);
  if (!computed(p) || !std::isfinite(p.grad) || !std::isfinite(ref)) return a;
  const int s_ad = sign_at(p.grad, zero_level), s_ref = sign_at(ref, zero_level);
  if (s_ad == 0 && s_ref == 0) {
    a.kind = AgreementKind::both_zero;
    return a;
  }
  a.kind = AgreementKind::compared;
  a.relative = std::fabs(p.grad - ref) / std::max(std::fabs(p.grad), std::fabs(ref));
  a.wrong_sign = s_ad * s_ref < 0;
  a.same_sign = s_ad == s_ref;
  a.off = a.relative > kOffThreshold;
  return a;
}

AgreementSummary summarize_agreement(const std::vector<PointResult>& points, Reference reference) {
  AgreementSummary s;
  const double zero = gradient_zero_level(points, reference);
  std::vector<double> rel;
  for (const PointResult& p : points) {
    const PointAgreement a = compare_gradient(p, reference, zero);
    if (a.kind == AgreementKind::both_zero) ++s.both_zero;
    if (a.kind != AgreementKind::compared) continue;
    ++s.compared;
    rel.push_back(a.relative);
    s.off += a.off;
    s.wrong_sign += a.wrong_sign;
    s.same_sign += a.same_sign;
  }
  if (rel.empty()) {
    s.median = std::nan("");
  } else {
    auto mid = rel.begin() + static_cast<std::ptrdiff_t>(rel.size() / 2);
    std::nth_element(rel.begin(), mid, rel.end());
    s.median = *mid;
  }
  return s;
}

std::string share_text(long k, long n) {
  if (n <= 0) return "0 of 0";
  double percent = 100.0 * static_cast<double>(k) / static_cast<double>(n);
  if (k > 0 && k < n) percent = std::clamp(percent, 0.1, 99.9);  // never rounded to 0% or 100%
  char buf[96];
  std::snprintf(buf, sizeof buf, "%ld of %ld (%.1f%%)", k, n, percent);
  return buf;
}

std::string agreement_text(const SweepStats& st, const std::string& ref) {
  char buf[160];
  std::string text = "AD vs " + ref + " over " + std::to_string(st.compared) + " points";
  if (st.both_zero > 0) text += " (" + std::to_string(st.both_zero) + " both zero, left out)";
  if (st.compared == 0) return text;
  std::snprintf(buf, sizeof buf, ": median |AD-%s|/max %.3g", ref.c_str(), st.grad_rel_err_median);
  text += buf;
  text += ", off by >10% " + share_text(st.off, st.compared);
  text += ", wrong sign " + share_text(st.wrong_sign, st.compared);
  if (st.cfd_unreliable > 0) {
    std::snprintf(
        buf, sizeof buf,
        "; UNRELIABLE: the straight-through CFD gradient is over %gx the plain model's largest slope at ",
        kCfdUnreliableFactor);
    text += buf + share_text(st.cfd_unreliable, st.points) + " points (docs/engine.md)";
  }
  return text;
}

}  // namespace sg
