#include "clatter/laws/stronge.hpp"

#include <algorithm>
#include <cmath>

#include "clatter/laws/stronge_maps.hpp"

namespace clatter::stronge {

Classification classify(const Vec2& v_pre, const ContactMatrix& W, const RateConstants& k,
                        double e_star) {
  const double v_T = v_pre.x();
  const double v_N = v_pre.y();
  Classification c;

  // no initial slip: stick if the cone holds it, else slip in the direction of sign(B)
  if (v_T == 0.0) {
    if (k.stick_ok) {
      c.region = 0;
      c.mode = c.mode_after = SlipMode::kStick;
      c.k_T = 0.0;
      c.k_N = k.k_N_stick;
    } else if (W.B > 0.0) {
      c.region = 1;
      c.mode = c.mode_after = SlipMode::kSlipPositive;
      c.k_T = k.k_T_pos;
      c.k_N = k.k_N_pos;
    } else {
      c.region = 2;
      c.mode = c.mode_after = SlipMode::kSlipNegative;
      c.k_T = k.k_T_neg;
      c.k_N = k.k_N_neg;
    }
    c.kp_T = c.k_T;
    c.kp_N = c.k_N;
    c.map = MapKind::kI;
    return c;
  }

  const bool positive = v_T > 0.0;
  const double s = positive ? 1.0 : -1.0;
  c.mode = positive ? SlipMode::kSlipPositive : SlipMode::kSlipNegative;
  c.k_T = positive ? k.k_T_pos : k.k_T_neg;
  c.k_N = positive ? k.k_N_pos : k.k_N_neg;
  if (k.stick_ok) {
    c.mode_after = SlipMode::kStick;
    c.kp_T = 0.0;
    c.kp_N = k.k_N_stick;
  } else {
    c.mode_after = positive ? SlipMode::kSlipNegative : SlipMode::kSlipPositive;
    c.kp_T = positive ? k.k_T_neg : k.k_T_pos;
    c.kp_N = positive ? k.k_N_neg : k.k_N_pos;
  }
  const int side = positive ? 0 : 1;  // odd regions start in + slip, even in − slip

  // slip never decelerates: one mode throughout
  if (s * c.k_T >= 0.0) {
    c.region = 1 + side;
    c.map = MapKind::kI;
    c.mode_after = c.mode;
    return c;
  }
  // slip stops during compression (includes jam, k_N ≤ 0)
  if (c.k_N <= 0.0 || s * (c.k_N * v_T - c.k_T * v_N) <= 0.0) {
    c.region = (k.stick_ok ? 5 : 9) + side;
    c.map = MapKind::kIII;
    return c;
  }
  // slip outlasts the impact
  if (s * (c.k_N * v_T - (1.0 + e_star) * c.k_T * v_N) > 0.0) {
    c.region = 1 + side;
    c.map = MapKind::kI;
    c.mode_after = c.mode;
    return c;
  }
  // slip stops during restitution
  c.region = (k.stick_ok ? 3 : 7) + side;
  c.map = MapKind::kII;
  return c;
}

Classification classification_of_region(int region, const ContactMatrix& W,
                                        const RateConstants& k) {
  Classification c;
  c.region = region;
  if (region == 0) {
    c.mode = c.mode_after = SlipMode::kStick;
    c.k_T = c.kp_T = 0.0;
    c.k_N = c.kp_N = k.k_N_stick;
    c.map = MapKind::kI;
    return c;
  }
  const bool positive = region % 2 == 1;  // odd regions start in + slip
  c.mode = positive ? SlipMode::kSlipPositive : SlipMode::kSlipNegative;
  c.k_T = positive ? k.k_T_pos : k.k_T_neg;
  c.k_N = positive ? k.k_N_pos : k.k_N_neg;
  if (region <= 2) {
    c.map = MapKind::kI;
    c.mode_after = c.mode;
    c.kp_T = c.k_T;
    c.kp_N = c.k_N;
  } else if (region <= 6) {  // then stick: Map II (3, 4) or III (5, 6)
    c.map = region <= 4 ? MapKind::kII : MapKind::kIII;
    c.mode_after = SlipMode::kStick;
    c.kp_T = 0.0;
    c.kp_N = k.k_N_stick;
  } else {  // then reversal: Map II (7, 8) or III (9, 10)
    c.map = region <= 8 ? MapKind::kII : MapKind::kIII;
    c.mode_after = positive ? SlipMode::kSlipNegative : SlipMode::kSlipPositive;
    c.kp_T = positive ? k.k_T_neg : k.k_T_pos;
    c.kp_N = positive ? k.k_N_neg : k.k_N_pos;
  }
  (void)W;
  return c;
}

Vec2 map_I(const Vec2& v_pre, double k_T, double k_N, double e_star) {
  const auto v = detail::map_I(v_pre.x(), v_pre.y(), k_T, k_N, e_star);
  return {v[0], v[1]};
}

Vec2 map_II(const Vec2& v_pre, double k_T, double k_N, double kp_T, double kp_N, double e_star) {
  const auto v = detail::map_II(v_pre.x(), v_pre.y(), k_T, k_N, kp_T, kp_N, e_star);
  return {v[0], v[1]};
}

Vec2 map_III(const Vec2& v_pre, double k_T, double k_N, double kp_T, double kp_N, double e_star) {
  const auto v = detail::map_III(v_pre.x(), v_pre.y(), k_T, k_N, kp_T, kp_N, e_star);
  return {v[0], v[1]};
}

}  // namespace clatter::stronge

