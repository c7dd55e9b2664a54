// model/conformance.hpp on every example scenario (so every registered kind an example uses is
// covered), the energy ledger of a short run of each example, and models broken on purpose that
// must fail. Tolerances are the conformance defaults (conformance.hpp: 1e-10 for round-off
// identities, 1e-6 for central differences with step 1e-5, 1e-8 for the RK4 free run) and, for
// the ledger, 1e-9 of the energy magnitudes (measured: below 2e-12): the engine integrates with
// RK tolerances 1e-12 per step and locates events to round-off, and a run of 4 time units takes
// ~1e2..1e4 steps.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/conformance.hpp"
#include "support/example_files.hpp"

namespace clatter::model {
namespace {

using test::example_files;

TEST(Conformance, EveryExampleAtItsStartAndAtRandomStates) {
  const std::vector<std::filesystem::path> files = example_files();
  ASSERT_GE(files.size(), 15U);  // the planar examples and the five [NDC] rows
  std::vector<std::string> kinds;
  std::mt19937_64 rng(20260601);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const io::Scenario sc = io::load_scenario(f);
    kinds.push_back(sc.kind);
    const hybrid::InitialState& x0 = sc.initial;
    const ConformanceReport r0 = check_conformance(*sc.model, x0.t, x0.q, x0.qd, x0.aux);
    EXPECT_TRUE(r0.pass()) << r0.message();
    for (int k = 0; k < 4; ++k) {
      VecQ q = x0.q, qd = x0.qd;
      for (int i = 0; i < q.size(); ++i) {
        q(i) += 0.5 * u(rng);
        qd(i) += u(rng);
      }
      const double t = x0.t + 3.0 * std::abs(u(rng));
      const ConformanceReport r = check_conformance(*sc.model, t, q, qd, x0.aux);
      EXPECT_TRUE(r.pass()) << "state " << k << "\n" << r.message();
    }
  }
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "rod_on_belt"), kinds.end());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "rod"), kinds.end());
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "ball"), kinds.end());
}

TEST(Conformance, EveryExampleBalancesItsEnergyLedger) {
  for (const auto& f : example_files()) {
    SCOPED_TRACE(f.filename().string());
    const io::Scenario sc = io::load_scenario(f);
    hybrid::SimulationOptions o = sc.options;
    o.t_end = std::min(o.t_end, sc.initial.t + 4.0);
    o.output_dt = 0.0;
    const hybrid::SimulationResult r = hybrid::simulate(*sc.model, sc.initial, o);
    const EnergyLedger& L = r.energy;
    const double scale = std::abs(L.initial) + std::abs(L.kinetic) + std::abs(L.potential) +
                         std::abs(L.applied_work) + std::abs(L.surface_work) + L.impact_loss +
                         std::abs(L.friction_loss) + std::abs(L.reset);
    if (std::getenv("CLATTER_PRINT") != nullptr)
      std::printf("%-28s t=%7.3f impacts %5ld stop %-8s balance/scale %.2e\n", f.filename().c_str(),
                  r.t, r.impacts, hybrid::to_string(r.reason), std::abs(L.balance()) / scale);
    EXPECT_LE(std::abs(L.balance()), 1e-9 * scale)
        << "balance " << L.balance() << " scale " << scale << " stop: " << r.message;
  }
}

// --- models broken on purpose -------------------------------------------------------------
// A point mass on a spring above the floor y = 0 (q = (x, y), M = diag(m, m), f = (−k x, −m g),
// one contact: g_N = y, J = [[1, 0], [0, 1]]), with one defect switched on.
struct Defects {
  bool flip_J_N{false};        // J_N = (0, −1): the wrong sign
  bool asymmetric_M{false};    // M(0, 1) = 0.3, M(1, 0) = 0
  bool negative_M{false};      // M = −2 I: negative definite (λ_min/λ_max = 1 > 0 all the same)
  bool wrong_gamma{false};     // γ_T = 1 instead of 0
  bool wrong_power{false};     // P_a = ẋ (the model's forces do no such work)
  bool stale_batch{false};     // contact_geometries gives the gap at q = 0 (a stale cache)
  bool stale_evaluate{false};  // evaluate's f misses the spring (a one-call shortcut gone stale)
  // System::open_horizons: 0 none; otherwise the free fall's first root s* of
  // y + ẏ s − g s²/2 = 0 (s* = (ẏ + √(ẏ² + 2 g y))/g, the analytic time the floor is reached)
  // times this factor: 0.999 is a true horizon, 2 promises the floor open past its contact
  double horizon_factor{0.0};
};

