// The guaranteed first-root search (curvature bound) and bracket refinement, checked against an
// independent method: a dense grid (10⁵ points) with bisection, on random smooth functions that
// mix a parabola and sinusoids — the form of a gap in free flight above an oscillating surface.

#include "clatter/integrate/root_finding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace clatter::integrate {
namespace {

// f(t) = y0 + v t − ½ g t² − A sin(ω t + φ), f″ ≥ −(g + Aω²)
struct GapLike {
  double y0, v, g, A, w, phi;
  ValueSlope operator()(double t) const {
    return {y0 + v * t - 0.5 * g * t * t - A * std::sin(w * t + phi),
            v - g * t - A * w * std::cos(w * t + phi)};
  }
  double M2() const { return g + A * w * w; }
  double M3() const { return A * w * w * w; }
  double curvature(double t) const { return -g + A * w * w * std::sin(w * t + phi); }
  /// A hop from the surface: f(t) = v t − ½ g t² − A (sin(ωt + φ) − sin φ), f(0) = 0, f′(0) =
  /// v − Aω cos φ, with v ∈ [2, 12], A ∈ [0, 1.5], ω ∈ [1, 7], φ ∈ [0, 2π) drawn from `rng`.
  static GapLike random_hop(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> U(0.0, 1.0);
    const double v = 2.0 + 10.0 * U(rng);
    const double A = 1.5 * U(rng);
    const double w = 1.0 + 6.0 * U(rng);
    const double phi = 6.283 * U(rng);
    return {A * std::sin(phi), v, 9.81, A, w, phi};
  }
};

// reference: the first sign change on a fine grid, refined by bisection
double first_root_by_grid(const GapLike& f, double t1, int n) {
  double prev = f(0.0).value;
  for (int k = 1; k <= n; ++k) {
    const double t = t1 * k / n;
    const double cur = f(t).value;
    if (cur <= 0.0 && prev > 0.0) {
      double a = t1 * (k - 1) / n, b = t;
      for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (a + b);
        (f(m).value > 0.0 ? a : b) = m;
      }
      return 0.5 * (a + b);
    }
    prev = cur;
  }
  return NAN;
}

const auto no_far = [](double, double) { return 0.0; };

// The cubic bound's step never passes the first root of the worst case the two bounds allow,
// w with w(0) = v, w′(0) = s, w″(x) = max(−M₂, c − M₃ x) (the cubic v + s x + ½ c x² − ⅙ M₃ x³
// until w″ reaches −M₂, a parabola after), and is never shorter than the curvature bound's:
// random (v, s, c, M₃) with c ≥ −M₂.
TEST(JerkSafeStep, NeverPassesTheWorstCasesFirstRoot) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int longer = 0;
  for (int i = 0; i < 20000; ++i) {
    const double v = std::pow(10.0, -12.0 + 12.0 * U(rng));
    const double s = 20.0 * (U(rng) - 0.5);
    const double M2 = 30.0 * U(rng) + 1e-3;
    const double c = -M2 + 2.0 * M2 * U(rng);
    const double M3 = std::pow(10.0, -2.0 + 4.0 * U(rng));
    const double h = jerk_safe_step(v, s, c, M2, M3);
    const double h2 = curvature_safe_step(v, s, M2);
    ASSERT_GE(h, h2) << i;
    longer += h > 1.01 * h2 ? 1 : 0;
    // w > 0 on (0, h): on a grid, and at h itself to round-off
    const double xs = (c + M2) / M3;  // where c − M₃ x reaches −M₂
    const auto cubic = [&](double x) { return v + s * x + 0.5 * c * x * x - M3 * x * x * x / 6.0; };
    const auto w = [&](double x) {
      if (x <= xs) return cubic(x);
      const double d = x - xs;
      return cubic(xs) + (s + c * xs - 0.5 * M3 * xs * xs) * d - 0.5 * M2 * d * d;
    };
    for (int k = 1; k <= 200; ++k)
      ASSERT_GT(w(h * k / 201.0), -1e-12 * (v + std::abs(s) * h + 1.0)) << i << " at " << k;
    ASSERT_GE(w(h), -1e-9 * (std::abs(v) + std::abs(s) * h + std::abs(c) * h * h + M3 * h * h * h))
        << i;
  }
  EXPECT_GT(longer, 2000);  // the cubic bound is worth having
}

