#pragma once
/// @file
/// Root finding for event location.
///
/// 1. refine_root: a bracketed root [a, b] with f(a) > 0 ≥ f(b) refined by TOMS 748 (Boost.Math)
///    to a few ulps of t.
/// 2. first_root_curvature_bound: the *earliest* root of a smooth f on (t₀, t₁], guaranteed,
///    given a bound M₂ ≥ −f″ on the interval (f″ ≥ −M₂). From any point t with f(t) > 0,
/// @verbatim
///      f(t + s) ≥ f(t) + f′(t) s − ½ M₂ s²  > 0   for  0 ≤ s < s*(t) = (f′ + √(f′² + 2M₂f)) / M₂,
/// @endverbatim
///    so stepping t ← t + s* never passes a root. Near a simple root the step is a Newton step
///    shortened by O(s²): the iteration converges quadratically from above. Near a graze (a local
///    minimum f_min > 0) the steps are ≈ √(2f/M₂) and the number of steps stays bounded; once past
///    the minimum f′ > 0 and the steps grow again. An optional second bound (`far_step`) may give
///    a longer safe step (e.g. from |sin| ≤ 1); the longer of the two is taken.
///    A start on the surface (|f(t₀)| ≤ tol with f′(t₀) > 0, the state just after an impact or
///    lift-off) is not a root: the first step is the safe step from f = 0.
///    Where the function also gives its curvature f″(t) and a bound M₃ ≥ |f‴| is known
///    (first_root_curvature_bound_all), the cubic bound
/// @verbatim
///      f(t + s) ≥ f + f′ s + ½ f″ s² − ⅙ M₃ s³  ≥  f + f′ s + ½ (f″ − M₃ H/3) s²   (0 ≤ s ≤ H)
/// @endverbatim
///    gives a longer safe step where the curvature is milder than its worst case −M₂ (a body
///    hopping while the table's downward acceleration nearly cancels gravity): jerk_safe_step.
///
/// Functions f are callables t ↦ ValueSlope{f(t), f′(t)[, f″(t)]}.

#include <algorithm>
#include <array>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "clatter/core/scratch.hpp"
#include "clatter/core/value_slope.hpp"

