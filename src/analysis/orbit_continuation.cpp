#include "clatter/analysis/orbit_continuation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

namespace {

using Vec3d = Eigen::Vector3d;

// F(x) and J(x) at x = (φ, v, ω) for P^m − shift
struct Eval {
  Eigen::Vector2d F{Eigen::Vector2d::Zero()};
  Eigen::Matrix<double, 2, 3> J{Eigen::Matrix<double, 2, 3>::Zero()};
  Eigen::Matrix2d DP{Eigen::Matrix2d::Zero()};
};

class Problem {
 public:
  Problem(const ImpactOscillator& base, int m, int n, const ContinuationOptions& o)
      : base_(base), m_(m), n_(n), o_(o) {}

  [[nodiscard]] int impacts() const { return m_; }
  [[nodiscard]] int periods() const { return n_; }
  [[nodiscard]] const ContinuationOptions& options() const { return o_; }
  [[nodiscard]] ImpactOscillator at(double omega) const { return base_.at_omega(omega); }

  [[nodiscard]] bool residual(const Vec3d& x, Eigen::Vector2d& F) const {
    if (!(x(2) > 0.0) || !std::isfinite(x(2))) return false;
    ImpactState p;
    if (!at(x(2)).map({x(0), x(1)}, m_, p)) return false;
    F = {p.phase - x(0) - 2.0 * std::numbers::pi * n_, p.velocity - x(1)};
    return true;
  }

  [[nodiscard]] bool evaluate(const Vec3d& x, Eval& ev) const {
    if (!(x(2) > 0.0) || !std::isfinite(x(2))) return false;
    ImpactState p;
    Eigen::Vector2d dw;
    if (!at(x(2)).linearize({x(0), x(1)}, m_, p, ev.DP, &dw)) return false;
    ev.F = {p.phase - x(0) - 2.0 * std::numbers::pi * n_, p.velocity - x(1)};
    ev.J.leftCols<2>() = ev.DP - Eigen::Matrix2d::Identity();
    ev.J.col(2) = dw;
    return ev.J.allFinite();
  }

  // Newton on [F(x); t·(x − x̂)] = 0 from x̂
  struct Corrected {
    bool ok{false};
    Vec3d x{Vec3d::Zero()};
    Eval ev{};
    int iterations{0};
  };
  [[nodiscard]] Corrected correct(const Vec3d& x_hat, const Vec3d& t, double ds) const {
    Corrected c;
    c.x = x_hat;
    for (c.iterations = 0; c.iterations <= o_.max_corrector_iterations; ++c.iterations) {
      if (!evaluate(c.x, c.ev)) return c;
      const double plane = t.dot(c.x - x_hat);
      // the residual P^m can reach is about ε |D(P^m)| |z|: the tolerance scales with |D(P^m)|
      const double scale = std::max(1.0, c.ev.DP.lpNorm<Eigen::Infinity>());
      if (c.ev.F.norm() < o_.tol * scale && std::abs(plane) < o_.tol) {
        // a point far from the predictor is on another branch (or past a grazing)
        c.ok = (c.x - x_hat).norm() <= std::max(2.0 * ds, 1e-8);
        return c;
      }
      Eigen::Matrix3d Ja;
      Ja.topRows<2>() = c.ev.J;
      Ja.row(2) = t.transpose();
      const Vec3d rhs{-c.ev.F(0), -c.ev.F(1), -plane};
      const Vec3d dx = Ja.fullPivLu().solve(rhs);
      if (!dx.allFinite()) return c;
      c.x += dx;
    }
    return c;
  }

  [[nodiscard]] BranchPoint point(const Vec3d& x, const Eval& ev) const {
    BranchPoint p;
    p.omega = x(2);
    p.z = {x(0), x(1)};
    p.multipliers = eigenvalues(ev.DP);
    p.stable = std::abs(p.multipliers[0]) < 1.0 && std::abs(p.multipliers[1]) < 1.0;
    const ImpactOscillator osc = at(x(2));
    p.margin = osc.grazing_margin(p.z, m_);
    const std::vector<double> a = osc.apexes(p.z, m_);
    if (!a.empty()) {
      p.apex_min = *std::min_element(a.begin(), a.end());
      p.apex_max = *std::max_element(a.begin(), a.end());
    }
    p.tau_sn = (ev.DP - Eigen::Matrix2d::Identity()).determinant();
    p.tau_pd = (ev.DP + Eigen::Matrix2d::Identity()).determinant();
    return p;
  }