TEST(FirstRootCurvatureBound, FindsTheFirstRootOfRandomGapsLikeADenseGrid) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int with_root = 0;
  for (int i = 0; i < 400; ++i) {
    const GapLike f{0.05 + 2.0 * U(rng), 10.0 * (U(rng) - 0.3), 9.81,
                    1.5 * U(rng),        1.0 + 6.0 * U(rng),    6.283 * U(rng)};
    if (f(0.0).value <= 1e-6) continue;
    const double t1 = 3.0;
    const double ref = first_root_by_grid(f, t1, 100000);
    const FirstRoot r = first_root_curvature_bound(f, no_far, 0.0, t1, f.M2(), 1e-14);
    ASSERT_NE(r.kind, RootKind::kFailed);
    if (std::isnan(ref)) {
      // the grid saw no root; the search may still find a root pair narrower than the grid step
      if (r.kind == RootKind::kCrossing) {
        EXPECT_LE(f(r.t).value, 1e-12);
      }
      continue;
    }
    ++with_root;
    ASSERT_EQ(r.kind, RootKind::kCrossing) << i;
    EXPECT_NEAR(r.t, ref, 1e-11) << i;
  }
  EXPECT_GT(with_root, 200);
}

TEST(FirstRootCurvatureBound, DoesNotSkipANarrowRootPairNearAGraze) {
  // f = (t − 1)² − δ: two roots 1 ± √δ, 2√δ apart; between samples of any fixed step ≫ √δ
  for (const double delta : {1e-4, 1e-8, 1e-12}) {
    const auto f = [&](double t) {
      return ValueSlope{(t - 1.0) * (t - 1.0) - delta, 2.0 * (t - 1.0)};
    };
    const FirstRoot r = first_root_curvature_bound(f, no_far, 0.0, 5.0, 2.0, 1e-15);
    ASSERT_EQ(r.kind, RootKind::kCrossing) << delta;
    EXPECT_NEAR(r.t, 1.0 - std::sqrt(delta), 1e-12) << delta;
    EXPECT_LT(r.evaluations, 200) << delta;
  }
  // a minimum 1e-10 above zero is not a root, and the search passes it in bounded work
  const auto g = [](double t) {
    return ValueSlope{(t - 1.0) * (t - 1.0) + 1e-10, 2.0 * (t - 1.0)};
  };
  const FirstRoot r = first_root_curvature_bound(g, no_far, 0.0, 5.0, 2.0, 1e-15);
  EXPECT_EQ(r.kind, RootKind::kNone);
  EXPECT_LT(r.evaluations, 200);
}

TEST(FirstRootCurvatureBound, AStartOnTheSurfaceMovingAwayIsNotARoot) {
  // a ball leaving the floor at 1e-6 m/s: the next root is the landing at 2v/g
  const double v = 1e-6, g = 9.81;
  const auto f = [&](double t) { return ValueSlope{v * t - 0.5 * g * t * t, v - g * t}; };
  const FirstRoot r = first_root_curvature_bound(f, no_far, 0.0, 1.0, g, 1e-18);
  ASSERT_EQ(r.kind, RootKind::kCrossing);
  EXPECT_NEAR(r.t, 2.0 * v / g, 1e-15 * 2.0 * v / g + 1e-22);
}

TEST(FirstRootCurvatureBound, FarStepShortensALongFlight) {
  // a drop from 100 m: the crude bound (value ≥ polynomial − 1) lets the search jump
  const GapLike f{100.0, 0.0, 9.81, 1.0, 5.0, 0.3};
  const auto far = [&](double t, double) {
    const double y = 100.0 - 0.5 * 9.81 * t * t - 1.0;
    return y > 0.0 ? std::sqrt(2.0 * 99.0 / 9.81) - t : 0.0;
  };
  const FirstRoot slow = first_root_curvature_bound(f, no_far, 0.0, 10.0, f.M2(), 1e-14);
  const FirstRoot fast = first_root_curvature_bound(f, far, 0.0, 10.0, f.M2(), 1e-14);
  ASSERT_EQ(slow.kind, RootKind::kCrossing);
  ASSERT_EQ(fast.kind, RootKind::kCrossing);
  EXPECT_NEAR(slow.t, fast.t, 1e-12);
  EXPECT_LT(fast.evaluations, slow.evaluations);
}

