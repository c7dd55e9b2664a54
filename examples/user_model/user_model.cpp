// A program that uses a user's model from its plugin (docs/models.md): loads the scenario
// examples/user_model/user_model.toml, whose `[model] plugin = "spring_box"` loads
// libspring_box.so (spring_box.cpp), checks the model with the conformance checks, simulates it
// and compares the impacts with the closed form. It sees the model only through
// clatter::model::System and its named parameters, as every command of `clatter` does.
//
// Usage: user_model_demo <scenario.toml>; exit code 0 if the run matches the closed form.

#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/conformance.hpp"

namespace {

using clatter::model::VecQ;

struct Impacts final : clatter::hybrid::Recorder {
  std::vector<clatter::hybrid::EventRecord> list;
  void on_event(const clatter::hybrid::EventRecord& e) override { list.push_back(e); }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: user_model_demo <scenario.toml>\n");
    return 2;
  }
  try {
    const clatter::io::Scenario sc = clatter::io::load_scenario(argv[1]);
    const clatter::model::System& model = *sc.model;
    const clatter::model::ParameterSet p = model.parameters();
    struct {
      double m, k_x, k_y, L;
    } b{p.get("mass"), p.get("k_x"), p.get("k_y"), p.get("half_width")};
    const clatter::hybrid::InitialState& x0 = sc.initial;
    int failures = 0;

    // 1. conformance at the start and at a few other states (model/conformance.hpp)
    for (double s : {0.0, 0.3, -0.45}) {
      VecQ q = x0.q, qd = x0.qd;
      q(0) += s * b.L;
      qd(1) += s;
      const clatter::model::ConformanceReport rep =
          clatter::model::check_conformance(model, x0.t, q, qd);
      if (!rep.pass()) {
        std::fprintf(stderr, "conformance failed:\n%s", rep.message().c_str());
        ++failures;
      }
    }

    // 2. the run against the closed form (frictionless: x and y decouple). Preconditions of the
    //    closed form: x(0) = 0, ẋ(0) > w L, μ = 0, and the law's e (Newton and Stronge agree
    //    when μ = 0 and B = 0).
    const double e = model.contact(0).law.params.e;
    const double w = std::sqrt(b.k_x / b.m), wy = std::sqrt(b.k_y / b.m);
    const double u0 = x0.qd(0);
    if (x0.q(0) != 0.0 || !(u0 > w * b.L) || model.contact(0).law.params.mu != 0.0) {
      std::fprintf(stderr, "the closed form needs x(0) = 0, xdot(0) > w L and mu = 0\n");
      return 2;
    }
    Impacts rec;
    const clatter::hybrid::SimulationResult res =
        clatter::hybrid::simulate(model, x0, sc.options, &rec);
    double t = std::asin(w * b.L / u0) / w;
    double u = std::sqrt(u0 * u0 - w * w * b.L * b.L);
    std::printf(
        "impact  wall   t (run)            t (closed form)    |v_N-| (run)   (closed form)\n");
    const double tol = 1e-9;  // event location and RK tolerances (1e-12) amplified by the flights
    int k = 0;
    for (const clatter::hybrid::EventRecord& ev : rec.list) {
      if (ev.kind != clatter::hybrid::EventKind::kImpact) continue;
      const int wall = k % 2 == 0 ? 1 : 0;  // right first, then alternating
      std::printf("%6d  %-5s  %.12f  %.12f  %.10f  %.10f\n", k, wall ? "right" : "left", ev.t, t,
                  -ev.v_pre.y(), u);
      if (ev.contact != wall || std::abs(ev.t - t) > tol || std::abs(-ev.v_pre.y() - u) > tol ||
          std::abs(ev.v_post.y() - e * u) > tol)
        ++failures;
      u *= e;
      t += (std::numbers::pi - 2.0 * std::atan(u / (w * b.L))) / w;
      ++k;
    }
    const double expected_impacts = k;
    if (t <= sc.options.t_end || expected_impacts < 3) ++failures;  // every impact was seen
    const double y = x0.q(1) * std::cos(wy * res.t) + x0.qd(1) / wy * std::sin(wy * res.t);
    std::printf("y(t_end): run %.12f, closed form %.12f\n", res.q(1), y);
    if (std::abs(res.q(1) - y) > tol) ++failures;
    const double scale = std::abs(res.energy.initial) + std::abs(res.energy.total());
    std::printf("energy ledger residual %.3e (scale %.3e), impact loss %.6f\n",
                res.energy.balance(), scale, res.energy.impact_loss);
    if (std::abs(res.energy.balance()) > 1e-9 * scale) ++failures;
    std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "user_model_demo: %s\n", ex.what());
    return 2;
  }
}
