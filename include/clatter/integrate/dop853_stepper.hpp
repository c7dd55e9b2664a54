#pragma once
/// @file
/// Adaptive Dormand–Prince 8(5,3) stepping with its order-7 dense output (Hairer, Nørsett and
/// Wanner, "Solving ODEs I", §II.10; the tableau in dop853_tableau.hpp), with the interface of
/// DenseStepper (dense_stepper.hpp): `initialize`, `step`, `t_old`/`t_new`, `state`, `state_at`.
/// State std::array<double, N>; no heap allocation.
///
/// One accepted step costs 11 new stages, the first-same-as-last stage f(t₁, y₁) and the three
/// stages of the dense output: 15 right-hand sides (a rejected step 11). Only the first `size`
/// components are integrated (the tail of the array stays as given).
///
/// Error control (Hairer's estimator, in the max norm over components):
///   s_i = abs_tol + rel_tol · max(|y₀,i|, |y₁,i|),  ε₅ = max_i |Σ_j e5_j k_j,i| / s_i,
///   ε₃ = max_i |Σ_j e3_j k_j,i| / s_i,  err = |h| ε₅² / √(ε₅² + 0.01 ε₃²),
/// a step is accepted for err ≤ 1; the next step is h · min(10, max(0.2, 0.9 err^(−1/8))), not
/// larger after a rejection, and never above max_dt. (SciPy and dop853.f use the root-mean-square
/// norm, which is never larger than the max norm: at equal tolerances this stepper is the
/// stricter.) A step that would fall below 10 ulp of t fails: step() returns false and the state
/// stays at the last accepted step (a non-finite right-hand side is rejected as an infinite error).
///
/// The interpolant on [t₀, t₁], x = (t − t₀)/h, Δ = y₁ − y₀:
///   y(x) = y₀ + x (F₀ + (1−x)(F₁ + x (F₂ + (1−x)(F₃ + x (F₄ + (1−x)(F₅ + x F₆))))))
///   F₀ = Δ, F₁ = h k₀ − Δ, F₂ = 2Δ − h (k₀ + k₁₂), F₃₊ᵣ = h Σ_j d_r,j k_j (r = 0…3).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

#include "clatter/integrate/dop853_tableau.hpp"

namespace clatter::integrate {

template <std::size_t N>
class Dop853Stepper {
 public:
  using State = std::array<double, N>;

  /// @pre abs_tol, rel_tol > 0; max_dt > 0; 1 ≤ size ≤ N (the components integrated).
  Dop853Stepper(double abs_tol, double rel_tol, double max_dt, std::size_t size = N)
      : abs_tol_(abs_tol), rel_tol_(rel_tol), max_dt_(max_dt), size_(std::min(size, N)) {}

  /// Restarts at (t0, x0) with a first trial step dt0 (the controller adapts it).
  void initialize(const State& x0, double t0, double dt0) {
    x_ = x0;
    x_old_ = x0;
    t_ = t0;
    t_old_ = t0;
    h_ = std::min(dt0, max_dt_);
    fsal_ = false;
  }

  /// One accepted step of `system(x, dxdt, t)`; afterwards the interpolant covers
  /// [t_old(), t_new()]. Returns false (nothing changed) if the step size fell below 10 ulp of t.
  template <class System>
  [[nodiscard]] bool step(System&& system) {
    if (!fsal_) {
      system(x_, k_[0], t_);
      fsal_ = true;
    }
    bool rejected = false;
    for (;;) {
      const double min_step =
          10.0 * std::abs(std::nextafter(t_, std::numeric_limits<double>::infinity()) - t_);
      if (!(h_ >= min_step)) return false;
      const double h = h_;
      stages<1>(system, h, std::make_index_sequence<11>{});
      combine<12>(h, x_new_);
      system(x_new_, k_[12], t_ + h);
      const double err = error_norm(h);
      if (err <= 1.0) {
        double factor =
            err == 0.0 ? kMaxFactor : std::min(kMaxFactor, kSafety * std::pow(err, kExponent));
        if (rejected) factor = std::min(1.0, factor);
        x_old_ = x_;
        t_old_ = t_;
        x_ = x_new_;
        t_ = t_old_ + h;
        dense_output(system, h);
        k_[0] = k_[12];
        proposed_ = h * factor;
        h_ = std::min(proposed_, max_dt_);
        return true;
      }
      h_ = h * std::max(kMinFactor, kSafety * std::pow(err, kExponent));
      rejected = true;
    }
  }

  [[nodiscard]] double t_old() const { return t_old_; }
  [[nodiscard]] double t_new() const { return t_; }
  [[nodiscard]] double dt() const { return h_; }  ///< the next trial step
  /// The next step the error control asked for before max_dt capped it (at most 10 × the step
  /// just taken: 10 × max_dt when a step at the cap has an error ≤ (0.09)⁸ of the tolerance).
  [[nodiscard]] double proposed_dt() const { return proposed_; }
  [[nodiscard]] const State& state() const { return x_; }

  /// The interpolated state at t ∈ [t_old, t_new] (order 7).
  void state_at(double t, State& x) const {
    const double h = t_ - t_old_;
    const double s = h > 0.0 ? (t - t_old_) / h : 0.0;
    const double r = 1.0 - s;
    x = x_old_;
    for (std::size_t i = 0; i < size_; ++i) {
      const double p =
          F_[0][i] +
          r * (F_[1][i] +
               s * (F_[2][i] + r * (F_[3][i] + s * (F_[4][i] + r * (F_[5][i] + s * F_[6][i])))));
      x[i] = x_old_[i] + s * p;
    }
  }

