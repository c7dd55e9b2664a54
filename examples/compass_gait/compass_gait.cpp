// The compass-gait walker as a plugin: the simplest walking model of Garcia, Chatterjee, Ruina and
// Coleman (1998) with a finite foot mass. A point hip of mass M and two massless legs of length l
// with point feet of mass m walk down a slope of angle γ; the stance foot sticks (Coulomb
// friction), the swing foot lands in a plastic impact, and the old stance foot leaves the ground.
// Coordinates along the slope (x down it, y along its normal), so that the ground is y = 0:
//
//   q = (x, y, θ_A, θ_B): the hip, and each leg's angle from the downward normal (θ > 0: the foot
//   ahead of the hip). Foot k = (x + l sin θ_k, y − l cos θ_k).
//   T = ½ (M + 2m)(ẋ² + ẏ²) + m l Σ_k θ̇_k (cos θ_k ẋ + sin θ_k ẏ) + ½ m l² Σ_k θ̇_k²
//   V = −(M + 2m) g (x sin γ − y cos γ) − m g l Σ_k cos(θ_k − γ)
//   M(q): M_xx = M_yy = M + 2m,  M_x,θk = m l cos θ_k,  M_y,θk = m l sin θ_k,  M_θkθk = m l²
//   f = (M + 2m) g (sin γ, −cos γ, 0, 0) + m l Σ_k θ̇_k² (sin θ_k, −cos θ_k, 0, 0)
//       + (0, 0, m g l sin(γ − θ_A), m g l sin(γ − θ_B))
//   contact k (foot k on the ground):  g_N = y − l cos θ_k,
//     J_T = [1, 0, l cos θ_k (column of θ_k)],  J_N = [0, 1, l sin θ_k],  w = 0,
//     γ_k = (−l sin θ_k θ̇_k²,  l cos θ_k θ̇_k²)
//
// Foot scuffing (model::System::contact_guards). With straight legs the swing foot is below the
// ground for part of every swing: its gap y − l cos θ_k = l (cos θ_st − cos θ_k) < 0 while
// |θ_k| < |θ_st|. The rigid model ignores it, as Garcia et al. do: foot k is enabled only while it
// is ahead of the other foot (θ_k > θ_other). Enabled below the ground (just past mid-stance), it
// is watched from when it rises above the ground, and the heel strike is its next landing. The
// stance foot is closed, so the guard does not affect it once the swing foot passes it.
//
// Its symmetry (model/motion_symmetry.hpp): the legs swapped, G: θ_A ↔ θ_B, θ̇_A ↔ θ̇_B, contacts
// A ↔ B. x is cyclic (nothing depends on it): one step moves it by the step length, which the gait
// chooses, so orbits modulo G leave x out of the unknowns. The gait's period-one orbit, for
// m/M → 0, is Garcia et al.'s (their eqs. 3–5 with the heel strike φ = 2θ): at γ = 0.009 the
// stance leg starts a step at θ = 0.2003 with θ̇ = −0.1998 (g = l = 1).

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <utility>

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

struct Walker {
  double hip{1.0}, foot{1e-3}, l{1.0}, slope{0.009}, g{1.0};
};

// G: the legs swapped (see the file comment)
class SwapLegs final : public clatter::model::MotionSymmetry {
 public:
  void apply(double /*t*/, VecQ& q, VecQ& qd, VecA& /*aux*/) const override {
    std::swap(q(2), q(3));
    std::swap(qd(2), qd(3));
  }
  [[nodiscard]] std::vector<int> contact_map() const override { return {1, 0}; }
  [[nodiscard]] std::string description() const override {
    return "thetaA <-> thetaB, footA <-> footB";
  }
};

class CompassGait final : public System {
 public:
  CompassGait(const Walker& w, const clatter::LawChoice& law) : w_(w) {
    check(w_);
    set_contacts({clatter::model::Contact::with_law("footA", law),
                  clatter::model::Contact::with_law("footB", law)});
  }

