#pragma once
/// @file
/// The mechanical-system interface under the engine and the analysis: an immutable description
/// of a Lagrangian system with unilateral frictional contacts. The engine (hybrid/) and the
/// analysis (analysis/) see a system only through this class; every model of the seeds
/// (model/) and a user's own system implement it.
///
/// Equations of motion, for generalized coordinates q ∈ ℝⁿ (n = nq() ≤ kMaxDof), velocities
/// q̇ ∈ ℝⁿ, auxiliary states a ∈ ℝᵐ (m = num_aux() ≤ kMaxAux, e.g. a forcing phase), contacts
/// c = 0 … num_contacts() − 1:
/// @verbatim
///   M(t, q) q̈ = f(t, q, q̇, a) + Σ_c J_cᵀ λ_c          λ_c = (λ_T, λ_N), λ_N ≥ 0
///   ȧ = ψ(t, q, q̇, a)
///   contact c:  gap g_N(t, q) ≥ 0,  relative velocity v = (v_T, v_N) = J q̇ − w(t, q)
///               J = [J_T; J_N] ∈ ℝ²ˣⁿ (rows: tangent, normal),  w = velocity of the obstacle
///               dv/dt = J q̈ + γ(t, q, q̇)                (γ: J̇ q̇ − ẇ, the velocity-product terms)
///   energy      E = T(t, q, q̇) + V(t, q),  dE/dt = P_a(t, q, q̇, a) + Σ_c λ_c·(v_c + w_c)
///               along any motion (P_a: power of the applied non-conservative forces and of an
///               explicit time dependence of T and V)
/// @endverbatim
/// f contains everything but the inertia and the contact forces: gravity, springs, dampers,
/// forcing, and the velocity-product terms of a configuration-dependent M. Signs: v_N < 0
/// approaches, λ_N ≥ 0 pushes, g_N ≥ 0 open. Units: SI unless a model says it is dimensionless.
///
/// The engine's energy ledger (core/energy_ledger.hpp) books P_a as `applied_work`, λ·w as the
/// obstacle's work, −λ·v as friction loss and the impact laws' ΔE as impact loss; conformance
/// (model/conformance.hpp) checks that it balances for every registered model.
///
/// Optional capabilities, used by the engine where a model offers them:
///  - exact_flight(): the motion with every contact open in closed form, with gap functions for a
///    guaranteed first-root search (a body under constant gravity);
///  - carried_motion(): sustained contact in closed form (a body riding or sticking on a moving
///    line), with the contact forces along it for a guaranteed search of lift-off and slip onset;
///  - symmetry(): the seeds' symmetric reduction of two contacts ([BP] §5.2);
///  - motion_symmetry(): a map of the state and a relabelling of the contacts under which motions
///    are motions (model/motion_symmetry.hpp), for orbits periodic modulo it (a walker's step);
///  - multipoint_input(): the rigid-body constraints of contacts closing at once, for the
///    multi-point law of [R] (hybrid/simultaneous_impact.hpp). Without it, contacts touching at
///    once are resolved one after another;
///  - contact_guards(): open contacts whose closing is ignored at a state (a walker's swing foot
///    scuffing the ground behind the stance foot).

#include <array>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/core/eigen.hpp"
#include "clatter/core/scratch.hpp"
#include "clatter/core/types.hpp"
#include "clatter/core/value_slope.hpp"
#include "clatter/model/contact.hpp"
#include "clatter/model/parameters.hpp"

namespace clatter::multipoint {
struct Input;
}

