#pragma once
/// @file
/// The obstacle: a rigid, infinitely massive horizontal line that moves vertically, and whose
/// material may move tangentially (a belt):
/// @verbatim
///   h(t) = h₀ + A sin(ωt + φ)        height of the line [m]
///   ḣ(t) = Aω cos(ωt + φ),  ḧ(t) = −Aω² sin(ωt + φ)
///   u(t) = u₀ + U sin(Ωt + ψ)         tangential (belt) velocity of the surface material [m/s]
/// @endverbatim
/// The contact normal is n = (0, 1) (pointing out of the obstacle), the tangent t = (1, 0).
/// A fixed floor is A = 0. ([BP] §4: D(t) = A sin ωt; [B] §5.3.)
/// Every sine and cosine of a phase is clatter::sincos (core/sincos.hpp), so that h(t), state(t).h
/// and the rest agree bit for bit.

#include <cmath>

#include "clatter/core/error.hpp"
#include "clatter/core/sincos.hpp"

namespace clatter::model {

struct Surface {
  double height{0.0};          ///< h₀ [m]
  double amplitude{0.0};       ///< A [m]
  double omega{0.0};           ///< ω [rad/s], ≥ 0
  double phase{0.0};           ///< φ [rad]
  double belt_velocity{0.0};   ///< u₀ [m/s]
  double belt_amplitude{0.0};  ///< U [m/s]
  double belt_omega{0.0};      ///< Ω [rad/s], ≥ 0
  double belt_phase{0.0};      ///< ψ [rad]

  [[nodiscard]] double h(double t) const {
    return height + amplitude * clatter::sincos(omega * t + phase).sin;
  }
  [[nodiscard]] double hdot(double t) const {
    return amplitude * omega * clatter::sincos(omega * t + phase).cos;
  }
  [[nodiscard]] double hddot(double t) const {
    return -amplitude * omega * omega * clatter::sincos(omega * t + phase).sin;
  }
  [[nodiscard]] double u(double t) const {
    return belt_velocity + belt_amplitude * clatter::sincos(belt_omega * t + belt_phase).sin;
  }
  [[nodiscard]] double udot(double t) const {
    return belt_amplitude * belt_omega * clatter::sincos(belt_omega * t + belt_phase).cos;
  }
  /// h, ḣ, ḧ, u, u̇ at t with one sin/cos pair per motion (the hot path of the kinematics).
  struct State {
    double h, hdot, hddot, u, udot;
  };
  [[nodiscard]] State state(double t) const {
    State st{height, 0.0, 0.0, belt_velocity, 0.0};
    if (amplitude != 0.0) {
      const SinCos sc = clatter::sincos(omega * t + phase);
      st.h += amplitude * sc.sin;
      st.hdot = amplitude * omega * sc.cos;
      st.hddot = -amplitude * omega * omega * sc.sin;
    }
    if (belt_amplitude != 0.0) {
      const SinCos sc = clatter::sincos(belt_omega * t + belt_phase);
      st.u += belt_amplitude * sc.sin;
      st.udot = belt_amplitude * belt_omega * sc.cos;
    }
    return st;
  }
  /// ∫_{t0}^{t} u dt: how far the surface material travels from t0 to t [m].
  [[nodiscard]] double belt_travel(double t0, double t) const {
    double d = belt_velocity * (t - t0);
    if (belt_amplitude != 0.0) {
      if (belt_omega > 0.0) {
        // −(U/Ω)(cos(Ωt + ψ) − cos(Ωt₀ + ψ)) as a product of sines (no cancellation for t ≈ t0)
        d += 2.0 * belt_amplitude / belt_omega *
             std::sin(0.5 * belt_omega * (t + t0) + belt_phase) *
             std::sin(0.5 * belt_omega * (t - t0));
      } else {
        d += belt_amplitude * std::sin(belt_phase) * (t - t0);
      }
    }
    return d;
  }
  /// h⃛(t) and ü(t) (the rates of the accelerations).
  [[nodiscard]] double hdddot(double t) const {
    return -amplitude * omega * omega * omega * clatter::sincos(omega * t + phase).cos;
  }
  [[nodiscard]] double uddot(double t) const {
    return -belt_amplitude * belt_omega * belt_omega *
           clatter::sincos(belt_omega * t + belt_phase).sin;
  }
  /// max_t h(t) and max_t |ḧ(t)|.
  [[nodiscard]] double h_max() const { return height + std::abs(amplitude); }
  [[nodiscard]] double hddot_max() const { return std::abs(amplitude) * omega * omega; }
  [[nodiscard]] double hdddot_max() const { return std::abs(amplitude) * omega * omega * omega; }
};

/// Throws InvalidArgument naming the field unless every parameter is finite and ω ≥ 0.
inline void validate(const Surface& s) {
  require_finite(s.height, "surface.height");
  require_finite(s.amplitude, "surface.amplitude");
  require(std::isfinite(s.omega) && s.omega >= 0.0, "surface.omega",
          "must be finite and >= 0 [rad/s]", s.omega);
  require_finite(s.phase, "surface.phase");
  require_finite(s.belt_velocity, "surface.belt_velocity");
  require_finite(s.belt_amplitude, "surface.belt_amplitude");
  require(std::isfinite(s.belt_omega) && s.belt_omega >= 0.0, "surface.belt_omega",
          "must be finite and >= 0 [rad/s]", s.belt_omega);
  require_finite(s.belt_phase, "surface.belt_phase");
}

}  // namespace clatter::model
