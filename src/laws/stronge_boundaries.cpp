#include "clatter/laws/stronge_boundaries.hpp"

#include <algorithm>
#include <string>

#include "clatter/core/error.hpp"
#include "clatter/laws/rate_constants.hpp"
#include "clatter/laws/stronge.hpp"

namespace clatter {

const char* to_string(BoundaryType t) {
  switch (t) {
    case BoundaryType::kEndOfImpact:
      return "v_T = 0 at the end of the impact";
    case BoundaryType::kEndOfCompression:
      return "v_T = 0 at the end of compression";
    case BoundaryType::kZeroSlipNoStick:
      return "v_T = 0 at impact, no stick";
    case BoundaryType::kZeroSlipStick:
      return "v_T = 0 at impact, stick";
    case BoundaryType::kLossOfStick:
      return "loss of the stick phase";
  }
  return "?";
}

const std::array<RegionBoundary, 15>& stronge_boundaries() {
  using B = BoundaryType;
  static const std::array<RegionBoundary, 15> table = {{
      {1, 3, B::kEndOfImpact, false},
      {1, 7, B::kEndOfImpact, false},
      {2, 4, B::kEndOfImpact, false},
      {2, 8, B::kEndOfImpact, false},
      {3, 5, B::kEndOfCompression, true},
      {4, 6, B::kEndOfCompression, true},
      {7, 9, B::kEndOfCompression, true},
      {8, 10, B::kEndOfCompression, true},
      {1, 10, B::kZeroSlipNoStick, false},
      {2, 9, B::kZeroSlipNoStick, false},
      {5, 6, B::kZeroSlipStick, true},
      {3, 7, B::kLossOfStick, false},
      {4, 8, B::kLossOfStick, false},
      {5, 9, B::kLossOfStick, false},
      {6, 10, B::kLossOfStick, false},
  }};
  return table;
}

const RegionBoundary& stronge_boundary(int a, int b) {
  const int lo = std::min(a, b), hi = std::max(a, b);
  for (const RegionBoundary& r : stronge_boundaries())
    if (r.lower == lo && r.upper == hi) return r;
  throw InvalidArgument("regions", "regions " + std::to_string(a) + " and " + std::to_string(b) +
                                       " share no boundary of Stronge's law (spec/003 Table 2)");
}

double boundary_function(int a, int b, const Vec2& v_pre, const ContactMatrix& W,
                         const ImpactParams& p) {
  const RegionBoundary& bd = stronge_boundary(a, b);
  const RateConstants k = RateConstants::make(W, p.mu);
  const double vT = v_pre.x(), vN = v_pre.y(), r = p.e;
  // + slip boundaries have the odd lower region (1, 3, 5, 7), − slip the even one
  const bool positive = bd.lower % 2 == 1;
  switch (bd.type) {
    case BoundaryType::kEndOfImpact:
      return positive ? k.k_N_pos * vT - (1.0 + r) * k.k_T_pos * vN
                      : -(k.k_N_neg * vT - (1.0 + r) * k.k_T_neg * vN);
    case BoundaryType::kEndOfCompression:
      return positive ? k.k_N_pos * vT - k.k_T_pos * vN : -(k.k_N_neg * vT - k.k_T_neg * vN);
    case BoundaryType::kZeroSlipNoStick:
      return bd.lower == 1 ? vT : -vT;
    case BoundaryType::kZeroSlipStick:
      return vT;
    case BoundaryType::kLossOfStick:
      return positive ? k.k_T_neg : -k.k_T_pos;
  }
  return 0.0;
}

std::vector<BoundaryDistance> boundaries_of_impact(const Vec2& v_pre, const ContactMatrix& W,
                                                   const ImpactParams& p) {
  const int region = stronge_closed_form({v_pre, W}, p).region;
  const RateConstants k = RateConstants::make(W, p.mu);
  const double scale = std::max(
      {1.0, std::abs(k.k_N_pos), std::abs(k.k_N_neg), std::abs(k.k_T_pos), std::abs(k.k_T_neg)});
  std::vector<BoundaryDistance> out;
  for (const RegionBoundary& b : stronge_boundaries()) {
    if (b.lower != region && b.upper != region) continue;
    const double H = boundary_function(b.lower, b.upper, v_pre, W, p);
    // velocity-type functions are already in m/s; the rate-constant forms carry 1/kg factors
    const bool velocity =
        b.type == BoundaryType::kZeroSlipNoStick || b.type == BoundaryType::kZeroSlipStick;
    out.push_back({b, H, std::abs(H) / (velocity ? 1.0 : scale)});
  }
  std::sort(out.begin(), out.end(), [](const BoundaryDistance& a, const BoundaryDistance& b) {
    return a.distance < b.distance;
  });
  return out;
}

}  // namespace clatter
