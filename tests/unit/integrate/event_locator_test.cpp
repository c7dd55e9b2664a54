// First-event location over several event functions on one step (event_locator.hpp): root pairs
// between samples, starts on the surface, released starts, and the earliest of several functions.

#include "clatter/integrate/event_locator.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <vector>

namespace clatter::integrate {
namespace {

constexpr std::size_t kMax = 4;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Source {
  std::vector<std::function<ValueSlope(double)>> f;
  void all(double t, Scratch<ValueSlope, kMax>& out) const {
    for (std::size_t j = 0; j < f.size(); ++j) out[j] = f[j](t);
  }
  ValueSlope one(double t, int j) const { return f[static_cast<std::size_t>(j)](t); }
};

FirstEvent locate(const Source& s, double t0, double t1, int samples,
                  std::array<Start, kMax> start = {}) {
  std::array<double, kMax> tol;
  tol.fill(1e-13);
  return locate_first_event<kMax>(s, static_cast<int>(s.f.size()), t0, t1, samples, tol, start);
}

TEST(EventLocator, RootPairBetweenTwoPositiveSamples) {
  // g = (t − 0.5)² − 1e-6: both samples of a 1-interval step are positive
  const Source s{{[](double t) {
    return ValueSlope{(t - 0.5) * (t - 0.5) - 1e-6, 2.0 * (t - 0.5)};
  }}};
  const FirstEvent ev = locate(s, 0.0, 1.0, 1);
  ASSERT_EQ(ev.kind, RootKind::kCrossing);
  EXPECT_NEAR(ev.t, 0.5 - 1e-3, 1e-14);
}

TEST(EventLocator, WithoutTheSlopeARootPairBetweenSamplesIsNotSeen) {
  // the same function with an unknown slope: documents why the gap carries its velocity
  const Source s{{[](double t) { return ValueSlope{(t - 0.5) * (t - 0.5) - 1e-6, kNaN}; }}};
  EXPECT_EQ(locate(s, 0.0, 1.0, 1).kind, RootKind::kNone);
}

TEST(EventLocator, ShortFlightAfterAnImpactIsFoundAndTheStartDoesNotRetrigger) {
  // leaves the surface at v = 1e-3, lands at 2v/g ≈ 2.04e-4 ≪ the step
  const double v = 1e-3, g = 9.81;
  const Source s{{[&](double t) { return ValueSlope{v * t - 0.5 * g * t * t, v - g * t}; }}};
  const FirstEvent ev = locate(s, 0.0, 0.1, 4);
  ASSERT_EQ(ev.kind, RootKind::kCrossing);
  EXPECT_NEAR(ev.t, 2.0 * v / g, 1e-15);
}

TEST(EventLocator, ReleasedStartArmsOnlyAboveTolerance) {
  // a lift-off: g ≈ t³ starts with zero value and slope
  const Source up{{[](double t) { return ValueSlope{t * t * t, 3.0 * t * t}; }}};
  EXPECT_EQ(locate(up, 0.0, 1.0, 4, {Start::kReleased}).kind, RootKind::kNone);
  // with a normal start, value and slope 0 at t₀ count as an event at t₀
  const FirstEvent at_start = locate(up, 0.0, 1.0, 4, {Start::kNormal});
  EXPECT_EQ(at_start.kind, RootKind::kCrossing);
  EXPECT_EQ(at_start.t, 0.0);
  // a released contact that falls back is reported (a graze: re-contact)
  const Source down{{[](double t) { return ValueSlope{-t * t * t, -3.0 * t * t}; }}};
  EXPECT_EQ(locate(down, 0.0, 1.0, 4, {Start::kReleased}).kind, RootKind::kGraze);
}

TEST(EventLocator, EarliestOfSeveralFunctionsWins) {
  const Source s{{[](double t) {
                    return ValueSlope{0.7 - t, -1.0};
                  },
                  [](double t) {
                    return ValueSlope{0.62 - t, kNaN};
                  },
                  [](double t) {
                    return ValueSlope{0.65 - t, -1.0};
                  }}};
  const FirstEvent ev = locate(s, 0.0, 1.0, 2);  // all three in the second sample interval
  ASSERT_EQ(ev.kind, RootKind::kCrossing);
  EXPECT_EQ(ev.function, 1);
  EXPECT_NEAR(ev.t, 0.62, 1e-15);
}

}  // namespace
}  // namespace clatter::integrate