namespace clatter::integrate {

using clatter::ValueSlope;  // core/value_slope.hpp

/// Root of f on [a, b] with f(a) and f(b) of opposite signs (or one of them 0), to ~4 ulp of t.
template <class F>
[[nodiscard]] double refine_root(F&& f, double a, double b, double fa, double fb,
                                 int max_iter = 80) {
  if (fa == 0.0) return a;
  if (fb == 0.0) return b;
  std::uintmax_t iterations = static_cast<std::uintmax_t>(max_iter);
  const auto tol = [](double x, double y) {
    return std::abs(x - y) <=
           4.0 * std::numeric_limits<double>::epsilon() * std::max({1.0, std::abs(x), std::abs(y)});
  };
  const auto r = boost::math::tools::toms748_solve(f, a, b, fa, fb, tol, iterations);
  // the end of the bracket on the side of the event (f ≤ 0) is returned by callers that need it;
  // the midpoint is within the tolerance of both
  return 0.5 * (r.first + r.second);
}

enum class RootKind : std::uint8_t {
  kNone,      ///< no root on (t₀, t₁]
  kCrossing,  ///< f crosses zero downward at t
  kGraze,   ///< f touches zero (|f| ≤ tol) with f′ ≥ 0 at t > t₀: tangency within tolerance
  kFailed,  ///< iteration limit reached (t is the last safe point)
};

struct FirstRoot {
  RootKind kind{RootKind::kNone};
  double t{0.0};
  int evaluations{0};
};

/// Safe step from a point with value v ≥ 0 and slope s under the curvature bound M₂ ≥ 0.
[[nodiscard]] inline double curvature_safe_step(double v, double s, double M2) {
  if (M2 <= 0.0) return s < 0.0 ? v / -s : std::numeric_limits<double>::infinity();
  const double disc = s * s + 2.0 * M2 * std::max(v, 0.0);
  // (s + √disc)/M₂ written without cancellation for s < 0
  return s >= 0.0 ? (s + std::sqrt(disc)) / M2 : 2.0 * std::max(v, 0.0) / (std::sqrt(disc) - s);
}

/// First positive root of v + s x + ½ k x² (v ≥ 0), +∞ if none.
[[nodiscard]] inline double quadratic_first_root(double v, double s, double k) {
  if (k < 0.0) return curvature_safe_step(v, s, -k);
  if (s >= 0.0) return std::numeric_limits<double>::infinity();
  const double disc = s * s - 2.0 * k * std::max(v, 0.0);
  if (disc < 0.0) return std::numeric_limits<double>::infinity();
  return 2.0 * std::max(v, 0.0) / (std::sqrt(disc) - s);
}

/// Safe step from a point with value v ≥ 0, slope s and curvature c under |f‴| ≤ M₃ (and
/// f″ ≥ −M₂): the longer of curvature_safe_step and the cubic bound's step, found on trial
/// horizons H = 2h, 8h, 32h (the file comment). Without a finite c or M₃: curvature_safe_step.
[[nodiscard]] inline double jerk_safe_step(double v, double s, double c, double M2, double M3) {
  double h = curvature_safe_step(v, s, M2);
  if (!std::isfinite(c) || !(M3 > 0.0) || !std::isfinite(M3) || !(h > 0.0) || !std::isfinite(h))
    return h;
  double H = 2.0 * h;
  for (int k = 0; k < 3; ++k) {
    const double r = quadratic_first_root(v, s, c - M3 * H / 3.0);
    if (!(r >= H)) return std::max(h, r);
    h = H;  // safe on all of [0, H]
    H *= 4.0;
  }
  return h;
}

/// Earliest root of f on (t0, t1] (see the file comment). `far_step(t, v)` returns a further safe
/// step length from t (0 if none). `tol` is the absolute tolerance on f that counts as zero.
/// @pre f″ ≥ −M2 on [t0, t1]; f(t0) ≥ −tol.
template <class F, class Far>
[[nodiscard]] FirstRoot first_root_curvature_bound(F&& f, Far&& far_step, double t0, double t1,
                                                   double M2, double tol,
                                                   int max_evaluations = 400) {
  FirstRoot out;
  double t = t0;
  ValueSlope fv = f(t);
  out.evaluations = 1;
  bool at_start = true;
  while (out.evaluations < max_evaluations) {
    if (fv.value <= tol && !(at_start && fv.slope > 0.0)) {
      if (fv.slope < 0.0) {
        // polish from above with Newton steps (the value is within tol of zero)
        for (int k = 0; k < 4; ++k) {
          const double dt = -fv.value / fv.slope;
          t += dt;
          // a step at the resolution of t, or one whose remainder ½M₂dt² leaves t within that
          // resolution (Newton's quadratic convergence): t is the root; more steps would only
          // chase the round-off of the terms
          const double resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::abs(t);
          if (std::abs(dt) <= resolution || 0.5 * M2 * dt * dt <= resolution * std::abs(fv.slope))
            break;
          fv = f(t);
          ++out.evaluations;
          if (fv.slope >= 0.0) break;
        }
        out.kind = RootKind::kCrossing;
      } else {
        out.kind = RootKind::kGraze;
      }
      out.t = t;
      return out;
    }
    at_start = false;
    const double step =
        std::max(curvature_safe_step(fv.value, fv.slope, M2), far_step(t, fv.value));
    if (fv.slope < 0.0 && step <= 4.0 * std::numeric_limits<double>::epsilon() * std::abs(t)) {
      // the root is within a few ulps of t: a smaller tol cannot be resolved in t
      out.kind = RootKind::kCrossing;
      out.t = t + step;
      return out;
    }
    if (!(t + step < t1)) {
      out.kind = RootKind::kNone;
      out.t = t1;
      return out;
    }
    const double t_prev = t;
    const ValueSlope f_prev = fv;
    t += step;
    fv = f(t);
    ++out.evaluations;
    if (fv.value < -tol) {
      // the bound was violated by round-off (a tight M₂): refine in [t_prev, t] if it brackets,
      // else (a start on the surface) the root is at t to round-off
      const auto value = [&](double x) { return f(x).value; };
      out.t = f_prev.value > 0.0 ? refine_root(value, t_prev, t, f_prev.value, fv.value) : t;
      out.kind = RootKind::kCrossing;
      return out;
    }
  }
  out.kind = RootKind::kFailed;
  out.t = t;
  return out;
}

}  // namespace clatter::integrate

