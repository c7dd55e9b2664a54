#pragma once
/// @file
/// The state of a mechanical system as one vector, for the analysis of its orbits:
/// @verbatim
///   x = (q, q̇, a) ∈ ℝⁿ,   n = 2 n_q + n_a
///   names: the coordinate names q_i, then "<q_i>dot", then the auxiliary names a_j
///          (the column names of `clatter simulate`'s timeseries.csv)
///   flow in the contact modes m (hybrid/constrained_dynamics.hpp):
///     ẋ = f(t, x; m) = (q̇, q̈(t, q, q̇, a; m), ψ(t, q, q̇, a))
/// @endverbatim

#include <string>
#include <string_view>
#include <vector>

#include "clatter/core/eigen.hpp"
#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/model/system.hpp"

namespace clatter::analysis {

using StateVector = Eigen::VectorXd;

/// n = 2 n_q + n_a.
[[nodiscard]] int state_dimension(const model::System& m);
/// The names of the components of x.
[[nodiscard]] std::vector<std::string> state_names(const model::System& m);
/// The index of the component called `name`; throws InvalidArgument(field, …) listing the names
/// if there is none.
[[nodiscard]] int state_index(const model::System& m, std::string_view name, const char* field);

/// x from (q, q̇, a) (a may be empty: zeros).
[[nodiscard]] StateVector pack_state(const model::System& m, const model::VecQ& q,
                                     const model::VecQ& qd, const model::VecA& aux);
/// (q, q̇, a) from x.
void unpack_state(const model::System& m, const StateVector& x, model::VecQ& q, model::VecQ& qd,
                  model::VecA& aux);

/// f(t, x; modes) into `out` (size n); `scratch` is reused between calls.
void state_rate(const model::System& m, double t, const StateVector& x, const hybrid::Modes& modes,
                const hybrid::Stabilization& stab, hybrid::ConstrainedDynamics& scratch,
                StateVector& out);

}  // namespace clatter::analysis
