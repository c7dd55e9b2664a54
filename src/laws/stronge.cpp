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

namespace {

// The law for v_T⁻ ≠ 0 (every impact of a run but the rare exact v_T⁻ = 0) in one pass: the
// region as flags (stronge::classify's tests, or a forced region's), then Map I and the
// two-segment Maps II/III both evaluated from four reciprocals (1/A, 1/k_N, 1/k_T, 1/k′_N) and one
// square root, and the result selected. The readable form below (classify, then a map, then the
// segment impulses) divides 4 to 8 times, partly in a chain, and costs about 1.4× as much on
// random impacts (docs/performance.md, "Stronge's law in one pass"). The two agree to round-off
// (tests/unit/laws/stronge_one_pass_test.cpp); the readable form remains the route of v_T⁻ = 0
// and of a forced region 0.
//
// one_pass: the first segment slips in the direction `positive`; after the slip stops the
// contact sticks (`stick_after`) or slips the other way; Map I (one segment), II (the slip stops
// in restitution) or III (in compression).
inline ImpactOutcome one_pass(const ImpactInput& in, const ImpactParams& params, bool positive,
                              bool stick_after, bool map_I, bool map_II) {
  const double v_T = in.v_pre.x();
  const double v_N = in.v_pre.y();
  const double A = in.W.A;
  const double B = in.W.B;
  const double C = in.W.C;
  const double mu = params.mu;
  const double e = params.e;
  const double s = positive ? 1.0 : -1.0;
  const double k_T = B - s * mu * A;
  const double k_N = C - s * mu * B;
  const double r_A = 1.0 / A;
  const double kp_T = stick_after ? 0.0 : B + s * mu * A;
  const double kp_N = stick_after ? (A * C - B * B) * r_A : C + s * mu * B;
  const double r_kN = 1.0 / k_N;
  const double r_kT = 1.0 / k_T;
  const double r_kpN = 1.0 / kp_N;
  const double ratio = -s * mu;  // λ_T/λ_N of the first segment
  const double ratio_after = stick_after ? -B * r_A : s * mu;

  ImpactOutcome out;
  const int side = positive ? 0 : 1;  // odd regions start in + slip, even in − slip
  out.region = map_I ? 1 + side : (stick_after ? 3 : 7) + (map_II ? 0 : 2) + side;

  // Map I: one segment
  const double P_I = -(1.0 + e) * v_N * r_kN;
  const double vT_I = v_T + k_T * P_I;
  // Maps II/III: a = (k_N/k_T) v_T − v_N; one square root for either
  const double a = k_N * r_kT * v_T - v_N;
  const double rho = kp_N * r_kN;
  const double u = v_T * r_kT;
  const double S2_II = (1.0 - rho) * a * a + e * e * rho * v_N * v_N;
  const double S2_III = v_N * v_N + 2.0 * (kp_N - k_N) * u * v_N + k_N * (k_N - kp_N) * u * u;
  const double S = std::sqrt(std::max(map_II ? S2_II : S2_III, 0.0));
  const double vN_two = map_II ? S : e * S;
  const double vT_two = stick_after ? 0.0 : kp_T * r_kpN * (a + vN_two);
  const double p1 = -u;
  const double vN_1 = v_N + k_N * p1;
  const double P_two = p1 + (vN_two - vN_1) * r_kpN;

  const double P = map_I ? P_I : P_two;
  out.v_post = {map_I ? vT_I : vT_two, map_I ? -e * v_N : vN_two};
  out.Lambda = {map_I ? ratio * P : ratio * p1 + ratio_after * (P - p1), P};
  out.p_N_compression = map_I | map_II ? -v_N * r_kN : p1 - vN_1 * r_kpN;
  out.n_segments = 2 - static_cast<int>(map_I);
  const SlipMode mode = positive ? SlipMode::kSlipPositive : SlipMode::kSlipNegative;
  const SlipMode reversed = positive ? SlipMode::kSlipNegative : SlipMode::kSlipPositive;
  out.segments[0] = {mode, 0.0, map_I ? P : p1};
  if (!map_I) out.segments[1] = {stick_after ? SlipMode::kStick : reversed, p1, P};
  out.ends_in_stick = !map_I && stick_after;
  // account_energy's ΔE from the values at hand; its check (a call) only where ΔE > 0
  out.delta_energy = 0.5 * (out.Lambda.x() * (v_T + out.v_post.x()) + P * (v_N + out.v_post.y()));
  if (out.delta_energy > 0.0) account_energy(in, out);
  return out;
}

// stronge::classify's tests for v_T⁻ ≠ 0, as flags
inline ImpactOutcome classified_one_pass(const ImpactInput& in, const ImpactParams& params) {
  const Vec2& v = in.v_pre;  // (v_T, v_N)
  const ContactMatrix& W = in.W;
  const bool positive = v.x() > 0.0;
  const double s = positive ? 1.0 : -1.0;
  const double k_T = W.B - s * params.mu * W.A;
  const double k_N = W.C - s * params.mu * W.B;
  const bool one_mode = s * k_T >= 0.0;  // slip never decelerates
  const bool decelerates = !one_mode;
  const bool stops_in_compression =
      decelerates & ((k_N <= 0.0) | (s * (k_N * v.x() - k_T * v.y()) <= 0.0));
  const bool stops_later = decelerates != stops_in_compression;  // decelerates, not in compression
  const bool outlasts = stops_later & (s * (k_N * v.x() - (1.0 + params.e) * k_T * v.y()) > 0.0);
  return one_pass(in, params, positive, std::abs(W.B) <= params.mu * W.A, one_mode | outlasts,
                  stops_later != outlasts);
}

// a forced region 1–10 (classification_of_region): its flags
inline ImpactOutcome forced_one_pass(const ImpactInput& in, const ImpactParams& params) {
  const int r = params.forced_region;
  return one_pass(in, params, r % 2 == 1, r >= 3 && r <= 6, r <= 2,
                  r == 3 || r == 4 || r == 7 || r == 8);
}

}  // namespace

ImpactOutcome stronge_closed_form(const ImpactInput& in, const ImpactParams& params) {
  if (in.v_pre.x() != 0.0) {
    if (params.forced_region < 0) return classified_one_pass(in, params);
    if (params.forced_region > 0) return forced_one_pass(in, params);
  }
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
