#pragma once
/// @file
/// The contact-space inverse inertia (Delassus matrix) of a mechanical system with n generalized
/// velocities, formed here and nowhere else:
/// @verbatim
///   W = G M⁻¹ Gᵀ = G (M⁻¹ Gᵀ)  ∈ ℝᵏˣᵏ    (G ∈ ℝᵏˣⁿ constraint rows, M ∈ ℝⁿˣⁿ SPD)
///   one planar contact: G = J = [J_T; J_N] ∈ ℝ²ˣⁿ,  W = [[A, B], [B, C]]  (tangential first)
///   Δq̇ = M⁻¹ Jᵀ Λ  ∈ ℝⁿ                  (generalized-velocity jump from the contact impulse Λ)
/// @endverbatim
/// ([NDC] Eq. 10, [BP] §3.5). W_ij = G_i M⁻¹ G_jᵀ; the signs are those of the rows (J_T, J_N as
/// the model defines them, so B has either sign and is never copied from a paper). In floating
/// point W is not exactly symmetric: W_ij and W_ji come from different solves, and the callers
/// decide (ContactMatrix::from_matrix takes B = ½(W_TN + W_NT)).
///
/// The operations, which every caller shares so that results do not depend on the call site:
///  - M⁻¹ Gᵀ by the mass factor: an Eigen decomposition (Eigen::LLT, Eigen::LDLT) solves the
///    n × k right-hand side Gᵀ at once; any other factor (model::MassFactor, with
///    solve(b) = M⁻¹ b for one vector b) solves column by column, column r = solve(G_rᵀ);
///  - W = G (M⁻¹ Gᵀ) by Eigen's product `G * MinvGt` evaluated into the caller's W (no alias).
/// Preconditions: M symmetric positive definite and already factorized; MinvGt sized n × k (a
/// resizable matrix is resized; an expression such as `X.transpose()` must have that size); W is
/// resized by the assignment. The caller's Eigen types are kept (fixed-size or bounded dynamic
/// sizes as the codebase uses): no heap allocation here.

#include <type_traits>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/core/eigen.hpp"

namespace clatter {

template <int n>
using MassMatrix = Eigen::Matrix<double, n, n>;
template <int n>
using ContactJacobian = Eigen::Matrix<double, 2, n>;
template <int n>
using GeneralizedVelocity = Eigen::Matrix<double, n, 1>;

/// MinvGt = M⁻¹ Gᵀ (n × k) for the k rows G (k × n), M given by its factor (see the file comment).
template <class Factor, class Rows, class Out>
void inverse_mass_transpose(const Factor& mass, const Rows& G, Out&& MinvGt) {
  if constexpr (std::is_base_of_v<Eigen::SolverBase<Factor>, Factor>) {
    MinvGt = mass.solve(G.transpose());
  } else {
    if constexpr (requires { MinvGt.resize(G.cols(), G.rows()); })
      MinvGt.resize(G.cols(), G.rows());
    for (Eigen::Index r = 0; r < G.rows(); ++r) MinvGt.col(r) = mass.solve(G.row(r).transpose());
  }
}

/// W = G M⁻¹ Gᵀ (k × k), with MinvGt = M⁻¹ Gᵀ (n × k) kept for the velocity jump M⁻¹ Gᵀ λ.
template <class Factor, class Rows, class Cols, class Square>
void delassus(const Factor& mass, const Rows& G, Cols& MinvGt, Square& W) {
  inverse_mass_transpose(mass, G, MinvGt);
  W.noalias() = G * MinvGt;
}

/// W = J M⁻¹ Jᵀ of one planar contact. Throws InvalidArgument("M", …) unless M is symmetric
/// positive definite.
template <int n>
[[nodiscard]] ContactMatrix delassus(const MassMatrix<n>& M, const ContactJacobian<n>& J) {
  const Eigen::LLT<MassMatrix<n>> llt(M);
  require(llt.info() == Eigen::Success && M.isApprox(M.transpose()), "M",
          "mass matrix must be symmetric positive definite");
  Eigen::Matrix<double, n, 2> MinvJt;
  Mat2 W;
  delassus(llt, J, MinvJt, W);
  return ContactMatrix::from_matrix(W);
}

/// Δq̇ = M⁻¹ Jᵀ Λ.
template <int n>
[[nodiscard]] GeneralizedVelocity<n> velocity_jump(const MassMatrix<n>& M,
                                                   const ContactJacobian<n>& J,
                                                   const Vec2& Lambda) {
  return M.llt().solve(J.transpose() * Lambda);
}

}  // namespace clatter