namespace clatter::model {

class MotionSymmetry;

inline constexpr int kMaxDof = 32;       ///< largest nq
inline constexpr int kMaxContacts = 32;  ///< largest num_contacts
inline constexpr int kMaxAux = 8;        ///< largest num_aux

/// Generalized coordinates, velocities, forces (runtime size ≤ kMaxDof, never on the heap).
using VecQ = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxDof, 1>;
using MatQ = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxDof>;
/// Auxiliary states.
using VecA = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxAux, 1>;
/// Gap values of the contacts [0, num_contacts), written by ExactFlight::flight_gaps (the entries
/// beyond are left unset: core/scratch.hpp).
using GapValues = Scratch<ValueSlope, kMaxContacts>;
/// The two Jacobian rows J_T, J_N of a contact.
using Rows2 = Eigen::Matrix<double, 2, Eigen::Dynamic, 0, 2, kMaxDof>;

/// Kinematics of one contact at (t, q, q̇).
struct ContactGeometry {
  // user-provided, so that `{}` does not zero J's whole fixed-capacity storage first (kMaxDof
  // columns) before setting the members below: arrays of these are made on every run and step
  ContactGeometry() {}   // NOLINT(modernize-use-equals-default)
  double g_N{0.0};       ///< gap [m]
  Vec2 v{0.0, 0.0};      ///< (v_T, v_N) = J q̇ − w, relative to the obstacle [m/s]
  Rows2 J{};             ///< rows J_T, J_N
  Vec2 w{0.0, 0.0};      ///< obstacle velocity (T, N) at the contact point [m/s]
  Vec2 gamma{0.0, 0.0};  ///< dv/dt − J q̈ [m/s²]
  double scale{1.0};     ///< magnitude of the terms of g_N, for round-off tolerances [m]
};

/// A factorization of M(t, q): x = M⁻¹ b. Diagonal mass matrices take the fast path; others
/// M = L D Lᵀ without pivoting (no square roots) by plain loops over the n ≤ kMaxDof rows, valid
/// because M is symmetric positive definite; Eigen's pivoting LDLᵀ where a pivot D_j is not
/// positive and finite (a model whose M is only semi-definite, or not a mass matrix).
struct MassFactor {
  MassFactor() {}  // NOLINT(modernize-use-equals-default): as ContactGeometry's (L is kMaxDof²)
  int n{0};
  bool diagonal{false};
  bool unpivoted{false};  ///< L holds the unpivoted factor
  VecQ diag{};            ///< M's diagonal when `diagonal` (solve divides, as b_i / m_i)
  MatQ L{};               ///< below the diagonal: L (unit lower triangular); on it: 1 / D_j
  Eigen::LDLT<MatQ> ldlt{};

  /// Factorizes M (symmetric positive definite; a diagonal M is detected).
  void compute(const MatQ& M);
  /// Sets a diagonal M = diag(d).
  void set_diagonal(const VecQ& d);
  [[nodiscard]] VecQ solve(const VecQ& b) const {
    if (diagonal) return b.cwiseQuotient(diag);
    if (!unpivoted) return ldlt.solve(b);
    VecQ x = b;
    switch (n) {  // fixed sizes unroll: a right-hand side's few coordinates
      case 2:
        ldl_solve<2>(L.data(), x.data(), 2);
        break;
      case 3:
        ldl_solve<3>(L.data(), x.data(), 3);
        break;
      case 4:
        ldl_solve<4>(L.data(), x.data(), 4);
        break;
      case 6:
        ldl_solve<6>(L.data(), x.data(), 6);
        break;
      default:
        ldl_solve<0>(L.data(), x.data(), n);
    }
    return x;
  }

  /// L D Lᵀ x = b in place (x holds b): l column-major n × n with leading dimension n, unit lower
  /// triangular below the diagonal, 1/D_j on it. N > 0: the size at compile time (n = N).
  template <int N>
  static void ldl_solve(const double* l, double* x, int n_dynamic) {
    const int n = N > 0 ? N : n_dynamic;
    for (int i = 1; i < n; ++i) {
      double s = x[i];
      for (int j = 0; j < i; ++j) s -= l[i + j * n] * x[j];
      x[i] = s;
    }
    for (int i = 0; i < n; ++i) x[i] *= l[i + i * n];
    for (int i = n - 2; i >= 0; --i) {
      double s = x[i];
      for (int j = i + 1; j < n; ++j) s -= l[j + i * n] * x[j];
      x[i] = s;
    }
  }
};

/// Everything the right-hand side needs, filled by System::evaluate.
struct Evaluation {
  Evaluation() {}  // NOLINT(modernize-use-equals-default): as ContactGeometry's
  MassFactor mass;
  VecQ f{};                   ///< applied generalized forces (incl. velocity-product terms)
  VecA aux_rate{};            ///< ȧ
  double power_applied{0.0};  ///< P_a [W]
  std::array<ContactGeometry, kMaxContacts> contacts;
  /// The contacts whose geometry the caller reads: contacts[requested[i]] for i < num_requested,
  /// or every contact when num_requested < 0 (the default). evaluate() fills at least these (a
  /// model may fill more). The right-hand side of a Runge–Kutta phase asks for its closed
  /// contacts only, so that it costs nothing per open contact. Set by the caller for one call.
  int num_requested{-1};
  const int* requested{nullptr};

