#pragma once
/// @file
/// Input of the multi-point impact solver ([R] Rodriguez 2014, spec/004_multibody.md §3.1–3.3):
/// a mechanical system with n generalized speeds q̇, mass matrix M (SPD, frozen during the impact)
/// and k closed contacts (zero gap at the collision instant), each with a contact frame.
/// @verbatim
///   ϑ = J q̇ ∈ ℝᵈᵏ      stacked contact velocities, per contact (v_T, v_N) in 2-D (d = 2) or
///                       (v_T1, v_T2, v_N) in 3-D (d = 3); v_N < 0 approaching
///   M (q̇⁺ − q̇⁻) = Jᵀ Λ  (thesis 5.3, 7.2)        ϑ = ϑ⁻ + β Λ,   β = J M⁻¹ Jᵀ
///   Λ_N,k ≥ 0           normal impulse of contact k; Coulomb: |dΛ_T,k| = μ_d dΛ_N,k while sliding,
///                       |dΛ_T,k| ≤ μ_s dΛ_N,k while sticking (thesis 2.3, 5.4, 7.4)
/// @endverbatim
/// Contact frames are given in world axes: the relative velocity of contact k is v_second − v_first
/// of its two sides (a fixed obstacle has zero velocity) projected on (T1[, T2], N), N points from
/// the first side into the second, and the second side receives +Λ (the first −Λ).
///
/// Rigid-body constraints between contact points of one body (thesis 3.2) need the geometry that
/// J hides: every body touching at a contact lists a BodyPoint (its body, the contact, which side
/// it is on, and the point's position relative to its centre of mass, in world axes).
///
/// Sizes are bounded (kMaxContacts, kMaxDofs) so that the solver works on fixed-capacity Eigen
/// storage and allocates nothing while it runs. Units SI.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "clatter/core/eigen.hpp"
#include "clatter/core/types.hpp"

namespace clatter::multipoint {

inline constexpr int kMaxContacts = 32;
inline constexpr int kMaxDofs = 32;
inline constexpr int kMaxComponents = 3 * kMaxContacts;

/// Generalized speeds q̇ (n ≤ kMaxDofs), on the stack.
using DofVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxDofs, 1>;
/// Mass matrix M (n × n).
using MassMatrixX = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDofs, kMaxDofs>;
/// Stacked contact quantities ϑ, Λ (d·k ≤ kMaxComponents).
using ContactVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxComponents, 1>;
/// Stacked contact Jacobian J (d·k × n).
using JacobianX =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxComponents, kMaxDofs>;
/// Contact-space matrices such as β = J M⁻¹ Jᵀ (d·k × d·k).
using ContactMatrixX =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxComponents, kMaxComponents>;
/// M⁻¹ Jᵀ (n × d·k).
using InverseMassJacobianT =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDofs, kMaxComponents>;

enum class Dimension : std::uint8_t { kPlanar = 2, kSpatial = 3 };

/// Which contacts take part in an impact event.
using ActiveSet = std::array<bool, kMaxContacts>;

/// World axes of a contact frame. Planar models use the x-y plane (z components 0) and ignore T2.
struct ContactFrame {
  Vec3 T1{1.0, 0.0, 0.0};
  Vec3 T2{0.0, 0.0, 1.0};
  Vec3 N{0.0, 1.0, 0.0};
};

struct ContactPoint {
  std::string name;  ///< label used in outputs (e.g. "ground", "AB")
  ContactFrame frame{};
  double mu_s{0.0};  ///< static friction coefficient (stick test), ≥ μ_d
  double mu_d{0.0};  ///< dynamic friction coefficient (sliding), ≥ 0
};

/// A body touching at a contact. The body receives side·Λ of that contact; r_G is the contact
/// point relative to the body's centre of mass G, in world axes [m].
struct BodyPoint {
  int body{0};
  int contact{0};
  int side{1};  ///< +1: the body is the contact's second side (receives +Λ); −1: first side
  Vec3 r_G{0.0, 0.0, 0.0};
};

struct Input {
  Dimension dim{Dimension::kPlanar};
  MassMatrixX M;  ///< n × n, symmetric positive definite
  JacobianX J;    ///< d·k × n, rows of contact k at d·k … d·k + d − 1 ordered (T1[, T2], N)
  DofVector qdot_pre;                   ///< q̇⁻, n
  std::vector<ContactPoint> contacts;   ///< k ≤ kMaxContacts contacts, all closed (gap 0)
  std::vector<BodyPoint> body_points;   ///< the bodies touching at each contact
  std::vector<std::string> body_names;  ///< optional labels, one per body index
  std::string name;                     ///< label of the model (outputs only)

  [[nodiscard]] int d() const { return static_cast<int>(dim); }
  [[nodiscard]] int n_contacts() const { return static_cast<int>(contacts.size()); }
  [[nodiscard]] int n_dofs() const { return static_cast<int>(M.rows()); }
};

/// Throws InvalidArgument naming the field unless: 1 ≤ n ≤ kMaxDofs; M n × n, finite, symmetric
/// and positive definite; 1 ≤ k ≤ kMaxContacts; J (d·k) × n and finite; q̇⁻ of size n and finite;
/// every frame orthonormal (T1 ⊥ N, and T2 ⊥ T1, N in 3-D; planar frames in the x-y plane);
/// 0 ≤ μ_d ≤ μ_s finite; body points refer to existing contacts with side ±1 and finite r_G, no
/// body lists the same contact twice, and two points of one body are at distinct positions.
void validate(const Input& in);

/// Quantities derived once from a validated Input.
struct Prepared {
  const Input* input{nullptr};
  int d{2};
  int k{0};
  int n{0};
  ContactMatrixX beta;          ///< β = J M⁻¹ Jᵀ (thesis 7.2), d·k × d·k
  InverseMassJacobianT MinvJt;  ///< M⁻¹ Jᵀ, n × d·k
  ContactVector v_pre;          ///< ϑ⁻ = J q̇⁻
  double velocity_scale{1.0};   ///< max |ϑ⁻| (> 0): scale of the velocity tolerances

  /// Row of component c (0 = T1, d − 2 = T2 in 3-D, d − 1 = N) of contact i.
  [[nodiscard]] int row(int i, int c) const { return d * i + c; }
  [[nodiscard]] int normal_row(int i) const { return d * i + d - 1; }
};

/// Validates `in` and computes β, M⁻¹Jᵀ and ϑ⁻. The returned object points at `in`, which must
/// outlive it.
[[nodiscard]] Prepared prepare(const Input& in);

/// Kinetic energy ½ q̇ᵀ M q̇ [J].
[[nodiscard]] double kinetic_energy(const Input& in, const DofVector& qdot);

}  // namespace clatter::multipoint
