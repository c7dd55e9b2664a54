#include "clatter/laws/impact_law.hpp"

#include <cmath>

#include <string>

#include "clatter/laws/brach.hpp"
#include "clatter/laws/impulse_marcher.hpp"
#include "clatter/laws/newton.hpp"
#include "clatter/laws/rank_one_impact.hpp"
#include "clatter/laws/stronge.hpp"

namespace clatter {

std::string_view to_string(LawKind law) { return kLawNames[static_cast<std::size_t>(law)]; }

LawKind parse_law(std::string_view name) {
  for (std::size_t i = 0; i < kLawNames.size(); ++i) {
    if (kLawNames[i] == name) return static_cast<LawKind>(i);
  }
  std::string allowed;
  for (const auto n : kLawNames) allowed += (allowed.empty() ? "" : ", ") + std::string(n);
  throw InvalidArgument("law",
                        "unknown law '" + std::string(name) + "' (allowed: " + allowed + ")");
}

namespace {

ImpactOutcome dispatch(LawKind law, const ImpactInput& in, const ImpactParams& params) {
  switch (law) {
    case LawKind::kStronge:
      return stronge_closed_form(in, params);
    case LawKind::kStrongeMarcher:
      return stronge_marcher(in, params);
    case LawKind::kNewton:
      return newton_frictionless(in, params);
    case LawKind::kWhittaker:
      return whittaker(in, params);
    case LawKind::kPoisson:
      return poisson_coulomb(in, params);
    case LawKind::kBrach:
      return brach_extended(in, params);
  }
  throw InvalidArgument("law", "unhandled law");
}

}  // namespace

ImpactOutcome apply_law(LawKind law, const ImpactInput& in, const ImpactParams& params) {
  // a contact that moves along one line only (one degree of freedom): laws/rank_one_impact.hpp
  ImpactOutcome out;
  if (is_rank_one(in.W)) {
    out = rank_one_impact(law, in, params);
  } else {
    validate(in, params);
    out = dispatch(law, in, params);
  }
  // a result that overflowed (extreme W, μ or v) is never reported as valid
  const bool finite =
      out.v_post.allFinite() && out.Lambda.allFinite() && std::isfinite(out.delta_energy);
  if (!finite && out.status != Status::kNoTermination) out.status = Status::kSingular;
  return out;
}

}  // namespace clatter