 private:
  const ImpactOscillator& base_;
  int m_, n_;
  const ContinuationOptions& o_;
};

Vec3d tangent(const Eigen::Matrix<double, 2, 3>& J, const Vec3d& previous) {
  Vec3d t = Vec3d(J.row(0)).cross(Vec3d(J.row(1)));
  t.normalize();
  return t.dot(previous) < 0.0 ? Vec3d(-t) : t;
}

// the eigenvector of DP for its real eigenvalue closest to −1
Eigen::Vector2d flip_eigenvector(const Eigen::Matrix2d& DP) {
  const auto l = eigenvalues(DP);
  const double lambda = std::abs(l[0] + 1.0) < std::abs(l[1] + 1.0) ? l[0].real() : l[1].real();
  const Eigen::Vector2d a{DP(0, 1), lambda - DP(0, 0)};
  const Eigen::Vector2d b{lambda - DP(1, 1), DP(1, 0)};
  Eigen::Vector2d w = a.norm() > b.norm() ? a : b;
  return w.normalized();
}

// where τ changes sign between the point at x_a (step 0) and the step ds_b along t_a: the
// Illinois method on the step, each trial a corrected point
struct Located {
  bool ok{false};
  Vec3d x{Vec3d::Zero()};
  Eval ev{};
  double step{0.0};
};
template <class Tau>
Located locate(const Problem& pb, const Vec3d& x_a, const Vec3d& t_a, double tau_a, double ds_b,
               double tau_b, Tau tau) {
  Located best;
  double a = 0.0, b = ds_b, fa = tau_a, fb = tau_b;
  int side = 0;
  for (int it = 0; it < 100 && b - a > pb.options().locate_tol; ++it) {
    const double s = (a * fb - b * fa) / (fb - fa);
    const double step = (s > a && s < b) ? s : 0.5 * (a + b);
    const auto c = pb.correct(x_a + step * t_a, t_a, step);
    if (!c.ok) return best;
    const double fs = tau(c.ev.DP);
    best = {true, c.x, c.ev, step};
    if (fs == 0.0) break;
    if ((fs < 0.0) == (fa < 0.0)) {
      a = step;
      fa = fs;
      if (side == -1) fb *= 0.5;
      side = -1;
    } else {
      b = step;
      fb = fs;
      if (side == 1) fa *= 0.5;
      side = 1;
    }
  }
  return best;
}

double tau_sn(const Eigen::Matrix2d& DP) {
  return (DP - Eigen::Matrix2d::Identity()).determinant();
}
double tau_pd(const Eigen::Matrix2d& DP) {
  return (DP + Eigen::Matrix2d::Identity()).determinant();
}

// marches from the converged point x (with its evaluation) along t; the points and bifurcations
// go into `br`
// `from_pitchfork`: the branch starts at the pitchfork of a period doubling, where one multiplier
// is +1; SN detection waits until it has moved 1e-3 away (before that, its crossings of 1 and the
// tangent's tiny ω component are round-off)
double distance_to_one(const BranchPoint& p) {
  return std::min(std::abs(p.multipliers[0] - 1.0), std::abs(p.multipliers[1] - 1.0));
}

void march(const Problem& pb, Vec3d x, Eval ev, Vec3d t, Branch& br, bool from_pitchfork) {
  const ContinuationOptions& o = pb.options();
  BranchPoint last = pb.point(x, ev);
  br.points.push_back(last);
  double ds = o.ds;
  int unstable_rejects = 0;
  bool sn_armed = !from_pitchfork;
  while (true) {
    if (static_cast<int>(br.points.size()) >= o.max_points) {
      br.end = BranchEnd::kMaxPoints;
      return;
    }
    const auto c = pb.correct(x + ds * t, t, ds);
    const BranchPoint next = c.ok ? pb.point(c.x, c.ev) : BranchPoint{};
    const bool too_unstable = c.ok && std::max(std::abs(next.multipliers[0]),
                                               std::abs(next.multipliers[1])) > o.max_multiplier;
    if (!c.ok || next.margin < 0.0 || too_unstable) {
      unstable_rejects += too_unstable ? 1 : 0;
      ds *= 0.5;
      if (ds < o.ds_min) {
        if (last.margin < o.grazing_tol) {
          br.end = BranchEnd::kGrazing;
          br.bifurcations.push_back({BifurcationKind::kGrazing, last, Eigen::Vector2d::Zero()});
        } else {
          br.end = unstable_rejects > 0 ? BranchEnd::kMultiplierBound : BranchEnd::kStepTooSmall;
        }
        return;
      }
      continue;
    }
    unstable_rejects = 0;
    // bifurcations between last and next, in the order of their steps
    struct Found {
      double step;
      Bifurcation b;
    };
    std::vector<Found> found;
    const auto check = [&](double ta, double tb, BifurcationKind kind,
                           double (*tau)(const Eigen::Matrix2d&)) {
      if (!((ta < 0.0) != (tb < 0.0))) return;
      const Located l = locate(pb, x, t, ta, ds, tb, tau);
      if (!l.ok) return;
      Bifurcation b{kind, pb.point(l.x, l.ev), Eigen::Vector2d::Zero()};
      // a sign change through a jump of the multipliers (the Jacobian's differences straddling
      // a grazing) is not a bifurcation: a multiplier must sit at ±1
      const double target = kind == BifurcationKind::kSaddleNode ? 1.0 : -1.0;
      if (std::min(std::abs(b.at.multipliers[0] - target), std::abs(b.at.multipliers[1] - target)) >
          o.multiplier_tol)
        return;
      if (kind == BifurcationKind::kPeriodDoubling) b.eigenvector = flip_eigenvector(l.ev.DP);
      found.push_back({l.step, b});
    };
    // a fold turns the branch back in ω; a sign change of τ_SN without that is a branch point
    // (or, next to the pitchfork a doubled branch starts from, a multiplier at 1 to round-off)
    const Vec3d t_next = tangent(c.ev.J, t);
    sn_armed = sn_armed || (distance_to_one(last) > 1e-3 && distance_to_one(next) > 1e-3);
    if (sn_armed && t(2) * t_next(2) < 0.0)
      check(last.tau_sn, next.tau_sn, BifurcationKind::kSaddleNode, &tau_sn);
    check(last.tau_pd, next.tau_pd, BifurcationKind::kPeriodDoubling, &tau_pd);
    std::sort(found.begin(), found.end(),
              [](const Found& a, const Found& b) { return a.step < b.step; });
    for (const Found& f : found) {
      br.points.push_back(f.b.at);
      br.bifurcations.push_back(f.b);
      if (o.stop_at_bifurcation) {
        br.end = BranchEnd::kBifurcation;
        return;
      }
    }
    br.points.push_back(next);
    last = next;
    x = c.x;
    t = t_next;
    if (x(2) < o.omega_min || x(2) > o.omega_max) {
      br.end = BranchEnd::kOmegaRange;
      return;
    }
    if (c.iterations <= 2) {
      ds = std::min(o.ds_max, 1.5 * ds);
    } else if (c.iterations > 5) {
      ds *= 0.5;
    }
  }
}

}  // namespace

