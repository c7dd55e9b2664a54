// The double pendulum on a belt ([B] §6.2, model/double_pendulum_belt_model.hpp) through the
// general engine, beyond [B] (which has no stick phase): released at rest on the sliding belt
// (examples/double_pendulum_stick_slip.toml) the end slides, sticks to the belt, slips again and
// lifts off. Checked against the contact laws themselves, not against earlier output:
//  - while sticking, the end moves with the belt (|v_T| ≤ 1e-9 m/s) inside the cone
//    |λ_T| ≤ μ λ_N (+1e-9 relative);
//  - at the stick event v_T = 0, at the slip onset |λ_T| = μ λ_N (to 1e-6 relative: the event is
//    located on the interpolant to the integrator's tolerance);
//  - the energy ledger balances to 1e-9 of the energies involved.

#include <gtest/gtest.h>

#include <cmath>

#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::hybrid {
namespace {

TEST(DoublePendulumBelt, SlidesSticksSlipsAgainThroughTheGeneralEngine) {
  const io::Scenario sc =
      io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/double_pendulum_stick_slip.toml");
  EXPECT_EQ(sc.kind, "double_pendulum_belt");
  TrajectoryRecorder rec;
  const SimulationResult r = simulate(*sc.model, sc.initial, sc.options, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  // the sequence of contact events
  std::vector<EventKind> kinds;
  for (const EventRecord& e : rec.events) kinds.push_back(e.kind);
  ASSERT_GE(kinds.size(), 3u);
  EXPECT_EQ(kinds[0], EventKind::kStick);
  EXPECT_EQ(kinds[1], EventKind::kSlipOnset);
  EXPECT_EQ(kinds[2], EventKind::kLiftOff);
  const double t_stick = rec.events[0].t, t_slip = rec.events[1].t;
  EXPECT_LT(t_stick, t_slip);

  const model::System& m = *sc.model;
  const double mu = m.contact(0).mu_s;
  int sticking = 0;
  for (const Sample& s : rec.samples) {
    if (s.modes[0] != ContactMode::kStick) continue;
    ++sticking;
    model::ContactGeometry g;
    m.contact_geometry(0, s.t, s.q, s.qd, g);
    EXPECT_LT(std::abs(g.v.x()), 1e-9) << "t = " << s.t;
    const ConstrainedDynamics cd = constrained_dynamics(m, s.t, s.q, s.qd, s.modes, {});
    EXPECT_LE(std::abs(cd.lambda[0].x()), mu * cd.lambda[0].y() * (1.0 + 1e-9)) << "t = " << s.t;
  }
  EXPECT_GT(sticking, 10);
  // at the slip onset the tangential force reaches the cone
  {
    const EventRecord& e = rec.events[1];
    Modes stick{};
    stick[0] = ContactMode::kStick;
    const ConstrainedDynamics cd = constrained_dynamics(m, e.t, e.q, e.qd_pre, stick, {});
    EXPECT_NEAR(std::abs(cd.lambda[0].x()), mu * cd.lambda[0].y(), 1e-6 * cd.lambda[0].y());
  }
  const EnergyLedger& L = r.energy;
  const double scale = std::abs(L.initial) + std::abs(L.surface_work) + L.friction_loss;
  EXPECT_LT(std::abs(L.balance()), 1e-9 * scale);
}

}  // namespace
}  // namespace clatter::hybrid
