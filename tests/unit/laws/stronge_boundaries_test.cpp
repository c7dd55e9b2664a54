// The boundary functions of Stronge's law (laws/stronge_boundaries.hpp, spec/003_dib.md §3.5,
// Table 2) against the law's own region classifier, an independent route: along random lines in
// the pre-impact velocity (at fixed W, μ, e*) and in μ (at fixed v⁻, W, e*), wherever two
// consecutive samples fall in the two regions of a listed boundary, H is positive on the side of
// the lower-numbered region and negative on the other, and vanishes (to 1e-9) at the change
// located by bisection. Every one of the 15 boundaries must be crossed at least 20 times.
// Also the values [NDC] states: case 5-9 H = k_T⁻ = B + μA, case 1-3 region 1 iff
// k_N⁺v_T − (1+r)k_T⁺v_N > 0 (spec/003 §5.3, §5.4).

#include "clatter/laws/stronge_boundaries.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "clatter/core/error.hpp"
#include "clatter/laws/stronge.hpp"
#include "support/random_inputs.hpp"

namespace clatter {
namespace {

int region_of(const Vec2& v, const ContactMatrix& W, const ImpactParams& p) {
  return stronge_closed_form({v, W}, p).region;
}

struct Crossings {
  std::map<std::pair<int, int>, int> count;
  int failures{0};
};

// checks the boundary between x(s0) (region a) and x(s1) (region b) if it is listed
template <class At>
void check_change(const At& at, double s0, double s1, int a, int b, Crossings& c) {
  bool listed = false;
  for (const RegionBoundary& r : stronge_boundaries())
    if ((r.lower == a && r.upper == b) || (r.lower == b && r.upper == a)) listed = true;
  if (!listed || a == 0 || b == 0) return;
  const auto H = [&](double s) {
    const auto [v, W, p] = at(s);
    return boundary_function(a, b, v, W, p);
  };
  const int lower = std::min(a, b);
  const double h0 = H(s0), h1 = H(s1);
  const bool ok0 = (a == lower) ? h0 > 0.0 : h0 < 0.0;
  const bool ok1 = (b == lower) ? h1 > 0.0 : h1 < 0.0;
  EXPECT_TRUE(ok0 && ok1) << "boundary " << a << "|" << b << ": H = " << h0 << ", " << h1;
  // bisection on the region: H vanishes where it changes
  double lo = s0, hi = s1;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    const auto [v, W, p] = at(mid);
    (region_of(v, W, p) == a ? lo : hi) = mid;
  }
  const auto [v, W, p] = at(0.5 * (lo + hi));
  const double scale = (1.0 + W.A + std::abs(W.B) + W.C) * (1.0 + v.norm());
  EXPECT_NEAR(H(0.5 * (lo + hi)), 0.0, 1e-9 * scale) << "boundary " << a << "|" << b;
  if (!(ok0 && ok1)) ++c.failures;
  ++c.count[{std::min(a, b), std::max(a, b)}];
}

TEST(StrongeBoundaries, SignsAndZerosAgreeWithTheClassifier) {
  testing::ImpactSampler rng(20261126);
  Crossings c;
  for (int trial = 0; trial < 3000; ++trial) {
    const ContactMatrix W =
        trial % 2 == 0 ? rng.general_W() : testing::ImpactSampler::rod_W(rng.uniform(0.05, 3.09));
    const double mu = rng.uniform(0.02, 3.0), e = rng.uniform(0.05, 1.0);
    // a line in v_T at v_N = −1
    const auto at_vT = [&](double s) {
      return std::tuple<Vec2, ContactMatrix, ImpactParams>{Vec2(s, -1.0), W, {mu, e}};
    };
    int prev = -1;
    double s_prev = 0.0;
    for (int k = 0; k <= 400; ++k) {
      const double s = -6.0 + 12.0 * (k + 0.3183) / 400.0;  // never exactly v_T = 0
      const auto [v, WW, p] = at_vT(s);
      const int reg = region_of(v, WW, p);
      if (prev >= 0 && reg != prev) check_change(at_vT, s_prev, s, prev, reg, c);
      prev = reg;
      s_prev = s;
    }
    // a line in μ at a fixed v⁻
    const Vec2 v0(rng.uniform(-3.0, 3.0), -1.0);
    const auto at_mu = [&](double s) {
      return std::tuple<Vec2, ContactMatrix, ImpactParams>{v0, W, {s, e}};
    };
    prev = -1;
    for (int k = 0; k <= 200; ++k) {
      const double s = 0.01 + 3.0 * k / 200.0;
      const auto [v, WW, p] = at_mu(s);
      const int reg = region_of(v, WW, p);
      if (prev >= 0 && reg != prev) check_change(at_mu, s_prev, s, prev, reg, c);
      prev = reg;
      s_prev = s;
    }
  }
  EXPECT_EQ(c.failures, 0);
  for (const RegionBoundary& r : stronge_boundaries()) {
    const int n = c.count[{r.lower, r.upper}];
    EXPECT_GE(n, 20) << "boundary " << r.lower << "|" << r.upper << " (" << to_string(r.type)
                     << ") crossed " << n << " times";
  }
}

TEST(StrongeBoundaries, BoundariesOfAnImpactListItsRegionsNeighbours) {
  // every boundary listed touches the impact's region, with H of the sign of that side, nearest
  // first
  testing::ImpactSampler rng(99);
  for (int trial = 0; trial < 2000; ++trial) {
    const ContactMatrix W = rng.general_W();
    const double mu = rng.uniform(0.05, 3.0), e = rng.uniform(0.05, 0.95);
    const Vec2 v(rng.uniform(-4.0, 4.0), -1.0);
    const int region = region_of(v, W, {mu, e});
    if (region == 0) continue;
    const std::vector<BoundaryDistance> list = boundaries_of_impact(v, W, {mu, e});
    ASSERT_FALSE(list.empty()) << "region " << region;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const RegionBoundary& b = list[i].boundary;
      EXPECT_TRUE(b.lower == region || b.upper == region);
      EXPECT_EQ(list[i].H > 0.0, b.lower == region) << b.lower << "|" << b.upper;
      if (i > 0) {
        EXPECT_LE(list[i - 1].distance, list[i].distance);
      }
    }
  }
}

TEST(StrongeBoundaries, TheFormsNdcStates) {
  // spec/003 §5.4 (case 5-9): A = 2.7227, B = −1.4834, μ = 0.5448: H = k_T⁻ = B + μA
  const ContactMatrix W{2.7227, -1.4834, 2.2773};
  EXPECT_NEAR(boundary_function(5, 9, {0.2852, -0.3250}, W, {0.5448, 0.5}),
              -1.4834 + 0.5448 * 2.7227, 1e-15);
  // spec/003 §5.3 (case 1-3): H = k_N⁺v_T − (1+r)k_T⁺v_N, k_T⁺ = −.8604, k_N⁺ = .9918 (4 digits)
  const ContactMatrix W13{2.7500, 1.4790, 2.2500};
  const double mu = 0.850684, r = 0.5;
  const double H = boundary_function(1, 3, {3.2869, -1.8947}, W13, {mu, r});
  EXPECT_NEAR(H, 0.9918 * 3.2869 - 1.5 * -0.8604 * -1.8947, 2e-3);
  EXPECT_THROW((void)boundary_function(1, 2, {1.0, -1.0}, W13, {mu, r}), InvalidArgument);
  EXPECT_TRUE(stronge_boundary(6, 5).c1);
  EXPECT_FALSE(stronge_boundary(9, 5).c1);
}

}  // namespace
}  // namespace clatter