void validate(const ContinuationOptions& o) {
  require(o.omega_min > 0.0 && std::isfinite(o.omega_min), "omega_min",
          "must be positive and finite");
  require(o.omega_max > o.omega_min && std::isfinite(o.omega_max), "omega_max",
          "must be finite and above omega_min");
  require(o.ds_min > 0.0, "ds_min", "must be positive");
  require(o.ds >= o.ds_min && o.ds <= o.ds_max && std::isfinite(o.ds_max), "ds",
          "must lie in [ds_min, ds_max]");
  require(o.max_points >= 2 && o.max_points <= 10'000'000, "max_points",
          "must lie in [2, 10000000]");
  require(o.tol > 0.0, "tol", "must be positive");
  require(o.locate_tol > 0.0, "locate_tol", "must be positive");
  require(o.grazing_tol > 0.0, "grazing_tol", "must be positive");
  require(o.multiplier_tol > 0.0, "multiplier_tol", "must be positive");
  require(o.max_multiplier > 1.0, "max_multiplier", "must exceed 1");
  require(o.max_corrector_iterations >= 1 && o.max_corrector_iterations <= 100,
          "max_corrector_iterations", "must lie in [1, 100]");
}

std::string_view to_string(BifurcationKind k) {
  switch (k) {
    case BifurcationKind::kSaddleNode:
      return "SN";
    case BifurcationKind::kPeriodDoubling:
      return "PD";
    case BifurcationKind::kGrazing:
      return "G";
  }
  return "?";
}

std::string_view to_string(BranchEnd e) { return name_of(e); }