  [[nodiscard]] std::string_view kind() const override { return "compass_gait"; }
  [[nodiscard]] int nq() const override { return 4; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override {
    return {"x", "y", "thetaA", "thetaB"};
  }

  [[nodiscard]] MatQ mass_matrix(double /*t*/, const VecQ& q) const override {
    const double m = w_.foot, l = w_.l;
    MatQ M = MatQ::Zero(4, 4);
    M(0, 0) = M(1, 1) = w_.hip + 2.0 * m;
    for (int k = 2; k < 4; ++k) {
      M(0, k) = M(k, 0) = m * l * std::cos(q(k));
      M(1, k) = M(k, 1) = m * l * std::sin(q(k));
      M(k, k) = m * l * l;
    }
    return M;
  }
  [[nodiscard]] VecQ applied_forces(double /*t*/, const VecQ& q, const VecQ& qd,
                                    const VecA& /*aux*/) const override {
    const double m = w_.foot, l = w_.l, g = w_.g, total = w_.hip + 2.0 * m;
    VecQ f(4);
    f << total * g * std::sin(w_.slope), -total * g * std::cos(w_.slope), 0.0, 0.0;
    for (int k = 2; k < 4; ++k) {
      const double w2 = qd(k) * qd(k);
      f(0) += m * l * std::sin(q(k)) * w2;
      f(1) -= m * l * std::cos(q(k)) * w2;
      f(k) = m * g * l * std::sin(w_.slope - q(k));
    }
    return f;
  }
  void contact_geometry(int c, double /*t*/, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override {
    const int k = 2 + c;
    const double l = w_.l, s = std::sin(q(k)), co = std::cos(q(k)), w2 = qd(k) * qd(k);
    out.g_N = q(1) - l * co;
    out.J = clatter::model::Rows2::Zero(2, 4);
    out.J(0, 0) = 1.0;
    out.J(0, k) = l * co;
    out.J(1, 1) = 1.0;
    out.J(1, k) = l * s;
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma = clatter::Vec2(-l * s * w2, l * co * w2);
    out.scale = l;
  }
  // a foot may land only ahead of the other (foot scuffing ignored: the file comment)
  bool contact_guards(double /*t*/, const VecQ& q, const VecQ& /*qd*/, const VecA& /*aux*/,
                      std::array<bool, clatter::model::kMaxContacts>& enabled) const override {
    enabled[0] = q(2) > q(3);
    enabled[1] = q(3) > q(2);
    return true;
  }
  [[nodiscard]] double potential_energy(double /*t*/, const VecQ& q) const override {
    const double m = w_.foot, l = w_.l, g = w_.g, total = w_.hip + 2.0 * m;
    return -total * g * (q(0) * std::sin(w_.slope) - q(1) * std::cos(w_.slope)) -
           m * g * l * (std::cos(q(2) - w_.slope) + std::cos(q(3) - w_.slope));
  }
  [[nodiscard]] double force_scale() const override { return (w_.hip + 2.0 * w_.foot) * w_.g; }
  [[nodiscard]] double mass_scale() const override { return w_.hip; }
  [[nodiscard]] const clatter::model::MotionSymmetry* motion_symmetry() const override {
    return &swap_;
  }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<CompassGait>(*this);
  }
  [[nodiscard]] ParameterSet own_parameters() const override {
    ParameterSet p;
    p.add("hip_mass", w_.hip, "kg", "point mass at the hip");
    p.add("foot_mass", w_.foot, "kg", "point mass at each foot");
    p.add("length", w_.l, "m", "leg length");
    p.add("slope", w_.slope, "rad", "slope angle (the walker walks towards +x)");
    p.add("gravity", w_.g, "m/s^2", "gravitational acceleration");
    return p;
  }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override {
    Walker w = w_;
    if (name == "hip_mass")
      w.hip = value;
    else if (name == "foot_mass")
      w.foot = value;
    else if (name == "length")
      w.l = value;
    else if (name == "slope")
      w.slope = value;
    else if (name == "gravity")
      w.g = value;
    else
      (void)parameters().get(name);  // throws, naming the known parameters
    check(w);
    auto out = std::make_unique<CompassGait>(*this);
    out->w_ = w;
    return out;
  }

 private:
  static void check(const Walker& w) {
    clatter::require(std::isfinite(w.hip) && w.hip > 0.0, "model.hip_mass", "must be > 0 [kg]",
                     w.hip);
    clatter::require(std::isfinite(w.foot) && w.foot > 0.0, "model.foot_mass",
                     "must be > 0 [kg] (a massless foot makes M singular)", w.foot);
    clatter::require(std::isfinite(w.l) && w.l > 0.0, "model.length", "must be > 0 [m]", w.l);
    clatter::require(std::isfinite(w.slope) && std::abs(w.slope) < 0.5 * std::numbers::pi,
                     "model.slope", "must lie in (-pi/2, pi/2) [rad]", w.slope);
    clatter::require(std::isfinite(w.g) && w.g >= 0.0, "model.gravity", "must be >= 0 [m/s^2]",
                     w.g);
  }
  Walker w_;
  SwapLegs swap_;
};

void register_compass_gait() {
  clatter::model::register_model(
      "compass_gait",
      "Garcia et al.'s compass-gait walker with point feet on a slope (examples/compass_gait)",
      [](clatter::model::ModelSpec& s) {
        Walker w;
        w.hip = s.number("hip_mass", 1.0);
        w.foot = s.number("foot_mass", 1e-3);
        w.l = s.number("length", 1.0);
        w.slope = s.number("slope", 0.009);
        w.g = s.number("gravity", 1.0);
        return std::make_unique<CompassGait>(w, s.law());
      });
}

}  // namespace

CLATTER_PLUGIN("compass_gait", register_compass_gait)
