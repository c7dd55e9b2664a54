// Kernels of the analysis (docs/performance.md, "Analysis"): one impact map of the ball on the
// table through the engine, one Jacobian (4 maps + ω derivative), and the continuation of the
// period-1 branch of e = 0.9 both ways (SN, PD, grazing located) — the same job as the SciPy
// peer bench/peers/orbit_continuation_scipy.py. Also [NDC]'s critical points (difference against
// variational Newton Jacobians) and the Feigin quantities (explicit normal form against the two
// sides' orbits).

#include <benchmark/benchmark.h>

#include <filesystem>
#include <numbers>

#include "clatter/analysis/critical_point.hpp"
#include "clatter/analysis/dib.hpp"
#include "clatter/analysis/feigin_normal_form.hpp"
#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/analysis/orbit_continuation.hpp"
#include "clatter/io/scenario.hpp"

namespace {

using namespace clatter;
using namespace clatter::analysis;

ImpactOscillator oscillator(double omega) {
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  return ImpactOscillator(model::make_ball(1.0, 0.0, 9.81, s, {LawKind::kNewton, {0.0, 0.9}}));
}

void BM_ImpactMap(benchmark::State& state) {
  const ImpactOscillator osc = oscillator(3.0);
  const ImpactState z = closed_form_orbit(1.0, 3.0, 9.81, 0.9, 1).stable;
  ImpactState out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(osc.map(z, 1, out));
    benchmark::DoNotOptimize(out);
  }
}

void BM_Jacobian(benchmark::State& state) {
  const ImpactOscillator osc = oscillator(3.0);
  const ImpactState z = closed_form_orbit(1.0, 3.0, 9.81, 0.9, 1).stable;
  Eigen::Matrix2d D;
  Eigen::Vector2d dw;
  for (auto _ : state) {
    benchmark::DoNotOptimize(osc.jacobian(z, 1, D));
    benchmark::DoNotOptimize(osc.omega_derivative(z, 1, dw));
  }
}

void BM_ContinuationE09(benchmark::State& state) {
  const double w0 = 0.5 * (closed_form_orbit(1.0, 1.0, 9.81, 0.9, 1).omega_sn +
                           closed_form_orbit(1.0, 1.0, 9.81, 0.9, 1).omega_pd);
  const ImpactOscillator osc = oscillator(w0);
  const PeriodicOrbit start =
      find_periodic_orbit(osc, closed_form_orbit(1.0, w0, 9.81, 0.9, 1).stable, 1, 1);
  ContinuationOptions o;
  o.omega_min = 0.5;
  o.omega_max = 7.0;
  std::size_t points = 0;
  for (auto _ : state) {
    const Branch br = continue_both_ways(osc, start, o);
    points = br.points.size();
    benchmark::DoNotOptimize(points);
  }
  state.counters["points"] = static_cast<double>(points);
}

// the generic machinery (analysis/orbit_branch.hpp) on the same job: the ball's e = 0.9 branch
// from halfway between SN and PD, both ways, on the stroboscopic section half a period after
// the impact, to the same ω range
void BM_GenericContinuationE09(benchmark::State& state) {
  const double w0 = 0.5 * (closed_form_orbit(1.0, 1.0, 9.81, 0.9, 1).omega_sn +
                           closed_form_orbit(1.0, 1.0, 9.81, 0.9, 1).omega_pd);
  const ClosedFormOrbit cf = closed_form_orbit(1.0, w0, 9.81, 0.9, 1);
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = w0;
  const auto m = std::make_shared<model::PlanarBodyModel>(
      model::make_ball(1.0, 0.0, 9.81, s, {LawKind::kNewton, {0.0, 0.9}}));
  const double tau = std::numbers::pi / w0;
  StateVector x = StateVector::Zero(6);
  x(1) = std::sin(cf.stable.phase) + cf.stable.velocity * tau - 0.5 * 9.81 * tau * tau;
  x(4) = cf.stable.velocity - 9.81 * tau;
  OrbitSection sec;
  sec.phase = cf.stable.phase + std::numbers::pi;
  const PeriodicProblem p = make_periodic_problem(m, {}, sec, {1, 4}, x);
  const Orbit start = find_orbit(p, *m, Eigen::Vector2d(x(1), x(4)));
  OrbitBranchOptions o;
  o.parameter = "surface.omega";
  o.p_min = 0.5;
  o.p_max = 7.0;
  o.ds = 0.05;
  o.ds_max = 0.2;
  std::size_t points = 0;
  for (auto _ : state) {
    points = 0;
    for (const int d : {-1, 1}) {
      o.direction = d;
      points += continue_orbits(p, start, o).points.size();
    }
    benchmark::DoNotOptimize(points);
  }
  state.counters["points"] = static_cast<double>(points);
}

