// [NDC] §5.3–5.5, spec/003_dib.md §5.7: the five periodic orbits of the rod on a belt found by
// the generic shooting of analysis/shooting.hpp (autonomous section x − v_dr t = x₀ of [NDC]'s
// Fig. 6/7 captions, unknowns (y, θ, ẋ, ẏ, θ̇, T), guess Table 4's state and spec §5.7's T),
// 1e-5 to each side of the refined critical value, where the orbit's impact is in one region of
// the boundary: the period T to 2e-5 and the Floquet multipliers of spec §5.7 (5-D map; printed to
// 4 decimals) to 1e-4 — 1e-5 from the boundary moves them by less than 2e-5, except where the
// digest says they are continuous (the zero multiplier of region 5 becomes 2e-5 in region 9).
// Row 1-10 is a C⁰ boundary: T and the region-10 multipliers change by up to 13 per unit of μ on
// its side (measured: T = 5.547094 at μ* − 1e-5), so that row is taken 2e-6 from μ* (μ*'s six
// printed decimals put it within 5e-7 of the boundary).
// The monodromy by variational equations and saltation matrices (analysis/variational.hpp)
// gives the same multipliers to 1e-6 as the differences of the flow, including the exact zero of
// an impact that ends in stick (regions 3, 5, 6: [NDC] §5.1, one multiplier 0).
// Not covered: row 1-3's unstable region-1 orbit (Newton from Table 4 lands on the region-3 one).

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "clatter/analysis/critical_point.hpp"
#include "clatter/analysis/dib.hpp"
#include "clatter/analysis/poincare_map.hpp"
#include "clatter/analysis/shooting.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/laws/stronge_boundaries.hpp"

