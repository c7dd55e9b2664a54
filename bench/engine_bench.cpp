// Benchmarks of whole simulations with the hybrid engine (issue 3). Peers are run beside these by
// bench/run_engine_bench.sh (SciPy solve_ivp, Siconos event-driven) and reported as ratios in
// docs/performance.md. No recorder: the cost of the engine alone.
//
//   BM_BallTable        ball on A sin ωt (A = 1, ω = 3, e = 0.9) from rest at y = 3, 10⁴ time
//                       units (≈ 4.8·10³ impacts; the period-1 orbit): impacts per second
//   BM_BallZeno         ball dropped from 1 m on a fixed floor, e = 0.7, to rest (accumulation)
//   BM_RodFig5          [BP] Fig. 5 rod (ω = 4.4050, e* = 0.8, μ = 0.05), G = (0, 3), θ = 0.1,
//                       θ̇ = 1, 100 time units, sequential two-contact rule (flights and impacts
//                       only, as in the SciPy peer bench/peers/rod_scipy.py)
//   BM_RodFig5Symmetric the same with the symmetric reduction, 400 time units
//   BM_NdcRodOnBelt/0|1 [NDC] rod on a belt, row 1-3 (examples/ndc_case_1_3.toml: Table 3/4),
//                       200 time units (≈ 50 impacts, no closed form: every flight by
//                       Runge–Kutta steps at rtol = atol = 1e-12), DOPRI5 (0) and DOP853 (1);
//                       counters: steps and right-hand sides per time unit. Its SciPy DOP853
//                       peer runs beside it in bench/run_ndc_bench.sh.
//   BM_SinCos / BM_StdSinCos  clatter::sincos against libm's sin and cos of one argument, in a
//                       dependent chain as the flight search uses them (each result moves the
//                       next argument, ωt ≈ 3.7·10³ as at t ≈ 1000 s): latency per pair
//   BM_FormatNumber / BM_SnprintfG17  format_number (std::to_chars, precision 17) against
//                       snprintf("%.17g"), the same text, on 4096 values of varied magnitude

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/core/sincos.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "clatter/model/rod_on_belt.hpp"

namespace {

using namespace clatter;

model::Surface table(double A, double w) {
  model::Surface s;
  s.amplitude = A;
  s.omega = w;
  return s;
}

void run(benchmark::State& state, const model::System& model, const hybrid::InitialState& init,
         hybrid::SimulationOptions o) {
  o.record_events = false;
  long impacts = 0;
  for (auto _ : state) {
    const hybrid::SimulationResult r = hybrid::simulate(model, init, o);
    impacts += r.impacts + r.chatter_sequences;
    benchmark::DoNotOptimize(r.q);
  }
  state.SetItemsProcessed(impacts);
  state.counters["impacts_per_run"] =
      benchmark::Counter(static_cast<double>(impacts) / static_cast<double>(state.iterations()));
}

void BM_BallTable(benchmark::State& state) {
  const auto model =
      model::make_ball(1.0, 0.0, 9.81, table(1.0, 3.0), {LawKind::kNewton, {0.0, 0.9}});
  hybrid::SimulationOptions o;
  o.t_end = 1e4;
  run(state, model, {0.0, {0.0, 3.0, 0.0}, {0.0, 0.0, 0.0}}, o);
}

void BM_BallZeno(benchmark::State& state) {
  const auto model = model::make_ball(1.0, 0.0, 9.81, {}, {LawKind::kNewton, {0.0, 0.7}});
  hybrid::SimulationOptions o;
  o.t_end = 2.6;
  run(state, model, {0.0, {0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}}, o);
}

void rod_fig5(benchmark::State& state, double t_end, hybrid::TwoContactRule rule) {
  const auto model =
      model::make_rod(1.0, 1.0, 9.81, table(1.0, 4.4050), {LawKind::kStronge, {0.05, 0.8}});
  hybrid::SimulationOptions o;
  o.t_end = t_end;
  o.two_contact = rule;
  run(state, model, {0.0, {0.0, 3.0, 0.1}, {0.0, 0.0, 1.0}}, o);
}

void BM_RodFig5(benchmark::State& state) {
  rod_fig5(state, 100.0, hybrid::TwoContactRule::kSequential);
}
void BM_RodFig5Symmetric(benchmark::State& state) {
  rod_fig5(state, 400.0, hybrid::TwoContactRule::kSymmetric);
}

void BM_NdcRodOnBelt(benchmark::State& state) {
  // Table 3 / Table 4 row 1-3 of [NDC], as examples/ndc_case_1_3.toml
  model::RodOnBeltParameters p;
  p.v_dr = 1.8;
  p.k_x = 0.6;
  p.k_y = 1.0;
  p.k_theta = 1.6;
  p.c_x = 0.1;
  p.c_y = 1.0;
  p.c_theta = 0.12;
  p.y0 = 0.5;
  p.y1 = 0.8;
  p.theta0 = 0.275 * 3.14159265358979323846;
  const model::RodOnBelt rod(p, {LawKind::kStronge, {0.8507, 1.0}});
  hybrid::SimulationOptions o;
  o.t_end = 200.0;
  o.integrator = state.range(0) == 0 ? hybrid::Integrator::kDopri5 : hybrid::Integrator::kDop853;
  o.record_events = false;
  const hybrid::InitialState init{0.0, {-0.7585, 0.7032, 0.8728}, {3.2236, -1.5523, -0.0019}};
  hybrid::SimulationResult r;
  for (auto _ : state) {
    r = hybrid::simulate(rod, init, o);
    benchmark::DoNotOptimize(r.q);
  }
  state.counters["steps_per_unit"] = static_cast<double>(r.rk_steps) / o.t_end;
  state.counters["rhs_per_unit"] = static_cast<double>(r.rhs_evaluations) / o.t_end;
  state.counters["impacts_per_run"] = static_cast<double>(r.impacts);
}

template <class SinCosFn>
void sincos_chain(benchmark::State& state, SinCosFn fn) {
  double t = 1000.0;
  for (auto _ : state) {
    const clatter::SinCos sc = fn(3.7 * t);
    t += 1e-3 + 1e-20 * (sc.sin + sc.cos);  // the next argument waits for this result
  }
  benchmark::DoNotOptimize(t);
}
void BM_SinCos(benchmark::State& state) {
  sincos_chain(state, [](double x) { return clatter::sincos(x); });
}
void BM_StdSinCos(benchmark::State& state) {
  sincos_chain(state, [](double x) { return clatter::SinCos{std::sin(x), std::cos(x)}; });
}

std::vector<double> number_sample() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::vector<double> xs(4096);
  for (double& x : xs) x = std::ldexp(mantissa(rng), exponent(rng));
  return xs;
}

void BM_FormatNumber(benchmark::State& state) {
  const std::vector<double> xs = number_sample();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(clatter::format_number(xs[i++ % xs.size()]));
}
void BM_SnprintfG17(benchmark::State& state) {
  const std::vector<double> xs = number_sample();
  std::size_t i = 0;
  for (auto _ : state) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", xs[i++ % xs.size()]);
    benchmark::DoNotOptimize(std::string(buf));
  }
}

BENCHMARK(BM_BallTable)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BallZeno)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RodFig5)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RodFig5Symmetric)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NdcRodOnBelt)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SinCos);
BENCHMARK(BM_StdSinCos);
BENCHMARK(BM_FormatNumber);
BENCHMARK(BM_SnprintfG17);

}  // namespace

BENCHMARK_MAIN();
