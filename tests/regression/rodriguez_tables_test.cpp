// Numbers of [R] Rodriguez, PhD thesis 2014 (seed 004; digest spec/004_multibody.md): Table 6.1
// (planar ball), Tables 6.2–6.3 (rocking block), Fig. 6.12 and Table 6.4 (three-ball cradle),
// Tables D.1–D.3 (five-ball cradle), and the event structure of the 3-D examples (§8.1–8.2),
// which the thesis gives only as figures. What does not reproduce is stated where it is tested
// and in docs/multipoint.md.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "clatter/multipoint/bodies.hpp"
#include "clatter/multipoint/collision.hpp"

namespace clatter::multipoint {
namespace {

constexpr double kL = 0.30;  // pendulum length of every cradle (Tables 6.5, D.3)

CollisionResult run(const Input& in, std::vector<double> e_star,
                    WorkDefinition w = WorkDefinition::kThesis) {
  Params p;
  p.e_star = std::move(e_star);
  p.work = w;
  return resolve_collision(in, p);
}

Input cradle_of(std::vector<double> masses, double v_pre) {
  Cradle c;
  c.masses = std::move(masses);
  c.v_pre = v_pre;
  return cradle(c);
}

std::vector<int> actives(const EventResult& e, int k) {
  std::vector<int> a;
  for (int i = 0; i < k; ++i) {
    if (e.active[static_cast<std::size_t>(i)]) a.push_back(i);
  }
  return a;
}

// ---- Table 6.1: planar ball in a corner, e* = 0.715, μ_d = 0.35, μ_s = 0.6 ------------------

TEST(RodriguezTables, Table61BallWithinOnePercent) {
  // post-impact q̇ = (−5.504, 4.893, −9.786), v_t1 = −10.397, v_n1 = 4.893, v_t2 = 0.000 and the
  // wall leaving at 5.504 (the table's v_n2 = −5.504 in its own sign), with the thesis's normal
  // work (4.7), I = ½mR² (fitted, spec §9), one event with two shifts: the wall sticks, then the
  // ground slip-reverses (thesis §6.1, 6.4)
  const CollisionResult r = run(ball_in_corner({}), {0.715});
  ASSERT_EQ(r.status, Status::kOk);
  ASSERT_EQ(r.events.size(), 1u);
  const double q[3] = {-5.504, 4.893, -9.786};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.qdot_post[i], q[i], 0.01 * std::abs(q[i])) << i;
  EXPECT_NEAR(r.v_post[0], -10.397, 0.01 * 10.397);
  EXPECT_NEAR(r.v_post[1], 4.893, 0.01 * 4.893);
  EXPECT_NEAR(r.v_post[2], 0.0, 1e-9);
  EXPECT_NEAR(r.v_post[3], 5.504, 0.01 * 5.504);
  ASSERT_EQ(r.events[0].slip_changes.size(), 2u);
  EXPECT_EQ(r.events[0].slip_changes[0].kind, Transition::kStick);
  EXPECT_EQ(r.events[0].slip_changes[0].contact, 1);
  EXPECT_EQ(r.events[0].slip_changes[1].kind, Transition::kReversal);
  EXPECT_EQ(r.events[0].slip_changes[1].contact, 0);
  EXPECT_LT(r.kinetic_energy_post, r.kinetic_energy_pre);  // Fig. 6.2b: no energy gain
}

TEST(RodriguezTables, Table61BallWithTheIntegralWork) {
  // the other definition, ∫Σ v_N dΛ_N, gives q̇ = (−2.53, 4.07, −8.14) (spec §9 reconstruction):
  // 54 % off in q̇₁, so Table 6.1 needs the thesis's (4.7)
  const CollisionResult r = run(ball_in_corner({}), {0.715}, WorkDefinition::kIntegral);
  ASSERT_EQ(r.status, Status::kOk);
  const double q[3] = {-2.53, 4.07, -8.14};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.qdot_post[i], q[i], 0.005) << i;
}

