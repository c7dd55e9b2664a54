// DOP853 against DOPRI5 on every example (issue 26: each faster route checked against the slower
// one): the same events (kind, contact), at the same times and with the same states after them,
// to the accuracy both integrators are asked for (rtol = atol = 1e-12 by default; over 4 s the
// global error stays below 1e-8). Examples that never take a Runge–Kutta step (closed-form
// flights and carriage) are equal trivially and are counted apart. Also: Integrator::kAuto's
// cost, and a DOP853 step that cannot succeed ending the run with its reason.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/system.hpp"
#include "support/example_files.hpp"

namespace clatter::hybrid {
namespace {

struct Outcome {
  SimulationResult result;
  std::vector<EventRecord> events;
};

Outcome run_with(const io::Scenario& sc, Integrator integrator) {
  SimulationOptions o = sc.options;
  o.t_end = std::min(o.t_end, sc.initial.t + 4.0);
  o.integrator = integrator;
  TrajectoryRecorder rec;
  Outcome out{simulate(*sc.model, sc.initial, o, &rec), {}};
  out.events = rec.events;
  return out;
}

double max_abs_diff(const VecQ& a, const VecQ& b) { return (a - b).cwiseAbs().maxCoeff(); }

TEST(IntegratorAgreement, Dop853GivesDopri5sEventsOnEveryExample) {
  const auto files = test::example_files();
  ASSERT_GE(files.size(), 20U);
  int with_steps = 0;
  int fewer = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const io::Scenario sc = io::load_scenario(f);
    if (resolved_integrator(sc.options) != Integrator::kDop853) continue;  // a loose tolerance
    const Outcome low = run_with(sc, Integrator::kDopri5);
    const Outcome high = run_with(sc, Integrator::kDop853);
    EXPECT_EQ(low.result.reason, high.result.reason);
    if (low.result.rk_steps == 0) {
      EXPECT_EQ(high.result.rk_steps, 0);
      continue;
    }
    ++with_steps;
    // the order-8 method never takes more steps for the same tolerance (as many where max_dt
    // binds both: the cradles' 0.001, a slow slide's 0.05)
    EXPECT_LE(high.result.rk_steps, low.result.rk_steps);
    fewer += high.result.rk_steps < low.result.rk_steps ? 1 : 0;
    ASSERT_EQ(low.events.size(), high.events.size());
    for (std::size_t k = 0; k < low.events.size(); ++k) {
      const EventRecord& a = low.events[k];
      const EventRecord& b = high.events[k];
      ASSERT_EQ(a.kind, b.kind) << "event " << k;
      ASSERT_EQ(a.contact, b.contact) << "event " << k;
      EXPECT_NEAR(a.t, b.t, 1e-8) << "event " << k;
      EXPECT_LT(max_abs_diff(a.q, b.q), 1e-8) << "event " << k;
      EXPECT_LT(max_abs_diff(a.qd_post, b.qd_post), 1e-7) << "event " << k;
      EXPECT_EQ(a.modes, b.modes) << "event " << k;
    }
    EXPECT_LT(max_abs_diff(low.result.q, high.result.q), 1e-8);
    EXPECT_LT(max_abs_diff(low.result.qd, high.result.qd), 1e-7);
  }
  // the rod on a belt, the double pendulum, the cradle, the rocking block and others
  EXPECT_GE(with_steps, 5);
  EXPECT_GE(fewer, 3);
}

TEST(IntegratorAgreement, AutoCostsNoMoreThanTheCheaperMethod) {
  // Integrator::kAuto takes DOP853 at 1e-12, and DOPRI5 from the phase after one whose steps were
  // all capped at max_dt: on the cradle (max_dt = 0.001, both methods step at the cap) DOPRI5's
  // 6 stages win, on the rod on a belt (steps set by the tolerance) DOP853's 15. Counted in
  // right-hand sides over 20 s: auto within 10 % of the cheaper fixed choice.
  for (const char* name : {"cradle3.toml", "ndc_case_1_3.toml", "ndc_case_5_9.toml"}) {
    SCOPED_TRACE(name);
    const io::Scenario sc = io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / name);
    long rhs[3] = {0, 0, 0};
    int i = 0;
    for (const Integrator m : {Integrator::kAuto, Integrator::kDopri5, Integrator::kDop853}) {
      SimulationOptions o = sc.options;
      o.t_end = sc.initial.t + 20.0;
      o.integrator = m;
      o.record_events = false;
      const SimulationResult r = simulate(*sc.model, sc.initial, o);
      ASSERT_EQ(r.reason, StopReason::kEndTime);
      rhs[i++] = r.rhs_evaluations;
    }
    EXPECT_LE(static_cast<double>(rhs[0]), 1.1 * static_cast<double>(std::min(rhs[1], rhs[2])))
        << "auto " << rhs[0] << ", dopri5 " << rhs[1] << ", dop853 " << rhs[2];
  }
}

// a point mass falling from y = 10 onto y = 0 (no closed-form flight: Runge–Kutta steps) whose
// applied force becomes NaN after t = 0.3
class PoisonedFall final : public model::System {
 public:
  PoisonedFall() {
    LawChoice law;
    law.params.e = 0.5;
    set_contacts({model::Contact::with_law("floor", law)});
  }
  [[nodiscard]] std::string_view kind() const override { return "test_poisoned_fall"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] model::MatQ mass_matrix(double, const model::VecQ&) const override {
    return model::MatQ::Identity(2, 2);
  }
  [[nodiscard]] model::VecQ applied_forces(double t, const model::VecQ&, const model::VecQ&,
                                           const model::VecA&) const override {
    model::VecQ f(2);
    f << 0.0, t > 0.3 ? std::nan("") : -9.81;
    return f;
  }
  void contact_geometry(int, double, const model::VecQ& q, const model::VecQ& qd,
                        model::ContactGeometry& out) const override {
    out.g_N = q(1);
    out.J = model::Rows2::Identity(2, 2);
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma.setZero();
    out.scale = 1.0 + std::abs(q(1));
  }
  [[nodiscard]] double potential_energy(double, const model::VecQ& q) const override {
    return 9.81 * q(1);
  }
  [[nodiscard]] double force_scale() const override { return 10.0; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<PoisonedFall>(*this);
  }
  [[nodiscard]] model::ParameterSet own_parameters() const override { return {}; }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double) const override {
    (void)parameters().get(name);
    return clone();
  }
};

TEST(IntegratorAgreement, ANonFiniteRightHandSideStopsDop853WithItsReason) {
  const PoisonedFall m;
  SimulationOptions o;
  o.t_end = 1.0;
  o.integrator = Integrator::kDop853;
  InitialState init;
  init.q = model::VecQ::Zero(2);
  init.q(1) = 10.0;
  init.qd = model::VecQ::Zero(2);
  const SimulationResult r = simulate(m, init, o);
  EXPECT_EQ(r.reason, StopReason::kNonFinite);
  EXPECT_NE(r.message.find("step size fell below"), std::string::npos) << r.message;
  // it stops at the last accepted step, before the poison, with a finite state: y = 10 − g t²/2
  EXPECT_LE(r.t, 0.3);
  EXPECT_GT(r.t, 0.2);
  EXPECT_TRUE(r.q.allFinite());
  EXPECT_NEAR(r.q(1), 10.0 - 0.5 * 9.81 * r.t * r.t, 1e-9);
}

}  // namespace
}  // namespace clatter::hybrid
