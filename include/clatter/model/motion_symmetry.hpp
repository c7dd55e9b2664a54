#pragma once
/// @file
/// A symmetry of a model's motion (issue 25 item 5): a map G of the state and a relabelling π of
/// the contacts such that the image of a motion is a motion,
/// @verbatim
///   x(t) a motion  ⇒  G(x(t)) a motion,  contact k of x(t) playing contact π(k) of G(x(t))
///   (the same time t, the same parameters; equivariance: f(G x) = DG f(x) with the modes
///   relabelled)
/// @endverbatim
/// A gait repeats only up to such a map: a rimless wheel of n spokes rolling down a slope
/// returns after one step to its state rotated by −2π/n and moved on by one step length, with
/// spoke k + 1 where spoke k was (π(k) = k + 1 mod n); a compass gait returns with its legs
/// swapped. An orbit "periodic modulo G" closes when x(t₀ + T) = G(x(t₀))
/// (analysis/periodic_problem.hpp); its multipliers are those of G⁻¹ ∘ (the return map).
///
/// A model offers one through System::motion_symmetry() (null: none). The map must be affine in
/// the state components an orbit solves for (its Jacobian is taken by differences of `apply`, so
/// a nonlinear map only costs accuracy) and must not change time: a forced model's symmetry
/// under a shift of the forcing phase is not of this kind.

#include <string>
#include <vector>

#include "clatter/model/system.hpp"

namespace clatter::model {

class MotionSymmetry {
 public:
  virtual ~MotionSymmetry() = default;
  /// G: the state (q, q̇, a) at time t replaced by its image, in place. @pre sizes of the model.
  virtual void apply(double t, VecQ& q, VecQ& qd, VecA& aux) const = 0;
  /// π: contact k of a motion is contact π(k) = contact_map()[k] of its image; a permutation of
  /// 0 … num_contacts() − 1.
  [[nodiscard]] virtual std::vector<int> contact_map() const = 0;
  /// One line for outputs, e.g. "theta -> theta - 2 pi/6, x -> x + 0.4; spoke k -> k + 1".
  [[nodiscard]] virtual std::string description() const = 0;
};

}  // namespace clatter::model