// one monodromy matrix of the rod on a belt's orbit ([NDC] row 5-9, region 5; 6 × 6 with T) by
// differences of the flow (2 × 6 flows) and by variational equations + saltation
struct NdcOrbit {
  PeriodicProblem p;
  Orbit orbit;
};
const NdcOrbit& ndc_orbit() {
  static const NdcOrbit o = [] {
    const io::Scenario sc =
        io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / "ndc_case_5_9.toml");
    const std::shared_ptr<const model::System> m = sc.model->with_parameter("mu", 0.544815);
    OrbitSection sec;
    sec.kind = OrbitSectionKind::kAutonomous;
    sec.anchor = 0;
    sec.drift = "v_dr";
    const StateVector x0 = pack_state(*m, sc.initial.q, sc.initial.qd, sc.initial.aux);
    NdcOrbit r{make_periodic_problem(m, sc.options, sec, {1, 2, 3, 4, 5}, x0), {}};
    r.orbit = find_orbit(r.p, *m, unknowns_of(r.p, x0, 5.92187));
    return r;
  }();
  return o;
}

void BM_MonodromyDifferencesNdc(benchmark::State& state) {
  const NdcOrbit& o = ndc_orbit();
  Eigen::MatrixXd M;
  for (auto _ : state)
    benchmark::DoNotOptimize(monodromy_differences(o.p, *o.p.model, o.orbit.u, M));
}

void BM_MonodromyVariationalNdc(benchmark::State& state) {
  const NdcOrbit& o = ndc_orbit();
  Eigen::MatrixXd M;
  for (auto _ : state)
    benchmark::DoNotOptimize(monodromy_variational(o.p, *o.p.model, o.orbit.u, M).ok);
}

// locating the critical value of [NDC] row 1-3 (range(1) = 0) or 5-9 (1) from Table 4's state
// (Newton on {P(u) = u, H = 0}) with the difference Jacobian (range(0) = 0: 2(d + 1) = 14 flows
// per iteration) or the variational one (1: a flow, one run of the variational equations with
// saltation matrices and Stronge's exact law block, 2 flows for ∂/∂p); `flows` counts the runs
// of the engine's flow of one location (a variational run counts as one)
struct NdcCase {
  PeriodicProblem p;
  Eigen::VectorXd u0;
  CriticalPointOptions o;
};
NdcCase ndc_case(int which) {
  const char* file = which == 0 ? "ndc_case_1_3.toml" : "ndc_case_5_9.toml";
  const io::Scenario sc = io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / file);
  OrbitSection sec;
  sec.kind = OrbitSectionKind::kAutonomous;
  sec.anchor = 0;
  sec.drift = "v_dr";
  const StateVector x0 = pack_state(*sc.model, sc.initial.q, sc.initial.qd, sc.initial.aux);
  NdcCase c{make_periodic_problem(sc.model, sc.options, sec, {1, 2, 3, 4, 5}, x0), {}, {}};
  c.u0 = unknowns_of(c.p, x0, which == 0 ? 3.85980 : 5.92187);
  c.o.parameter = "mu";
  c.o.region_a = which == 0 ? 1 : 5;
  c.o.region_b = which == 0 ? 3 : 9;
  return c;
}

