#include "clatter/laws/rank_one_impact.hpp"

#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter {

bool is_rank_one(const ContactMatrix& W) {
  return W.A >= 0.0 && W.C >= 0.0 && W.A + W.C > 0.0 && std::isfinite(W.det()) &&
         std::abs(W.det()) <= 1e-12 * W.A * W.C;
}

ImpactOutcome rank_one_impact(LawKind law, const ImpactInput& in, const ImpactParams& params) {
  const ContactMatrix& W = in.W;
  const Vec2 v = in.v_pre;
  require(std::isfinite(v.x()) && std::isfinite(v.y()) && v.y() < 0.0, "v_pre",
          "must be finite with v_N < 0 (approaching)");
  require(std::isfinite(params.mu) && params.mu >= 0.0, "mu", "must be finite and >= 0", params.mu);
  require(std::isfinite(params.e) && params.e >= 0.0 && params.e <= 1.0, "e", "must lie in [0, 1]",
          params.e);
  require(is_rank_one(W) && W.C > 0.0, "W", "must be singular of rank one with C > 0");
  require(
      std::abs(W.C * v.x() - W.B * v.y()) <= 1e-9 * (std::abs(W.C * v.x()) + std::abs(W.B * v.y())),
      "v_pre", "must lie on the line of motion of a rank-one contact (v_T = (B/C) v_N)");
  const double mu = params.mu;
  const double absB = std::abs(W.B);
  // B = 0: the contact moves along its normal only (J_T = 0, A = 0); nothing slides, and the
  // tangential impulse, which changes no velocity, is 0 (not ±μΛ_N)
  const double sB = W.B > 0.0 ? 1.0 : W.B < 0.0 ? -1.0 : 0.0;
  const double k_c = W.C + mu * absB;
  const double k_e = W.C - mu * absB;
  const double p_c = -v.y() / k_c;
  double vN = 0.0;
  if (k_e > 0.0) {
    switch (law) {
      case LawKind::kStronge:
      case LawKind::kStrongeMarcher:
        vN = params.e * -v.y() * std::sqrt(k_e / k_c);
        break;
      case LawKind::kPoisson:
        vN = params.e * -v.y() * k_e / k_c;
        break;
      case LawKind::kNewton:
      case LawKind::kWhittaker:
      case LawKind::kBrach:
        vN = params.e * -v.y();
        break;
    }
  }
  const double p_e = k_e > 0.0 ? vN / k_e : 0.0;
  ImpactOutcome out;
  out.Lambda = {sB * mu * (p_c - p_e), p_c + p_e};
  out.v_post = {W.B / W.C * vN, vN};
  out.p_N_compression = p_c;
  out.ends_in_stick = vN == 0.0;
  out.delta_energy = 0.5 * out.Lambda.dot(v + out.v_post);
  const double approach = 0.5 * v.y() * v.y() / W.C;
  if (out.delta_energy > 1e-12 * approach) out.status = Status::kEnergyGain;
  return out;
}

}  // namespace clatter