  /// fill(c) for every contact the caller reads (an evaluate() override's loop over contacts)
  template <class Fill>
  void for_each_requested(int num_contacts, Fill&& fill) const {
    if (num_requested < 0) {
      for (int c = 0; c < num_contacts; ++c) fill(c);
      return;
    }
    for (int i = 0; i < num_requested; ++i) fill(requested[i]);
  }
};

class ExactFlight;
class CarriedMotion;
class SymmetricPairs;

class System {
 public:
  virtual ~System() = default;
  System() = default;
  System(const System&) = default;
  System& operator=(const System&) = default;

  // --- identity, sizes and names ---
  /// The registry name of the model ("planar_body", "rod_on_belt", …).
  [[nodiscard]] virtual std::string_view kind() const = 0;
  [[nodiscard]] virtual int nq() const = 0;
  [[nodiscard]] virtual int num_aux() const { return 0; }
  [[nodiscard]] int num_contacts() const { return static_cast<int>(contacts_.size()); }
  [[nodiscard]] const Contact& contact(int c) const {
    return contacts_[static_cast<std::size_t>(c)];
  }
  /// Names of q (the velocities are the same names with a "dot" suffix).
  [[nodiscard]] virtual std::vector<std::string> coordinate_names() const;
  [[nodiscard]] virtual std::vector<std::string> aux_names() const;

  // --- parameters by name ---
  /// The model's parameters with their current values: its own (own_parameters) and, for every
  /// contact c, "contact.<c>.e", "contact.<c>.mu" (μ at impact), "contact.<c>.mu_s",
  /// "contact.<c>.mu_d"; "e" and "mu" address every contact at once (the seeds' single e*, μ:
  /// "mu" sets the impact and the sustained coefficients).
  [[nodiscard]] ParameterSet parameters() const;
  /// The same model with parameter `name` set to `value` (sweeps, continuation, Python). Throws
  /// InvalidArgument naming the parameter if it is unknown or the value out of range.
  [[nodiscard]] std::unique_ptr<System> with_parameter(std::string_view name, double value) const;
  /// The same model with different contact laws and friction (scenario overrides, sweeps of e*
  /// or μ). @pre contacts.size() == num_contacts().
  [[nodiscard]] std::unique_ptr<System> with_contacts(std::vector<Contact> contacts) const;
  [[nodiscard]] double parameter(std::string_view name) const;