// ---- Fig. 6.12, Table 6.4: three-ball cradle -------------------------------------------------

TEST(RodriguezTables, Fig612CradleCase1) {
  // m = 1 kg, e* = 1, v₁⁻ = 1.304 m/s: |p_nc| = 0.659 N·s, |p_nf| = 1.318 N·s (each contact),
  // q̇⁺ = (0, 0, 4.347) rad/s, one event; the same with either work definition
  for (const WorkDefinition w : {WorkDefinition::kThesis, WorkDefinition::kIntegral}) {
    const CollisionResult r = run(cradle_of({1, 1, 1}, 1.304), {1.0}, w);
    ASSERT_EQ(r.status, Status::kOk);
    ASSERT_EQ(r.events.size(), 1u);
    const EventResult& e = r.events[0];
    for (int c = 0; c < 2; ++c) {
      EXPECT_NEAR(e.Lambda_compression[2 * c + 1], 0.659, 5e-4) << "contact " << c;
      EXPECT_NEAR(e.Lambda[2 * c + 1], 1.318, 5e-4) << "contact " << c;
    }
    EXPECT_NEAR(r.qdot_post[0], 0.0, 5e-4);
    EXPECT_NEAR(r.qdot_post[1], 0.0, 5e-4);
    EXPECT_NEAR(r.qdot_post[2], 4.347, 5e-4);
  }
}

struct Table64Row {
  std::vector<double> e_star;
  double q[3];  // ball-centre speeds L q̇⁺ [m/s]
  double sum;   // Σ m (L q̇⁺)² [N·m]
};

TEST(RodriguezTables, Table64CradleCase2RowsAsPrinted) {
  // m = 0.166 kg, v₁⁻ = 1 m/s, two events (A, B, C then A, B); each row rounds to the printed
  // digits: (0.006, 0.069, 0.925 | 0.143), (0.021, 0.124, 0.855 | 0.124), (0.036, 0.106, 0.857 |
  // 0.124). Two values lie exactly on a rounding boundary, 0.8555 = (1 + 0.711)/2 and
  // 0.8575 = (1 + 0.715)/2, printed rounded down: the tolerance is half a unit of the last digit
  // plus round-off. Fig. 6.15: q̇⁺ = (0.019, 0.232, 3.083) rad/s for e* = 0.85; here
  // (0.0188, 0.2313, 3.0833), so 0.232 is 0.3 % off (the thesis's v₃ = 0.069 m/s is 0.230 rad/s)
  const std::vector<Table64Row> rows = {{{0.85}, {0.006, 0.069, 0.925}, 0.143},
                                        {{0.711}, {0.021, 0.124, 0.855}, 0.124},
                                        {{0.715, 0.488}, {0.036, 0.106, 0.857}, 0.124}};
  for (const Table64Row& row : rows) {
    const CollisionResult r = run(cradle_of({0.166, 0.166, 0.166}, 1.0), row.e_star);
    ASSERT_EQ(r.status, Status::kOk);
    ASSERT_EQ(r.events.size(), 2u);
    EXPECT_EQ(actives(r.events[0], 2), (std::vector<int>{0, 1}));
    EXPECT_EQ(actives(r.events[1], 2), (std::vector<int>{0}));
    double sum = 0.0;
    for (int b = 0; b < 3; ++b) {
      const double v = kL * r.qdot_post[b];
      EXPECT_NEAR(v, row.q[b], 5e-4 + 1e-12) << "e* = " << row.e_star[0] << " ball " << b;
      sum += 0.166 * v * v;
    }
    EXPECT_NEAR(sum, row.sum, 5e-4) << "e* = " << row.e_star[0];
  }
  const CollisionResult r = run(cradle_of({0.166, 0.166, 0.166}, 1.0), {0.85});
  const double rad[3] = {0.019, 0.232, 3.083};
  for (int b = 0; b < 3; ++b) EXPECT_NEAR(r.qdot_post[b], rad[b], 1e-3) << b;
}

// ---- App. D: five-ball cradle ----------------------------------------------------------------

