// [BP] Fig. 8(b) / [B] Fig 5.7(b): the brute-force bifurcation diagram of the rod on A sin ωt
// (e* = 0.8, A = 1, μ = 0.05, the seeds' symmetric reduction, their start: the symmetric drop
// G = (0, 7.145273725460764) at t = 0.705258553846737, [B] App. A). The long-term motion is the
// symmetric one, i.e. the bouncing ball with e = e*, so the period-1 orbit period-doubles at the
// closed-form ω_PD = 3.2411 ([B] §6.3 [DERIVED]) and the motion is chaotic beyond the seeds'
// onset of chaos at ω ≈ 3.8. The full diagram (ω ∈ [3, 5]) is `clatter reproduce bp-fig8b`.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::analysis {
namespace {

TEST(BpFig8, RodPeriodDoublesAtTheClosedFormFrequencyAndIsChaoticAboveTheSeedsOnset) {
  const io::Scenario sc = io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/bp_fig8b.toml");
  const double e = 0.8, g = 9.81, pi = std::numbers::pi;
  const double g_sn = pi * (1.0 - e) / (1.0 + e);
  const double omega_pd = std::sqrt(
      g * std::sqrt(g_sn * g_sn + std::pow(2.0 * (1.0 + e * e) / std::pow(1.0 + e, 2), 2)));
  EXPECT_NEAR(omega_pd, 3.2411, 5e-5);

  // along the period-1 branch (continuation in ω, as the seeds' sweeps)
  SweepOptions sw;
  sw.omega_from = 3.0;
  sw.omega_to = 3.3;
  sw.n = 7;  // Δω = 0.05: ω_PD lies between 3.2 and 3.25 (the grid avoids its neighbourhood,
             // where the multiplier is near −1 and transients decay too slowly)
  sw.transient_periods = 600.0;
  sw.record_periods = 100.0;
  sw.continuation = true;
  for (const SweepPoint& p : sweep_omega(*sc.model, sc.initial, sc.options, sw)) {
    EXPECT_EQ(p.reason, hybrid::StopReason::kEndTime);
    EXPECT_EQ(p.distinct, p.omega < omega_pd ? 1 : 2) << "omega = " << p.omega;
  }
  // beyond the onset of chaos: six values of ω in [3.9, 4.15] (the diagram has windows, as Fig. 8
  // shows: `clatter sweep examples/bp_fig8b.toml --omega 3.9 4.6 15` finds 6 apexes at 4.25)
  sw.omega_from = 3.9;
  sw.omega_to = 4.15;
  sw.n = 6;
  sw.continuation = false;
  for (const SweepPoint& p : sweep_omega(*sc.model, sc.initial, sc.options, sw)) {
    // no apex height repeats (to 1e-6) among the recorded ones: not periodic. (Counted as −1
    // above 64 distinct heights; a run records 40–100 apexes, depending on the chaotic motion.)
    EXPECT_GT(p.apex_heights.size(), 30u);
    EXPECT_TRUE(p.distinct == -1 || p.distinct == static_cast<int>(p.apex_heights.size()))
        << "omega = " << p.omega << ": " << p.distinct << " distinct of " << p.apex_heights.size();
  }
}

TEST(BpFig8, RodAtE09FollowsTheLocatedPeriodDoublings) {
  // [BP] Fig. 8(a) (e* = 0.9): the brute-force diagram of the full rod, started tilted and
  // spinning (θ₀ = 0.3, θ̇₀ = 1: an asymmetric start), against the period doublings located
  // exactly by continuation on the rod model (tests/unit/analysis/orbit_branch_test.cpp: PD₁ =
  // 3.1575320 = the closed form; PD₂ = 3.4193474 on the doubled branch; PD₃ = 3.4646999 from
  // docs/analysis.md's cascade table): one apex height between PD₁'s left and PD₁, two up to PD₂,
  // four up to PD₃. The rod must first lose its rotation (friction at the impacts, [BP] §4.3)
  // for the symmetric motion to be reached: the tilted start tests that too (at ω = 3.3 it turns
  // symmetric after 146 s, 77 forcing periods, in 1500 of transient). Values 0.01–0.02
  // from a PD are avoided (the multiplier near −1 makes transients decay too slowly).
  // Below PD₁ the period-1 orbit is not alone: for Aω² < g (ω < 3.132) the rod can come to rest
  // on the table, and above it can hop (chatter back onto the table and ride it every period).
  // Which of them a tilted start reaches depends on its chaotic transient, down to round-off
  // (a change of the flight search's step sequence moved it from one to the other), so the value
  // below PD₁ starts from the seeds' symmetric drop, which reaches the period-1 orbit.
  io::Scenario sc = io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/bp_fig8a.toml");
  hybrid::InitialState start = sc.initial;
  ASSERT_EQ(start.q.size(), 3);
  start.q(2) = 0.3;
  start.qd = model::VecQ::Zero(3);
  start.qd(2) = 1.0;
  struct Expect {
    double omega;
    int distinct;
    bool tilted;
  };
  for (const Expect x : {Expect{3.14, 1, false}, Expect{3.30, 2, true}, Expect{3.40, 2, true},
                         Expect{3.445, 4, true}}) {
    SweepOptions sw;
    sw.omega_from = sw.omega_to = x.omega;
    sw.n = 1;
    sw.transient_periods = 1500.0;
    sw.record_periods = 100.0;
    const std::vector<SweepPoint> pts =
        sweep_omega(*sc.model, x.tilted ? start : sc.initial, sc.options, sw);
    ASSERT_EQ(pts.size(), 1U);
    EXPECT_EQ(pts[0].reason, hybrid::StopReason::kEndTime);
    EXPECT_EQ(pts[0].distinct, x.distinct) << "omega = " << x.omega;
  }
}

}  // namespace
}  // namespace clatter::analysis