 private:
  static constexpr double kSafety = 0.9;
  static constexpr double kMinFactor = 0.2;
  static constexpr double kMaxFactor = 10.0;
  static constexpr double kExponent = -1.0 / 8.0;

  // y = x_ + h Σ_{j<S} a_S,j k_j (zero coefficients skipped at compile time)
  template <std::size_t S>
  void combine(double h, State& y) const {
    combine_row<S>(h, y, std::make_index_sequence<S>{});
  }
  template <std::size_t S, std::size_t... J>
  void combine_row(double h, State& y, std::index_sequence<J...> /*unused*/) const {
    y = x_;
    for (std::size_t i = 0; i < size_; ++i) {
      double sum = 0.0;
      ((dop853::kA[S][J] != 0.0 ? void(sum += dop853::kA[S][J] * k_[J][i]) : void()), ...);
      y[i] = x_[i] + h * sum;
    }
  }
  // stages First … First + Count − 1 at (t₀ + c_s h, y_s)
  template <std::size_t First, class System, std::size_t... I>
  void stages(System& system, double h, std::index_sequence<I...> /*unused*/) {
    ((combine<First + I>(h, y_), system(y_, k_[First + I], t_ + dop853::kC[First + I] * h)), ...);
  }

  [[nodiscard]] double error_norm(double h) const {
    return error_norm_impl(h, std::make_index_sequence<13>{});
  }
  template <std::size_t... J>
  [[nodiscard]] double error_norm_impl(double h, std::index_sequence<J...> /*unused*/) const {
    double e5 = 0.0;
    double e3 = 0.0;
    for (std::size_t i = 0; i < size_; ++i) {
      const double scale = abs_tol_ + rel_tol_ * std::max(std::abs(x_[i]), std::abs(x_new_[i]));
      double s5 = 0.0;
      double s3 = 0.0;
      ((dop853::kE5[J] != 0.0 ? void(s5 += dop853::kE5[J] * k_[J][i]) : void()), ...);
      ((dop853::kE3[J] != 0.0 ? void(s3 += dop853::kE3[J] * k_[J][i]) : void()), ...);
      const double r5 = std::abs(s5) / scale;
      const double r3 = std::abs(s3) / scale;
      // a non-finite stage or result rejects the step (the step shrinks)
      if (!std::isfinite(r5) || !std::isfinite(r3) || !std::isfinite(x_new_[i]))
        return std::numeric_limits<double>::infinity();
      e5 = std::max(e5, r5);
      e3 = std::max(e3, r3);
    }
    const double denom = e5 * e5 + 0.01 * e3 * e3;
    return denom > 0.0 ? std::abs(h) * e5 * e5 / std::sqrt(denom) : 0.0;
  }

  // stages 13–15 and the coefficients F of the interpolant on the step just accepted
  template <class System>
  void dense_output(System& system, double h) {
    extra_stages(system, h, std::make_index_sequence<3>{});
    for (std::size_t i = 0; i < size_; ++i) {
      const double delta = x_[i] - x_old_[i];
      F_[0][i] = delta;
      F_[1][i] = h * k_[0][i] - delta;
      F_[2][i] = 2.0 * delta - h * (k_[12][i] + k_[0][i]);
    }
    dense_rows(h, std::make_index_sequence<4>{});
  }
  template <class System, std::size_t... I>
  void extra_stages(System& system, double h, std::index_sequence<I...> /*unused*/) {
    // the step is accepted (x_ = y₁): these stages start from y₀ = x_old_
    ((extra_stage<13 + I>(system, h)), ...);
  }
  template <std::size_t S, class System>
  void extra_stage(System& system, double h) {
    extra_row<S>(h, std::make_index_sequence<S>{});
    system(y_, k_[S], t_old_ + dop853::kC[S] * h);
  }
  template <std::size_t S, std::size_t... J>
  void extra_row(double h, std::index_sequence<J...> /*unused*/) {
    y_ = x_old_;
    for (std::size_t i = 0; i < size_; ++i) {
      double sum = 0.0;
      ((dop853::kA[S][J] != 0.0 ? void(sum += dop853::kA[S][J] * k_[J][i]) : void()), ...);
      y_[i] = x_old_[i] + h * sum;
    }
  }
  template <std::size_t... R>
  void dense_rows(double h, std::index_sequence<R...> /*unused*/) {
    (dense_row<R>(h, std::make_index_sequence<16>{}), ...);
  }
  template <std::size_t R, std::size_t... J>
  void dense_row(double h, std::index_sequence<J...> /*unused*/) {
    for (std::size_t i = 0; i < size_; ++i) {
      double sum = 0.0;
      ((dop853::kD[R][J] != 0.0 ? void(sum += dop853::kD[R][J] * k_[J][i]) : void()), ...);
      F_[3 + R][i] = h * sum;
    }
  }

  double abs_tol_;
  double rel_tol_;
  double max_dt_;
  std::size_t size_;
  double t_{0.0};
  double t_old_{0.0};
  double h_{0.0};
  double proposed_{0.0};
  bool fsal_{false};
  State x_{};
  State x_old_{};
  State x_new_{};
  State y_{};
  std::array<State, 16> k_{};
  std::array<State, 7> F_{};
};

}  // namespace clatter::integrate
