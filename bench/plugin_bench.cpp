// A model from a plugin against the same model compiled into the program (issue 25 item 1: "a
// plugin model runs as fast as the same model built in"). The spring box of examples/user_model
// (e = 0.8, frictionless, the scenario's parameters; a Runge–Kutta flow with gap events, since
// the model declares no exact flight), 40 time units from x = 0, ẋ = 3 with restitution e = 1 so
// that the impacts do not die out (118 impacts per run):
//   BM_SpringBoxBuiltIn  the class compiled into this program (its source is included here)
//   BM_SpringBoxPlugin   the kind "spring_box" of libspring_box.so, loaded with load_plugin
// Both run the same engine on the same numbers; only the calls into the model cross a library.

#include <benchmark/benchmark.h>

#include "../examples/user_model/spring_box.cpp"  // NOLINT: the model compiled in, for the comparison
#include "clatter/hybrid/simulator.hpp"

namespace {

constexpr Box kBox{2.0, 8.0, 3.0, 0.5};

clatter::LawChoice elastic() {
  clatter::LawChoice law;
  law.kind = clatter::LawKind::kStronge;
  law.params.e = 1.0;
  law.params.mu = 0.0;
  return law;
}

void run(benchmark::State& state, const clatter::model::System& m) {
  clatter::hybrid::InitialState init;
  init.q = VecQ(2);
  init.qd = VecQ(2);
  init.q << 0.0, 0.2;
  init.qd << 3.0, -0.4;
  clatter::hybrid::SimulationOptions o;
  o.t_end = 40.0;
  o.record_events = false;
  long impacts = 0;
  for (auto _ : state) {
    const clatter::hybrid::SimulationResult r = clatter::hybrid::simulate(m, init, o);
    impacts += r.impacts;
    benchmark::DoNotOptimize(r.q);
  }
  state.SetItemsProcessed(impacts);
}

void BM_SpringBoxBuiltIn(benchmark::State& state) { run(state, SpringBox(kBox, elastic())); }

void BM_SpringBoxPlugin(benchmark::State& state) {
  (void)clatter::model::load_plugin(CLATTER_EXAMPLE_PLUGIN);
  clatter::model::NumberSpec spec(
      {{"mass", kBox.m}, {"k_x", kBox.k_x}, {"k_y", kBox.k_y}, {"half_width", kBox.L}});
  spec.set_law(elastic());
  run(state, *clatter::model::make_model("spring_box", spec));
}

BENCHMARK(BM_SpringBoxBuiltIn)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpringBoxPlugin)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
