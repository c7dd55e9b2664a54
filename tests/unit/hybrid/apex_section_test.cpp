// The apex section (Section::kApex) of a flight integrated by Runge–Kutta (a model without
// closed-form flight, or exact_flight = false): found on the step's interpolant as the fall of ẏ
// through zero (segment_sections.hpp flight_apex). Before, only closed-form flights had an apex,
// and a sweep or section of such a model recorded nothing, silently.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

struct Apexes final : Recorder {
  std::vector<Sample> list;
  void on_section(const Sample& s) override { list.push_back(s); }
};

// A ball dropped from y = 1 onto a fixed floor, Newton's law, e = 0.8 (closed form): with
// T = sqrt(2/g), the first impact is at T, the k-th leaves with speed e^k sqrt(2 g), rises for
// e^k T to the height e^(2k) and lands e^k T later.
TEST(ApexSection, RungeKuttaFlightsHaveTheClosedFormApexes) {
  const double g = 9.81, e = 0.8;
  const auto ball = model::make_ball(1.0, 0.0, g, {}, {LawKind::kNewton, {0.0, e}});
  SimulationOptions o;
  o.t_end = 3.0;
  o.chatter_horizon = 0.01;  // the bounces are simulated, not jumped to their accumulation point
  o.section = Section::kApex;
  for (const bool exact : {true, false}) {
    o.exact_flight = exact;
    Apexes rec;
    // released at rest: the start is no apex (ẏ is not falling through zero there)
    (void)simulate(ball, {0.0, {0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}}, o, &rec);
    ASSERT_GE(rec.list.size(), 5U) << "exact_flight = " << exact;
    const double T = std::sqrt(2.0 / g);
    double t_impact = T, ek = 1.0;
    for (std::size_t k = 0; k < 5; ++k) {
      ek *= e;  // e^(k+1): the apex after impact k + 1
      const double t_apex = t_impact + ek * T;
      t_impact += 2.0 * ek * T;
      const Sample& s = rec.list[k];
      EXPECT_NEAR(s.q(1), ek * ek, 1e-9) << "apex " << k << ", exact_flight = " << exact;
      EXPECT_NEAR(s.t, t_apex, 1e-9) << "apex " << k << ", exact_flight = " << exact;
      EXPECT_NEAR(s.qd(1), 0.0, 1e-9);
    }
  }
}

TEST(ApexSection, NoApexWhileTheContactIsClosed) {
  // a ball resting on the floor (carried, no flight) gives no apex, with either flow
  const auto ball = model::make_ball(1.0, 0.0, 9.81, {}, {LawKind::kNewton, {0.0, 0.5}});
  SimulationOptions o;
  o.t_end = 1.0;
  o.section = Section::kApex;
  for (const bool exact : {true, false}) {
    o.exact_flight = exact;
    o.exact_contact = exact;
    Apexes rec;
    (void)simulate(ball, {0.0, {0.0, 0.0, 0.0}, {0.3, 0.0, 0.0}}, o, &rec);
    EXPECT_TRUE(rec.list.empty()) << "exact = " << exact;
  }
}

}  // namespace
}  // namespace clatter::hybrid