  // --- dynamics ---
  [[nodiscard]] virtual MatQ mass_matrix(double t, const VecQ& q) const = 0;
  /// f(t, q, q̇, a): everything but inertia and contact forces.
  [[nodiscard]] virtual VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                            const VecA& aux) const = 0;
  /// ψ(t, q, q̇, a) (models with auxiliary states).
  [[nodiscard]] virtual VecA aux_rate(double t, const VecQ& q, const VecQ& qd,
                                      const VecA& aux) const;
  /// Kinematics of contact c.
  virtual void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                                ContactGeometry& out) const = 0;
  /// Every contact's kinematics at once (out[c] for c < num_contacts()); the default calls
  /// contact_geometry for each, a model may share their common work (an obstacle's state).
  virtual void contact_geometries(double t, const VecQ& q, const VecQ& qd,
                                  std::array<ContactGeometry, kMaxContacts>& out) const;
  /// ContactGeometry::scale of contact c alone (cheap overrides help the exact-flight loop).
  [[nodiscard]] virtual double gap_scale(int c, double t, const VecQ& q) const;
  /// M, f, ψ, P_a and every contact in one call (the right-hand side's one evaluation). The
  /// default composes the functions above; a model may do it faster.
  virtual void evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& aux,
                        Evaluation& out) const;
  /// Factorization of M(t, q); the default factorizes mass_matrix.
  virtual void factor_mass(double t, const VecQ& q, MassFactor& out) const;

  // --- energies ---
  /// T; default ½ q̇ᵀ M q̇.
  [[nodiscard]] virtual double kinetic_energy(double t, const VecQ& q, const VecQ& qd) const;
  /// V (gravity, springs) [J].
  [[nodiscard]] virtual double potential_energy(double t, const VecQ& q) const = 0;
  /// P_a = dE/dt of the free motion minus contact power: damping, forcing, moving references.
  [[nodiscard]] virtual double applied_power(double t, const VecQ& q, const VecQ& qd,
                                             const VecA& aux) const;

  // --- scales for tolerances ---
  /// A typical force [N] (contact forces below 1e-9 of it are zero).
  [[nodiscard]] virtual double force_scale() const = 0;
  /// A typical mass [kg] (with force_scale: a typical acceleration).
  [[nodiscard]] virtual double mass_scale() const { return 1.0; }
  /// A typical speed of the motion and the obstacles at (t, q, q̇) [m/s].
  [[nodiscard]] virtual double velocity_scale(double t, const VecQ& q, const VecQ& qd) const;
  /// An upper estimate of the rates [1/s] at which the contacts' free accelerations vary
  /// (forcing and spin frequencies); 0 if unknown. Used to reject chatter predictions cheaply.
  [[nodiscard]] virtual double rate_bound(const VecQ& qd) const;

  // --- optional capabilities ---
  [[nodiscard]] virtual const ExactFlight* exact_flight() const { return nullptr; }
  [[nodiscard]] virtual const CarriedMotion* carried_motion() const { return nullptr; }
  [[nodiscard]] virtual const SymmetricPairs* symmetry() const { return nullptr; }
  /// A symmetry G of the motion (model/motion_symmetry.hpp), owned by the model; null: none.
  [[nodiscard]] virtual const MotionSymmetry* motion_symmetry() const { return nullptr; }
  /// The broad phase of a model with many contacts: for every contact c open at (t, q, q̇, a),
  /// writes a duration τ_c ≥ 0 [s] such that g_N,c > 0 on [t, t + τ_c] along the motion from
  /// this state for as long as no event happens (the open contacts stay open, the closed ones
  /// keep their modes); τ_c = 0 where no such bound is known. A Runge–Kutta phase does not
  /// evaluate contact c's gap before t + τ_c, so that a step costs in proportion to the contacts
  /// near closing (SimulationOptions::broad_phase turns it off to check a model's bounds).
  /// Typical bounds come from the energy: a speed bound over the horizon and the gap's distance
  /// (examples/rimless_wheel). Returns false (the default) where the model offers none;
  /// entries of closed contacts are ignored.
  virtual bool open_horizons(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/,
                             const VecA& /*aux*/, std::array<double, kMaxContacts>& /*tau*/) const {
    return false;
  }
  /// Guards of the open contacts, for a rigid model that passes through an obstacle where the real
  /// system does not touch it: a compass gait's swing foot, whose straight leg is below the ground
  /// near mid-stance (foot scuffing). Writes enabled[c] for every contact c < num_contacts() at
  /// (t, q, q̇, a): false where an open contact's closing is to be ignored. The engine keeps such a
  /// contact open and does not watch its gap. A contact enabled while its gap is negative (the
  /// swing foot, ahead of the stance foot, still below the ground) is watched from when its gap is
  /// positive, so a guard may switch on inside the obstacle. Closed contacts are not affected (the
  /// stance foot behind the swing foot keeps its contact until it lifts off).
  /// The engine asks at the start, at every event and at the end of every Runge–Kutta step: a
  /// guard takes effect at the step end after it switches; an enabled contact still inside its
  /// obstacle is armed once its gap rises above the tolerance (integrate::Start::kBelow). A
  /// model with guards is integrated by Runge–Kutta throughout (its exact_flight is not used).
  /// Returns false (the default) for a model without guards, true at every state for one with.
  virtual bool contact_guards(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/,
                              const VecA& /*aux*/,
                              std::array<bool, kMaxContacts>& /*enabled*/) const {
    return false;
  }
  /// Fills `in` (dimension, M, stacked J of the active contacts in index order, contact points,
  /// rigid-body constraints) and `frame_velocity` s with J_c s = w_c for every active contact (the
  /// obstacles move as one rigid frame); false if the model offers no multi-point description.
  virtual bool multipoint_input(double t, const VecQ& q,
                                const std::array<bool, kMaxContacts>& active, multipoint::Input& in,
                                VecQ& frame_velocity) const;

 protected:
  /// Validates (names unique, laws valid) and stores the contacts; called by constructors.
  void set_contacts(std::vector<Contact> contacts);
  /// A copy of this model (with_contacts).
  [[nodiscard]] virtual std::unique_ptr<System> clone() const = 0;
  /// The model's own parameters (not the contacts').
  [[nodiscard]] virtual ParameterSet own_parameters() const = 0;
  /// One of them by name (parameter()'s fast path, called per flow by continuation and sweeps):
  /// by default own_parameters().get(name); a model may answer without building the list.
  [[nodiscard]] virtual double own_parameter(std::string_view name) const {
    return own_parameters().get(name);
  }
  /// The same model with one of its own parameters changed (validated as by the constructor).
  [[nodiscard]] virtual std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                                   double value) const = 0;

 private:
  std::vector<Contact> contacts_;
};

