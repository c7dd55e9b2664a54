// The slender rod on the oscillating floor of the seeds ([BP] §4, [B] §5.3; m = 1, L = 1,
// I = 1/3, A = 1, g = 9.81) simulated by the hybrid engine: every impact is the impact-law
// library's map, sustained sliding holds the constraint, no impact gains energy, Figs 5 and 6,
// and the tangential stick / slip reversal during sustained contact that the seeds lack.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/laws/impulse_marcher.hpp"
#include "clatter/laws/stronge.hpp"
#include "clatter/model/planar_body.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

model::PlanarBodyModel rod(double w, double e, double mu, double A = 1.0) {
  model::Surface s;
  s.amplitude = A;
  s.omega = w;
  return model::make_rod(1.0, 1.0, kG, s, {LawKind::kStronge, {mu, e}});
}

TEST(RodOnFloor, EveryImpactIsStrongesLawByAnIndependentRoute) {
  // the first impacts of a spinning drop: each event's (v⁻, v⁺, Λ, region) against Stronge's law
  // by the other route — integration in the normal impulse (laws/impulse_marcher.hpp, not the
  // closed form the engine calls), its region read off the itinerary — applied to the rod end at
  // the configuration of the event through the contact module's own kinematics ([B] §3.2), to
  // 1e-9 (the two routes agree to 1e-10 relative, docs/laws.md)
  const double w = 4.405, e = 0.8, mu = 0.5;
  const auto model = rod(w, e, mu);
  SimulationOptions o;
  o.t_end = 30.0;
  TrajectoryRecorder rec;
  const SimulationResult r = simulate(model, {0.0, {0.0, 3.0, 0.6}, {0.3, 0.0, 2.0}}, o, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime);
  int checked = 0;
  for (const EventRecord& ev : rec.events) {
    if (ev.kind != EventKind::kImpact || ev.other >= 0) continue;
    const model::BodyContact bc =
        model::rod_end_contact(model::slender_rod(1.0, 1.0), 1.0, ev.q.z(), ev.contact + 1);
    const Vec2 floor_velocity{0.0, model.surface().hdot(ev.t)};
    const ImpactInput in{bc.contact_velocity(ev.qd_pre) - floor_velocity, bc.W()};
    const ImpactOutcome lib = stronge_marcher(in, {mu, e});
    const double scale = 1.0 + in.v_pre.norm();
    EXPECT_NEAR((ev.v_pre - in.v_pre).norm(), 0.0, 1e-12 * scale);
    EXPECT_NEAR((ev.v_post - lib.v_post).norm(), 0.0, 1e-9 * scale);
    EXPECT_NEAR((ev.Lambda - lib.Lambda).norm(), 0.0, 1e-9 * scale);
    EXPECT_NEAR((ev.qd_post - (ev.qd_pre + bc.velocity_jump(lib.Lambda))).norm(), 0.0,
                1e-9 * scale);
    EXPECT_EQ(ev.region, region_from_itinerary(lib));
    // the invariants of every impact
    EXPECT_LE(ev.delta_energy, 1e-12 * scale * scale);
    EXPECT_LE(std::abs(ev.Lambda.x()), mu * ev.Lambda.y() * (1.0 + 1e-12));
    EXPECT_GE(ev.v_post.y(), 0.0);
    ++checked;
  }
  EXPECT_GT(checked, 20);
}

