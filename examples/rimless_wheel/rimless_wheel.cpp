// A passive walker as a plugin (docs/tutorial.md): the rimless wheel of McGeer (1990), a hub of
// mass m and inertia I about it, with n massless spokes of length l, rolling down a slope of
// angle γ. Coordinates along the slope (x down the slope, y along its normal), so that the
// ground is y = 0 and gravity is tilted:
//
//   q = (x, y, θ) of the hub,  M = diag(m, m, I),  f = m g (sin γ, −cos γ, 0),
//   V = −m g (x sin γ − y cos γ)
//   spoke k (k = 0 … n−1) at φ_k = θ + 2πk/n from the downward normal; its tip
//     P_k = (x + l sin φ_k,  y − l cos φ_k)
//   contact k:  g_N = y − l cos φ_k,  J_T = [1, 0, l cos φ_k],  J_N = [0, 1, l sin φ_k]  (w = 0)
//               γ = (−l sin φ_k θ̇²,  l cos φ_k θ̇²)
//
// Its symmetry (model/motion_symmetry.hpp): one step later the wheel is the same wheel turned by
// one spoke and moved on by one step length, with spoke k + 1 where spoke k stood:
//
//   G: θ → θ − 2π/n,  x → x + 2 l sin(π/n)  (y, velocities unchanged),  π(k) = k + 1 mod n
//
// Broad phase (System::open_horizons): between events the contact forces do no work (a
// sticking spoke does not move, a sliding one loses energy to friction), so the kinetic energy
// T = ½ m (ẋ² + ẏ²) + ½ I θ̇² grows only by gravity's power m g·v ≤ g √(2 m T):
//   √T(s) ≤ √T₀ + a s,  a = g √(m/2),
// and a spoke's gap g_k = y − l cos φ_k closes no faster than |ẏ| + l |θ̇| ≤ c √T,
// c = √(2 (1/m + l²/I)) (Cauchy–Schwarz). Spoke k stays off the ground for
//   τ_k = 2 g_k / (c (√T₀ + √(T₀ + 2 a g_k / c)))    (the root of c (√T₀ τ + a τ²/2) = g_k),
// of which 0.9 is declared. With 32 spokes most of them are far from the ground at any time.
//
// Closed form (McGeer 1990; tests/regression/rimless_wheel_test.cpp): with α = π/n, J = m l² + I,
// a plastic impact without slip of the landing spoke, the trailing spoke lifting off (the
// sequential rule), conserves the angular momentum about the landing tip:
//   ω⁺ = η ω⁻,  η = (m l² cos 2α + I) / J
// and the stance from φ = α to −α gains  ω⁻² = ω⁺² + K,  K = 4 m g l sin α sin γ / J, so the
// steady gait has  ω*² = η² K / (1 − η²)  and the step-to-step multiplier  λ = η².

#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "clatter/core/error.hpp"
#include "clatter/model/motion_symmetry.hpp"
#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"

namespace {

using clatter::model::ContactGeometry;
using clatter::model::MatQ;
using clatter::model::ParameterSet;
using clatter::model::System;
using clatter::model::VecA;
using clatter::model::VecQ;

struct Wheel {
  int spokes{6};
  double m{1.0}, I{0.1}, l{1.0}, slope{0.2}, g{9.81};
};

// G: one spoke on (see the file comment)
class OneStep final : public clatter::model::MotionSymmetry {
 public:
  explicit OneStep(const Wheel* w) : w_(w) {}
  void apply(double /*t*/, VecQ& q, VecQ& /*qd*/, VecA& /*aux*/) const override {
    const double alpha = std::numbers::pi / w_->spokes;
    q(0) += 2.0 * w_->l * std::sin(alpha);
    q(2) -= 2.0 * alpha;
  }
  [[nodiscard]] std::vector<int> contact_map() const override {
    std::vector<int> pi(static_cast<std::size_t>(w_->spokes));
    for (int k = 0; k < w_->spokes; ++k) pi[static_cast<std::size_t>(k)] = (k + 1) % w_->spokes;
    return pi;
  }
  [[nodiscard]] std::string description() const override {
    return "theta -> theta - 2 pi/" + std::to_string(w_->spokes) +
           ", x -> x + 2 l sin(pi/n); spoke k -> k + 1";
  }

 private:
  const Wheel* w_;
};

class RimlessWheel final : public System {
 public:
  RimlessWheel(const Wheel& w, const clatter::LawChoice& law) : w_(w) {
    check(w_);
    std::vector<clatter::model::Contact> contacts;
    for (int k = 0; k < w_.spokes; ++k)
      contacts.push_back(clatter::model::Contact::with_law("spoke" + std::to_string(k), law));
    set_contacts(std::move(contacts));
  }
  RimlessWheel(const RimlessWheel& other) : System(other), w_(other.w_), step_(&w_) {}
  RimlessWheel& operator=(const RimlessWheel&) = delete;