Branch continue_orbit(const ImpactOscillator& osc, const PeriodicOrbit& start, int direction,
                      const ContinuationOptions& options) {
  validate(options);
  require(start.converged, "start", "the starting orbit must be converged");
  Branch br;
  br.impacts = start.impacts;
  br.periods = start.periods;
  const Problem pb(osc, start.impacts, start.periods, options);
  const Vec3d x{start.z.phase, start.z.velocity, osc.omega()};
  Eval ev;
  if (!pb.evaluate(x, ev)) {
    br.end = BranchEnd::kStepTooSmall;
    return br;
  }
  const Vec3d t = tangent(ev.J, Vec3d{0.0, 0.0, direction >= 0 ? 1.0 : -1.0});
  march(pb, x, ev, t, br, false);
  return br;
}

Branch continue_both_ways(const ImpactOscillator& osc, const PeriodicOrbit& start,
                          const ContinuationOptions& options, BranchEnd* end_low) {
  Branch up = continue_orbit(osc, start, +1, options);
  Branch down = continue_orbit(osc, start, -1, options);
  if (end_low != nullptr) *end_low = down.end;
  Branch br;
  br.impacts = up.impacts;
  br.periods = up.periods;
  br.end = up.end;
  br.points.assign(down.points.rbegin(), down.points.rend());
  if (!br.points.empty() && !up.points.empty()) br.points.pop_back();  // the shared start
  br.points.insert(br.points.end(), up.points.begin(), up.points.end());
  br.bifurcations.assign(down.bifurcations.rbegin(), down.bifurcations.rend());
  br.bifurcations.insert(br.bifurcations.end(), up.bifurcations.begin(), up.bifurcations.end());
  return br;
}

Branch continue_period_doubled(const ImpactOscillator& osc, const Bifurcation& pd, int impacts,
                               int periods, const ContinuationOptions& options) {
  validate(options);
  require(pd.kind == BifurcationKind::kPeriodDoubling, "pd", "must be a period-doubling point");
  require(impacts >= 1 && impacts <= 512, "impacts", "must lie in [1, 512]");
  require(periods >= 1 && periods <= 512, "periods", "must lie in [1, 512]");
  Branch br;
  br.impacts = 2 * impacts;
  br.periods = 2 * periods;
  const Problem pb(osc, br.impacts, br.periods, options);
  const Problem single(osc, impacts, periods, options);
  const Vec3d x0{pd.at.z.phase, pd.at.z.velocity, pd.at.omega};
  const Vec3d t0{pd.eigenvector(0), pd.eigenvector(1), 0.0};
  for (double ds = options.ds; ds >= options.ds_min; ds *= 0.5) {
    const auto c = pb.correct(x0 + ds * t0, t0, ds);
    if (!c.ok) continue;
    Eigen::Vector2d F1;
    // distinct from the period-m orbit: P^m moves the point by about 2 ds |w|
    if (!single.residual(c.x, F1) || F1.norm() < 0.1 * ds) continue;
    Eval ev0;  // the PD point itself, as the branch's first point (not a marching point: its
               // multiplier +1 of P^{2m} would fake a saddle-node)
    if (pb.evaluate(x0, ev0)) br.points.push_back(pb.point(x0, ev0));
    march(pb, c.x, c.ev, tangent(c.ev.J, t0), br, true);
    return br;
  }
  br.end = BranchEnd::kStepTooSmall;
  return br;
}

std::vector<Bifurcation> period_doubling_cascade(const ImpactOscillator& osc, const Bifurcation& pd,
                                                 int impacts, int periods, int levels,
                                                 const ContinuationOptions& options) {
  validate(options);
  require(levels >= 1 && levels <= 8, "levels", "must lie in [1, 8]");
  std::vector<Bifurcation> out{pd};
  ContinuationOptions o = options;
  o.stop_at_bifurcation = true;
  for (int k = 0; k < levels; ++k) {
    // the next doubling is δ ≈ 4.67 times closer: the steps shrink with the levels
    o.ds_max = std::max(options.ds_min, options.ds_max * std::pow(0.25, k));
    o.ds = std::max(options.ds_min, 0.1 * o.ds_max);
    const Branch b = continue_period_doubled(osc, out.back(), impacts, periods, o);
    if (b.end != BranchEnd::kBifurcation ||
        b.bifurcations.back().kind != BifurcationKind::kPeriodDoubling)
      break;
    out.push_back(b.bifurcations.back());
    impacts *= 2;
    periods *= 2;
  }
  return out;
}

}  // namespace clatter::analysis
