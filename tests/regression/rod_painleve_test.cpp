// Painlevé in sustained sliding in the engine (beyond the seeds; docs/painleve.md): the rod of
// examples/rod_painleve.toml stands on its end at θ = atan 2 and slides at v_T = −1 with μ = 1.5.
// Its contact matrix, from r = P − G = (−cos θ, −sin θ) and I = 1/3: A = 1 + 3 sin²θ = 3.4,
// B = −3 sinθ cosθ = −1.2, C = 1 + 3 cos²θ = 1.6 ([NDC] §2.2 with the engine's frame), so in
// negative slip k_N = C + μB = −0.2 < 0 (jam) and k_T = B + μA = 3.9; stick holds, k_N⁰ =
// (AC − B²)/A = 20/17. The impact without collision gives ([NDC] §3.4, Map III at v_N⁻ = 0)
// v_N⁺ = e* |k_N v_T / k_T| √(1 − k_N⁰/k_N).

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

struct Events final : Recorder {
  void on_event(const EventRecord& e) override { list.push_back(e); }
  std::vector<EventRecord> list;
};

TEST(RodPainleve, SlidingJamTakesTheImpactWithoutCollisionAndTheRunGoesOn) {
  const io::Scenario sc =
      io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/rod_painleve.toml");
  const double A = 3.4, B = -1.2, C = 1.6, mu = 1.5, e = 0.5, v_T = -1.0;
  const double k_N = C + mu * B, k_T = B + mu * A, k_N0 = (A * C - B * B) / A;
  const double v_N = e * std::abs(k_N * v_T / k_T) * std::sqrt(1.0 - k_N0 / k_N);
  EXPECT_NEAR(v_N, 0.0672673, 5e-8);
  Events rec;
  const SimulationResult r = simulate(*sc.model, sc.initial, sc.options, &rec);
  ASSERT_GE(rec.list.size(), 2u);
  EXPECT_EQ(rec.list[0].kind, EventKind::kPainleve);
  const EventRecord& iwc = rec.list[1];
  EXPECT_EQ(iwc.kind, EventKind::kImpactWithoutCollision);
  EXPECT_EQ(iwc.t, 0.0);
  EXPECT_NEAR(iwc.v_pre.x(), v_T, 1e-12);
  EXPECT_NEAR(iwc.v_post.y(), v_N, 1e-12);
  EXPECT_EQ(iwc.v_post.x(), 0.0);  // it sticks
  EXPECT_EQ(iwc.region, 6);        // negative slip, then stick
  EXPECT_LE(std::abs(iwc.Lambda.x()), mu * iwc.Lambda.y());
  EXPECT_LT(iwc.delta_energy, 0.0);
  // the contact flies, comes back and the run reaches its end with a balanced ledger
  EXPECT_EQ(r.reason, StopReason::kEndTime) << r.message;
  EXPECT_LE(std::abs(r.energy.balance()), 1e-9);
  // with the default policy the run stops there and says why
  SimulationOptions stop = sc.options;
  stop.painleve = PainlevePolicy::kStop;
  const SimulationResult s = simulate(*sc.model, sc.initial, stop, nullptr);
  EXPECT_EQ(s.reason, StopReason::kPainleve);
  EXPECT_EQ(s.t, 0.0);
  EXPECT_NE(s.message.find("k_N = -0.2"), std::string::npos) << s.message;
}

}  // namespace
}  // namespace clatter::hybrid