/// Closed-form motion with every contact open, and its gap functions.
class ExactFlight {
 public:
  virtual ~ExactFlight() = default;
  /// State after a free flight of duration τ from (q0, q̇0).
  virtual void flight(double tau, const VecQ& q0, const VecQ& qd0, VecQ& q, VecQ& qd) const = 0;
  /// Gaps and rates of all contacts after a free flight of τ from (t0, q0, q̇0).
  virtual void flight_gaps(double t0, const VecQ& q0, const VecQ& qd0, double tau,
                           GapValues& out) const = 0;
  /// M₂ with g̈_N ≥ −M₂ along any free flight from q̇0.
  [[nodiscard]] virtual double gap_curvature_bound(int c, const VecQ& qd0) const = 0;
  /// M₃ with |g⃛_N| ≤ M₃ along any free flight from q̇0, for a model whose flight_gaps also
  /// gives g̈_N (ValueSlope::curvature): the search then takes the cubic bound's longer steps.
  /// +∞ (the default): not known.
  [[nodiscard]] virtual double gap_jerk_bound(int /*c*/, const VecQ& /*qd0*/) const {
    return std::numeric_limits<double>::infinity();
  }
  /// A step from τ within which contact c cannot reach its obstacle, computed without the gap
  /// (0 if none; positive only where the gap at τ is positive). The engine reuses it: having
  /// found s at τ, it steps to τ + s from any later τ′ < τ + s without asking again; and it asks
  /// at the end of a curvature step, to pass on into the window without evaluating the gap there.
  [[nodiscard]] virtual double far_step(int c, const VecQ& q0, const VecQ& qd0,
                                        double tau) const = 0;
  /// Whether contact j's gap equals contact i's, bit for bit, at every τ of the free flight from
  /// (q0, q̇0), with the same bounds (M₂, M₃, far_step): the search then follows i alone and j's
  /// root is i's (a levelled rod's two ends over one surface, in the seeds' symmetric motion).
  /// false (the default): not known.
  [[nodiscard]] virtual bool gaps_coincide(int /*i*/, int /*j*/, const VecQ& /*q0*/,
                                           const VecQ& /*qd0*/) const {
    return false;
  }
  /// Time of the apex of the free flight (the height's rate falls through 0), or NaN.
  [[nodiscard]] virtual double apex_time(const VecQ& q0, const VecQ& qd0) const = 0;
  /// M₂ ≥ |q̈_i(τ)| for every τ ≥ 0 of the free flight from (q0, q̇0), coordinate i ∈ [0, nq)
  /// [unit of q_i / s²]: the bound of the guaranteed search for a coordinate crossing
  /// (hybrid::Section::kCrossing).
  [[nodiscard]] virtual double coordinate_curvature_bound(int i, const VecQ& q0,
                                                          const VecQ& qd0) const = 0;
};

