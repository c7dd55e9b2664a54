#pragma once
/// @file
/// The periodic-orbit problem of any model (model/system.hpp), posed on the engine's own flow, so
/// that what is analysed is what is simulated. Three kinds of section:
/// @verbatim
///   forced (a periodic forcing of frequency ω, a model parameter such as "surface.omega"):
///     stroboscopic section ω t ≡ φ_s (mod 2π);  t₀ = φ_s/ω,  T = 2πn/ω
///     unknowns   u = x₀[S]                       (S: the solved components of x)
///     residual   r(u) = x(t₀ + T)[S] − x₀[S]
///   autonomous (no forcing; T unknown): the section x[a] − ν t = x₀[a] (anchor a, drift rate ν,
///     e.g. the belt speed for a coordinate that moves with it; ν = 0 by default)
///     unknowns   u = (x₀[S], T)
///     residual   r(u) = (x(T)[S] − x₀[S],  x(T)[a] − νT − x₀[a])
///   impact section of contact c (an autonomous model; T is not an unknown): the orbit starts
///     just after an impact of c and ends just after the k-th impact of c (of π(c) modulo a
///     symmetry) that follows, at t₀ + T
///     unknowns   u = x₀[S]      (S: components the impact surface does not fix, e.g. velocities)
///     residual   r(u) = x⁺(t₀ + T)[S] − x₀[S]
///   modulo a symmetry G of the model (either section; model/motion_symmetry.hpp): the orbit
///     closes on the image of its start, x(t₀ + T) = G(x₀): every x₀[·] above becomes G(x₀)[·]
///     (a rimless wheel's step: θ(T) = θ₀ − 2π/n, spoke k + 1 standing where spoke k stood)
/// @endverbatim
/// Components of x outside S (and a) keep their reference values: cyclic coordinates (a rod's
/// horizontal position on an oscillating floor) and components held by closed contacts (a block
/// on a belt: y = ẏ = 0). x(t) is hybrid::simulate of the model with the problem's options.
///
/// Monodromy and multipliers ([B] §5.4; Floquet theory of nonsmooth systems, e.g. di Bernardo
/// et al. 2008 §2.5): with M = ∂x(t₀+T)/∂x₀ restricted to C = S (forced) or S ∪ {a} (autonomous),
/// @verbatim
///   forced:      D P = M_SS,   multipliers λ = eig(D P)
///   autonomous:  D P = (I − f̃ e_aᵀ/f̃_a) M,  f̃ = f(x(T)) − ν e_a   (the section's projection;
///                row a of D P is 0, so eig(D P) = {0} ∪ eig((D P)_SS); λ = eig((D P)_SS))
///   impact:      D P = M_SS, M = ∂x⁺(t₀+T)/∂x₀ with T varying (the section's return map itself,
///                by differences of the flows; one multiplier is 0, the surface's normal)
///   modulo G:    M is replaced by Q = DG⁻¹ M (the return map G⁻¹ ∘ φ_T, whose fixed point is x₀),
///                and f̃ by DG⁻¹ f(x(T)) − ν e_a (= f(x₀) − ν e_a for an equivariant model);
///                DG restricted to C by central differences of G (exact for an affine map)
/// @endverbatim

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "clatter/analysis/state_space.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::analysis {

enum class OrbitSectionKind : std::uint8_t { kForced, kAutonomous, kImpact };

struct OrbitSection {
  OrbitSectionKind kind{OrbitSectionKind::kForced};
  /// forced: the parameter holding the forcing frequency ω [rad/s]
  std::string frequency{"surface.omega"};
  double phase{0.0};  ///< forced: the section's phase φ_s [rad]
  int periods{1};     ///< forced: n, the orbit closes after n forcing periods
  int anchor{-1};     ///< autonomous: the component a of x fixed on the section
  /// autonomous: the parameter whose value is the anchor's drift rate ν ("" for ν = 0)
  std::string drift;
  /// impact: the contact whose impact starts the orbit (its image π(c) ends it modulo a symmetry)
  int contact{-1};
  int impacts{1};          ///< impact: the orbit ends at this many impacts of the end contact
  double max_period{1e3};  ///< impact: a flow that meets none within this [s] fails
  /// the orbit closes on the image G(x₀) of its start under the model's motion_symmetry()
  bool modulo_symmetry{false};
  int symmetry_power{1};  ///< k: the orbit closes on G^k(x₀) (2 for a doubled gait)
};