  [[nodiscard]] std::string_view kind() const override { return "rimless_wheel"; }
  [[nodiscard]] int nq() const override { return 3; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override {
    return {"x", "y", "theta"};
  }

  [[nodiscard]] MatQ mass_matrix(double /*t*/, const VecQ& /*q*/) const override {
    MatQ M = MatQ::Zero(3, 3);
    M(0, 0) = M(1, 1) = w_.m;
    M(2, 2) = w_.I;
    return M;
  }
  [[nodiscard]] VecQ applied_forces(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/,
                                    const VecA& /*aux*/) const override {
    VecQ f(3);
    f << w_.m * w_.g * std::sin(w_.slope), -w_.m * w_.g * std::cos(w_.slope), 0.0;
    return f;
  }
  void contact_geometry(int c, double /*t*/, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override {
    const double phi = q(2) + 2.0 * std::numbers::pi * c / w_.spokes;
    const double s = std::sin(phi), co = std::cos(phi);
    const double w2 = qd(2) * qd(2);
    out.g_N = q(1) - w_.l * co;
    out.J = clatter::model::Rows2::Zero(2, 3);
    out.J(0, 0) = 1.0;
    out.J(0, 2) = w_.l * co;
    out.J(1, 1) = 1.0;
    out.J(1, 2) = w_.l * s;
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma << -w_.l * s * w2, w_.l * co * w2;
    out.scale = w_.l;
  }
  [[nodiscard]] double potential_energy(double /*t*/, const VecQ& q) const override {
    return -w_.m * w_.g * (q(0) * std::sin(w_.slope) - q(1) * std::cos(w_.slope));
  }
  [[nodiscard]] double force_scale() const override { return w_.m * w_.g; }
  [[nodiscard]] double mass_scale() const override { return w_.m; }
  [[nodiscard]] const clatter::model::MotionSymmetry* motion_symmetry() const override {
    return &step_;
  }
  bool open_horizons(double /*t*/, const VecQ& q, const VecQ& qd, const VecA& /*aux*/,
                     std::array<double, clatter::model::kMaxContacts>& tau) const override {
    const double kinetic =
        0.5 * w_.m * (qd(0) * qd(0) + qd(1) * qd(1)) + 0.5 * w_.I * qd(2) * qd(2);
    const double root_t = std::sqrt(kinetic);
    const double a = w_.g * std::sqrt(0.5 * w_.m);
    const double c = std::sqrt(2.0 * (1.0 / w_.m + w_.l * w_.l / w_.I));
    for (int k = 0; k < w_.spokes; ++k) {
      const double gap = q(1) - w_.l * std::cos(q(2) + 2.0 * std::numbers::pi * k / w_.spokes);
      const double denom = c * (root_t + std::sqrt(kinetic + 2.0 * a * gap / c));
      tau[static_cast<std::size_t>(k)] = gap > 0.0 && denom > 0.0 ? 0.9 * 2.0 * gap / denom : 0.0;
    }
    return true;
  }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<RimlessWheel>(*this);
  }
  [[nodiscard]] ParameterSet own_parameters() const override {
    ParameterSet p;
    p.add("mass", w_.m, "kg", "mass of the hub");
    p.add("inertia", w_.I, "kg m^2", "moment of inertia about the hub");
    p.add("length", w_.l, "m", "spoke length");
    p.add("slope", w_.slope, "rad", "slope angle (the wheel rolls towards +x)");
    p.add("gravity", w_.g, "m/s^2", "gravitational acceleration");
    return p;
  }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override {
    Wheel w = w_;
    if (name == "mass")
      w.m = value;
    else if (name == "inertia")
      w.I = value;
    else if (name == "length")
      w.l = value;
    else if (name == "slope")
      w.slope = value;
    else if (name == "gravity")
      w.g = value;
    else
      (void)parameters().get(name);  // throws, naming the known parameters
    check(w);
    auto out = std::make_unique<RimlessWheel>(*this);
    out->w_ = w;
    return out;
  }

 private:
  static void check(const Wheel& w) {
    clatter::require(w.spokes >= 3 && w.spokes <= clatter::model::kMaxContacts, "model.spokes",
                     "must lie in [3, " + std::to_string(clatter::model::kMaxContacts) + "]");
    clatter::require(std::isfinite(w.m) && w.m > 0.0, "model.mass", "must be > 0 [kg]", w.m);
    clatter::require(std::isfinite(w.I) && w.I > 0.0, "model.inertia", "must be > 0 [kg m^2]", w.I);
    clatter::require(std::isfinite(w.l) && w.l > 0.0, "model.length", "must be > 0 [m]", w.l);
    clatter::require(std::isfinite(w.slope) && std::abs(w.slope) < 0.5 * std::numbers::pi,
                     "model.slope", "must lie in (-pi/2, pi/2) [rad]", w.slope);
    clatter::require(std::isfinite(w.g) && w.g >= 0.0, "model.gravity", "must be >= 0 [m/s^2]",
                     w.g);
  }
  Wheel w_;
  OneStep step_{&w_};
};

void register_rimless_wheel() {
  clatter::model::register_model(
      "rimless_wheel", "McGeer's rimless wheel rolling down a slope (examples/rimless_wheel)",
      [](clatter::model::ModelSpec& s) {
        Wheel w;
        const double n = s.number("spokes", 6.0);
        clatter::require(n == std::floor(n), "model.spokes", "must be a whole number", n);
        w.spokes = static_cast<int>(n);
        w.m = s.number("mass", 1.0);
        w.I = s.number("inertia", 0.1);
        w.l = s.number("length", 1.0);
        w.slope = s.number("slope", 0.2);
        w.g = s.number("gravity", 9.81);
        return std::make_unique<RimlessWheel>(w, s.law());
      });
}

}  // namespace

CLATTER_PLUGIN("rimless_wheel", register_rimless_wheel)
