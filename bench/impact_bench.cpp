// Micro-benchmarks of one planar impact (issue: ≤ 50 ns for a closed-form Stronge impact with
// classification + map + generalized-velocity update of the rod). Inputs: 4096 pre-generated rod
// impacts from the property-test distribution (θ ∈ (0, π), μ ∈ [0, 3], e* ∈ [0, 1]), cycled so
// that branch prediction sees the real mix of regions. Peers are run beside these by
// bench/run_impact_bench.sh (Python closed form) and reported as ratios in docs/performance.md.

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "clatter/laws/impulse_marcher.hpp"
#include "clatter/laws/newton.hpp"
#include "clatter/laws/stronge.hpp"
#include "clatter/model/planar_body.hpp"
#include "support/random_inputs.hpp"

namespace {

using namespace clatter;

struct RodImpact {
  double theta;
  Vec3 qdot;
  ImpactParams params;
};

const std::vector<RodImpact>& inputs() {
  static const std::vector<RodImpact> v = [] {
    testing::ImpactSampler sampler(1);
    std::vector<RodImpact> out;
    const model::PlanarBody rod = model::slender_rod(1.0, 1.0);
    while (out.size() < 4096) {
      const double theta = sampler.uniform(1e-3, 3.14);
      const model::BodyContact c = model::rod_end_contact(rod, 1.0, theta, 1);
      const Vec3 qdot{sampler.uniform(-3, 3), sampler.uniform(-3, 0), sampler.uniform(-3, 3)};
      if (c.contact_velocity(qdot).y() >= 0.0) continue;  // approaching contacts only
      out.push_back({theta, qdot, {sampler.uniform(0, 3), sampler.uniform(0, 1)}});
    }
    return out;
  }();
  return v;
}

// the impact of the rod, given its contact geometry at the impact configuration (r_GP and W,
// which the event detection already has): contact velocity v⁻ = J q̇⁻, the closed-form law
// (classification + Map I/II/III + impulses + energy), and q̇⁺ = q̇⁻ + M⁻¹JᵀΛ
template <class Law>
void rod_impact(benchmark::State& state, Law law) {
  const auto& in = inputs();
  const model::PlanarBody rod = model::slender_rod(1.0, 1.0);
  struct Geometry {
    model::BodyContact contact;
    ContactMatrix W;
  };
  std::vector<Geometry> geometry;
  for (const auto& r : in) {
    const model::BodyContact c = model::rod_end_contact(rod, 1.0, r.theta, 1);
    geometry.push_back({c, c.W()});
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & 4095;
    const RodImpact& r = in[k];
    const Geometry& g = geometry[k];
    const ImpactOutcome out = law(ImpactInput{g.contact.contact_velocity(r.qdot), g.W}, r.params);
    const Vec3 qdot_post = r.qdot + g.contact.velocity_jump(out.Lambda);
    benchmark::DoNotOptimize(qdot_post);
  }
  state.SetItemsProcessed(state.iterations());
}

// the same with the contact kinematics recomputed from θ (sin, cos, W) inside the timed region
template <class Law>
void rod_impact_with_kinematics(benchmark::State& state, Law law) {
  const auto& in = inputs();
  const model::PlanarBody rod = model::slender_rod(1.0, 1.0);
  std::size_t i = 0;
  for (auto _ : state) {
    const RodImpact& r = in[i++ & 4095];
    const model::BodyContact c = model::rod_end_contact(rod, 1.0, r.theta, 1);
    const ImpactInput impact{c.contact_velocity(r.qdot), c.W()};
    const ImpactOutcome out = law(impact, r.params);
    const Vec3 qdot_post = r.qdot + c.velocity_jump(out.Lambda);
    benchmark::DoNotOptimize(qdot_post);
  }
  state.SetItemsProcessed(state.iterations());
}

// the law alone on precomputed contact-space inputs
template <class Law>
void contact_law(benchmark::State& state, Law law) {
  const auto& in = inputs();
  std::vector<ImpactInput> pre;
  const model::PlanarBody rod = model::slender_rod(1.0, 1.0);
  for (const auto& r : in) {
    const model::BodyContact c = model::rod_end_contact(rod, 1.0, r.theta, 1);
    pre.push_back({c.contact_velocity(r.qdot), c.W()});
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & 4095;
    benchmark::DoNotOptimize(law(pre[k], in[k].params));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_RodImpact_StrongeClosedForm(benchmark::State& s) { rod_impact(s, stronge_closed_form); }
void BM_RodImpact_StrongeMarcher(benchmark::State& s) { rod_impact(s, stronge_marcher); }
void BM_RodImpactWithKinematics_StrongeClosedForm(benchmark::State& s) {
  rod_impact_with_kinematics(s, stronge_closed_form);
}
void BM_Law_StrongeClosedForm(benchmark::State& s) { contact_law(s, stronge_closed_form); }
void BM_Law_StrongeMarcher(benchmark::State& s) { contact_law(s, stronge_marcher); }
void BM_Law_Whittaker(benchmark::State& s) { contact_law(s, whittaker); }
void BM_Law_PoissonCoulomb(benchmark::State& s) { contact_law(s, poisson_coulomb); }

BENCHMARK(BM_RodImpact_StrongeClosedForm);
BENCHMARK(BM_RodImpact_StrongeMarcher);
BENCHMARK(BM_RodImpactWithKinematics_StrongeClosedForm);
BENCHMARK(BM_Law_StrongeClosedForm);
BENCHMARK(BM_Law_StrongeMarcher);
BENCHMARK(BM_Law_Whittaker);
BENCHMARK(BM_Law_PoissonCoulomb);

}  // namespace

BENCHMARK_MAIN();