TEST(RodriguezTables, TableD1FiveBallsCase1) {
  // m = 1 kg, e* = 1, v₁⁻ = 1 m/s: q̇⁺ = (0.00, 0.00, 0.00, 0.00, 1.00), one event, Σm q̇² kept
  const CollisionResult r = run(cradle_of({1, 1, 1, 1, 1}, 1.0), {1.0});
  ASSERT_EQ(r.status, Status::kOk);
  ASSERT_EQ(r.events.size(), 1u);
  const double q[5] = {0, 0, 0, 0, 1.0};
  for (int b = 0; b < 5; ++b) EXPECT_NEAR(kL * r.qdot_post[b], q[b], 5e-3) << b;
  EXPECT_NEAR(r.kinetic_energy_post, r.kinetic_energy_pre, 1e-9 * r.kinetic_energy_pre);
}

TEST(RodriguezTables, AppDFiveBallsCase2FourEvents) {
  // m = 1 kg, e* = 0.8 per event, v₁⁻ = 1.304 m/s: four events A–E, A–D, A–C, A–B and
  // q̇₁⁺ < … < q̇₅⁺; the speeds are the chain of two-body impacts v(1 ∓ e)/2 (spec Ex. 3b):
  // (0.00013, 0.00117, 0.0117, 0.117, 1.174) m/s
  const CollisionResult r = run(cradle_of({1, 1, 1, 1, 1}, 1.304), {0.8});
  ASSERT_EQ(r.status, Status::kOk);
  ASSERT_EQ(r.events.size(), 4u);
  for (int j = 0; j < 4; ++j)
    EXPECT_EQ(actives(r.events[static_cast<std::size_t>(j)], 4).size(), 4u - j);
  const double v = 1.304, e = 0.8;
  const double expected[5] = {
      v * std::pow((1 - e) / 2, 4), v * std::pow((1 - e) / 2, 3) * (1 + e) / 2,
      v * std::pow((1 - e) / 2, 2) * (1 + e) / 2, v * (1 - e) / 2 * (1 + e) / 2, v * (1 + e) / 2};
  const double printed[5] = {0.00013, 0.00117, 0.0117, 0.117, 1.174};
  for (int b = 0; b < 5; ++b) {
    EXPECT_NEAR(kL * r.qdot_post[b], expected[b], 1e-12) << b;
    EXPECT_NEAR(kL * r.qdot_post[b], printed[b],
                0.5 * std::pow(10.0, std::floor(std::log10(printed[b])) - 2))
        << b;
    if (b > 0) {
      EXPECT_LT(r.qdot_post[b - 1], r.qdot_post[b]);
    }
  }
}

TEST(RodriguezTables, TableD2FiveBallsCase3IsTheTwoBodyChain) {
  // ABACA, m = (0.045, 0.053, 0.045, 0.053, 0.045) kg, e* = 0.4, v₁⁻ = 1 m/s. The thesis prints
  // (0.046, 0.048, 0.113, 0.221, 0.525); this is NOT reproduced. The thesis's own constraint
  // p₃ = p₅ (B.33) gives every interior ball equal and opposite impulses, so with the work of
  // the normal impulses each event is a two-body Stronge impact between the first and the last
  // ball of the active chain, whose result is (0.005, 0.014, 0.051, 0.193, 0.700) (spec Ex. 3b);
  // clatter gives exactly that. (With the thesis's (4.7) work, which is not the energy change for
  // unequal masses, the result is (0.0069, 0.0136, 0.0536, 0.1897, 0.700), not the thesis's row
  // either.)
  const std::vector<double> m = {0.045, 0.053, 0.045, 0.053, 0.045};
  const CollisionResult r = run(cradle_of(m, 1.0), {0.4}, WorkDefinition::kIntegral);
  ASSERT_EQ(r.status, Status::kOk);
  ASSERT_EQ(r.events.size(), 4u);
  // independent: two-body frictionless impacts, Λ = (1 + e) m_a m_z/(m_a + m_z) v
  std::vector<double> v = {1.0, 0, 0, 0, 0};
  const double e = 0.4;
  for (int last = 4; last >= 1; --last) {
    const double ma = m[0], mz = m[static_cast<std::size_t>(last)];
    const double L = (1 + e) * ma * mz / (ma + mz) * v[0];
    v[static_cast<std::size_t>(last)] = L / mz;
    v[0] -= L / ma;
  }
  const double spec[5] = {0.005, 0.014, 0.051, 0.193, 0.700};
  for (int b = 0; b < 5; ++b) {
    EXPECT_NEAR(kL * r.qdot_post[b], v[static_cast<std::size_t>(b)], 1e-12) << b;
    EXPECT_NEAR(kL * r.qdot_post[b], spec[b], 5e-4) << b;
  }
}

