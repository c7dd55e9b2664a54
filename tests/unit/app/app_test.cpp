// The application layer used from C++ as a library user would (include/clatter/app/): the
// operations' defaults and checks, and their results against independent values: the ball on a
// table oscillating at ω with Newton restitution e has a stable period-1 orbit whose multipliers
// have modulus e (a focus of the impact map, det DP = e²) and which period-doubles at the closed
// form's ω_PD (analysis/impact_oscillator.hpp; [B] §5.3, Γ_PD); [NDC] Fig. 4(c): on the section
// μ = 0.5 of the scaled law the impacts of regions 3-6 end in stick and those of 1 and 2 do not
// (spec/003_dib.md §3.3).

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/app/continuation.hpp"
#include "clatter/app/orbit_setup.hpp"
#include "clatter/app/painleve.hpp"
#include "clatter/app/regions.hpp"
#include "clatter/app/section.hpp"
#include "clatter/app/simulate.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::app {
namespace {

io::Scenario ball() {
  return io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/ball_table_period1.toml");
}

TEST(AppSimulate, TheCommandsDefaultsAndChecks) {
  hybrid::SimulationOptions base;
  base.t_end = 10.0;
  base.output_dt = 0.0;
  const hybrid::SimulationOptions o = simulation_options(base, 2.0, false, {});
  EXPECT_DOUBLE_EQ(o.output_dt, 8.0 / 2000.0);  // 2000 samples
  EXPECT_DOUBLE_EQ(o.chatter_horizon, o.output_dt);
  SimulateRequest r;
  r.t_end = 4.0;
  r.wall_limit = 3.0;
  base.max_wall_time = 5.0;
  base.chatter_horizon = 0.25;
  const hybrid::SimulationOptions p = simulation_options(base, 2.0, true, r);
  EXPECT_DOUBLE_EQ(p.t_end, 4.0);
  EXPECT_DOUBLE_EQ(p.max_wall_time, 3.0);     // the smaller limit
  EXPECT_DOUBLE_EQ(p.chatter_horizon, 0.25);  // given: kept
  r.precision = 18;
  try {
    (void)simulation_options(base, 2.0, true, r);
    FAIL() << "precision 18 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "precision");
  }
}

TEST(AppOrbit, BallAfterATransientIsTheStableFocus) {
  const io::Scenario sc = ball();
  OrbitRequest r;
  r.solve = {"y", "ydot"};
  r.transient = 100.0;
  const OrbitSetup s = make_orbit_setup(sc.model, sc.initial, sc.options, r);
  EXPECT_EQ(s.problem.section.kind, analysis::OrbitSectionKind::kForced);
  const analysis::Orbit o = find_orbit(s);
  ASSERT_TRUE(o.converged) << o.message;
  ASSERT_EQ(o.multipliers.size(), 2u);
  const double e = sc.model->parameter("e");
  for (const std::complex<double>& l : o.multipliers) EXPECT_NEAR(std::abs(l), e, 1e-6);
  EXPECT_TRUE(o.stable);
  // a request the section cannot take names the field
  r.anchor = "y";
  r.period = 1.0;
  r.phase = 0.5;
  try {
    (void)make_orbit_setup(sc.model, sc.initial, sc.options, r);
    FAIL() << "an autonomous section with a phase accepted";
  } catch (const InvalidArgument& err) {
    EXPECT_EQ(err.field(), "anchor");
  }
}

TEST(AppContinuation, FindsTheClosedFormPeriodDoubling) {
  const io::Scenario sc = ball();
  OrbitRequest r;
  r.solve = {"y", "ydot"};
  r.transient = 100.0;
  const OrbitSetup s = make_orbit_setup(sc.model, sc.initial, sc.options, r);
  ContinueRequest c;
  c.parameter = "surface.omega";
  c.p_min = 2.9;
  c.p_max = 3.3;
  c.direction = "up";
  c.ds = 0.05;
  int calls = 0;
  const Continuation result = run_continuation(s, c, [&calls](int) { ++calls; });
  ASSERT_TRUE(result.start.converged);
  ASSERT_EQ(result.branches.size(), 1u);
  EXPECT_EQ(calls, static_cast<int>(result.branches[0].branch.points.size()));
  const analysis::ClosedFormOrbit cf =
      analysis::closed_form_orbit(sc.model->parameter("surface.amplitude"), 3.0,
                                  sc.model->parameter("gravity"), sc.model->parameter("e"), 1);
  int pd = 0;
  for (const analysis::OrbitBifurcation& b : result.branches[0].branch.bifurcations)
    if (b.kind == analysis::OrbitEventKind::kPeriodDoubling) {
      EXPECT_NEAR(b.at.p, cf.omega_pd, 1e-5);
      ++pd;
    }
  EXPECT_EQ(pd, 1);
  // the files: the CSV header names the solved components, the summary lists the files
  const std::vector<OutputFile> files = continuation_files(s, c, result, "ball", "/x", false);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].content.rfind("branch,p,period,y,ydot,stable,", 0), 0u);
  EXPECT_NE(files[2].content.find("\"plot\": null"), std::string::npos);
  // a range that does not hold the parameter's value is refused before any work
  c.p_min = 3.1;
  try {
    (void)run_continuation(s, c);
    FAIL() << "a range without the start accepted";
  } catch (const InvalidArgument& err) {
    EXPECT_EQ(err.field(), "range");
  }
}