class PointMass final : public System {
 public:
  explicit PointMass(Defects d) : d_(d) {
    LawChoice law;
    law.params.e = 0.5;
    set_contacts({Contact::with_law("floor", law)});
  }
  [[nodiscard]] std::string_view kind() const override { return "test_point_mass"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] MatQ mass_matrix(double, const VecQ&) const override {
    MatQ M = MatQ::Identity(2, 2) * 2.0;
    if (d_.asymmetric_M) M(0, 1) = 0.3;
    if (d_.negative_M) M = -M;
    return M;
  }
  [[nodiscard]] VecQ applied_forces(double, const VecQ& q, const VecQ&,
                                    const VecA&) const override {
    VecQ f(2);
    f << -5.0 * q(0), -2.0 * 9.81;
    return f;
  }
  void contact_geometry(int, double, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override {
    out.g_N = q(1);
    out.J = Rows2::Identity(2, 2);
    if (d_.flip_J_N) out.J(1, 1) = -1.0;
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma = Vec2(d_.wrong_gamma ? 1.0 : 0.0, 0.0);
    out.scale = 1.0 + std::abs(q(1));
  }
  void contact_geometries(double t, const VecQ& q, const VecQ& qd,
                          std::array<ContactGeometry, kMaxContacts>& out) const override {
    contact_geometry(0, t, q, qd, out[0]);
    if (d_.stale_batch) out[0].g_N = 0.0;
  }
  void evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& aux,
                Evaluation& out) const override {
    System::evaluate(t, q, qd, aux, out);
    if (d_.stale_evaluate) out.f(0) = 0.0;
  }
  [[nodiscard]] double potential_energy(double, const VecQ& q) const override {
    return 2.5 * q(0) * q(0) + 2.0 * 9.81 * q(1);
  }
  [[nodiscard]] double applied_power(double, const VecQ&, const VecQ& qd,
                                     const VecA&) const override {
    return d_.wrong_power ? qd(0) : 0.0;
  }
  [[nodiscard]] double force_scale() const override { return 20.0; }
  bool open_horizons(double, const VecQ& q, const VecQ& qd, const VecA&,
                     std::array<double, kMaxContacts>& tau) const override {
    if (d_.horizon_factor == 0.0) return false;
    const double g = 9.81;
    tau[0] = d_.horizon_factor * (qd(1) + std::sqrt(qd(1) * qd(1) + 2.0 * g * q(1))) / g;
    return true;
  }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<PointMass>(*this);
  }
  [[nodiscard]] ParameterSet own_parameters() const override { return {}; }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double) const override {
    (void)parameters().get(name);
    return clone();
  }

 private:
  Defects d_;
};

ConformanceReport check(Defects d) {
  VecQ q(2), qd(2);
  q << 0.3, 0.7;
  qd << 1.1, -0.4;
  return check_conformance(PointMass(d), 0.0, q, qd);
}

TEST(Conformance, ACorrectModelPasses) {
  const ConformanceReport r = check({});
  EXPECT_TRUE(r.pass()) << r.message();
  // mass ×2, T; all contacts at once; evaluate; velocity, gap, γ, W; energy
  EXPECT_EQ(r.checks.size(), 3U + 1U + 1U + 4U + 1U);
}