namespace clatter::analysis {
namespace {

using C = std::complex<double>;

// the orbit problem of [NDC]'s rod on a belt: autonomous section x − v_dr t = x₀ (Fig. 6/7
// captions), unknowns (y, θ, ẋ, ẏ, θ̇, T), the start of the scenario (Table 4) as reference
struct NdcProblem {
  io::Scenario sc;
  StateVector x0;
  PeriodicProblem p;
};
NdcProblem ndc_problem(const std::string& file, std::shared_ptr<const model::System> m = {}) {
  NdcProblem r;
  r.sc = io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / file);
  if (!m) m = r.sc.model;
  OrbitSection sec;
  sec.kind = OrbitSectionKind::kAutonomous;
  sec.anchor = 0;  // x
  sec.drift = "v_dr";
  r.x0 = pack_state(*m, r.sc.initial.q, r.sc.initial.qd, r.sc.initial.aux);
  r.p = make_periodic_problem(m, r.sc.options, sec, {1, 2, 3, 4, 5}, r.x0);
  return r;
}

struct Side {
  std::string file;
  std::string parameter;
  double critical;
  double delta;  // the side of the critical value
  double period;
  int region;
  std::vector<C> multipliers;  // spec §5.7 (moduli only where the digest gives only |λ|)
  bool moduli_only;
  bool ends_in_stick;
};

const std::vector<Side>& sides() {
  static const std::vector<Side> s = {
      {"ndc_case_1_3.toml",
       "mu",
       0.850684,
       1e-5,
       3.85980,
       3,
       {-0.9593, -0.5715, 0.2446, -0.1706, 0.0},
       false,
       true},
      {"ndc_case_5_9.toml",
       "mu",
       0.544805,
       1e-5,
       5.92187,
       5,
       {-0.7195, C(0.1012, 0.5941), C(0.1012, -0.5941), 0.5818, 0.0},
       false,
       true},
      {"ndc_case_5_9.toml",
       "mu",
       0.544805,
       -1e-5,
       5.92187,
       9,
       {-0.7208, 0.6100, C(0.1008, 0.6007), C(0.1008, -0.6007), 0.0},
       false,
       false},
      {"ndc_case_1_10.toml",
       "mu",
       0.349487,
       2e-6,
       5.54703,
       1,
       {C(-0.0603, 0.7554), C(-0.0603, -0.7554), 0.6101, C(-0.0309, 0.3220), C(-0.0309, -0.3220)},
       false,
       false},
      {"ndc_case_1_10.toml",
       "mu",
       0.349487,
       -2e-6,
       5.54703,
       10,
       {0.8008, C(-0.0959, 0.6475), C(-0.0959, -0.6475), 0.0698, 0.0134},
       false,
       false},
      {"ndc_case_4_6.toml",
       "mu",
       0.935476,
       1e-5,
       5.73246,
       6,
       {0.4766, 0.4329, 0.4253, 0.4253, 0.0},
       true,
       true},
      {"ndc_case_4_6.toml",
       "mu",
       0.935476,
       -1e-5,
       5.73246,
       4,
       {0.4766, 0.4329, 0.4253, 0.4253, 0.0},
       true,
       false},
      {"ndc_case_5_6.toml",
       "v_dr",
       -0.205365,
       1e-5,
       5.53726,
       5,
       {0.6220, 0.6220, 0.4226, 0.2005, 0.0},
       true,
       true},
      {"ndc_case_5_6.toml",
       "v_dr",
       -0.205365,
       -1e-5,
       5.53726,
       6,
       {0.6220, 0.6220, 0.4226, 0.2005, 0.0},
       true,
       true},
  };
  return s;
}

// every expected value is within tol of a distinct computed one
void expect_multisets_near(std::vector<C> expected, std::vector<C> got, double tol) {
  ASSERT_EQ(expected.size(), got.size());
  for (const C& e : expected) {
    auto best = std::min_element(got.begin(), got.end(), [&](const C& a, const C& b) {
      return std::abs(a - e) < std::abs(b - e);
    });
    EXPECT_LT(std::abs(*best - e), tol) << "expected " << e << " nearest " << *best;
    got.erase(best);
  }
}

TEST(NdcOrbits, MultipliersOfTheFiveOrbitsMatchSpec57) {
  for (const Side& s : sides()) {
    SCOPED_TRACE(s.file + (s.delta > 0 ? " above" : " below"));
    const std::shared_ptr<const model::System> m =
        ndc_problem(s.file).sc.model->with_parameter(s.parameter, s.critical + s.delta);
    const NdcProblem np = ndc_problem(s.file, m);
    const PeriodicProblem& p = np.p;
    const Orbit o = find_orbit(p, *m, unknowns_of(p, np.x0, s.period));
    ASSERT_TRUE(o.converged) << o.message;
    EXPECT_NEAR(o.period, s.period, 2e-5);
    ASSERT_EQ(o.events.size(), 1U);
    EXPECT_EQ(o.events.front().region, s.region);
    if (s.moduli_only) {
      std::vector<C> moduli;
      for (const C& l : o.multipliers) moduli.emplace_back(std::abs(l));
      expect_multisets_near(s.multipliers, moduli, 1e-4);
    } else {
      expect_multisets_near(s.multipliers, o.multipliers, 1e-4);
    }
    // the impact ends in stick: one multiplier is 0 (differences of the flow leave ~1e-9)
    if (s.ends_in_stick) {
      EXPECT_LT(std::abs(o.multipliers.back()), 1e-7);
    }

    // variational equations + saltation matrices against the differences of the flow
    ShootingOptions vo;
    vo.monodromy = MonodromyMethod::kVariational;
    Orbit ov = o;
    ASSERT_TRUE(characterize(p, *m, ov, vo)) << ov.message;
    expect_multisets_near(o.multipliers, ov.multipliers, 1e-6);
    if (s.ends_in_stick) {
      EXPECT_LT(std::abs(ov.multipliers.back()), 1e-7);
    }
  }
}

}  // namespace
}  // namespace clatter::analysis