// A hop from the surface over a sinusoid, searched with the all-functions search and a far bound
// (gap ≥ P(t) − K with P the hop's parabola): the curvature step's end above the height K is
// passed on into the far window without an evaluation there. Checked against the dense grid, and
// the far bound saves evaluations.
TEST(FirstRootOf, HopsIntoTheFarWindowWithoutPassingARoot) {
  std::mt19937_64 rng(2026);
  int windows = 0;
  long evaluations_with = 0;
  long evaluations_without = 0;
  for (int i = 0; i < 300; ++i) {
    const GapLike shape = GapLike::random_hop(rng);
    const double v = shape.v, g = shape.g, A = shape.A, phi = shape.phi;
    if (shape(0.0).slope <= 0.0) continue;
    const auto one = [&](double t, Scratch<ValueSlope, 1>& out) {
      out[0] = shape(t);
      out[0].curvature = shape.curvature(t);
    };
    const double K = A * (1.0 - std::sin(phi));
    const double t_K = v * v > 2.0 * g * K ? (v + std::sqrt(v * v - 2.0 * g * K)) / g : 0.0;
    const auto far = [&](int, double t) {
      return v * t - 0.5 * g * t * t > K && t < t_K ? t_K - t : 0.0;
    };
    const auto none = [](int, double) { return 0.0; };
    const std::array<double, 1> M2{shape.M2()};
    const std::array<double, 1> tol{1e-14};
    const std::array<double, 1> M3{shape.M3()};
    const double t1 = 3.0;
    const FirstRootOf with_far =
        first_root_curvature_bound_all<1>(one, far, 1, 0.0, t1, M2, tol, 800, &M3);
    const FirstRootOf without =
        first_root_curvature_bound_all<1>(one, none, 1, 0.0, t1, M2, tol, 800, &M3);
    ASSERT_NE(with_far.root.kind, RootKind::kFailed) << i;
    ASSERT_EQ(with_far.root.kind, without.root.kind) << i;
    if (t_K > 0.0) ++windows;
    EXPECT_LE(with_far.root.evaluations, without.root.evaluations) << i;
    evaluations_with += with_far.root.evaluations;
    evaluations_without += without.root.evaluations;
    const double ref = first_root_by_grid(shape, t1, 100000);
    if (std::isnan(ref)) {
      // no root the grid sees: none found, or a root pair narrower than the grid step
      if (with_far.root.kind == RootKind::kCrossing) {
        EXPECT_LE(shape(with_far.root.t).value, 1e-12) << i;
      }
      continue;
    }
    ASSERT_EQ(with_far.root.kind, RootKind::kCrossing) << i;
    EXPECT_NEAR(with_far.root.t, ref, 1e-11) << i;
    EXPECT_NEAR(without.root.t, ref, 1e-11) << i;
  }
  EXPECT_GT(windows, 100);
  EXPECT_LT(evaluations_with, evaluations_without);
}

