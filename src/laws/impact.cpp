#include "clatter/laws/impact.hpp"

#include <cmath>
#include <string>

namespace clatter {

const char* to_string(Status s) { return name_of(s); }

const char* to_string(SlipMode m) {
  switch (m) {
    case SlipMode::kSlipPositive:
      return "slip+";
    case SlipMode::kSlipNegative:
      return "slip-";
    case SlipMode::kStick:
      return "stick";
  }
  return "unknown";
}

namespace {

// relative round-off allowance for the energy check, against the approach energy
constexpr double kEnergyTolerance = 1e-12;

}  // namespace

void account_energy(const ImpactInput& in, ImpactOutcome& out) {
  out.delta_energy = 0.5 * out.Lambda.dot(in.v_pre + out.v_post);
  // the scale (one 2×2 solve) is needed only when ΔE > 0, which is rare
  if (out.status == Status::kOk && out.delta_energy > 0.0 &&
      out.delta_energy > kEnergyTolerance * in.W.energy_norm(in.v_pre)) {
    out.status = Status::kEnergyGain;
  }
}

void finish_from_velocity(const ImpactInput& in, ImpactOutcome& out) {
  out.Lambda = in.W.solve(out.v_post - in.v_pre);
  account_energy(in, out);
}

void finish_from_impulse(const ImpactInput& in, ImpactOutcome& out) {
  out.v_post = in.v_pre + in.W.apply(out.Lambda);
  account_energy(in, out);
}

void validate(const ImpactInput& in, const ImpactParams& params) {
  require_finite(in.v_pre.x(), "v_T");
  require_finite(in.v_pre.y(), "v_N");
  require(in.v_pre.y() < 0.0, "v_N", "pre-impact normal velocity must be negative (approaching)",
          in.v_pre.y());
  validate(in.W, "W");
  // beyond 1e6 the rate constants μA, μB overflow the closed forms long before the answer
  // changes: an impulsive stick is reached after an impulse of order 1/μ
  require(std::isfinite(params.mu) && params.mu >= 0.0 && params.mu <= 1e6, "mu",
          "friction coefficient must lie in [0, 1e6]", params.mu);
  require(std::isfinite(params.e) && params.e >= 0.0 && params.e <= 1.0, "e",
          "restitution coefficient must lie in [0, 1]", params.e);
  require(params.forced_region >= -1 && params.forced_region <= 10, "forced_region",
          "must lie in [-1, 10] (-1: classify)");
}

}  // namespace clatter