namespace clatter::integrate {

/// The earliest root among m functions evaluated together (they share work, e.g. the pose of
/// a body for all its contacts): the search of first_root_curvature_bound run on all of them at
/// once with the shortest safe step of the functions still active. `f(t, out)` fills out[0..m) of
/// a Scratch<ValueSlope, kMax>; M2, tol and M3 are indexed [0, m) (std::array or Scratch of
/// double); `far_step(j, t)` is function j's further safe step (0 if none), which needs no
/// evaluation of f: a window (t, t + s] free of j's roots, and positive only where f_j(t) > 0. So a
/// step's end t′ where far_step(j, t′) > 0 is passed on to t′ + far_step(j, t′) without evaluating
/// f there (a body leaving the surface: the curvature bound's step reaches the height from which
/// nothing can touch, and the far bound's window follows at once).
struct FirstRootOf {
  FirstRoot root{};
  int function{-1};
};

template <std::size_t kMax, class F, class Far, class Bounds>
[[nodiscard]] FirstRootOf first_root_curvature_bound_all(F&& f, Far&& far_step, int m, double t0,
                                                         double t1, const Bounds& M2,
                                                         const Bounds& tol,
                                                         int max_evaluations = 800,
                                                         const Bounds* M3 = nullptr) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  FirstRootOf best;
  best.root.t = t1;
  Scratch<ValueSlope, kMax> v;
  Scratch<bool, kMax> active;
  Scratch<bool, kMax> at_start;
  f(t0, v);
  int evaluations = 1;
  for (int j = 0; j < m; ++j) {
    const auto i = static_cast<std::size_t>(j);
    active[i] = true;
    at_start[i] = true;
  }
  // one function's value at t; the polish of two functions that reach zero together (a body's
  // two ends landing at once) visits the same t's: the last evaluation is kept
  Scratch<ValueSlope, kMax> w_last;
  double t_last = std::numeric_limits<double>::quiet_NaN();
  const auto one = [&](double t, int j) {
    if (!(t == t_last)) {
      f(t, w_last);
      ++evaluations;
      t_last = t;
    }
    return w_last[static_cast<std::size_t>(j)];
  };
  // function i's safe step from the latest evaluation (with its curvature and M₃ if given)
  const auto safe = [&](std::size_t i) {
    return M3 == nullptr ? curvature_safe_step(v[i].value, v[i].slope, M2[i])
                         : jerk_safe_step(v[i].value, v[i].slope, v[i].curvature, M2[i], (*M3)[i]);
  };
  // a root one Newton step ahead, resolved without evaluating there: with the curvature c at t
  // and |f‴| ≤ M₃, f(t + s) = f + f′s + ½cs² ± ⅙M₃s³, so the root is within
  // (½|c|dt² + ⅙M₃dt³)/|f′| of the Newton step dt = f/|f′|; where that is below the resolution
  // of t (and the slope cannot turn over the step) the root is t + dt, as the polish would give
  const auto newton_resolved = [&](std::size_t i, double t_now) {
    if (M3 == nullptr || !(v[i].slope < 0.0) || !std::isfinite(v[i].curvature)) return -1.0;
    const double m3 = (*M3)[i];
    if (!std::isfinite(m3)) return -1.0;
    const double dt = v[i].value / -v[i].slope;
    const double c = std::abs(v[i].curvature);
    const double err = (0.5 * c + m3 * dt / 6.0) * dt * dt;
    const double resolution = 4.0 * kEps * std::abs(t_now + dt);
    return err <= resolution * -v[i].slope && 2.0 * c * dt <= -v[i].slope ? dt : -1.0;
  };
  double t = t0;
  int n_active = m;
  while (evaluations < max_evaluations) {
    // functions at zero here (not a start on the surface moving away) have their root
    for (int j = 0; j < m; ++j) {
      const auto i = static_cast<std::size_t>(j);
      if (!active[i] || (at_start[i] && v[i].slope > 0.0)) continue;
      if (!(v[i].value <= tol[i])) {
        const double dt = newton_resolved(i, t);
        if (!(dt >= 0.0) || !(t + dt <= t1)) continue;
        active[i] = false;
        --n_active;
        const FirstRoot r{RootKind::kCrossing, t + dt, 0};
        if (best.function < 0 || r.t < best.root.t) best = {r, j};
        continue;
      }
      FirstRoot r;
      r.t = t;
      if (v[i].slope < 0.0) {
        ValueSlope w = v[i];
        for (int k = 0; k < 4; ++k) {
          const double dt = -w.value / w.slope;
          r.t += dt;
          // a step at the resolution of t, or one whose remainder ½M₂dt² leaves r.t within that
          // resolution (Newton's quadratic convergence): r.t is the root; more steps would only
          // chase the round-off of the terms (in a flight t is the time since its start, whose
          // resolution is far finer than the gap's round-off)
          const double resolution = 4.0 * kEps * std::abs(r.t);
          if (std::abs(dt) <= resolution || 0.5 * M2[i] * dt * dt <= resolution * std::abs(w.slope))
            break;
          w = one(r.t, j);
          if (w.slope >= 0.0) break;
        }
        r.kind = RootKind::kCrossing;
      } else {
        r.kind = RootKind::kGraze;
      }
      active[i] = false;
      --n_active;
      if (best.function < 0 || r.t < best.root.t) best = {r, j};
    }
    at_start.fill(false, static_cast<std::size_t>(m));
    if (n_active == 0) break;
    double step = std::numeric_limits<double>::infinity();
    for (int j = 0; j < m; ++j) {
      const auto i = static_cast<std::size_t>(j);
      if (!active[i]) continue;
      const double near = safe(i);
      const double far = far_step(j, t);
      double reach = std::max(near, far);
      // (a far step's own end is where its window closes: nothing to pass on there)
      if (near >= far && near > 0.0 && near < std::numeric_limits<double>::infinity())
        reach += far_step(j, t + near);
      step = std::min(step, reach);
    }
    // a step below the resolution of t: the root of the function that limits it is within a
    // few ulps of t (its value is round-off of terms larger than tol, e.g. a long flight)
    if (step <= 4.0 * kEps * std::abs(t)) {
      for (int j = 0; j < m; ++j) {
        const auto i = static_cast<std::size_t>(j);
        if (!active[i]) continue;
        const double sj = std::max(safe(i), far_step(j, t));
        if (sj > 4.0 * kEps * std::abs(t)) continue;
        FirstRoot r;
        r.kind = v[i].slope < 0.0 ? RootKind::kCrossing : RootKind::kGraze;
        r.t = v[i].slope < 0.0 ? t + sj : t;
        active[i] = false;
        --n_active;
        if (best.function < 0 || r.t < best.root.t) best = {r, j};
      }
      continue;
    }
    const double limit = best.function >= 0 ? best.root.t : t1;
    if (!(t + step < limit)) break;
    const double t_prev = t;
    Scratch<ValueSlope, kMax> v_prev;
    v_prev.copy_from(v, static_cast<std::size_t>(m));
    t += step;
    f(t, v);
    ++evaluations;
    for (int j = 0; j < m; ++j) {
      const auto i = static_cast<std::size_t>(j);
      if (!active[i] || !(v[i].value < -tol[i])) continue;
      // the bound was violated by round-off: the root is in [t_prev, t]
      const auto value = [&](double x) { return one(x, j).value; };
      FirstRoot r;
      r.kind = RootKind::kCrossing;
      r.t = v_prev[i].value > 0.0 ? refine_root(value, t_prev, t, v_prev[i].value, v[i].value) : t;
      active[i] = false;
      --n_active;
      if (best.function < 0 || r.t < best.root.t) best = {r, j};
    }
  }
  if (evaluations >= max_evaluations && n_active > 0) {
    best.root.kind = RootKind::kFailed;
    best.root.t = t;
  }
  best.root.evaluations = evaluations;
  return best;
}

}  // namespace clatter::integrate