namespace clatter::analysis {
namespace {

// spec/003_dib.md §5.7: the refined critical values μ* = 0.850684, 0.544805, 0.935476, 0.349487
// and v_dr* = −0.205365 (6 decimals), located from Table 4's state, spec §5.7's T and Table 3's
// parameter value by Newton on {P(u) = u, H = 0} (analysis/critical_point.hpp) with the boundary
// functions of laws/stronge_boundaries.hpp; to 1e-5 (the bar; the printed 6 decimals
// allow 5e-7, which is also asserted as measured where it holds).
TEST(NdcOrbits, CriticalValuesOfTheFiveBoundaries) {
  struct Row {
    std::string file, parameter;
    double critical, period;
    int a, b;
  };
  for (const Row& row : {Row{"ndc_case_1_3.toml", "mu", 0.850684, 3.85980, 1, 3},
                         Row{"ndc_case_5_9.toml", "mu", 0.544805, 5.92187, 5, 9},
                         Row{"ndc_case_4_6.toml", "mu", 0.935476, 5.73246, 4, 6},
                         Row{"ndc_case_5_6.toml", "v_dr", -0.205365, 5.53726, 5, 6},
                         Row{"ndc_case_1_10.toml", "mu", 0.349487, 5.54703, 1, 10}}) {
    SCOPED_TRACE(row.file);
    const NdcProblem np = ndc_problem(row.file);
    const PeriodicProblem& p = np.p;
    const StateVector& x0 = np.x0;
    CriticalPointOptions o;
    o.parameter = row.parameter;
    o.region_a = row.a;
    o.region_b = row.b;
    const CriticalPoint cp = locate_critical_point(p, unknowns_of(p, x0, row.period), o);
    ASSERT_TRUE(cp.converged) << cp.message;
    EXPECT_NEAR(cp.p, row.critical, 1e-6);  // measured: all within 5e-7 of the printed value
    EXPECT_NEAR(cp.u(cp.u.size() - 1), row.period, 2e-5);
    EXPECT_NEAR(cp.H, 0.0, 1e-9);
    EXPECT_TRUE(cp.impact.region == row.a || cp.impact.region == row.b) << cp.impact.region;
    if (std::getenv("CLATTER_PRINT") != nullptr)
      std::printf("%s: %s* = %.8f (spec %.6f) T = %.6f in %d iterations\n", row.file.c_str(),
                  row.parameter.c_str(), cp.p, row.critical, cp.u(cp.u.size() - 1), cp.iterations);
  }
}

// the same five critical values with the Newton Jacobian from the variational equations and
// saltation matrices (Stronge's exact law Jacobian in the impact's q̇ block;
// CriticalJacobian::kVariational): the same p* as the difference Jacobian to 1e-8 (both solve
// G = 0 to 1e-10), in as many iterations or fewer, with fewer runs of the flow
TEST(NdcOrbits, CriticalValuesByTheVariationalJacobian) {
  struct Row {
    std::string file, parameter;
    double period;
    int a, b;
  };
  for (const Row& row : {Row{"ndc_case_1_3.toml", "mu", 3.85980, 1, 3},
                         Row{"ndc_case_5_9.toml", "mu", 5.92187, 5, 9},
                         Row{"ndc_case_4_6.toml", "mu", 5.73246, 4, 6},
                         Row{"ndc_case_5_6.toml", "v_dr", 5.53726, 5, 6},
                         Row{"ndc_case_1_10.toml", "mu", 5.54703, 1, 10}}) {
    SCOPED_TRACE(row.file);
    const NdcProblem np = ndc_problem(row.file);
    CriticalPointOptions o;
    o.parameter = row.parameter;
    o.region_a = row.a;
    o.region_b = row.b;
    const Eigen::VectorXd u0 = unknowns_of(np.p, np.x0, row.period);
    const CriticalPoint fd = locate_critical_point(np.p, u0, o);
    o.jacobian = CriticalJacobian::kVariational;
    const CriticalPoint va = locate_critical_point(np.p, u0, o);
    ASSERT_TRUE(fd.converged) << fd.message;
    ASSERT_TRUE(va.converged) << va.message;
    EXPECT_NEAR(va.p, fd.p, 1e-8);
    EXPECT_LE(va.iterations, fd.iterations);
    EXPECT_LT(va.flows, fd.flows);
    EXPECT_EQ(va.variational_runs, va.iterations);
    if (std::getenv("CLATTER_PRINT") != nullptr)
      std::printf(
          "%s: differences %d iterations %d flows; variational %d iterations %d flows "
          "(%d variational runs); |dp*| = %.1e\n",
          row.file.c_str(), fd.iterations, fd.flows, va.iterations, va.flows, va.variational_runs,
          std::abs(va.p - fd.p));
  }
}

}  // namespace
}  // namespace clatter::analysis

