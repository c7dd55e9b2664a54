// The physical pendulum of [Bi] §4.2 (spec/002_pendulum.md §3.7, §3.9), kind
// "physical_pendulum": a uniform rod of length 1 (m = 1, d = 1/2, I_O = 1/3) pivoted at its end,
// its tip (ℓ = 1, a point) striking the floor y = −cos 30°, so that the tip meets it at φ = 30°
// moving at θ = 30° to the floor, the [Bi] geometry (v_T, v_N) = −V₀ (cos θ, sin θ).

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "clatter/compliant/pendulum_rigid.hpp"
#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/conformance.hpp"
#include "clatter/model/physical_pendulum.hpp"
#include "clatter/model/registry.hpp"

namespace clatter::model {
namespace {

constexpr double kTheta = std::numbers::pi / 6.0;

PhysicalPendulumParameters rod(double line_height) {
  PhysicalPendulumParameters p;
  p.mass = 1.0;
  p.com_distance = 0.5;
  p.inertia = 1.0 / 3.0;
  p.tip_distance = 1.0;
  p.tip_radius = 0.0;
  p.gravity = 9.81;
  p.line_height = line_height;
  return p;
}

LawChoice stronge(double e, double mu) {
  LawChoice law;
  law.kind = LawKind::kStronge;
  law.params.e = e;
  law.params.mu = mu;
  return law;
}

VecQ one(double x) { return VecQ::Constant(1, x); }

TEST(PhysicalPendulum, ContactGeometryIsTheBirlikGeometry) {
  // at φ = θ the tip is on the floor and moves along −(cos θ, sin θ) for φ̇ < 0
  const PhysicalPendulum m(rod(-std::cos(kTheta)), stronge(1.0, 0.0));
  ContactGeometry g;
  m.contact_geometry(0, 0.0, one(kTheta), one(-2.0), g);
  EXPECT_NEAR(g.g_N, 0.0, 1e-15);
  EXPECT_NEAR(g.v.x(), -2.0 * std::cos(kTheta), 1e-15);
  EXPECT_NEAR(g.v.y(), -2.0 * std::sin(kTheta), 1e-15);
}

TEST(PhysicalPendulum, Conforms) {
  // one coordinate: W = J Jᵀ / I_O has rank 1 (AC − B² = 0 to round-off), which the delassus
  // check accepts (laws/rank_one_impact.hpp resolves its impacts); every check passes.
  for (const double rho : {0.0, 0.05}) {
    PhysicalPendulumParameters p = rod(-1.2);
    p.tip_radius = rho;
    p.line_angle = 0.2;
    const PhysicalPendulum m(p, stronge(0.8, 0.3));
    for (const double phi : {-0.7, 0.1, 0.9, 2.5}) {
      const ConformanceReport r = check_conformance(m, 0.0, one(phi), one(1.3 - phi));
      for (const ConformanceCheck& c : r.checks) {
        EXPECT_TRUE(c.pass) << c.name << " " << c.error;
      }
    }
  }
}

TEST(PhysicalPendulum, FreeSwingConservesEnergyAndHasTheEllipticPeriod) {
  // floor far below (never reached): φ(0) = 1 rad at rest. Period 4 √(I_O/(m g d)) K(sin(φ₀/2))
  // (complete elliptic integral of the first kind). Tolerance 1e-8 on the half period located
  // from the samples' sign change of φ̇ (linear interpolation between 1e-4 samples, error
  // O(dt² φ⃛/φ̈) ≈ 1e-9), 1e-9 relative on the energy (RK tolerances 1e-12).
  const PhysicalPendulum m(rod(-3.0), stronge(1.0, 0.0));
  const double phi0 = 1.0;
  const double T =
      4.0 * std::sqrt((1.0 / 3.0) / (9.81 * 0.5)) * std::comp_ellint_1(std::sin(phi0 / 2));
  struct Rec final : hybrid::Recorder {
    double prev_t{0}, prev_w{0}, half{-1};
    double e0{std::nan("")}, max_dev{0};
    void on_sample(const hybrid::Sample& s) override {
      if (std::isnan(e0)) e0 = s.energy;
      max_dev = std::max(max_dev, std::abs(s.energy - e0));
      const double w = s.qd(0);
      if (half < 0 && prev_t > 0 && prev_w < 0 && w >= 0)
        half = prev_t + (s.t - prev_t) * (-prev_w) / (w - prev_w);
      prev_t = s.t;
      prev_w = w;
    }
  } rec;
  hybrid::SimulationOptions o;
  o.t_end = 3.0 * T;
  o.output_dt = 1e-4;
  const hybrid::SimulationResult r =
      hybrid::simulate(m, hybrid::InitialState(0.0, one(phi0), one(0.0)), o, &rec);
  ASSERT_EQ(r.reason, hybrid::StopReason::kEndTime) << r.message;
  EXPECT_EQ(r.impacts, 0);
  EXPECT_NEAR(rec.half, 0.5 * T, 1e-8);
  EXPECT_LT(rec.max_dev, 1e-9 * 9.81 * 0.5);
  EXPECT_LT(std::abs(r.energy.balance()), 1e-9 * 9.81 * 0.5);
}

TEST(PhysicalPendulum, ReboundThroughTheEngineIsTheRigidClosedForm) {
  // [Bi] §4.2.1.4 (compliant/pendulum_rigid.hpp): the tip meets the floor moving at θ = 30° to it,
  // and rebounds with V_f/V₀ = e* √((tan θ − μ)/(tan θ + μ)) (Stronge), or not at all when
  // μ ≥ tan θ (rigid wedging). The contact has one coordinate, so W is of rank one: the engine's
  // laws take laws/rank_one_impact.hpp. Released from rest at φ₀ = 1.2, the first impact is at
  // φ = 30°; the rebound ratio is read from the first event, to 1e-12.
  for (double mu : {0.0, 0.2, 0.5, 0.7}) {
    const PhysicalPendulum m(rod(-std::cos(kTheta)), stronge(0.8, mu));
    hybrid::SimulationOptions o;
    o.t_end = 1.0;
    // every bounce an impact (the default would end the chatter at its accumulation point and
    // record the first bounce as a plastic closure)
    o.chatter = hybrid::ChatterPolicy::kCutoff;
    o.v_tol = 1e-300;
    hybrid::TrajectoryRecorder rec;
    const hybrid::SimulationResult r =
        hybrid::simulate(m, hybrid::InitialState(0.0, one(1.2), one(0.0)), o, &rec);
    ASSERT_NE(r.reason, hybrid::StopReason::kEventLocation) << r.message;
    ASSERT_FALSE(rec.events.empty());
    const hybrid::EventRecord& e = rec.events.front();
    ASSERT_EQ(e.kind, hybrid::EventKind::kImpact);
    const double V0 = e.v_pre.norm();
    const double expected = compliant::rigid_energetic_rebound(kTheta, mu, 0.8);
    // the tip's approach direction is the [Bi] geometry
    EXPECT_NEAR(std::abs(e.v_pre.y()) / V0, std::sin(kTheta), 1e-9);
    EXPECT_NEAR(e.v_post.y() / std::abs(e.v_pre.y()), expected, 1e-12) << "mu " << mu;
    if (mu >= std::tan(kTheta)) {
      EXPECT_EQ(e.v_post.y(), 0.0);  // wedge: the tip stays on the floor
    }
    EXPECT_LT(std::abs(r.energy.balance()), 1e-9 * 9.81);
  }
}

TEST(PhysicalPendulum, ScenarioKeysAndErrors) {
  const io::Scenario sc = io::parse_scenario(R"(
[model]
kind = "physical_pendulum"
mass = 1.0
com_distance = 0.5
inertia = 0.3333333333333333
tip_distance = 1.0
line_height = -0.8660254037844386
[law]
e = 0.8
mu = 0.2
[initial]
q = [1.2]
[simulation]
t_end = 1.0
)",
                                             "test");
  EXPECT_EQ(sc.model->nq(), 1);
  EXPECT_DOUBLE_EQ(sc.model->parameter("inertia"), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(sc.model->parameter("contact.tip.mu"), 0.2);
  EXPECT_DOUBLE_EQ(sc.model->with_parameter("gravity", 1.62)->parameter("gravity"), 1.62);
  EXPECT_THROW((void)sc.model->with_parameter("inertia", 0.1), InvalidArgument);  // < m d²
  try {
    (void)io::parse_scenario(
        "[model]\nkind = \"physical_pendulum\"\nmass = 1.0\ncom_distance = 0.5\n"
        "line_height = 0.5\n",
        "test");
    FAIL() << "a pivot below the line accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "model.line_height") << e.what();
  }
}

}  // namespace
}  // namespace clatter::model