// ---- Tables 6.2–6.3: rocking block -----------------------------------------------------------

double v2_pre(const CollisionResult& r) { return r.v_pre[3]; }

TEST(RodriguezTables, Table62FrictionlessBlockWithinThreePercent) {
  // m = 2.5 kg, b = 0.1087 m, h = 0.0645 m, μ = 0, e* = −0.803 then 0.654; pre-impact: rocking
  // about corner 1 at ω⁻ = −1 rad/s, no slip (the ratios do not depend on ω⁻). v₁⁺/v₂⁻ = −0.100
  // (−0.0985 here) and v₂⁺/v₂⁻ = −0.600 (−0.592 / −0.590) within 3 %, either work definition
  for (const WorkDefinition w : {WorkDefinition::kThesis, WorkDefinition::kIntegral}) {
    const CollisionResult r = run(rocking_block({}), {-0.803, 0.654}, w);
    ASSERT_GE(r.events.size(), 2u);
    const double v1 = r.events[0].v_post[1] / v2_pre(r);
    const double v2 = r.events[1].v_post[3] / v2_pre(r);
    EXPECT_NEAR(v1, -0.100, 0.03 * 0.100);
    EXPECT_NEAR(v2, -0.600, 0.03 * 0.600);
    // event 1 ends in compression: the e* < 0 root, x = 1 − |e*| of the parabola
    EXPECT_NEAR(r.events[0].P_end / r.events[0].P_compression, 1 - 0.803, 1e-12);
    EXPECT_EQ(actives(r.events[0], 2), (std::vector<int>{0, 1}));
    EXPECT_EQ(actives(r.events[1], 2), (std::vector<int>{1}));
  }
}

TEST(RodriguezTables, BlockCornerOneComesDownAgain) {
  // after the second event corner 1 moves down at 0.467|v₂⁻| (spec Ex. 2 [R]: ≈ 0.47); the
  // thesis stops there, clatter resolves a third event (corner 1 alone)
  const CollisionResult r = run(rocking_block({}), {-0.803, 0.654}, WorkDefinition::kIntegral);
  ASSERT_EQ(r.status, Status::kOk);
  ASSERT_EQ(r.events.size(), 3u);
  EXPECT_NEAR(r.events[1].v_post[1] / v2_pre(r), 0.466, 1e-3);
  EXPECT_EQ(actives(r.events[2], 2), (std::vector<int>{0}));
}

// [R] Table 6.3, frictional block: μ_d = 0.35, μ_s = 0.6, e* = −0.883 then 0.662; printed
// ratios v₁⁺/v₂⁻ = −0.100 (event 1) and v₂⁺/v₂⁻ = −0.600 (event 2), to 3 decimals: tolerance half
// a unit of the last printed digit, 5e-4. The thesis does not give the pre-impact state; the one
// used here (rocking about corner 1 at ω⁻ = −1 rad/s, both corners sliding forward at 0.005 m/s)
// was chosen so that event 1's slip almost stops, as the thesis describes (§6.2.2): the first
// ratio is therefore partly fitted, not an independent check of the slip dynamics.
CollisionResult table63_block() {
  RockingBlock b;
  b.mu_s = 0.6;
  b.mu_d = 0.35;
  b.slip_pre = 0.005;
  return run(rocking_block(b), {-0.883, 0.662});
}

