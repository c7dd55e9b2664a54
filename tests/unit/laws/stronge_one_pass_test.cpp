// Stronge's closed form in one pass (src/laws/stronge.cpp, the route of every impact with
// v_T⁻ ≠ 0) against the readable form it replaced: stronge::classify for the region, and
// stronge_closed_form with that region forced (classification_of_region, then Map I/II/III and
// the segment impulses in the order of [NDC] §3.4). Two evaluations of the same formulas in
// different orders (reciprocals multiplied instead of divisions), so they agree to round-off:
// a few ulp of the scale, except where the square root of Maps II/III meets a near-zero
// argument (S² ≈ 0 at the boundary where v_N⁺ → 0), where an absolute error ε·|v|² in S² becomes
// √ε·|v| in S. The marcher comparison of every region is tests/property/stronge_property_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "clatter/laws/rate_constants.hpp"
#include "clatter/laws/stronge.hpp"
#include "support/random_inputs.hpp"

namespace clatter {
namespace {

// relative to |v⁻| (velocities) or to |Λ| (impulses): 1e-13 away from S² ≈ 0; near it, √ε
constexpr double kUlps = 1e-13;
constexpr double kNearZeroRoot = 3e-8;

void compare(const ImpactInput& in, const ImpactParams& p, std::array<int, 11>& seen,
             double& worst) {
  const ImpactOutcome fast = stronge_closed_form(in, p);
  const int region = stronge::classify(in.v_pre, in.W, RateConstants::make(in.W, p.mu), p.e).region;
  ASSERT_EQ(fast.region, region) << "v=(" << in.v_pre.transpose() << ") W=(" << in.W.A << ","
                                 << in.W.B << "," << in.W.C << ") mu=" << p.mu << " e=" << p.e;
  ++seen[static_cast<std::size_t>(region)];
  ImpactParams forced = p;
  forced.forced_region = region;
  const ImpactOutcome ref = stronge_closed_form(in, forced);
  const double v = in.v_pre.norm();
  const double L = std::max(ref.Lambda.norm(), 1e-300);
  // the second segment's square root near zero: v_N⁺ small against |v⁻|
  const double tol = ref.v_post.y() < 1e-4 * v ? kNearZeroRoot : kUlps;
  const double dv = (fast.v_post - ref.v_post).norm() / v;
  const double dL = (fast.Lambda - ref.Lambda).norm() / L;
  worst = std::max({worst, dv, dL});
  EXPECT_LE(dv, tol) << "region " << region;
  EXPECT_LE(dL, tol) << "region " << region;
  EXPECT_LE(std::abs(fast.p_N_compression - ref.p_N_compression), tol * L) << "region " << region;
  EXPECT_LE(std::abs(fast.delta_energy - ref.delta_energy),
            tol * in.W.energy_norm(in.v_pre) + 1e-300)
      << "region " << region;
  EXPECT_EQ(fast.status, ref.status);
  EXPECT_EQ(fast.ends_in_stick, ref.ends_in_stick);
  ASSERT_EQ(fast.n_segments, ref.n_segments);
  for (int k = 0; k < fast.n_segments; ++k) {
    const auto& a = fast.segments[static_cast<std::size_t>(k)];
    const auto& b = ref.segments[static_cast<std::size_t>(k)];
    EXPECT_EQ(a.mode, b.mode) << "region " << region << " segment " << k;
    EXPECT_LE(std::abs(a.p_N_begin - b.p_N_begin), tol * L);
    EXPECT_LE(std::abs(a.p_N_end - b.p_N_end), tol * L);
  }
}

TEST(StrongeOnePass, EqualsTheReadableFormInEveryRegion) {
  testing::ImpactSampler rng(20261129);
  std::array<int, 11> seen{};
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const testing::RandomImpact r = i % 2 == 0 ? rng.rod_impact() : rng.general_impact();
    if (r.in.v_pre.x() == 0.0) continue;  // the readable form's own route
    compare(r.in, r.params, seen, worst);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // every region a slipping impact can start in (0 needs v_T⁻ = 0)
  for (int region = 1; region <= 10; ++region)
    EXPECT_GT(seen[static_cast<std::size_t>(region)], 100) << "region " << region;
  RecordProperty("worst_relative_difference", std::to_string(worst));
}

}  // namespace
}  // namespace clatter
