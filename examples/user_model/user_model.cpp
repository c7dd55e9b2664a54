// A user's own mechanical system in one file (docs/models.md): a point mass on two springs in a
// box between the walls x = −L and x = +L. It implements clatter::model::System, registers the
// kind "spring_box" from this file, loads a scenario that uses it, checks it with the conformance
// checks, simulates it and compares the impacts with the closed form.
//
//   q = (x, y),  M = m I,  f = (−k_x x, −k_y y),  V = ½k_x x² + ½k_y y²,  P_a = 0
//   contact "left":   g_N = x + L,  v = (ẏ,  ẋ),  J = [[0, 1], [ 1, 0]]
//   contact "right":  g_N = L − x,  v = (ẏ, −ẋ),  J = [[0, 1], [−1, 0]]   (w = 0, γ = 0)
//
// Usage: user_model_demo <scenario.toml>; exit code 0 if the run matches the closed form.

#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/conformance.hpp"
#include "clatter/model/registry.hpp"

namespace {

using clatter::model::ContactGeometry;
using clatter::model::MatQ;
using clatter::model::ParameterSet;
using clatter::model::System;
using clatter::model::VecA;
using clatter::model::VecQ;

struct Box {
  double m{1.0}, k_x{1.0}, k_y{1.0}, L{1.0};
};

class SpringBox final : public System {
 public:
  SpringBox(const Box& b, const clatter::LawChoice& law) : b_(b) {
    check(b_);
    set_contacts({clatter::model::Contact::with_law("left", law),
                  clatter::model::Contact::with_law("right", law)});
  }

  // sizes and names
  [[nodiscard]] std::string_view kind() const override { return "spring_box"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override { return {"x", "y"}; }

  // dynamics
  [[nodiscard]] MatQ mass_matrix(double /*t*/, const VecQ& /*q*/) const override {
    return MatQ::Identity(2, 2) * b_.m;
  }
  [[nodiscard]] VecQ applied_forces(double /*t*/, const VecQ& q, const VecQ& /*qd*/,
                                    const VecA& /*aux*/) const override {
    VecQ f(2);
    f << -b_.k_x * q(0), -b_.k_y * q(1);
    return f;
  }
  void contact_geometry(int c, double /*t*/, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override {
    const double s = c == 0 ? 1.0 : -1.0;  // the wall's normal points into the box
    out.g_N = s * q(0) + b_.L;
    out.J = clatter::model::Rows2::Zero(2, 2);
    out.J(0, 1) = 1.0;
    out.J(1, 0) = s;
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma.setZero();
    out.scale = b_.L + std::abs(q(0));
  }

  // energies and scales
  [[nodiscard]] double potential_energy(double /*t*/, const VecQ& q) const override {
    return 0.5 * (b_.k_x * q(0) * q(0) + b_.k_y * q(1) * q(1));
  }
  [[nodiscard]] double force_scale() const override { return (b_.k_x + b_.k_y) * b_.L; }
  [[nodiscard]] double mass_scale() const override { return b_.m; }

  [[nodiscard]] const Box& box() const { return b_; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<SpringBox>(*this);
  }
  [[nodiscard]] ParameterSet own_parameters() const override {
    ParameterSet p;
    p.add("mass", b_.m, "kg", "mass");
    p.add("k_x", b_.k_x, "N/m", "spring along x");
    p.add("k_y", b_.k_y, "N/m", "spring along y");
    p.add("half_width", b_.L, "m", "walls at x = -L and x = +L");
    return p;
  }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override {
    Box b = b_;
    if (name == "mass")
      b.m = value;
    else if (name == "k_x")
      b.k_x = value;
    else if (name == "k_y")
      b.k_y = value;
    else if (name == "half_width")
      b.L = value;
    else
      (void)parameters().get(name);  // throws, naming the known parameters
    check(b);
    auto out = std::make_unique<SpringBox>(*this);
    out->b_ = b;
    return out;
  }

 private:
  static void check(const Box& b) {
    clatter::require(b.m > 0.0, "model.mass", "must be > 0 [kg]", b.m);
    clatter::require(b.k_x > 0.0, "model.k_x", "must be > 0 [N/m]", b.k_x);
    clatter::require(b.k_y >= 0.0, "model.k_y", "must be >= 0 [N/m]", b.k_y);
    clatter::require(b.L > 0.0, "model.half_width", "must be > 0 [m]", b.L);
  }
  Box b_;
};

// the registration: any scenario with [model] kind = "spring_box" reaches this factory
const bool registered = clatter::model::register_model(
    "spring_box", "a point mass on springs between two walls (examples/user_model)",
    [](clatter::model::ModelSpec& s) {
      Box b;
      b.m = s.number("mass", 1.0);
      b.k_x = s.number("k_x", 1.0);
      b.k_y = s.number("k_y", 1.0);
      b.L = s.number("half_width", 1.0);
      return std::make_unique<SpringBox>(b, s.law());
    });

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
  if (!registered) return 2;
  try {
    const clatter::io::Scenario sc = clatter::io::load_scenario(argv[1]);
    const auto& model = dynamic_cast<const SpringBox&>(*sc.model);
    const Box b = model.box();
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