/// Everything a map of the orbit problem needs. Built by make_periodic_problem.
struct PeriodicProblem {
  std::shared_ptr<const model::System> model;
  hybrid::SimulationOptions options;  ///< tolerances and guards (t_end is set per map)
  OrbitSection section;
  std::vector<int> solved;                         ///< S, in increasing order
  StateVector reference;                           ///< x of the components outside S
  std::array<bool, model::kMaxContacts> closed{};  ///< contacts closed at the start
  double start_time{0.0};  ///< impact: t₀, the time of the impact the orbit starts after
  /// impact: the contact modes at the reference start (a perturbed start is projected onto the
  /// closed ones' constraints: project_onto_closed)
  hybrid::Modes start_modes{};

  [[nodiscard]] int dimension() const {  ///< the number of unknowns (and of equations)
    return static_cast<int>(solved.size()) +
           (section.kind == OrbitSectionKind::kAutonomous ? 1 : 0);
  }
  /// C: S, and the anchor for an autonomous section (the rows/columns of M that matter)
  [[nodiscard]] std::vector<int> monodromy_components() const;
};

/// The contact whose impacts end an impact section's orbit: c, or π(c) modulo the symmetry.
[[nodiscard]] int end_contact(const PeriodicProblem& p, const model::System& m);

/// Checks and completes a problem: the section's parameters exist (forced: ω > 0), 1 ≤ n ≤ 1000,
/// (impact: the contact exists, 1 ≤ k ≤ 1000, max_period > 0, the model is not forced),
/// S is non-empty, in range, without repeats and without the anchor; modulo a symmetry: the model
/// declares one, its contact map is a permutation and DG (on C, at the reference) is invertible;
/// throws InvalidArgument naming the field otherwise. S is sorted.
[[nodiscard]] PeriodicProblem make_periodic_problem(
    std::shared_ptr<const model::System> model, const hybrid::SimulationOptions& options,
    const OrbitSection& section, std::vector<int> solved, const StateVector& reference,
    const std::array<bool, model::kMaxContacts>& closed = {}, double start_time = 0.0);

/// The unknowns u of a state x₀ and period T (T ignored for a forced section).
[[nodiscard]] Eigen::VectorXd unknowns_of(const PeriodicProblem& p, const StateVector& x0,
                                          double T);

/// One evaluation of the orbit's flow from the unknowns u (with the model `m`, which may differ
/// from p.model in a parameter during continuation).
struct FlowRun {
  double t0{0.0};
  double period{0.0};
  StateVector x0;     ///< the full start state
  StateVector x_end;  ///< x(t₀ + T)
  hybrid::SimulationResult result;
  Eigen::VectorXd residual;
  [[nodiscard]] bool ok() const { return result.reason == hybrid::StopReason::kEndTime; }
};

/// x projected onto the constraints of the contacts closed in `modes`: first the positions, the
/// gaps to 0 along M⁻¹J_Nᵀ (up to three Newton steps q ← q − M⁻¹J_Nᵀ (J_N M⁻¹ J_Nᵀ)⁻¹ g_N),
/// then the velocities M-orthogonally (normal and tangential rows of a sticking contact, the
/// normal row of a sliding one):
///   q̇ ← q̇ − M⁻¹ Jᵀ (J M⁻¹ Jᵀ)⁻¹ (J q̇ − w)
/// To first order what happens to a start off those constraints: the engine projects a
/// declared-closed contact's normal velocity, and friction stops a sticking contact's slip within
/// a time of the order of the perturbation. The variational route's start map (variational.hpp)
/// and an impact section's start (run_flow).
[[nodiscard]] StateVector project_onto_closed(const model::System& m, double t,
                                              const StateVector& x, const hybrid::Modes& modes);

/// The modes after an event at (t, x) whose record lists them: a contact listed closed but
/// leaving its obstacle (v_N > 0: the trailing stance when another contact lands) is open, as the
/// engine's next mode decision finds it.
[[nodiscard]] hybrid::Modes settled_modes(const model::System& m, double t, const StateVector& x,
                                          hybrid::Modes modes);

/// Start time and period of the orbit for model m and unknowns u (impact section: T is the bound
/// max_period; the flow's own period is FlowRun::period).
void start_and_period(const PeriodicProblem& p, const model::System& m, const Eigen::VectorXd& u,
                      double& t0, double& T);
/// The initial state of the flow (full x₀ from the reference and u).
[[nodiscard]] hybrid::InitialState initial_state(const PeriodicProblem& p, const model::System& m,
                                                 const Eigen::VectorXd& u);
/// Runs the flow from u; `recorder` (may be null) sees its events and samples.
[[nodiscard]] FlowRun run_flow(const PeriodicProblem& p, const model::System& m,
                               const Eigen::VectorXd& u, hybrid::Recorder* recorder = nullptr,
                               double output_dt = 0.0);