namespace clatter::analysis {
namespace {

// spec/003_dib.md §5.3–5.4 (Feigin): case 1-3 1 − σ = −0.7594 (nonsmooth fold), D = 5.0087, both
// branches for μ > μ*; case 5-9 1 − σ = 0.9402 (persistence), D = 2.7448, region 5 above μ*,
// region 9 below. Computed by analysis/dib.hpp from the two sides' orbits 1e-5 from μ* (its
// errors are O(1e-5)); tolerance 1e-3 on the printed 4 decimals.
TEST(NdcOrbits, FeiginClassificationOfTheFiveCases) {
  struct Row {
    std::string file, parameter;
    double period;
    int a, b;
    double one_minus_sigma, D, tol;
    int side_positive, side_negative;
    const char* verdict;
  };
  const double nan = std::nan("");
  for (const Row& row :
       {Row{"ndc_case_1_3.toml", "mu", 3.85980, 1, 3, -0.7594, 5.0087, 1e-3, 1, 1,
            "nonsmooth fold"},
        Row{"ndc_case_5_9.toml", "mu", 5.92187, 5, 9, 0.9402, 2.7448, 1e-3, 1, -1, "persistence"},
        // spec §5.7: "estimated D ≈ 1.45 and 1 − σ ≈ 0.38 > 0 (persistence; not in the paper)";
        // region 1 above μ*, region 10 below (the side checks)
        Row{"ndc_case_1_10.toml", "mu", 5.54703, 1, 10, 0.38, 1.45, 0.02, 1, -1, "persistence"},
        // C¹ boundaries (spec §5.5): the orbit persists with continuous multipliers: β = 0 to
        // first order, so 1 − σ = 1 (to O(offset)); region 6 above μ*, 4 below; for 5-6 region
        // 5 above v_dr*, 6 below; D not given
        Row{"ndc_case_4_6.toml", "mu", 5.73246, 4, 6, 1.0, nan, 1e-3, -1, 1, "persistence"},
        Row{"ndc_case_5_6.toml", "v_dr", 5.53726, 5, 6, 1.0, nan, 1e-3, 1, -1, "persistence"}}) {
    SCOPED_TRACE(row.file);
    const NdcProblem np = ndc_problem(row.file);
    const PeriodicProblem& p = np.p;
    const StateVector& x0 = np.x0;
    CriticalPointOptions o;
    o.parameter = row.parameter;
    o.region_a = row.a;
    o.region_b = row.b;
    const CriticalPoint cp = locate_critical_point(p, unknowns_of(p, x0, row.period), o);
    ASSERT_TRUE(cp.converged) << cp.message;
    const BoundaryCrossing bc = classify_boundary_crossing(p, cp, o);
    ASSERT_TRUE(bc.message.empty()) << bc.message;
    if (std::getenv("CLATTER_PRINT") != nullptr)
      std::printf("%s: 1-sigma = %.5f D = %.5f (H+ at %+.0e, H- at %+.0e) %s\n", row.file.c_str(),
                  bc.one_minus_sigma, bc.D, bc.positive.p - cp.p, bc.negative.p - cp.p,
                  bc.verdict.c_str());
    EXPECT_NEAR(bc.one_minus_sigma, row.one_minus_sigma, row.tol);
    if (!std::isnan(row.D)) {
      EXPECT_NEAR(bc.D, row.D, row.tol);
    }
    EXPECT_EQ(bc.side_positive, row.side_positive);
    EXPECT_EQ(bc.side_negative, row.side_negative);
    EXPECT_EQ(bc.verdict, row.verdict);
    EXPECT_EQ(bc.positive.region, row.a);
    EXPECT_EQ(bc.negative.region, row.b);
  }
}

}  // namespace
}  // namespace clatter::analysis

