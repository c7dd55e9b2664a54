#pragma once
/// @file
/// Adaptive Dormand–Prince 5(4) stepping with dense output, after Boost.Odeint's
/// DenseOutputStepper concept (`initialize`, `do_step` → (t_old, t_new), `calc_state`), on a
/// fixed-size state std::array<double, N>: no heap allocation after construction.
///
/// Error control per component: |err_i| ≤ abs_tol + rel_tol (|x_i| + dt |ẋ_i|) (odeint's default
/// checker). The interpolant on [t_old, t_new] is the 4th-order continuous extension of DOPRI5;
/// events are located on it (event_locator.hpp), never by re-integration.

#include <array>
#include <boost/numeric/odeint.hpp>
#include <cstddef>

namespace clatter::integrate {

template <std::size_t N>
class DenseStepper {
 public:
  using State = std::array<double, N>;

  /// @pre abs_tol, rel_tol > 0; max_dt > 0 (the largest step the controller may take).
  DenseStepper(double abs_tol, double rel_tol, double max_dt)
      : stepper_(boost::numeric::odeint::make_dense_output(
            abs_tol, rel_tol, max_dt, boost::numeric::odeint::runge_kutta_dopri5<State>())) {}

  /// Restarts at (t0, x0) with a first trial step dt0 (the controller adapts it).
  void initialize(const State& x0, double t0, double dt0) { stepper_.initialize(x0, t0, dt0); }

  /// One accepted step of `system(x, dxdt, t)`; afterwards the interpolant covers
  /// [t_old(), t_new()]. Returns true (as Dop853Stepper::step, whose step can fail).
  template <class System>
  [[nodiscard]] bool step(System&& system) {
    stepper_.do_step(std::forward<System>(system));
    return true;
  }

  [[nodiscard]] double t_old() const { return stepper_.previous_time(); }
  [[nodiscard]] double t_new() const { return stepper_.current_time(); }
  [[nodiscard]] double dt() const { return stepper_.current_time_step(); }
  [[nodiscard]] const State& state() const { return stepper_.current_state(); }

  /// The interpolated state at t ∈ [t_old, t_new].
  void state_at(double t, State& x) const { stepper_.calc_state(t, x); }

 private:
  using Dopri5 = boost::numeric::odeint::runge_kutta_dopri5<State>;
  typename boost::numeric::odeint::result_of::make_dense_output<Dopri5>::type stepper_;
};

}  // namespace clatter::integrate
