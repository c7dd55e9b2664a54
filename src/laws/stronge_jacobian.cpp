#include "clatter/laws/stronge_jacobian.hpp"

#include <array>
#include <cmath>

#include "clatter/core/error.hpp"
#include "clatter/laws/rate_constants.hpp"
#include "clatter/laws/stronge.hpp"
#include "clatter/laws/stronge_maps.hpp"

namespace clatter {

namespace {

// a dual number with derivatives along (v_T, v_N, μ, e*)
struct Dual {
  double v{0.0};
  std::array<double, 4> d{};
  Dual() = default;
  Dual(double value) : v(value) {}  // NOLINT(google-explicit-constructor): constants
  static Dual seed(double value, int k) {
    Dual x(value);
    x.d[static_cast<std::size_t>(k)] = 1.0;
    return x;
  }
};

Dual operator+(const Dual& a, const Dual& b) {
  Dual r(a.v + b.v);
  for (std::size_t i = 0; i < 4; ++i) r.d[i] = a.d[i] + b.d[i];
  return r;
}
Dual operator-(const Dual& a, const Dual& b) {
  Dual r(a.v - b.v);
  for (std::size_t i = 0; i < 4; ++i) r.d[i] = a.d[i] - b.d[i];
  return r;
}
Dual operator-(const Dual& a) { return Dual(0.0) - a; }
Dual operator*(const Dual& a, const Dual& b) {
  Dual r(a.v * b.v);
  for (std::size_t i = 0; i < 4; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
Dual operator/(const Dual& a, const Dual& b) {
  Dual r(a.v / b.v);
  for (std::size_t i = 0; i < 4; ++i) r.d[i] = (a.d[i] * b.v - a.v * b.d[i]) / (b.v * b.v);
  return r;
}
Dual operator*(double a, const Dual& b) { return Dual(a) * b; }
Dual operator-(double a, const Dual& b) { return Dual(a) - b; }
Dual operator+(double a, const Dual& b) { return Dual(a) + b; }

// √max(x, 0) for duals (found by argument-dependent lookup from the map templates)
Dual sqrt_clamped(const Dual& x) {
  if (!(x.v > 0.0)) return Dual(0.0);
  const double s = std::sqrt(x.v);
  Dual r(s);
  for (std::size_t i = 0; i < 4; ++i) r.d[i] = x.d[i] / (2.0 * s);
  return r;
}

}  // namespace

StrongeJacobian stronge_jacobian(const ImpactInput& in, const ImpactParams& p, int region) {
  require(region >= -1 && region <= 10, "region", "must lie in [-1, 10] (-1: classified)");
  const ContactMatrix& W = in.W;
  if (region < 0) {
    const RateConstants k = RateConstants::make(W, p.mu);
    region = stronge::classify(in.v_pre, W, k, p.e).region;
  }
  const Dual vT = Dual::seed(in.v_pre.x(), 0), vN = Dual::seed(in.v_pre.y(), 1);
  const Dual mu = Dual::seed(p.mu, 2), r = Dual::seed(p.e, 3);
  // the rate constants of + slip, − slip and stick
  const Dual kTp = W.B - mu * W.A, kNp = W.C - mu * W.B;
  const Dual kTm = W.B + mu * W.A, kNm = W.C + mu * W.B;
  const Dual kT0(0.0), kN0(W.det() / W.A);
  std::array<Dual, 2> v;
  const bool plus = region % 2 == 1;  // odd regions start in + slip
  const Dual& kT = plus ? kTp : kTm;
  const Dual& kN = plus ? kNp : kNm;
  const Dual& kTo = plus ? kTm : kTp;  // the opposite slip (reversal)
  const Dual& kNo = plus ? kNm : kNp;
  switch (region) {
    case 0:
      v = stronge::detail::map_I(vT, vN, kT0, kN0, r);
      break;
    case 1:
    case 2:
      v = stronge::detail::map_I(vT, vN, kT, kN, r);
      break;
    case 3:
    case 4:
      v = stronge::detail::map_II(vT, vN, kT, kN, kT0, kN0, r);
      break;
    case 5:
    case 6:
      v = stronge::detail::map_III(vT, vN, kT, kN, kT0, kN0, r);
      break;
    case 7:
    case 8:
      v = stronge::detail::map_II(vT, vN, kT, kN, kTo, kNo, r);
      break;
    default:  // 9, 10
      v = stronge::detail::map_III(vT, vN, kT, kN, kTo, kNo, r);
      break;
  }
  if (region == 0 || (region >= 3 && region <= 6)) v[0] = Dual(0.0);  // ends in stick
  StrongeJacobian J;
  J.region = region;
  J.v_post = {v[0].v, v[1].v};
  for (int i = 0; i < 2; ++i) {
    const Dual& c = v[static_cast<std::size_t>(i)];
    J.d_v(i, 0) = c.d[0];
    J.d_v(i, 1) = c.d[1];
    J.d_mu_e(i, 0) = c.d[2];
    J.d_mu_e(i, 1) = c.d[3];
  }
  return J;
}

}  // namespace clatter