namespace clatter::analysis {
namespace {

// [NDC] §5.3 case 1-3 (spec/003_dib.md §5.3; the digest: "∂_z g and ∂_zQ computed by finite
// differences match the paper's matrices to 4 digits"): at the critical orbit's impact z*
// (z = (x, y, θ, v_T = ẋ, v_N = ẏ, ω); Q's first component is ξ = x − v_dr t at the next impact:
// the paper works in the belt's frame, and with x itself that row differs by v_dr ∂t/∂z),
// the flow's Jacobian ∂_zQ from the post-impact state
// g₁(z*) to the next impact (by differences of the engine's impact map: central, forward in y
// since y < 0 would start inside the belt), the boundary function's gradient γ = ∂H/∂z and
// N = ∂H/∂μ; to 6e-4 (4 printed decimals, and the orbit at our μ* = 0.8506845).
TEST(NdcOrbits, Case13FlowJacobianAndBoundaryGradient) {
  const NdcProblem np = ndc_problem("ndc_case_1_3.toml");
  const io::Scenario& sc = np.sc;
  const PeriodicProblem& p = np.p;
  const StateVector& x0 = np.x0;
  CriticalPointOptions o;
  o.parameter = "mu";
  o.region_a = 1;
  o.region_b = 3;
  const CriticalPoint cp = locate_critical_point(p, unknowns_of(p, x0, 3.85980), o);
  ASSERT_TRUE(cp.converged) << cp.message;
  const auto m = sc.model->with_parameter("mu", cp.p);
  const hybrid::EventRecord& e = cp.impact;

  // ∂_zQ at g₁(z*)
  PoincareSection impact;
  impact.kind = PoincareKind::kImpact;
  impact.contact = 0;
  const StateVector post = pack_state(*m, e.q, e.qd_post, e.aux);
  const auto Q = [&](const StateVector& z) {
    hybrid::InitialState s;
    s.t = e.t;
    unpack_state(*m, z, s.q, s.qd, s.aux);
    const SectionPoint next = next_crossing(*m, sc.options, impact, s, e.t + 10.0);
    EXPECT_TRUE(next.found) << next.message;
    const hybrid::EventRecord& hit = next.passed.back();
    StateVector out = pack_state(*m, hit.q, hit.qd_pre, hit.aux);
    out(0) -= m->parameter("v_dr") * hit.t;  // the paper's first row is ξ = x − v_dr t
    return out;
  };
  Eigen::Matrix<double, 6, 6> dQ;
  const StateVector q0 = Q(post);
  for (int j = 0; j < 6; ++j) {
    const double h = 1e-6;
    StateVector a = post, b = post;
    a(j) += h;
    if (j == 1) {
      dQ.col(j) = (Q(a) - q0) / h;
    } else {
      b(j) -= h;
      dQ.col(j) = (Q(a) - Q(b)) / (2.0 * h);
    }
  }
  const double expected[6][6] = {{-0.8058, -0.9081, -0.4528, 0.1679, 0.1828, -0.0607},
                                 {0, 0, 0, 0, 0, 0},
                                 {0, 0.0091, -0.2368, 0, -0.0018, 0.1924},
                                 {-0.1007, 0.0198, 0.7254, -0.8226, -0.0040, -0.4394},
                                 {0, 0.0132, 0.9750, 0, -0.0357, 0.3378},
                                 {0, 0.0119, -0.9221, 0, -0.0024, -0.3051}};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(dQ(i, j), expected[i][j], 6e-4) << i << "," << j;

  // γ = ∂H/∂z at z* and N = ∂H/∂μ
  const StateVector pre = pack_state(*m, e.q, e.qd_pre, e.aux);
  const auto H = [&](const model::System& sys, const StateVector& z) {
    model::VecQ q, qd;
    model::VecA aux;
    unpack_state(sys, z, q, qd, aux);
    model::MassFactor mass;
    sys.factor_mass(e.t, q, mass);
    model::ContactGeometry k;
    sys.contact_geometry(0, e.t, q, qd, k);
    const model::VecQ MT = mass.solve(k.J.row(0).transpose());
    const model::VecQ MN = mass.solve(k.J.row(1).transpose());
    const ContactMatrix W{k.J.row(0).dot(MT), k.J.row(0).dot(MN), k.J.row(1).dot(MN)};
    return boundary_function(1, 3, k.v, W, sys.contact(0).law.params);
  };
  const double gamma[6] = {0, 0, -19.7549, 0.9918, 1.7208, 0};
  for (int j = 0; j < 6; ++j) {
    StateVector a = pre, b = pre;
    a(j) += 1e-6;
    b(j) -= 1e-6;
    EXPECT_NEAR((H(*m, a) - H(*m, b)) / 2e-6, gamma[j], 6e-4) << "gamma " << j;
  }
  const auto mp = sc.model->with_parameter("mu", cp.p + 1e-6);
  const auto mm = sc.model->with_parameter("mu", cp.p - 1e-6);
  EXPECT_NEAR((H(*mp, pre) - H(*mm, pre)) / 2e-6, -15.2820, 6e-4);
}

}  // namespace
}  // namespace clatter::analysis

