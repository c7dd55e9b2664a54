#pragma once
// Private to the application layer: the JSON views shared by its operations (impact, the
// compliant contact, the orbits and the DIB). Keys follow docs/notation.md. The public headers of
// app/ expose no JSON type; the operations return text.

#include <nlohmann/json.hpp>

#include "clatter/laws/brach.hpp"
#include "clatter/laws/impact.hpp"

namespace clatter::app::detail {

/// x, or null where it is NaN or infinite (JSON has neither).
nlohmann::json json_number(double x);

/// One impact: the input, the law's parameters and its outcome; for Stronge's law also the
/// region's boundaries with their distances ([NDC] §4.1) and the scaled variables ([NDC] §3.2).
nlohmann::json outcome_json(const ImpactInput& in, const ImpactParams& params,
                            const ImpactOutcome& out);

/// The extended Brach law's bounds μ_E1, μ_E2, μ_M, μ_C, μ_s and its choice ([B] §3.3).
nlohmann::json brach_json(const BrachBounds& b);

}  // namespace clatter::app::detail