TEST(Conformance, BrokenModelsFail) {
  {
    const ConformanceReport r = check({.flip_J_N = true});
    EXPECT_FALSE(r.pass());
    EXPECT_FALSE(r.find("contact.floor.gap_gradient")->pass);
    EXPECT_GT(r.find("contact.floor.gap_gradient")->error, 0.1);  // an O(1) error
  }
  {
    const ConformanceReport r = check({.asymmetric_M = true});
    EXPECT_FALSE(r.pass());
    EXPECT_FALSE(r.find("mass_symmetric")->pass);
  }
  {
    const ConformanceReport r = check({.negative_M = true});
    EXPECT_FALSE(r.pass());
    EXPECT_FALSE(r.find("mass_spd")->pass);
    EXPECT_GE(r.find("mass_spd")->error, 1.0);
  }
  {
    const ConformanceReport r = check({.wrong_gamma = true});
    EXPECT_FALSE(r.find("contact.floor.gamma")->pass);
    EXPECT_TRUE(r.find("contact.floor.gap_gradient")->pass);
  }
  {
    const ConformanceReport r = check({.stale_batch = true});
    EXPECT_FALSE(r.find("contact_geometries")->pass);
    EXPECT_GT(r.find("contact_geometries")->error, 0.1);  // g_N = 0.7 against 0
    EXPECT_TRUE(r.find("contact.floor.velocity")->pass);
  }
  {
    const ConformanceReport r = check({.stale_evaluate = true});
    EXPECT_FALSE(r.find("evaluate")->pass);
    EXPECT_GT(r.find("evaluate")->error, 0.01);  // f_x = −1.5 against 0, scale 20.6
    EXPECT_TRUE(r.find("contact_geometries")->pass);
  }
  {
    const ConformanceReport r = check({.wrong_power = true});
    EXPECT_FALSE(r.find("energy")->pass);
    EXPECT_NE(r.message().find("energy"), std::string::npos);
  }
}

// The broad phase's promise (System::open_horizons) along the free run: from y = 0.7, ẏ = −0.4
// the point falls on the floor at s* = 0.3392 s (the run is made 0.5 s long to reach it)
TEST(Conformance, OpenHorizonsAreCheckedAgainstTheFreeRun) {
  VecQ q(2), qd(2);
  q << 0.3, 0.7;
  qd << 1.1, -0.4;
  ConformanceOptions o;
  o.free_run_time = 0.5;
  {
    const ConformanceReport r = check_conformance(PointMass({}), 0.0, q, qd, VecA(), o);
    EXPECT_TRUE(r.pass()) << r.message();
    EXPECT_EQ(r.find("open_horizons"), nullptr);  // no horizons, no check
  }
  {
    const ConformanceReport r =
        check_conformance(PointMass({.horizon_factor = 0.999}), 0.0, q, qd, VecA(), o);
    EXPECT_TRUE(r.pass()) << r.message();
    ASSERT_NE(r.find("open_horizons"), nullptr);
    EXPECT_EQ(r.find("open_horizons")->error, 0.0);
  }
  {
    const ConformanceReport r =
        check_conformance(PointMass({.horizon_factor = 2.0}), 0.0, q, qd, VecA(), o);
    EXPECT_FALSE(r.pass());
    ASSERT_NE(r.find("open_horizons"), nullptr);
    EXPECT_FALSE(r.find("open_horizons")->pass);
    // the first step below the floor: the gap at most one step's fall (3.7 m/s × 2.5e-4 s) deep
    EXPECT_GT(r.find("open_horizons")->error, 0.0);
    EXPECT_LT(r.find("open_horizons")->error, 1e-3);
  }
  {
    const ConformanceReport r =
        check_conformance(PointMass({.horizon_factor = -1.0}), 0.0, q, qd, VecA(), o);
    EXPECT_FALSE(r.find("open_horizons")->pass);  // a negative τ
  }
}

// The engine refuses to move a negative mass (it would fall upwards, against its force)
TEST(Conformance, TheEngineRefusesAMassMatrixThatIsNotPositiveDefinite) {
  hybrid::SimulationOptions o;
  o.t_end = 0.1;
  const hybrid::InitialState x0{0.0, {0.3, 0.7}, {1.1, -0.4}};
  try {
    (void)hybrid::simulate(PointMass({.negative_M = true}), x0, o);
    FAIL() << "accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "model.mass_matrix") << e.what();
    EXPECT_NE(std::string(e.what()).find("positive definite"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW((void)hybrid::simulate(PointMass({}), x0, o));
}

TEST(Conformance, RejectsStatesOfTheWrongSize) {
  const PointMass m({});
  EXPECT_THROW((void)check_conformance(m, 0.0, VecQ::Zero(3), VecQ::Zero(2)), InvalidArgument);
  EXPECT_THROW((void)check_conformance(m, 0.0, VecQ::Zero(2), VecQ::Zero(1)), InvalidArgument);
}

}  // namespace
}  // namespace clatter::model
