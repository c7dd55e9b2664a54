// Guards of open contacts (model::System::contact_guards): a point mass over a floor, its one
// contact enabled where a rule of the test says so. Every expected value is the free fall's
// closed form, q = (x, y), M = I, f = (0, −g), contact: g_N = y, J_T = [1, 0], J_N = [0, 1],
// Newton's law v_N⁺ = −e v_N⁻ (frictionless):
//  - disabled, the floor is not there: the mass falls through it (y(t) = y₀ − g t²/2);
//  - enabled while below the floor, it is watched from when the mass rises above it: a start at
//    y₀ < 0 going up at v₀ lands at t_b = (v₀ + √(v₀² + 2 g y₀))/g, not at the upward crossing;
//  - a closed contact is not affected: a mass sliding on the floor into the disabled region stays
//    on it.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {
namespace {

constexpr double kG = 9.81;

using Rule = std::function<bool(double x)>;

class GuardedPoint final : public model::System {
 public:
  GuardedPoint(Rule rule, double e) : rule_(std::move(rule)) {
    LawChoice law;
    law.kind = LawKind::kNewton;
    law.params.e = e;
    set_contacts({model::Contact::with_law("floor", law)});
  }
  [[nodiscard]] std::string_view kind() const override { return "test_guarded_point"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] model::MatQ mass_matrix(double, const model::VecQ&) const override {
    return model::MatQ::Identity(2, 2);
  }
  [[nodiscard]] model::VecQ applied_forces(double, const model::VecQ&, const model::VecQ&,
                                           const model::VecA&) const override {
    model::VecQ f(2);
    f << 0.0, -kG;
    return f;
  }
  void contact_geometry(int, double, const model::VecQ& q, const model::VecQ& qd,
                        model::ContactGeometry& out) const override {
    out.g_N = q(1);
    out.J = model::Rows2::Identity(2, 2);
    out.w.setZero();
    out.v = {qd(0), qd(1)};
    out.gamma.setZero();
    out.scale = 1.0;
  }
  bool contact_guards(double, const model::VecQ& q, const model::VecQ&, const model::VecA&,
                      std::array<bool, model::kMaxContacts>& enabled) const override {
    if (!rule_) return false;
    enabled[0] = rule_(q(0));
    return true;
  }
  [[nodiscard]] double potential_energy(double, const model::VecQ& q) const override {
    return kG * q(1);
  }
  [[nodiscard]] double force_scale() const override { return kG; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<GuardedPoint>(*this);
  }
  [[nodiscard]] model::ParameterSet own_parameters() const override { return {}; }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double) const override {
    (void)parameters().get(name);
    return clone();
  }

 private:
  Rule rule_;
};

struct Run {
  SimulationResult result;
  TrajectoryRecorder rec;
  std::vector<const EventRecord*> impacts;
};

std::unique_ptr<Run> run(const GuardedPoint& m, double x0, double y0, double vx, double vy,
                         double t_end) {
  auto out = std::make_unique<Run>();
  InitialState init;
  init.q = model::VecQ(2);
  init.q << x0, y0;
  init.qd = model::VecQ(2);
  init.qd << vx, vy;
  SimulationOptions o;
  o.t_end = t_end;
  o.record_events = true;
  o.chatter_horizon = 0.01;  // bounce by bounce (no accumulation predicted this early)
  out->result = simulate(m, init, o, &out->rec);
  for (const EventRecord& e : out->rec.events)
    if (e.kind == EventKind::kImpact) out->impacts.push_back(&e);
  return out;
}

TEST(ContactGuards, ADisabledFloorIsNotThere) {
  // enabled only from x = 2 on: the mass (x = t) crosses y = 0 at t = √(2/g) ≈ 0.45 unseen, and
  // from x = 2 on the floor, enabled below the mass's path, waits for a positive gap that never
  // comes
  const GuardedPoint m([](double x) { return x > 2.0; }, 0.5);
  const auto r = run(m, 0.0, 1.0, 1.0, 0.0, 3.0);
  ASSERT_EQ(r->result.reason, StopReason::kEndTime) << r->result.message;
  EXPECT_TRUE(r->impacts.empty());
  EXPECT_NEAR(r->result.q(1), 1.0 - 0.5 * kG * 9.0, 1e-9);
}

