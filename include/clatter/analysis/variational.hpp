#pragma once
/// @file
/// The monodromy matrix of a hybrid trajectory by variational equations and saltation matrices,
/// for any model: the independent route to the Floquet multipliers (the other is differences of
/// the engine's map, analysis/periodic_problem.hpp).
/// @verbatim
///   smooth segments (contact modes m fixed):  Φ̇ = A(t) Φ,  A = ∂f/∂x (t, x(t); m)
///       f from analysis/state_space.hpp; A by central differences of f (steps 1e-7 (1 + |x_j|));
///       x and Φ by classical Runge–Kutta (4th order) with steps ≤ max_step; a free flight of a
///       model with a closed-form flight (ExactFlight, no auxiliary states): Φ by central
///       differences of the closed form over the whole flight (2n evaluations)
///   an event at t_e with trigger h(t, x) = 0 and reset x⁺ = R(t, x⁻):
///       S = G + (f⁺ − G f⁻ − R_t) h_xᵀ / (h_x f⁻ + h_t),   G = ∂R/∂x
///       f⁻ = f(t_e, x⁻; m⁻),  f⁺ = f(t_e, x⁺; m⁺);  G, R_t, h_x, h_t by central differences
///   M = Φ_K S_K ⋯ S_1 Φ_1 P₀   (the segments and events of the run, in order)
///   P₀ = ∂x(t₀⁺)/∂x(t₀): the start's own map, linearized. A perturbed start off the constraints
///       of the contacts closed at t₀ is brought onto them at once (the engine projects a declared-
///       closed contact's normal velocity, and friction stops the slip of a contact that sticks on
///       the reference within a time of the order of the perturbation), so to first order
///       q̇ ← q̇ − M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁻¹(J q̇ − w) over the rows of those contacts (normal and
///       tangential if sticking, normal if sliding), by central differences (I when none is
///       closed). The differences route (periodic_problem.hpp) sees it through the engine's runs.
/// @endverbatim
/// The trajectory is the engine's (hybrid::simulate with a recorder): its events give t_e, x⁻, x⁺
/// and the modes; each segment is re-integrated only for A(t). Triggers and resets per event:
///
/// | event | h | R |
/// |---|---|---|
/// | impact (single contact or symmetric pair) | g_N of the impacting contact | the contact's law
/// (by differences of the law; for a single contact under Stronge's closed form the q̇ columns
/// from the law's exact Jacobian, laws/stronge_jacobian.hpp) | | closure (plastic impact at a graze
/// or chatter start) | g_N | the law with e = 0 | | lift-off | λ_N (modes before) | identity | |
/// stick, slip reversal | v_T | identity | | slip onset | μ_s λ_N − |λ_T| (modes before) | identity
/// | | symmetric levelling | g_N | levelling, then the pair impact |
///
/// Events at one instant (an impact ending in stick, a levelling and its pair impact) are one
/// event: the composite reset, the first record's trigger. The modes after it are the last
/// record's, except that a contact the record lists closed but that leaves its obstacle after the
/// reset (v_N⁺ > 0: the trailing stance when another contact lands) is open, as the engine's next
/// mode decision finds it. Unsupported (the result says which and
/// when): the end of a predicted chatter, Painlevé and impacts without collision, simultaneous
/// impacts resolved by the multi-point law, scheduled parameter changes, and grazing events
/// (h_x f⁻ + h_t = 0: the saltation matrix is unbounded there).

#include <string>
#include <vector>

#include "clatter/analysis/periodic_problem.hpp"

namespace clatter::analysis {

struct VariationalOptions {
  double max_step{2e-3};  ///< largest Runge–Kutta step of the variational equations [s]
  /// the re-integrated state must meet the engine's at every event within this (relative to
  /// 1 + |x|): a larger gap means the replay lost the engine's modes
  double replay_tol{1e-6};
  /// keep Φ just before each event (VariationalMonodromy::before_events), e.g. for the
  /// sensitivity of an impact's state (analysis/critical_point.hpp)
  bool record_events{false};
};

/// Φ(t_e⁻) = ∂x(t_e⁻)/∂x(t₀) at the fixed time t_e of an event (group), with the event's first
/// record and the contact modes before it.
struct EventSensitivity {
  hybrid::EventRecord event;
  hybrid::Modes modes_before{};
  Eigen::MatrixXd Phi;
};

struct VariationalMonodromy {
  bool ok{false};
  std::string message;                    ///< why not ok
  Eigen::MatrixXd M;                      ///< ∂x(t_end)/∂x(t₀), n × n
  std::vector<hybrid::EventKind> events;  ///< the triggers of the saltation matrices, in order
  long steps{0};                          ///< Runge–Kutta steps of the variational equations
  std::vector<EventSensitivity> before_events;  ///< with VariationalOptions::record_events
};

/// M of the run of `m` from `init` to options.t_end. @pre options valid, t_end > init.t.
[[nodiscard]] VariationalMonodromy monodromy_variational(const model::System& m,
                                                         const hybrid::InitialState& init,
                                                         const hybrid::SimulationOptions& options,
                                                         const VariationalOptions& vo = {});

/// M restricted to C of the problem's flow from u (as monodromy_differences).
[[nodiscard]] VariationalMonodromy monodromy_variational(const PeriodicProblem& p,
                                                         const model::System& m,
                                                         const Eigen::VectorXd& u,
                                                         Eigen::MatrixXd& M_C,
                                                         const VariationalOptions& vo = {});

}  // namespace clatter::analysis
