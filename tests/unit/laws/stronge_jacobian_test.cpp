// The exact one-sided Jacobians of Stronge's closed form (laws/stronge_jacobian.hpp) against
// fourth-order central differences of the law itself (stronge_closed_form, steps 1e-6 (1 + |x|)),
// on random inputs (rod and general W, μ ∈ (0, 3], e* ∈ (0, 1)) away from the boundaries (the
// region is the same at ±2 steps): ∂v⁺/∂v⁻ and ∂v⁺/∂(μ, e*) to 1e-7 relative (the issue's bar),
// every region 1–10 at least 200 times; the zero row of the regions ending in stick; at a boundary
// the two sides' formulas give the same v⁺ (C⁰) and, across the C¹ boundaries, the same Jacobian
// ([NDC] §4, spec/003_dib.md §4, Table 2).

#include "clatter/laws/stronge_jacobian.hpp"

#include <gtest/gtest.h>

#include <array>

#include "clatter/core/error.hpp"
#include "clatter/laws/rate_constants.hpp"
#include "clatter/laws/stronge.hpp"
#include "clatter/laws/stronge_boundaries.hpp"
#include "support/random_inputs.hpp"

namespace clatter {
namespace {

Vec2 law(const Vec2& v, const ContactMatrix& W, double mu, double e) {
  return stronge_closed_form({v, W}, {mu, e}).v_post;
}
int region_of(const Vec2& v, const ContactMatrix& W, double mu, double e) {
  return stronge_closed_form({v, W}, {mu, e}).region;
}

TEST(StrongeJacobian, EqualsDifferencesOfTheLawInEveryRegion) {
  testing::ImpactSampler rng(424242);
  std::array<int, 11> seen{};
  int checked = 0;
  for (int trial = 0; trial < 600000 && checked < 100000; ++trial) {
    testing::RandomImpact s = trial % 2 == 0 ? rng.rod_impact() : rng.general_impact();
    const ContactMatrix W = s.in.W;
    const double mu = s.params.mu, e = s.params.e;
    const Vec2 v = s.in.v_pre;
    if (mu <= 0.0 || e <= 0.0 || e >= 1.0 || v.x() == 0.0) continue;
    const int region = region_of(v, W, mu, e);
    // away from boundaries: the same region at ±2 steps in every variable
    const std::array<double, 4> x = {v.x(), v.y(), mu, e};
    std::array<double, 4> h{};
    bool interior = true;
    for (int k = 0; k < 4 && interior; ++k) {
      h[static_cast<std::size_t>(k)] = 1e-6 * (1.0 + std::abs(x[static_cast<std::size_t>(k)]));
      for (const double sgn : {-2.0, 2.0}) {
        std::array<double, 4> y = x;
        y[static_cast<std::size_t>(k)] += sgn * h[static_cast<std::size_t>(k)];
        if (region_of({y[0], y[1]}, W, y[2], y[3]) != region) interior = false;
      }
    }
    if (!interior) continue;
    const StrongeJacobian J = stronge_jacobian(s.in, s.params);
    ASSERT_EQ(J.region, region);
    EXPECT_LT((J.v_post - law(v, W, mu, e)).norm(), 1e-12 * (1.0 + v.norm()));
    // fourth-order central differences (steps h and 2h), so that the truncation error does not
    // reach 1e-7 where the square roots of Maps II/III curve strongly
    Eigen::Matrix<double, 2, 4> fd;
    for (int k = 0; k < 4; ++k) {
      const auto f = [&](double step) {
        std::array<double, 4> a = x;
        a[static_cast<std::size_t>(k)] += step;
        return law({a[0], a[1]}, W, a[2], a[3]);
      };
      const double hk = h[static_cast<std::size_t>(k)];
      fd.col(k) = (8.0 * (f(hk) - f(-hk)) - (f(2.0 * hk) - f(-2.0 * hk))) / (12.0 * hk);
    }
    Eigen::Matrix<double, 2, 4> exact;
    exact << J.d_v, J.d_mu_e;
    const double scale = 1.0 + exact.cwiseAbs().maxCoeff();
    EXPECT_LT((exact - fd).cwiseAbs().maxCoeff(), 1e-7 * scale)
        << "region " << region << "\nexact\n"
        << exact << "\nfd\n"
        << fd;
    if (region >= 3 && region <= 6) {
      EXPECT_EQ(J.d_v.row(0).norm(), 0.0);  // ends in stick: co-rank 1, exactly
      EXPECT_EQ(J.d_mu_e.row(0).norm(), 0.0);
    }
    ++seen[static_cast<std::size_t>(region)];
    ++checked;
  }
  for (int r = 1; r <= 10; ++r) EXPECT_GE(seen[static_cast<std::size_t>(r)], 200) << "region " << r;
}

TEST(StrongeJacobian, SidesAgreeOnTheBoundaries) {
  // on each boundary (located by bisection in v_T at v_N = −1), both regions' formulas give the
  // same v⁺ (every boundary is at least C⁰), and the same ∂v⁺/∂v⁻ across the C¹ ones
  testing::ImpactSampler rng(77);
  std::array<int, 15> seen{};
  for (int trial = 0; trial < 4000; ++trial) {
    const ContactMatrix W = rng.general_W();
    const double mu = rng.uniform(0.05, 3.0), e = rng.uniform(0.05, 0.95);
    int prev = region_of({-6.0, -1.0}, W, mu, e);
    double s_prev = -6.0;
    for (int k = 1; k <= 300; ++k) {
      const double s = -6.0 + 12.0 * (k + 0.3183) / 300.0;
      const int reg = region_of({s, -1.0}, W, mu, e);
      if (reg != prev && prev > 0 && reg > 0) {
        for (std::size_t b = 0; b < stronge_boundaries().size(); ++b) {
          const RegionBoundary& bd = stronge_boundaries()[b];
          if (!((bd.lower == prev && bd.upper == reg) || (bd.lower == reg && bd.upper == prev)))
            continue;
          double lo = s_prev, hi = s;
          for (int i = 0; i < 80; ++i) {
            const double mid = 0.5 * (lo + hi);
            (region_of({mid, -1.0}, W, mu, e) == prev ? lo : hi) = mid;
          }
          const Vec2 v{0.5 * (lo + hi), -1.0};
          const StrongeJacobian a = stronge_jacobian({v, W}, {mu, e}, prev);
          const StrongeJacobian c = stronge_jacobian({v, W}, {mu, e}, reg);
          const double scale = 1.0 + a.d_v.cwiseAbs().maxCoeff() + c.d_v.cwiseAbs().maxCoeff();
          EXPECT_LT((a.v_post - c.v_post).norm(), 1e-8 * scale)
              << prev << "|" << reg << " at v_T = " << v.x();
          if (bd.c1) {
            EXPECT_LT((a.d_v - c.d_v).cwiseAbs().maxCoeff(), 1e-5 * scale)
                << "C1 boundary " << prev << "|" << reg << "\n"
                << a.d_v << "\n\n"
                << c.d_v;
          }
          ++seen[b];
        }
      }
      prev = reg;
      s_prev = s;
    }
  }
  int boundaries_seen = 0;
  for (const int n : seen) boundaries_seen += n > 0 ? 1 : 0;
  EXPECT_GE(boundaries_seen, 10);  // those crossed by a line in v_T (loss of stick is in μ)
}

TEST(StrongeForcedRegion, IsTheClassifiedLawInItsRegionAndTheRegionFormulaElsewhere) {
  // ImpactParams::forced_region: in the classified region the law is unchanged bit for bit;
  // forced to another region it applies that region's formula (= stronge_jacobian's v⁺, the
  // same maps) and reports that region
  testing::ImpactSampler rng(5150);
  int forced_elsewhere = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const testing::RandomImpact s = rng.general_impact();
    if (s.params.mu <= 0.0 || s.in.v_pre.x() == 0.0) continue;
    const ImpactOutcome free = stronge_closed_form(s.in, s.params);
    ImpactParams forced = s.params;
    forced.forced_region = free.region;
    const ImpactOutcome same = stronge_closed_form(s.in, forced);
    EXPECT_EQ(same.v_post, free.v_post);
    EXPECT_EQ(same.Lambda, free.Lambda);
    // another region of the same initial slip direction, whose rate constants do not vanish
    const int other = free.region % 2 == 1 ? 1 + 2 * (trial % 5) : 2 + 2 * (trial % 5);
    if (other == free.region) continue;
    forced.forced_region = other;
    const ImpactOutcome o = stronge_closed_form(s.in, forced);
    if (!o.v_post.allFinite()) continue;  // e.g. k_T = 0 of a two-segment formula
    EXPECT_EQ(o.region, other);
    const StrongeJacobian J = stronge_jacobian(s.in, s.params, other);
    // the same maps in another order of operations (the law multiplies by reciprocals, the
    // Jacobian divides): they agree to round-off times the conditioning of a region forced
    // outside its own, where a = (k_N/k_T) v_T − v_N cancels with |v_T/k_T| up to ~100 |v⁻|
    const RateConstants k = RateConstants::make(s.in.W, s.params.mu);
    const bool positive = other % 2 == 1;
    const double k_T = positive ? k.k_T_pos : k.k_T_neg;
    const double k_N = positive ? k.k_N_pos : k.k_N_neg;
    const double conditioning =
        1.0 + std::abs(s.in.v_pre.x() / k_T) * std::abs(k_N) / s.in.v_pre.norm();
    EXPECT_LT((o.v_post - J.v_post).norm(), 1e-12 * conditioning * (1.0 + o.v_post.norm()))
        << other;
    ++forced_elsewhere;
  }
  EXPECT_GT(forced_elsewhere, 1000);
  ImpactParams bad{0.5, 0.5};
  bad.forced_region = 11;
  EXPECT_THROW(validate(ImpactInput{{1.0, -1.0}, {1.0, 0.0, 1.0}}, bad), InvalidArgument);
}

TEST(StrongeJacobian, RejectsABadRegion) {
  EXPECT_THROW((void)stronge_jacobian({{1.0, -1.0}, {1.0, 0.0, 1.0}}, {0.5, 0.5}, 11),
               InvalidArgument);
}

}  // namespace
}  // namespace clatter