TEST(ContactGuards, AFloorEnabledAboveTheMassIsHitAsWithoutGuards) {
  // enabled from x = 0.2 on (t = 0.2, the mass still 0.8 m up): the landing of free fall, at
  // t = √(2/g), v⁻ = −√(2g), then the bounce's e; the same as the model without guards
  const GuardedPoint guarded([](double x) { return x > 0.2; }, 0.5);
  const GuardedPoint plain(nullptr, 0.5);
  const auto a = run(guarded, 0.0, 1.0, 1.0, 0.0, 1.0);
  const auto b = run(plain, 0.0, 1.0, 1.0, 0.0, 1.0);
  ASSERT_EQ(a->impacts.size(), 2U);
  EXPECT_NEAR(a->impacts[0]->t, std::sqrt(2.0 / kG), 1e-10);
  EXPECT_NEAR(a->impacts[0]->qd_post(1), 0.5 * std::sqrt(2.0 * kG), 1e-9);
  // the second landing: t₁ + 2 e v⁻/g
  EXPECT_NEAR(a->impacts[1]->t, std::sqrt(2.0 / kG) * (1.0 + 2.0 * 0.5), 1e-9);
  ASSERT_EQ(b->impacts.size(), a->impacts.size());
  for (std::size_t i = 0; i < a->impacts.size(); ++i)
    EXPECT_NEAR(a->impacts[i]->t, b->impacts[i]->t, 1e-12);
}

TEST(ContactGuards, EnabledBelowTheFloorItIsWatchedOnceAbove) {
  // y₀ = −0.1, v₀ = 2: above the floor at t_a = (v₀ − √(v₀² + 2 g y₀))/g, back at
  // t_b = (v₀ + √(v₀² + 2 g y₀))/g with v⁻ = −√(v₀² + 2 g y₀)
  const double y0 = -0.1, v0 = 2.0, root = std::sqrt(v0 * v0 + 2.0 * kG * y0);
  const double t_b = (v0 + root) / kG;
  const GuardedPoint m([](double) { return true; }, 0.5);
  const auto r = run(m, 0.0, y0, 0.0, v0, t_b + 0.01);
  ASSERT_EQ(r->result.reason, StopReason::kEndTime) << r->result.message;
  ASSERT_EQ(r->impacts.size(), 1U);
  EXPECT_NEAR(r->impacts[0]->t, t_b, 1e-10);
  EXPECT_NEAR(r->impacts[0]->qd_pre(1), -root, 1e-9);
  EXPECT_NEAR(r->impacts[0]->qd_post(1), 0.5 * root, 1e-9);
  // without guards the same start is a penetration, refused naming the field
  const GuardedPoint plain(nullptr, 0.5);
  EXPECT_THROW((void)run(plain, 0.0, y0, 0.0, v0, 1.0), InvalidArgument);
}

TEST(ContactGuards, AClosedContactIsNotAffected) {
  // e = 0: the mass lands at t = √(2 · 0.1/g) and slides (frictionless) at ẋ = 1 into x > 1,
  // where the floor is disabled: closed, it stays on it (y = 0 up to the engine's drift)
  const GuardedPoint m([](double x) { return x < 1.0; }, 0.0);
  const auto r = run(m, 0.0, 0.1, 1.0, 0.0, 3.0);
  ASSERT_EQ(r->result.reason, StopReason::kEndTime) << r->result.message;
  ASSERT_EQ(r->impacts.size(), 1U);
  EXPECT_NEAR(r->impacts[0]->t, std::sqrt(0.2 / kG), 1e-10);
  EXPECT_NEAR(r->result.q(0), 3.0, 1e-9);
  EXPECT_NEAR(r->result.q(1), 0.0, 1e-9);
}

}  // namespace
}  // namespace clatter::hybrid
