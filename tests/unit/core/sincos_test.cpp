// clatter::sincos (core/sincos.hpp) against an independent reference: glibc's long double sinl
// and cosl (64-bit significands, 11 bits beyond a double), over random arguments in every range
// the kinematics use (a body's angle, a surface's phase ωt after hours), and its exact
// symmetries. The bound stated in the header is 3 ulp; libm's own double sin/cos stay within 1.

#include "clatter/core/sincos.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace clatter {
namespace {

// |a − ref| in units in the last place of the double nearest to ref
double ulps(double a, long double ref) {
  const double r = static_cast<double>(ref);
  const double ulp =
      std::nextafter(std::abs(r), std::numeric_limits<double>::infinity()) - std::abs(r);
  return static_cast<double>(std::abs(static_cast<long double>(a) - ref) / ulp);
}

TEST(SinCos, WithinThreeUlpOfTheLongDoubleReference) {
  std::mt19937_64 rng(20261126);
  for (const double range : {1e-6, 1.0, 4.0, 100.0, 1e4, 5e5}) {
    std::uniform_real_distribution<double> x_of(-range, range);
    double worst_sin = 0.0;
    double worst_cos = 0.0;
    for (int i = 0; i < 200000; ++i) {
      const double x = x_of(rng);
      const SinCos sc = clatter::sincos(x);
      const long double xl = x;
      worst_sin = std::max(worst_sin, ulps(sc.sin, sinl(xl)));
      worst_cos = std::max(worst_cos, ulps(sc.cos, cosl(xl)));
    }
    EXPECT_LE(worst_sin, 3.0) << "|x| < " << range;
    EXPECT_LE(worst_cos, 3.0) << "|x| < " << range;
  }
}

// near the multiples of π/4 (the quadrant boundaries and the ends of the polynomials' range)
TEST(SinCos, AtTheQuadrantBoundaries) {
  const long double quarter_pi = 0.785398163397448309615660845819875721L;
  for (int k = -4000; k <= 4000; ++k) {
    const double centre = static_cast<double>(k * quarter_pi);
    double x = centre;
    for (int step = 0; step < 4; ++step) x = std::nextafter(x, -1e300);
    for (int step = 0; step < 9; ++step, x = std::nextafter(x, 1e300)) {
      const SinCos sc = clatter::sincos(x);
      const long double xl = x;
      // at a zero of sin or cos the ulp of the reference is tiny: compare absolutely there
      EXPECT_LE(std::min(ulps(sc.sin, sinl(xl)),
                         std::abs(sc.sin - static_cast<double>(sinl(xl))) / 1e-16),
                3.0)
          << x;
      EXPECT_LE(std::min(ulps(sc.cos, cosl(xl)),
                         std::abs(sc.cos - static_cast<double>(cosl(xl))) / 1e-16),
                3.0)
          << x;
    }
  }
}

TEST(SinCos, OddAndEvenExactly) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> x_of(0.0, 1e4);
  for (int i = 0; i < 100000; ++i) {
    const double x = x_of(rng);
    const SinCos p = clatter::sincos(x);
    const SinCos m = clatter::sincos(-x);
    EXPECT_EQ(m.sin, -p.sin) << x;
    EXPECT_EQ(m.cos, p.cos) << x;
  }
  EXPECT_EQ(clatter::sincos(0.0).sin, 0.0);
  EXPECT_FALSE(std::signbit(clatter::sincos(0.0).sin));
  EXPECT_TRUE(std::signbit(clatter::sincos(-0.0).sin));
  EXPECT_EQ(clatter::sincos(0.0).cos, 1.0);
}

TEST(SinCos, PythagorasToRoundOff) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> x_of(-1e5, 1e5);
  for (int i = 0; i < 100000; ++i) {
    const SinCos sc = clatter::sincos(x_of(rng));
    EXPECT_NEAR(sc.sin * sc.sin + sc.cos * sc.cos, 1.0, 6e-16);
  }
}

TEST(SinCos, BeyondTheReducedRangeAndNonFinite) {
  for (const double x : {0x1p19, -0x1p19, 1e6, -3.3e7, 1e300}) {
    EXPECT_EQ(clatter::sincos(x).sin, std::sin(x)) << x;
    EXPECT_EQ(clatter::sincos(x).cos, std::cos(x)) << x;
  }
  // just below the limit the reduction is still used, and accurate
  const double below = std::nextafter(0x1p19, 0.0);
  EXPECT_LE(ulps(clatter::sincos(below).sin, sinl(static_cast<long double>(below))), 3.0);
  EXPECT_TRUE(std::isnan(clatter::sincos(std::numeric_limits<double>::quiet_NaN()).sin));
  EXPECT_TRUE(std::isnan(clatter::sincos(std::numeric_limits<double>::infinity()).cos));
  EXPECT_TRUE(std::isnan(clatter::sincos(-std::numeric_limits<double>::infinity()).sin));
}

}  // namespace
}  // namespace clatter
