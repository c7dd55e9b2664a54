#include "clatter/laws/impact_law.hpp"

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

ImpactOutcome apply_law(LawKind law, const ImpactInput& in, const ImpactParams& params) {
  // a contact that moves along one line only (one degree of freedom): laws/rank_one_impact.hpp
  if (is_rank_one(in.W)) return rank_one_impact(law, in, params);
  validate(in, params);
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

}  // namespace clatter
