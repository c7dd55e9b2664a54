#pragma once
/// @file
/// A contact of a mechanical system: its name, the impact law applied when it closes with
/// v_N < 0, and the Coulomb coefficients of sustained contact. The two friction coefficients of
/// a contact are kept apart: μ at impact belongs to the law (law.params.mu, with e*), sustained
/// sliding uses μ_d and sticking holds while |λ_T| ≤ μ_s λ_N.

#include <string>

#include "clatter/laws/impact_law.hpp"

namespace clatter::model {

struct Contact {
  std::string name;  ///< unique within the model, e.g. "P1", "ball", "wall"
  LawChoice law{};   ///< impact law, e* (or e_N, e_P) and μ at impact
  double mu_s{0.0};  ///< static friction of sustained contact, ≥ mu_d
  double mu_d{0.0};  ///< dynamic (sliding) friction of sustained contact, ≥ 0

  /// A contact whose sustained friction equals the law's μ (the seeds' convention).
  [[nodiscard]] static Contact with_law(std::string name, LawChoice law) {
    return Contact{std::move(name), law, law.params.mu, law.params.mu};
  }
};

/// Throws InvalidArgument naming `prefix`.field: μ_d ≥ 0, μ_s ≥ μ_d, μ ≥ 0, e ∈ [0, 1], finite.
void validate(const Contact& c, const std::string& prefix);

}  // namespace clatter::model
