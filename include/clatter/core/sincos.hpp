#pragma once
/// @file
/// sin x and cos x together, for the hot paths of the kinematics (a moving surface's height at
/// every evaluation of a flight's gap, a body's rotation). The engine evaluates them a few times
/// per impact, latency-bound (each evaluation decides the next time): in such a chain libm's sin
/// and cos cost 27.6 ns a pair here, this one 18.1 ns (bench/engine_bench.cpp, BM_SinCos and
/// BM_StdSinCos, medians of 3).
///
/// Method (all constants are facts about π and the Taylor series, derived in the comments):
/// @verbatim
///   x = k π/2 + r,   k = round(2x/π),   |r| ≤ π/4 (+ round-off)
///   r = ((x − k P₁) − k P₂) − k P₃,   P₁ + P₂ + P₃ = π/2 to 2⁻¹²⁰
/// @endverbatim
/// P₁ and P₂ hold 33 significant bits each, so for |k| < 2¹⁹ the products k P₁ and k P₂ are exact
/// and x − k P₁ is exact (Sterbenz); P₃ is the rest of π/2 rounded to a double (Cody and Waite's
/// reduction). Then, with z = r²,
/// @verbatim
///   sin r = r + r z Σ_{i=1..8} (−1)^i z^{i−1} / (2i+1)!      truncation ≤ r¹⁹/19! < 1e-19
///   cos r = 1 − z/2 + z² Σ_{i=2..8} (−1)^i z^{i−2} / (2i)!   truncation ≤ r¹⁸/18! < 3e-18
/// @endverbatim
/// (|r| ≤ π/4), evaluated by Estrin's scheme (short dependency chains), and the quadrant k mod 4
/// maps (sin r, cos r) to (sin x, cos x).
///
/// Accuracy (tests/unit/core/sincos_test.cpp, against long double): ≤ 3 ulp for |x| < 2¹⁹ (libm:
/// ≤ 1 ulp); sin(−x) = −sin x and cos(−x) = cos x exactly; sin(±0) = ±0. Beyond |x| ≥ 2¹⁹ (a
/// surface at ω = 5 rad/s after 29 hours) and for NaN or ±∞, the values are std::sin and std::cos.
/// Not for -ffast-math builds (the rounding by 1.5·2⁵² must not be reassociated).

#include <bit>
#include <cmath>
#include <cstdint>

namespace clatter {

struct SinCos {
  double sin;
  double cos;
};

[[nodiscard]] inline SinCos sincos(double x) {
  constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;  // 2/π rounded
  constexpr double kP1 = 0x1.921fb544p+0;              // π/2 to 33 bits
  constexpr double kP2 = 0x1.0b4611a6p-34;             // the next 33 bits
  constexpr double kP3 = 0x1.3198a2e037073p-69;        // the rest, rounded
  constexpr double kRound = 0x1.8p52;                  // adding it rounds to an integer
  if (!(std::abs(x) < 0x1p19)) return {std::sin(x), std::cos(x)};
  if (x == 0.0) return {x, 1.0};  // sin(−0) = −0 (the sum below would give +0)
  const double shifted = x * kTwoOverPi + kRound;
  const double k = shifted - kRound;
  // the low bits of the shifted number's significand are k's (two's complement for k < 0)
  const auto quadrant = static_cast<unsigned>(std::bit_cast<std::uint64_t>(shifted) & 3U);
  const double r = ((x - k * kP1) - k * kP2) - k * kP3;
  const double z = r * r;
  const double z2 = z * z;
  const double z4 = z2 * z2;
  // sin: 1/(2i+1)! with alternating signs, i = 1..8
  constexpr double s1 = -1.0 / 6.0;
  constexpr double s2 = 1.0 / 120.0;
  constexpr double s3 = -1.0 / 5040.0;
  constexpr double s4 = 1.0 / 362880.0;
  constexpr double s5 = -1.0 / 39916800.0;
  constexpr double s6 = 1.0 / 6227020800.0;
  constexpr double s7 = -1.0 / 1307674368000.0;
  constexpr double s8 = 1.0 / 355687428096000.0;
  // cos: 1/(2i)! with alternating signs, i = 2..8
  constexpr double c2 = 1.0 / 24.0;
  constexpr double c3 = -1.0 / 720.0;
  constexpr double c4 = 1.0 / 40320.0;
  constexpr double c5 = -1.0 / 3628800.0;
  constexpr double c6 = 1.0 / 479001600.0;
  constexpr double c7 = -1.0 / 87178291200.0;
  constexpr double c8 = 1.0 / 20922789888000.0;
  const double ps = (s1 + z * s2) + z2 * (s3 + z * s4) + z4 * ((s5 + z * s6) + z2 * (s7 + z * s8));
  const double pc = (c2 + z * c3) + z2 * (c4 + z * c5) + z4 * ((c6 + z * c7) + z2 * c8);
  const double s = r + r * z * ps;
  const double c = (1.0 - 0.5 * z) + z2 * pc;
  switch (quadrant) {
    case 0:
      return {s, c};
    case 1:
      return {c, -s};
    case 2:
      return {-s, -c};
    default:
      return {-c, s};
  }
}

}  // namespace clatter