TEST(RodriguezTables, Table63FrictionalBlockEvent1) {
  const CollisionResult r = table63_block();
  ASSERT_GE(r.events.size(), 2u);
  const EventResult& e1 = r.events[0];
  EXPECT_NEAR(e1.v_post[1] / v2_pre(r), -0.100, 5e-4);  // [R] Table 6.3
  EXPECT_TRUE(e1.slip_changes.empty());                 // forward sliding throughout ([R] §6.2.2)
  EXPECT_GT(e1.v_post[0], 0.0);
  EXPECT_LT(e1.v_post[0], 0.1 * 0.005);  // the slip almost stops ([R] §6.2.2)
}

// NOT REPRODUCED: [R] Table 6.3 prints v₂⁺/v₂⁻ = −0.600; clatter gives −0.639 (6.5 % off, measured
// with this state). Event 2 is one contact sliding forward, so v₂⁺ ≈ −e*₂ v₂ after event 1; the
// thesis's value needs v₂ = 0.906 v₂⁻ after event 1, but the friction impulses of event 1 (both
// −x, at height h/2 below G) spin the block so that corner 2 slows less. No forward slip before
// the impact gives both printed ratios within 3 %. This test asserts the thesis's number and that
// the disagreement is still there: if a change reproduces −0.600, it fails and this note must go.
TEST(RodriguezTables, Table63FrictionalBlockEvent2IsNotReproduced) {
  const CollisionResult r = table63_block();
  ASSERT_GE(r.events.size(), 2u);
  const double thesis = -0.600;
  const double v2 = r.events[1].v_post[3] / v2_pre(r);
  RecordProperty("v2_post_over_v2_pre", std::to_string(v2));
  EXPECT_GT(std::abs(v2 - thesis), 5e-4)
      << "[R] Table 6.3's v2+/v2- = -0.600 is now reproduced (" << v2
      << "): turn this into EXPECT_NEAR and update docs/ and the comment above";
}

// ---- §8.1–8.2: 3-D examples (figures only) ---------------------------------------------------

TEST(RodriguezTables, Section8SphereAndBlocksLoseEnergyEventByEvent) {
  // sphere (m = 1, R = 0.5, μ = 0.35, e* = 0.5): one indeterminate event (§8.1); blocks
  // (m = 2.5, e* = 0.5): event 1 with all points, event 2 with the points still approaching —
  // C alone for three corners (§8.2.1) and the centred points (§8.2.3), C and D for four corners
  // (§8.2.2); the energy never increases (Figs 8.3, 8.6b, 8.10b, 8.14b)
  const CollisionResult s = run(sphere_in_corner({}), {0.5});
  ASSERT_EQ(s.status, Status::kOk);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].n_active, 3);
  EXPECT_LT(s.kinetic_energy_post, s.kinetic_energy_pre);
  struct BlockCase {
    BlockPoints pts;
    std::vector<int> second;
  };
  for (const BlockCase& c :
       {BlockCase{BlockPoints::kThreeCorners, {2}}, BlockCase{BlockPoints::kFourCorners, {2, 3}},
        BlockCase{BlockPoints::kThreeCentered, {2}}}) {
    Block3d b;
    b.points = c.pts;
    const Input in = block_3d(b);
    const CollisionResult r = run(in, {0.5});
    ASSERT_EQ(r.status, Status::kOk) << in.name;
    ASSERT_GE(r.events.size(), 2u) << in.name;
    EXPECT_EQ(r.events[0].n_active, in.n_contacts()) << in.name;
    EXPECT_EQ(actives(r.events[1], in.n_contacts()), c.second) << in.name;
    for (const EventResult& e : r.events) {
      EXPECT_LE(e.kinetic_energy_post, e.kinetic_energy_pre) << in.name << " event " << e.index;
    }
  }
}

}  // namespace
}  // namespace clatter::multipoint
