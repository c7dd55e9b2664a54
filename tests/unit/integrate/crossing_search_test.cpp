// The crossing searches of integrate/crossing_search.hpp on functions whose crossings are known in
// closed form: a parabola (a ballistic height) that crosses twice within a tiny window, a line,
// a cosine, a tangency.

#include "clatter/integrate/crossing_search.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

namespace clatter::integrate {
namespace {

using Crossings = std::vector<std::pair<double, int>>;

// v(t) = v0 + s t − ½ a t²: roots t = (s ∓ √(s² + 2 a v0))/a
struct Parabola {
  double v0, s, a;
  ValueSlope operator()(double t) const { return {v0 + s * t - 0.5 * a * t * t, s - a * t}; }
};

TEST(CrossingSearch, ParabolaCrossingTwiceWithinATinyWindowIsFoundByTheCurvatureBound) {
  // apex 1e-10 above zero at t = 1: the roots are 1 ∓ √(2e-10/g) = 1 ∓ 4.5e-6, both found
  // although the search's only information is |v″| ≤ g (a sign test at any spacing > 9e-6 would
  // see nothing)
  const double g = 9.81;
  const double h = 1e-10;
  const Parabola p{h - 0.5 * g, g, g};  // v(1) = h, v′(1) = 0
  Crossings found;
  const auto emit = [&](double t, int d) { found.emplace_back(t, d); };
  ASSERT_EQ(all_crossings_curvature_bound(p, emit, 0.0, 2.0, g, 1e-15),
            CrossingSearchStatus::kDone);
  ASSERT_EQ(found.size(), 2U);
  const double w = std::sqrt(2.0 * h / g);
  // tolerance: the roots are refined by TOMS 748 to a few ulps; v is evaluated with round-off
  // ~1e-16 and its slope there is ~4.4e-5, so t is determined to ~1e-11
  EXPECT_NEAR(found[0].first, 1.0 - w, 1e-10);
  EXPECT_EQ(found[0].second, 1);
  EXPECT_NEAR(found[1].first, 1.0 + w, 1e-10);
  EXPECT_EQ(found[1].second, -1);
}

TEST(CrossingSearch, DirectionsMatchTheSlopeWhenTheSafeStepEndsOnTheNextCrossing) {
  // a ball thrown from y0 < 3 with |ÿ| = M₂ = g: the safe step from the upward crossing of y = 3
  // is 2ẏ/g, which is exactly the return to y = 3 (found in the engine's sweep on the ball's
  // period-1 orbit: the second bracket converged to the first crossing). Over 10⁴ perturbed
  // throws: two crossings, up then down, each with the sign of its slope
  const double g = 9.81;
  int wrong = 0;
  for (int k = 0; k < 10000; ++k) {
    const Parabola p{0.98355 + 1e-9 * k - 3.0, 10.4 + 1e-9 * k, g};
    Crossings found;
    const auto emit = [&](double t, int d) { found.emplace_back(t, d); };
    ASSERT_EQ(all_crossings_curvature_bound(p, emit, 0.0, 2.2, g, 3.6e-14),
              CrossingSearchStatus::kDone);
    if (found.size() != 2U || found[0].second != 1 || found[1].second != -1 ||
        p(found[0].first).slope <= 0.0 || p(found[1].first).slope >= 0.0)
      ++wrong;
  }
  EXPECT_EQ(wrong, 0);
}

TEST(CrossingSearch, TangencyWithinToleranceIsNoCrossing) {
  // apex at exactly v = 0 (a tangency): no class change beyond tol, nothing reported, and the
  // search terminates
  const double g = 9.81;
  const Parabola p{-0.5 * g, g, g};
  Crossings found;
  const auto emit = [&](double t, int d) { found.emplace_back(t, d); };
  EXPECT_EQ(all_crossings_curvature_bound(p, emit, 0.0, 2.0, g, 1e-14),
            CrossingSearchStatus::kDone);
  // v ≥ 0 counts as above: reaching 0 exactly from below is an upward crossing by the classes;
  // a tangency may give (up, down) at the apex to round-off, or nothing
  EXPECT_TRUE(found.empty() || (found.size() == 2U && std::abs(found[0].first - 1.0) < 1e-6 &&
                                std::abs(found[1].first - 1.0) < 1e-6));
}

TEST(CrossingSearch, LinearFunctionHasOneCrossingAndNoCurvature) {
  // v = t − 0.3 with M₂ = 0: one upward crossing at 0.3 exactly (to round-off)
  const auto f = [](double t) { return ValueSlope{t - 0.3, 1.0}; };
  Crossings found;
  const auto emit = [&](double t, int d) { found.emplace_back(t, d); };
  ASSERT_EQ(all_crossings_curvature_bound(f, emit, 0.0, 1.0, 0.0, 1e-15),
            CrossingSearchStatus::kDone);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_NEAR(found[0].first, 0.3, 1e-15);
  EXPECT_EQ(found[0].second, 1);
}

TEST(CrossingSearch, CosineCrossingsAlternateInDirection) {
  // v = cos t, |v″| ≤ 1: roots (k + ½)π on (0, 10]: π/2 (down), 3π/2 (up), 5π/2 (down)
  const auto f = [](double t) { return ValueSlope{std::cos(t), -std::sin(t)}; };
  Crossings found;
  const auto emit = [&](double t, int d) { found.emplace_back(t, d); };
  ASSERT_EQ(all_crossings_curvature_bound(f, emit, 0.0, 10.0, 1.0, 1e-15),
            CrossingSearchStatus::kDone);
  ASSERT_EQ(found.size(), 3U);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(found[k].first, (static_cast<double>(k) + 0.5) * std::numbers::pi, 1e-14);
    EXPECT_EQ(found[k].second, k % 2 == 0 ? -1 : 1);
  }
}

TEST(CrossingSearch, SamplesFindAPairBelowAnExtremum) {
  // the same tiny double crossing of the parabola on 3 samples of [0, 2]: all sample values are
  // below zero, the slope changes sign between t = 2/3 and 4/3, the maximum is located, and the
  // pair below it refined
  const double g = 9.81;
  const double h = 1e-10;
  const Parabola p{h - 0.5 * g, g, g};
  Crossings found;
  const auto emit = [&](double t, int d) { found.emplace_back(t, d); };
  all_crossings_on_samples(p, emit, 0.0, 2.0, 3);
  ASSERT_EQ(found.size(), 2U);
  const double w = std::sqrt(2.0 * h / g);
  EXPECT_NEAR(found[0].first, 1.0 - w, 1e-10);
  EXPECT_EQ(found[0].second, 1);
  EXPECT_NEAR(found[1].first, 1.0 + w, 1e-10);
  EXPECT_EQ(found[1].second, -1);
  // a sign change between samples: cos t on (0, 2], one downward crossing at π/2
  Crossings one;
  const auto emit_one = [&](double t, int d) { one.emplace_back(t, d); };
  all_crossings_on_samples(
      [](double t) {
        return ValueSlope{std::cos(t), -std::sin(t)};
      },
      emit_one, 0.0, 2.0, 4);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_NEAR(one[0].first, 0.5 * std::numbers::pi, 1e-14);
  EXPECT_EQ(one[0].second, -1);
}

}  // namespace
}  // namespace clatter::integrate