TEST(RodOnFloor, SustainedSlidingHoldsTheConstraintAndSticksAtTheCoulombTime) {
  // the rod flat on a fixed floor, both ends sliding at 10 m/s with μ = 0.0098: the ends stay on
  // the floor (|d|, |ḋ| < 1e-9 over > 100 time units) and stop at t = v₀/(μg) = 104.0, then stick
  const double mu = 0.0098, v0 = 10.0;
  const auto model = rod(0.0, 0.8, mu, 0.0);
  SimulationOptions o;
  o.t_end = 110.0;
  TrajectoryRecorder rec;
  const SimulationResult r = simulate(model, {0.0, {0.0, 0.0, 0.0}, {v0, 0.0, 0.0}}, o, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  EXPECT_LT(r.max_gap_drift, 1e-9);
  EXPECT_LT(r.max_velocity_drift, 1e-9);
  ASSERT_GE(rec.events.size(), 2u);
  for (const EventRecord& ev : rec.events) {
    EXPECT_EQ(ev.kind, EventKind::kStick);
    EXPECT_NEAR(ev.t, v0 / (mu * kG), 1e-8);
  }
  EXPECT_EQ(r.modes[0], ContactMode::kStick);
  EXPECT_EQ(r.modes[1], ContactMode::kStick);
  EXPECT_NEAR(r.q.x(), 0.5 * v0 * v0 / (mu * kG), 1e-6);
  // the friction loss is the initial kinetic energy
  EXPECT_NEAR(r.energy.friction_loss, 0.5 * v0 * v0, 1e-6);
  EXPECT_NEAR(r.energy.balance(), 0.0, 1e-8);
}

TEST(RodOnFloor, TiltedDropComesToRestFlat) {
  // a rod dropped tilted on a fixed floor (e* = 0.5, μ = 0.3, G = (0, 1.5), θ = 0.8, ẋ = 0.5):
  // its ends bounce alternately, each end's chatter is ended at its accumulation point, the
  // contacts close, and the rod comes to rest flat with both ends sticking. Every impact is
  // dissipative and Coulomb-admissible, the closed ends stay on the floor and the ledger balances.
  const auto model = rod(0.0, 0.5, 0.3, 0.0);
  SimulationOptions o;
  o.t_end = 5.0;
  TrajectoryRecorder rec;
  const SimulationResult r = simulate(model, {0.0, {0.0, 1.5, 0.8}, {0.5, 0.0, 0.0}}, o, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  EXPECT_EQ(r.modes[0], ContactMode::kStick);
  EXPECT_EQ(r.modes[1], ContactMode::kStick);
  EXPECT_NEAR(std::remainder(r.q.z(), kPi), 0.0, 1e-9);
  EXPECT_NEAR(r.q.y(), 0.0, 1e-9);
  EXPECT_LT(r.qd.norm(), 1e-9);
  EXPECT_GT(r.chatter_sequences, 2);
  EXPECT_LT(r.events, 200);
  EXPECT_LT(r.max_gap_drift, 1e-9);
  EXPECT_LT(r.max_velocity_drift, 1e-9);
  // the contacts of a simultaneous (multi-point) collision are recorded one by one at the same
  // instant: each one's share ½Λ·(v⁻ + v⁺) may be positive, their sum is the kinetic-energy change
  double collision_dE = 0.0;
  double collision_t = -1.0;
  for (const EventRecord& ev : rec.events) {
    if (ev.kind != EventKind::kImpact && ev.kind != EventKind::kClosure) continue;
    if (ev.t != collision_t || ev.other < 0) {
      EXPECT_LE(collision_dE, 1e-12) << "collision at t = " << collision_t;
      collision_dE = 0.0;
    }
    collision_t = ev.t;
    collision_dE += ev.delta_energy;
    EXPECT_LE(std::abs(ev.Lambda.x()), 0.3 * std::abs(ev.Lambda.y()) * (1.0 + 1e-12) + 1e-15);
  }
  EXPECT_LE(collision_dE, 1e-12);
  EXPECT_NEAR(r.energy.balance(), 0.0, 1e-12);
  EXPECT_NEAR(r.energy.total(), 0.0, 1e-9);  // at rest on the floor: T = 0, V = m g y = 0
}

TEST(RodOnFloor, FlatLandingIsSymmetricAndRestsAtTheZenoTime) {
  // the rod dropped flat (θ = 0) from 1 m on a fixed floor with e* = 0.8, μ = 0.3 and ẋ = 1: both
  // ends land together. The default two-contact rule (multi-point law of [R]) gives equal impulses,
  // so no spin appears; the pair's bounces accumulate at √(2h₀/g)(1 + e*)/(1 − e*) exactly as a
  // ball's (the free acceleration is constant), and the friction impulse of the first landing
  // stops the sliding (μ(1 + e*)√(2gh₀) > ẋ): the rod rests at x = ẋ √(2h₀/g).
  const auto model = rod(0.0, 0.8, 0.3, 0.0);
  SimulationOptions o;
  o.t_end = 5.0;
  TrajectoryRecorder rec;
  const SimulationResult r = simulate(model, {0.0, {0.0, 1.0, 0.0}, {1.0, 0.0, 0.0}}, o, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  const double t_fall = std::sqrt(2.0 / kG);
  double t_end_chatter = -1.0;
  for (const EventRecord& ev : rec.events) {
    EXPECT_NEAR(ev.qd_post.z(), 0.0, 1e-15);  // no spin beyond round-off
    if (ev.kind == EventKind::kChatterEnd) t_end_chatter = ev.t;
  }
  EXPECT_NEAR(t_end_chatter, t_fall * 1.8 / 0.2, 1e-9);
  EXPECT_EQ(r.modes[0], ContactMode::kStick);
  EXPECT_EQ(r.modes[1], ContactMode::kStick);
  EXPECT_NEAR(r.q.x(), t_fall, 1e-9);
  EXPECT_NEAR(r.q.z(), 0.0, 1e-15);
  // with single-contact impacts one after another the same landing spins the rod
  o.two_contact = TwoContactRule::kSequential;
  TrajectoryRecorder seq;
  (void)simulate(model, {0.0, {0.0, 1.0, 0.0}, {1.0, 0.0, 0.0}}, o, &seq);
  ASSERT_GE(seq.events.size(), 2u);
  EXPECT_GT(std::abs(seq.events[1].qd_post.z()), 0.1);
}

// The time at which the rod turns symmetric is a property of a chaotic transient: it depends on
// the start and, through the sensitivity of the motion, on round-off (a change of event location
// by an ulp changes it). The seeds report it for one unstated start each. The tests therefore
// state the seeds' claims over 16 documented starts, G = (0, 3), θ₀ = 0.05, 0.1, 0.2, …, 1.5,
// θ̇₀ = 1, t₀ = 0, with the seeds' symmetric reduction (θ_crit = 1e-3).
std::vector<double> symmetric_times(double w, double e, double mu, double t_end,
                                    const std::vector<std::pair<double, double>>& starts) {
  const auto model = rod(w, e, mu);
  SimulationOptions o;
  o.t_end = t_end;
  o.two_contact = TwoContactRule::kSymmetric;
  std::vector<double> times;
  for (const auto& [theta0, omega0] : starts) {
    TrajectoryRecorder rec;
    const SimulationResult r =
        simulate(model, {0.0, {0.0, 3.0, theta0}, {0.0, 0.0, omega0}}, o, &rec);
    EXPECT_EQ(r.reason, StopReason::kEndTime) << r.message;
    double t_sym = std::numeric_limits<double>::infinity();
    for (const EventRecord& ev : rec.events) {
      if (ev.kind == EventKind::kSymmetric && !std::isfinite(t_sym)) t_sym = ev.t;
      if (ev.kind == EventKind::kImpact) {
        EXPECT_LE(ev.delta_energy, 1e-12 * (1.0 + std::abs(ev.energy)));
      }
    }
    if (std::isfinite(t_sym)) {
      // once symmetric, always symmetric ([BP] §5.3: S4/S5 are absorbing)
      EXPECT_NEAR(std::remainder(r.q.z(), kPi), 0.0, 1e-12);
      EXPECT_EQ(r.qd.z(), 0.0);
    }
    EXPECT_NEAR(r.energy.balance(), 0.0, 1e-8);
    times.push_back(t_sym);
  }
  return times;
}

// the 16 documented starts: θ₀ = 0.05, 0.1, 0.2, …, 1.5 with θ̇₀ = 1
std::vector<std::pair<double, double>> sixteen_starts() {
  std::vector<std::pair<double, double>> s;
  for (const double theta0 :
       {0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5})
    s.emplace_back(theta0, 1.0);
  return s;
}

// 96 starts: θ₀ = 0.05 … 1.5 (24 values) × θ̇₀ ∈ {−2, −1, 1, 2}
std::vector<std::pair<double, double>> many_starts() {
  std::vector<std::pair<double, double>> s;
  for (int i = 0; i < 24; ++i)
    for (const double omega0 : {-2.0, -1.0, 1.0, 2.0})
      s.emplace_back(0.05 + 1.45 * i / 23.0, omega0);
  return s;
}

// the maximum-likelihood rate of an exponential escape from the asymmetric motion, from times
// censored at t_end (∞ = still asymmetric): λ = (escapes) / (total time at risk); k = escapes
double escape_rate(const std::vector<double>& t, double t_end, int& k) {
  double exposure = 0.0;
  k = 0;
  for (const double x : t) {
    exposure += std::min(x, t_end);
    k += std::isfinite(x) ? 1 : 0;
  }
  return k / exposure;
}

std::string list(const std::vector<double>& v) {
  std::ostringstream s;
  for (const double x : v) s << x << ' ';
  return s.str();
}

TEST(RodOnFloor, Fig5CaseBecomesSymmetric) {
  // [BP] Fig. 5 (ω = 4.4050, e* = 0.8, μ = 0.05): the ends merge at t ≈ 302 and stay merged.
  // Here: nearly every start (at least 14 of 16) turns symmetric by t = 3000 and stays so. The
  // seeds' 302 itself is one sample of a chaotic escape time: it is compared with the fitted
  // distribution in EscapeFromAsymmetryIsSlowerInTheFig6CaseAndTheSeedsTimesAreTypical.
  std::vector<double> t = symmetric_times(4.4050, 0.8, 0.05, 3000.0, sixteen_starts());
  RecordProperty("t_symmetric", list(t));
  const auto finite = std::count_if(t.begin(), t.end(), [](double x) { return std::isfinite(x); });
  EXPECT_GE(finite, 14) << list(t);
}

TEST(RodOnFloor, EscapeFromAsymmetryIsSlowerInTheFig6CaseAndTheSeedsTimesAreTypical) {
  // The seeds' two numbers are single samples of a chaotic transient's escape time from the
  // asymmetric motion ([BP] Fig. 5: symmetric at t ≈ 302; Fig. 6: "still asymmetric at t = 790,
  // possibly never"). What they claim about the physics, tested over 96 starts per case (θ₀ ∈
  // [0.05, 1.5] × θ̇₀ ∈ {±1, ±2}, to t = 3000), with the escape taken as memoryless (an
  // exponential time; its rate λ by maximum likelihood with censoring):
  //  - the Fig. 6 case (e* = 0.9, μ = 0.5) escapes more slowly than the Fig. 5 case (e* = 0.8,
  //    μ = 0.05): log(λ₅/λ₆) more than 1.645 standard errors above 0 (one-sided 5 %);
  //  - 302 lies inside the central 90 % of the fitted Fig. 5 distribution, and "still asymmetric
  //    at 790" has probability above 5 % under the fitted Fig. 6 one.
  // Each can fail: a rod whose rotation were not removed by friction would never escape
  // (λ = 0); equal physics in the two cases would give no significant difference.
  const double t_end = 3000.0;
  const std::vector<double> t5 = symmetric_times(4.4050, 0.8, 0.05, t_end, many_starts());
  const std::vector<double> t6 = symmetric_times(4.40572, 0.9, 0.5, t_end, many_starts());
  int k5 = 0, k6 = 0;
  const double l5 = escape_rate(t5, t_end, k5), l6 = escape_rate(t6, t_end, k6);
  RecordProperty("rates", std::to_string(l5) + " " + std::to_string(l6));
  ASSERT_GT(k5, 10);
  ASSERT_GT(k6, 0);
  const double z = std::log(l5 / l6) / std::sqrt(1.0 / k5 + 1.0 / k6);
  EXPECT_GT(z, 1.645) << "rates " << l5 << " (Fig. 5) and " << l6 << " (Fig. 6), escapes " << k5
                      << " and " << k6 << " of 96";
  EXPECT_LT(-std::log(0.95) / l5, 302.0);
  EXPECT_GT(-std::log(0.05) / l5, 302.0);
  EXPECT_GT(std::exp(-790.0 * l6), 0.05);
  if (std::getenv("CLATTER_PRINT") != nullptr)
    std::printf("escape rates: Fig 5 %.3e (%d of 96), Fig 6 %.3e (%d of 96), z = %.2f\n", l5, k5,
                l6, k6, z);
}

// --- tangential stick and slip reversal during sustained contact (beyond the seeds) -----------

// a point mass on a belt moving with u(t) = U sin Ωt (U = 1, Ω = 2π, so the belt accelerates at
// up to UΩ = 6.3 m/s²): it slides, and at each v_T = 0 it sticks if |u̇| ≤ μg, else it reverses;
// a stuck mass slips again when |u̇| exceeds μg. Reference: the same 1-D Coulomb motion,
// ẍ = −μ g sgn(v_T), stepped on a fine grid (1e-5 s) with bisection at the sign changes,
// independent of the engine's event location. μ = 0.1 gives reversals, μ = 0.5 stick–slip.
struct BeltEvent {
  double t;
  EventKind kind;
};

std::vector<BeltEvent> belt_reference(double U, double W, double mu, double t_end) {
  const auto u = [&](double t) { return U * std::sin(W * t); };
  const auto udot = [&](double t) { return U * W * std::cos(W * t); };
  const auto bisect = [](auto&& positive, double a, double b) {
    for (int i = 0; i < 100; ++i) {
      const double m = 0.5 * (a + b);
      (positive(m) ? a : b) = m;
    }
    return 0.5 * (a + b);
  };
  std::vector<BeltEvent> ref;
  const double dt = 1e-5;
  // at t = 0 the mass rests on the belt, which accelerates at UΩ > μg: it slides backwards from
  // the start (the initial mode, not an event)
  double t = 0.0, x_dot = 0.0, s = -1.0;
  while (t < t_end) {
    if (s == 0.0) {  // stuck: moves with the belt until |u̇| exceeds μg
      const auto holds = [&](double tt) { return std::abs(udot(tt)) <= mu * kG; };
      double tt = t + dt;
      while (tt < t_end && holds(tt)) tt += dt;
      if (tt >= t_end) break;
      t = bisect(holds, tt - dt, tt);
      x_dot = u(t);
      s = -std::copysign(1.0, udot(t));
      ref.push_back({t, EventKind::kSlipOnset});
      continue;
    }
    const double t0 = t, v0 = x_dot, s0 = s;
    const auto slipping = [&](double tt) {
      return s0 * (v0 - s0 * mu * kG * (tt - t0) - u(tt)) > 0.0;
    };
    double tt = t0 + dt;
    while (tt < t_end && slipping(tt)) tt += dt;
    if (tt >= t_end) break;
    t = bisect(slipping, tt - dt, tt);
    x_dot = u(t);
    if (std::abs(udot(t)) <= mu * kG) {
      s = 0.0;
      ref.push_back({t, EventKind::kStick});
    } else {
      s = -std::copysign(1.0, udot(t));
      ref.push_back({t, EventKind::kSlipReversal});
    }
  }
  return ref;
}

TEST(BallOnBelt, StickAndSlipReversalFollowCoulomb) {
  const double U = 1.0, W = 2.0 * kPi;
  int reversals = 0, sticks = 0;
  for (const double mu : {0.1, 0.3, 0.5}) {
    model::Surface s;
    s.belt_amplitude = U;
    s.belt_omega = W;
    const auto model = model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {mu, 0.5}});
    SimulationOptions o;
    o.t_end = 3.0;
    TrajectoryRecorder rec;
    const SimulationResult r = simulate(model, {0.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}, o, &rec);
    ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
    const std::vector<BeltEvent> ref = belt_reference(U, W, mu, 3.0);
    ASSERT_EQ(rec.events.size(), ref.size()) << "mu = " << mu;
    for (std::size_t k = 0; k < ref.size(); ++k) {
      EXPECT_EQ(rec.events[k].kind, ref[k].kind) << "mu = " << mu << ", event " << k;
      EXPECT_NEAR(rec.events[k].t, ref[k].t, 1e-9) << "mu = " << mu << ", event " << k;
      reversals += ref[k].kind == EventKind::kSlipReversal;
      sticks += ref[k].kind == EventKind::kStick;
    }
    // friction only dissipates: the ledger balances with the belt's work
    EXPECT_GE(r.energy.friction_loss, 0.0);
    EXPECT_NEAR(r.energy.balance(), 0.0, 1e-9);
  }
  EXPECT_GE(reversals, 2);
  EXPECT_GE(sticks, 2);
}

}  // namespace
}  // namespace clatter::hybrid
