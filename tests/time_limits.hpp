#pragma once
// Hang guards. A test that checks "this finishes in seconds, not in minutes" (a quadratic blow-up, a hang)
// gives sanitizer builds more time: ASan makes allocation-heavy code 5-10x slower, and CI runs those builds
// on a busy 2-core machine (a 150,000-key scene: 0.9 s plain, 10.1 s under ASan there). These are guards
// against pathological slowness, not performance targets; those live in bench/ and docs/benchmarks.md.
namespace sg::test {

constexpr double sanitizer_slowdown() {
#if defined(__SANITIZE_ADDRESS__)
  return 10.0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 10.0;
#endif
#endif
  return 1.0;
}

// The time limit for a guard measured `plain_seconds` generous in an optimised build.
constexpr double hang_limit_seconds(double plain_seconds) {
  return plain_seconds * sanitizer_slowdown();
}

}  // namespace sg::test
