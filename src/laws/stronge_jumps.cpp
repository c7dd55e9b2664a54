#include "clatter/laws/stronge_jumps.hpp"

#include <cmath>

#include "clatter/laws/rate_constants.hpp"
#include "clatter/laws/stronge_jacobian.hpp"

namespace clatter {

namespace {

// a slip's rate constants
struct Slip {
  double k_T, k_N;
};

// item 1: (g_II − g_I)/φ, φ = k_N v_T − (1+r) k_T v_N
Vec2 end_of_impact(const Slip& k, const Slip& kp) {
  const double d = k.k_T * k.k_N;
  return {(kp.k_T - k.k_T) / d, (kp.k_N - k.k_N) / d};
}

// item 2 (corrected): (g_III − g_II)/φ², φ = k_N v_T − k_T v_N
Vec2 end_of_compression(const Slip& k, const Slip& kp, double v_N, double r) {
  const double c = (k.k_N - kp.k_N) * (1.0 - r * r) /
                   (2.0 * r * k.k_T * k.k_T * v_N * std::sqrt(k.k_N * kp.k_N));
  return {c * kp.k_T / kp.k_N, c};
}

// item 3: (g_I(k′) − g_III(k, k′))/v_T
Vec2 zero_slip_no_stick(const Slip& k, const Slip& kp, double r) {
  return {
      1.0 - kp.k_T * k.k_N / (k.k_T * kp.k_N) - kp.k_T * (k.k_N - kp.k_N) * r / (kp.k_N * k.k_T),
      (kp.k_N - k.k_N) * r / k.k_T};
}

// item 5: (g(k, k′) − g(k, 0, k_N⁰))/k′_T for Map II (ii) or Map III
Vec2 loss_of_stick(const Slip& k, double k_N0, double BA, const Vec2& v, double r, bool ii) {
  const double v_T = v.x(), v_N = v.y();
  const double a = (k.k_N / k.k_T) * v_T - v_N;
  const double rho = k_N0 / k.k_N;
  if (ii) {
    const double S = std::sqrt(std::max((1.0 - rho) * a * a + r * r * rho * v_N * v_N, 0.0));
    return {(a + S) / k_N0, BA * (r * r * v_N * v_N - a * a) / (2.0 * k.k_N * S)};
  }
  // S_III in the polynomial form (laws/stronge_maps.hpp), k′_N = k_N⁰
  const double u = v_T / k.k_T;
  const double S = std::sqrt(
      std::max(v_N * v_N + 2.0 * (k_N0 - k.k_N) * u * v_N + k.k_N * (k.k_N - k_N0) * u * u, 0.0));
  return {(a + r * S) / k_N0, BA * r * (v_N * v_N - a * a) / (2.0 * k.k_N * S)};
}

}  // namespace

StrongeJump stronge_jump(int a, int b, const ImpactInput& in, const ImpactParams& p) {
  const RegionBoundary& bd = stronge_boundary(a, b);
  const RateConstants kc = RateConstants::make(in.W, p.mu);
  const Slip pos{kc.k_T_pos, kc.k_N_pos}, neg{kc.k_T_neg, kc.k_N_neg}, stick{0.0, kc.k_N_stick};
  const double r = p.e;
  const bool plus = bd.lower % 2 == 1;  // the lower region starts in + slip
  const Slip& k = plus ? pos : neg;
  const Slip& other = plus ? neg : pos;
  // the second segment: stick for the upper regions 3–6, the other slip for 7–10
  const bool to_stick = bd.upper <= 6;
  StrongeJump j;
  j.boundary = bd;
  j.order = bd.c1 ? 2 : 1;
  switch (bd.type) {
    case BoundaryType::kEndOfImpact:
      j.coefficient = (plus ? 1.0 : -1.0) * end_of_impact(k, to_stick ? stick : other);
      break;
    case BoundaryType::kEndOfCompression:
      j.coefficient = end_of_compression(k, to_stick ? stick : other, in.v_pre.y(), r);
      break;
    case BoundaryType::kZeroSlipNoStick:
      // 1–10: −(k⁻, k⁺) per H = v_T;  2–9: +(k⁺, k⁻) per H = −v_T
      j.coefficient =
          bd.lower == 1 ? Vec2(-zero_slip_no_stick(neg, pos, r)) : zero_slip_no_stick(pos, neg, r);
      break;
    case BoundaryType::kZeroSlipStick: {
      const double c = -(kc.k_T_pos + kc.k_T_neg) * kc.k_N_stick * r * p.mu /
                       (2.0 * in.v_pre.y() * kc.k_T_pos * kc.k_T_neg);
      j.coefficient = {0.0, -c};  // g₆ − g₅ = −c v_T²
      break;
    }
    case BoundaryType::kLossOfStick: {
      // 3–7, 5–9: k′_T = k_T⁻ = H;  4–8, 6–10: k′_T = k_T⁺ = −H
      const bool ii = bd.lower <= 4;
      j.coefficient =
          (plus ? 1.0 : -1.0) * loss_of_stick(k, kc.k_N_stick, in.W.B / in.W.A, in.v_pre, r, ii);
      break;
    }
  }
  return j;
}

Vec2 stronge_jump_from_jacobians(int a, int b, const ImpactInput& in, const ImpactParams& p) {
  const RegionBoundary& bd = stronge_boundary(a, b);
  if (bd.c1) return {0.0, 0.0};
  const StrongeJacobian lo = stronge_jacobian(in, p, bd.lower);
  const StrongeJacobian up = stronge_jacobian(in, p, bd.upper);
  if (bd.type == BoundaryType::kLossOfStick) {
    // H = k_T⁻ = B + μA or −k_T⁺ = −(B − μA): ∂H/∂μ = A
    return (up.d_mu_e.col(0) - lo.d_mu_e.col(0)) / in.W.A;
  }
  // H is linear and homogeneous in v⁻ for the other types: ∇_v H = (H(e_T), H(e_N))
  const Vec2 grad{boundary_function(a, b, {1.0, 0.0}, in.W, p),
                  boundary_function(a, b, {0.0, 1.0}, in.W, p)};
  return (up.d_v - lo.d_v) * grad / grad.squaredNorm();
}

}  // namespace clatter
