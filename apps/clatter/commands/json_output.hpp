#pragma once
// JSON views of impact outcomes, shared by the subcommands. Keys follow docs/notation.md.

#include <nlohmann/json.hpp>

#include "clatter/laws/brach.hpp"
#include "clatter/laws/impact.hpp"

namespace clatter::cli {

/// x, or null where it is NaN or infinite (JSON has neither).
nlohmann::json json_number(double x);

nlohmann::json outcome_json(const ImpactInput& in, const ImpactParams& params,
                            const ImpactOutcome& out);
nlohmann::json brach_json(const BrachBounds& b);

}  // namespace clatter::cli