/// ∂r/∂u by central differences of run_flow (steps h_j = 1e-6 (1 + |u_j|)), and, if `dr_dp` is
/// not null, ∂r/∂p for the parameter `parameter` (step 1e-6 (1 + |p|)). False if a flow fails;
/// then `failure` (if not null) says which perturbed flow, from and to what time, and the
/// engine's stop reason and message. Two flows of a difference that take different events (the
/// counts of events and impacts, the modes at the end) straddle a discontinuity of the flow:
/// the difference is retried at h/100 (so is a failed flow); still different, `warning` (if not
/// null) names the components ("" when none did).
[[nodiscard]] bool residual_jacobian(const PeriodicProblem& p, const model::System& m,
                                     const Eigen::VectorXd& u, Eigen::MatrixXd& J,
                                     const std::string& parameter = {},
                                     Eigen::VectorXd* dr_dp = nullptr,
                                     std::string* failure = nullptr,
                                     std::string* warning = nullptr);

/// M restricted to C (p.monodromy_components()) by central differences of the flow: the
/// independent reference for the variational route (analysis/variational.hpp). False if a flow
/// fails; then `failure` (if not null) says which, as residual_jacobian does; `warning` as there.
[[nodiscard]] bool monodromy_differences(const PeriodicProblem& p, const model::System& m,
                                         const Eigen::VectorXd& u, Eigen::MatrixXd& M_C,
                                         std::string* failure = nullptr,
                                         std::string* warning = nullptr);

/// The image G^k(x) (k = section.symmetry_power) of a full state at time t under m's motion
/// symmetry (x itself unless the problem is posed modulo the symmetry).
[[nodiscard]] StateVector symmetry_image(const PeriodicProblem& p, const model::System& m, double t,
                                         const StateVector& x);

/// DG restricted to C (p.monodromy_components()) at x, by central differences (identity unless
/// the problem is posed modulo the symmetry).
[[nodiscard]] Eigen::MatrixXd symmetry_jacobian(const PeriodicProblem& p, const model::System& m,
                                                double t, const StateVector& x);

/// Modulo a symmetry: "" if the contacts closed at the end of `run` (the flow from u) are the
/// images π(k) of those closed at its start (as the engine finds them), else one line naming the
/// first contact that differs.
[[nodiscard]] std::string symmetry_mismatch(const PeriodicProblem& p, const model::System& m,
                                            const Eigen::VectorXd& u, const FlowRun& run);

/// The components a contact declared closed holds alone (its normal row J_N names one
/// coordinate only: a block's y on its belt): that coordinate and its velocity.
[[nodiscard]] std::vector<bool> held_components(
    const model::System& m, double t, const model::VecQ& q, const model::VecQ& qd,
    const std::array<bool, model::kMaxContacts>& closed);

/// A component left out of the solved ones (and the anchor) must not drive them: the multipliers
/// are the eigenvalues of the monodromy's block on the solved components, which are the orbit's
/// only if ∂x(t₀ + T)[C]/∂x₀[c] = 0 for every other c (a cyclic coordinate: the rod's x on the
/// floor; a velocity the solved ones do not feel) or if c is held by a closed contact. On an
/// impact section, or modulo a symmetry, a component that repeats (x(T) = G(x₀) in it, to 1e-8:
/// one the section fixes, as a landing spoke's angle) may be left out as well; the derivative is
/// then the section map's (its flow from the start u with the component moved, to the impact).
/// "" if so (to 1e-4, above the differences' noise), else which component and what to do (two
/// flows per unsolved component checked). `run` is the flow from the unknowns u.
[[nodiscard]] std::string unsolved_dependence(const PeriodicProblem& p, const model::System& m,
                                              const Eigen::VectorXd& u, const FlowRun& run);

/// An autonomous section's transversality: the rate d(x[a] − ν t)/dt of the anchor's section
/// function at the end state of `run` (its return to the section), with the modes the run ends
/// in; NaN for forced and impact sections. Zero where the flow touches the section without
/// crossing it (an equilibrium on it, or the orbit's turning point at the anchor's value): there
/// D P is not defined (section_jacobian divides by it).
[[nodiscard]] double section_rate(const PeriodicProblem& p, const model::System& m,
                                  const FlowRun& run);
/// Whether that rate is zero to round-off: |rate| ≤ 1e-9 (1 + |f|∞), f the state's rate.
[[nodiscard]] bool tangent_to_section(const PeriodicProblem& p, const model::System& m,
                                      const FlowRun& run, double* rate = nullptr);

/// D P of the section from M restricted to C (see the file comment) at the end state of `run`.
[[nodiscard]] Eigen::MatrixXd section_jacobian(const PeriodicProblem& p, const model::System& m,
                                               const FlowRun& run, const Eigen::MatrixXd& M_C);

}  // namespace clatter::analysis