/// Sustained contact in closed form: the motion while a set S of contacts sticks (v_c ≡ 0 for
/// c ∈ S) and every other contact stays open, where the model knows it exactly. Typical cases: a
/// body held rigidly by its sticking contacts to obstacles that move as one rigid frame moves with
/// that frame; a ball or a point sticking on a line that does not accelerate along itself rolls or
/// spins uniformly relative to it. Along the motion come the contact forces λ_c(t) = (λ_T, λ_N)
/// that hold it, from M q̈ = f + Σ_c J_cᵀ λ_c; where the sticking contacts are redundant (a flat
/// rod sticking at both ends) the forces as hybrid/constrained_dynamics.hpp shares them (a model
/// declines a motion whose forces it cannot share that way).
/// The engine locates lift-off (λ_N → 0) and slip onset (|λ_T| → μ_s λ_N) on these closed forms by
/// the guaranteed first-root search of flights (integrate/root_finding.hpp), with the bounds below.
///
/// Contract, for every motion a model offers (carries() true):
///  - the open contacts' gaps stay constant (the body moves with their obstacles as well);
///  - P_a ≡ 0 along it (conservative, time-independent applied forces), so the obstacles' work
///    is the change of E;
///  - λ_c(t) is smooth; the bounds hold for every τ ≥ 0.
class CarriedMotion {
 public:
  using Contacts = std::array<bool, kMaxContacts>;
  virtual ~CarriedMotion() = default;
  /// Whether the motion from (t0, q0, q̇0) with exactly the contacts `stick` sticking and the
  /// others open is offered. @pre the contacts in `stick` are closed with v = 0 at t0.
  [[nodiscard]] virtual bool carries(const Contacts& stick, double t0, const VecQ& q0,
                                     const VecQ& qd0) const = 0;
  /// State at t0 + τ, τ ≥ 0.
  virtual void carry(const Contacts& stick, double t0, const VecQ& q0, const VecQ& qd0, double tau,
                     VecQ& q, VecQ& qd) const = 0;
  /// λ_c [N] and dλ_c/dt [N/s] at t0 + τ of every contact c in `stick` (others untouched).
  virtual void carried_forces(const Contacts& stick, double t0, const VecQ& q0, const VecQ& qd0,
                              double tau, std::array<Vec2, kMaxContacts>& lambda,
                              std::array<Vec2, kMaxContacts>& rate) const = 0;
  /// For φ(τ) = w·λ_c(t0 + τ) of a contact c in `stick`: `curvature` ≥ |φ̈(τ)| [N/s²] and
  /// `lower` ≤ φ(τ) [N], both for every τ ≥ 0.
  virtual void carried_force_bounds(const Contacts& stick, double t0, const VecQ& q0,
                                    const VecQ& qd0, int c, const Vec2& w, double& curvature,
                                    double& lower) const = 0;
  /// M₂ ≥ |q̈_i(τ)| for every τ ≥ 0 of the motion, coordinate i ∈ [0, nq) [unit of q_i / s²]:
  /// the bound of the guaranteed search for a coordinate crossing (hybrid::Section::kCrossing).
  [[nodiscard]] virtual double carried_coordinate_curvature_bound(const Contacts& stick, double t0,
                                                                  const VecQ& q0, const VecQ& qd0,
                                                                  int i) const = 0;
};

/// The seeds' symmetric reduction of two contacts ([BP] §5.2 VII, X–XIII).
class SymmetricPairs {
 public:
  virtual ~SymmetricPairs() = default;
  /// How far (in the model's angle) the configuration is from the one where c and j are level.
  [[nodiscard]] virtual double level_distance(int c, int j, const VecQ& q) const = 0;
  /// The gap of j below which j counts as touching when c impacts within θ_crit of level [m].
  [[nodiscard]] virtual double level_gap_window(int j, double theta_crit) const = 0;
  /// Rotates the body about contact c's point to the level configuration and stops its spin;
  /// false, with q and q̇ untouched, if it was level and at rest in angle already.
  virtual bool level(int c, int j, double t, VecQ& q, VecQ& qd) const = 0;
};

/// The coordinate names "q0", "q1", … (a default for models without names).
[[nodiscard]] std::vector<std::string> numbered_names(std::string_view prefix, int n);

}  // namespace clatter::model