// A root one Newton step ahead whose error bound (½|f″|dt² + ⅙M₃dt³)/|f′| is below the
// resolution of t is taken without evaluating there. Random gaps: the roots agree with the grid's
// bisection to 1e-11 and, like those of the search that must evaluate (no curvature given), with
// a long-double Newton root to the condition of f's evaluation; fewer evaluations in all. Near a
// graze (f = a(t − t_m)² + δ, M₃ = 0) the Newton step from a small value would overshoot: δ > 0
// must find no crossing, δ < 0 the first of the pair.
TEST(FirstRootOf, TakesTheNewtonStepWhenItsErrorIsBelowTheResolution) {
  std::mt19937_64 rng(77);
  long with_curvature = 0;
  long without_curvature = 0;
  int roots = 0;
  for (int i = 0; i < 300; ++i) {
    const GapLike shape = GapLike::random_hop(rng);
    const double v = shape.v, g = shape.g, A = shape.A, w = shape.w, phi = shape.phi;
    if (shape(0.0).slope <= 0.0) continue;
    const auto curved = [&](double t, Scratch<ValueSlope, 1>& out) {
      out[0] = shape(t);
      out[0].curvature = shape.curvature(t);
    };
    const auto plain = [&](double t, Scratch<ValueSlope, 1>& out) { out[0] = shape(t); };
    const auto none = [](int, double) { return 0.0; };
    const std::array<double, 1> M2{shape.M2()};
    const std::array<double, 1> tol{1e-14};
    const std::array<double, 1> M3{shape.M3()};
    const FirstRootOf a =
        first_root_curvature_bound_all<1>(curved, none, 1, 0.0, 3.0, M2, tol, 800, &M3);
    const FirstRootOf b =
        first_root_curvature_bound_all<1>(plain, none, 1, 0.0, 3.0, M2, tol, 800, &M3);
    ASSERT_EQ(a.root.kind, b.root.kind) << i;
    with_curvature += a.root.evaluations;
    without_curvature += b.root.evaluations;
    const double ref = first_root_by_grid(shape, 3.0, 100000);
    if (std::isnan(ref) || a.root.kind != RootKind::kCrossing) continue;
    ++roots;
    EXPECT_NEAR(a.root.t, ref, 1e-11) << i;
    // both within the condition of f's double evaluation of the root (Newton in long double):
    // the round-off of its terms over the slope, and a few ulps of t
    long double r = b.root.t;
    for (int k = 0; k < 5; ++k) {
      const long double x = static_cast<long double>(w) * r + phi;
      const long double f = static_cast<long double>(shape.y0) + v * r - 0.5L * g * r * r -
                            static_cast<long double>(A) * std::sin(x);
      r -= f / (v - g * r - static_cast<long double>(A) * w * std::cos(x));
    }
    const double t_root = static_cast<double>(r);
    const double eps = std::numeric_limits<double>::epsilon();
    const double terms = std::abs(shape.y0) + v * t_root + 0.5 * g * t_root * t_root + A;
    const double bound = 4.0 * eps * terms / std::abs(shape(t_root).slope) + 4.0 * eps * t_root;
    EXPECT_LE(std::abs(a.root.t - t_root), bound) << i;
    EXPECT_LE(std::abs(b.root.t - t_root), bound) << i;
  }
  EXPECT_GT(roots, 200);
  EXPECT_LT(with_curvature, without_curvature);
  // near a graze
  for (const double delta : {1e-9, 1e-12, -1e-12, -1e-9}) {
    const double a = 3.0, tm = 1.0;
    const auto f = [&](double t, Scratch<ValueSlope, 1>& out) {
      out[0] = {a * (t - tm) * (t - tm) + delta, 2.0 * a * (t - tm), 2.0 * a};
    };
    const auto none = [](int, double) { return 0.0; };
    const std::array<double, 1> M2{0.0};
    const std::array<double, 1> tol{1e-16};
    const std::array<double, 1> M3{0.0};
    const FirstRootOf r =
        first_root_curvature_bound_all<1>(f, none, 1, 0.0, 2.0, M2, tol, 800, &M3);
    if (delta > 0.0) {
      EXPECT_NE(r.root.kind, RootKind::kCrossing) << delta << " at " << r.root.t;
    } else {
      ASSERT_EQ(r.root.kind, RootKind::kCrossing) << delta;
      EXPECT_NEAR(r.root.t, tm - std::sqrt(-delta / a), 1e-12) << delta;
    }
  }
}

TEST(RefineRoot, ReachesAFewUlps) {
  const auto f = [](double t) { return std::cos(t); };
  const double t = refine_root(f, 1.0, 2.0, f(1.0), f(2.0));
  EXPECT_NEAR(t, 1.5707963267948966, 1e-15);
}

}  // namespace
}  // namespace clatter::integrate