namespace clatter::analysis {
namespace {

// spec/003_dib.md §5.7 side checks ("region 5 only above μ*, region 9 only below") by the forced
// region continuation of [NDC] §5: each region's formula, forced, has an orbit on both sides of
// μ* (the two formulas agree at μ*, so both start from the critical orbit), admissible only where
// H has its region's sign: at μ* ± 0.002, region 5 forced has H > 0 above and H < 0 below, region
// 9 forced the reverse, with the digest's H = +5.49e−3 (above, region 5) and −5.84e−3 (below,
// region 9) to 2e-5.
TEST(NdcOrbits, ForcedRegionBranchesAreAdmissibleOnTheirSideOnly) {
  const NdcProblem np = ndc_problem("ndc_case_5_9.toml");
  CriticalPointOptions o;
  o.parameter = "mu";
  o.region_a = 5;
  o.region_b = 9;
  const CriticalPoint cp = locate_critical_point(np.p, unknowns_of(np.p, np.x0, 5.92187), o);
  ASSERT_TRUE(cp.converged) << cp.message;
  for (const int region : {5, 9}) {
    for (const double delta : {0.002, -0.002}) {
      SCOPED_TRACE(::testing::Message() << "region " << region << " at mu* " << delta);
      const auto m = with_forced_region(*np.sc.model->with_parameter("mu", cp.p + delta),
                                        cp.impact.contact, region);
      PeriodicProblem p = np.p;
      p.model = m;
      const Orbit orbit = find_orbit(p, *m, cp.u);
      ASSERT_TRUE(orbit.converged) << orbit.message;
      double H = 0.0;
      hybrid::EventRecord impact;
      ASSERT_TRUE(impact_boundary_value(p, *m, orbit.u, o, H, &impact));
      EXPECT_EQ(impact.region, region);
      const bool admissible = (H > 0.0) == (region == 5);
      EXPECT_EQ(admissible, (region == 5) == (delta > 0.0)) << "H = " << H;
      if (admissible) {
        EXPECT_NEAR(H, region == 5 ? 5.49e-3 : -5.84e-3, 2e-5);
      }
    }
  }
}

}  // namespace
}  // namespace clatter::analysis