void BM_CriticalPointNdc(benchmark::State& state) {
  NdcCase c = ndc_case(static_cast<int>(state.range(1)));
  c.o.jacobian =
      state.range(0) == 0 ? CriticalJacobian::kDifferences : CriticalJacobian::kVariational;
  CriticalPoint cp;
  for (auto _ : state) {
    cp = locate_critical_point(c.p, c.u0, c.o);
    benchmark::DoNotOptimize(cp.p);
  }
  state.counters["iterations"] = cp.iterations;
  state.counters["flows"] = cp.flows;
  state.counters["converged"] = cp.converged ? 1 : 0;
}

// at the critical point of row 5-9: the explicit normal form (analysis/feigin_normal_form.hpp:
// 2·6 + 2 flows to the next impact, the law lifted) against the two-sided-orbit estimate of 1 − σ
// and D (analysis/dib.hpp: ∇H by 2·6 flows, two Newton shootings with monodromies)
void BM_FeiginNormalFormNdc(benchmark::State& state) {
  const NdcCase c = ndc_case(1);
  const CriticalPoint cp = locate_critical_point(c.p, c.u0, c.o);
  for (auto _ : state) benchmark::DoNotOptimize(feigin_normal_form(c.p, cp, c.o).D);
}
void BM_TwoSidedClassificationNdc(benchmark::State& state) {
  const NdcCase c = ndc_case(1);
  const CriticalPoint cp = locate_critical_point(c.p, c.u0, c.o);
  for (auto _ : state) benchmark::DoNotOptimize(classify_boundary_crossing(c.p, cp, c.o).D);
}

// the rod of [BP] (bp_fig8a.toml, Stronge's law, symmetric rule) on its flat period-1 orbit at
// ω = 2.2, e* = 0.9: the 2 × 2 monodromy in (y, ẏ) by differences (4 flows) and the full 6 × 6 by
// variational equations + saltation (one flight and one levelled pair impact)
struct RodOrbit {
  PeriodicProblem p;
  Eigen::VectorXd u;
};
const RodOrbit& rod_orbit() {
  static const RodOrbit o = [] {
    const io::Scenario sc =
        io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / "bp_fig8a.toml");
    const double w = 2.2, g = 9.81;
    const std::shared_ptr<const model::System> m = sc.model->with_parameter("surface.omega", w);
    const ClosedFormOrbit cf = closed_form_orbit(1.0, w, g, 0.9, 1);
    const double tau = std::numbers::pi / w;
    StateVector x = StateVector::Zero(6);
    x(1) = std::sin(cf.stable.phase) + cf.stable.velocity * tau - 0.5 * g * tau * tau;
    x(4) = cf.stable.velocity - g * tau;
    OrbitSection sec;
    sec.phase = cf.stable.phase + std::numbers::pi;
    RodOrbit r{make_periodic_problem(m, sc.options, sec, {1, 4}, x), {}};
    r.u = find_orbit(r.p, *m, Eigen::Vector2d(x(1), x(4))).u;
    return r;
  }();
  return o;
}

void BM_MonodromyDifferencesRod(benchmark::State& state) {
  const RodOrbit& o = rod_orbit();
  Eigen::MatrixXd M;
  for (auto _ : state) benchmark::DoNotOptimize(monodromy_differences(o.p, *o.p.model, o.u, M));
}

void BM_MonodromyVariationalRod(benchmark::State& state) {
  const RodOrbit& o = rod_orbit();
  Eigen::MatrixXd M;
  for (auto _ : state) benchmark::DoNotOptimize(monodromy_variational(o.p, *o.p.model, o.u, M).ok);
}

}  // namespace

BENCHMARK(BM_MonodromyDifferencesRod)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MonodromyVariationalRod)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CriticalPointNdc)
    ->ArgNames({"variational", "case59"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FeiginNormalFormNdc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TwoSidedClassificationNdc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GenericContinuationE09)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MonodromyDifferencesNdc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MonodromyVariationalNdc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImpactMap)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Jacobian)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ContinuationE09)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