namespace clatter {

ImpactOutcome stronge_closed_form(const ImpactInput& in, const ImpactParams& params) {
  using stronge::MapKind;
  const ContactMatrix& W = in.W;
  const RateConstants k = RateConstants::make(W, params.mu);
  const stronge::Classification c =
      params.forced_region >= 0 ? stronge::classification_of_region(params.forced_region, W, k)
                                : stronge::classify(in.v_pre, W, k, params.e);
  const double v_T = in.v_pre.x();
  const double v_N = in.v_pre.y();

  ImpactOutcome out;
  out.region = c.region;
  const double ratio = impulse_ratio(c.mode, W, params.mu);

  if (c.map == MapKind::kI) {
    out.v_post = stronge::map_I(in.v_pre, c.k_T, c.k_N, params.e);
    const double P = (out.v_post.y() - v_N) / c.k_N;
    out.Lambda = {ratio * P, P};
    out.p_N_compression = -v_N / c.k_N;
    out.n_segments = 1;
    out.segments[0] = {c.mode, 0.0, P};
    out.ends_in_stick = c.mode == SlipMode::kStick;
  } else {
    out.v_post = c.map == MapKind::kII
                     ? stronge::map_II(in.v_pre, c.k_T, c.k_N, c.kp_T, c.kp_N, params.e)
                     : stronge::map_III(in.v_pre, c.k_T, c.k_N, c.kp_T, c.kp_N, params.e);
    // segment impulses: first slip stops at p₁ where v_N = −a; the second mode runs to v_N⁺
    const double p1 = -v_T / c.k_T;
    const double v_N1 = v_N + c.k_N * p1;
    const double P = p1 + (out.v_post.y() - v_N1) / c.kp_N;
    const double ratio2 = impulse_ratio(c.mode_after, W, params.mu);
    out.Lambda = {ratio * p1 + ratio2 * (P - p1), P};
    out.p_N_compression = c.map == MapKind::kII ? -v_N / c.k_N : p1 - v_N1 / c.kp_N;
    out.n_segments = 2;
    out.segments[0] = {c.mode, 0.0, p1};
    out.segments[1] = {c.mode_after, p1, P};
    out.ends_in_stick = c.mode_after == SlipMode::kStick;
    if (out.ends_in_stick) out.v_post.x() = 0.0;
  }
  account_energy(in, out);
  return out;
}

}  // namespace clatter