TEST(AppRegions, SectionMuHalfEndsInStickInRegionsThreeToSix) {
  RegionsRequest r;
  r.fix = "mu";
  r.value = "0.5";
  r.n = 41;
  const Regions m = run_regions(r);
  int total = 0;
  for (const auto& [region, count] : m.counts) total += count;
  EXPECT_EQ(total, 41 * 41);
  EXPECT_EQ(m.title, "section mu = 0.5, r = 0.900000");
  std::istringstream in(m.csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "B,v_T,region,ends_in_stick");
  int rows = 0;
  while (std::getline(in, line)) {
    const auto c1 = line.find(','), c2 = line.find(',', c1 + 1), c3 = line.find(',', c2 + 1);
    const int region = std::stoi(line.substr(c2 + 1, c3 - c2 - 1));
    const bool stick = line.substr(c3 + 1) == "1";
    if (region >= 3 && region <= 6) {
      EXPECT_TRUE(stick) << line;
    }
    if (region == 1 || region == 2) {
      EXPECT_FALSE(stick) << line;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 41 * 41);
  r.value = "1.2.3";
  EXPECT_THROW((void)run_regions(r), InvalidArgument);
}

TEST(AppSection, StroboscopicMapAfterATransientAndWhyItStops) {
  // a phase section returns every 2π/ω by its definition; points before the transient are not
  // recorded; a run that ends before the count says so
  const io::Scenario sc = ball();
  SectionRequest r;
  r.section = "phase:1";
  r.count = 20;
  r.transient = 50.0;
  const SectionRun run = run_section(*sc.model, sc.initial, sc.options, r);
  ASSERT_EQ(run.points.size(), 20u);
  EXPECT_EQ(run.stopped, "count reached");
  const double T = 2.0 * std::numbers::pi / sc.model->parameter("surface.omega");
  EXPECT_GE(run.points.front().t, sc.initial.t + 50.0);
  for (std::size_t k = 1; k < run.points.size(); ++k)
    EXPECT_NEAR(run.points[k].t - run.points[k - 1].t, T, 1e-9);
  r.count = 1000000;
  r.t_max = sc.initial.t + 60.0;
  const SectionRun short_run = run_section(*sc.model, sc.initial, sc.options, r);
  EXPECT_LT(short_run.points.size(), 1000000u);
  EXPECT_NE(short_run.stopped, "count reached");
  r.section = "phase:1:2";
  try {
    (void)run_section(*sc.model, sc.initial, sc.options, r);
    FAIL() << "a malformed section accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "section");
  }
}

TEST(AppPainleve, Fig67bReleaseVelocities) {
  // [B] Fig 6.7(b), spec/000_thesis.md §7 [DERIVED]: the impact without collision releases the
  // end at c2_dot+ = 0.005738 (mu_p = 0.82) and 0.350531 (1.3); mu_c = 0.819962
  PainleveRequest r;
  r.preset = "fig6.7b";
  const Painleve p = run_painleve(r);
  ASSERT_EQ(p.runs.size(), 2u);
  EXPECT_TRUE(all_reached_the_end(p));
  EXPECT_NEAR(p.runs[0].result.mu_critical, 0.819962, 1e-6);
  const double want[] = {0.005738, 0.350531};
  for (std::size_t k = 0; k < 2; ++k) {
    int found = 0;
    for (const hybrid::EventRecord& e : p.runs[k].result.events)
      if (e.kind == hybrid::EventKind::kImpactWithoutCollision && found++ == 0) {
        EXPECT_NEAR(e.v_post.y(), want[k], 1e-6);
      }
    EXPECT_GE(found, 1);
  }
  // a given value wins over the preset's
  r.mu_p = std::vector<double>{0.5};
  EXPECT_EQ(run_painleve(r).mu_p, std::vector<double>{0.5});
  r.preset = "fig9";
  EXPECT_THROW((void)run_painleve(r), InvalidArgument);
}

}  // namespace
}  // namespace clatter::app
