#include "clatter/analysis/orbit_branch.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

namespace {

// An impact's region of Stronge's law for the itinerary. A contact that lands without sliding
// (v_T⁻ = 0 up to round-off, as a rimless wheel's spoke does: its tip moves normal to the ground)
// and sticks is region 0 whatever the sign of the round-off: regions 5 and 6 (the first slip stops
// in compression) tend to region 0 as v_T⁻ → 0, so a change among them there is no boundary of
// the law, only noise in the sign of v_T⁻.
int region_of(const hybrid::EventRecord& e) {
  const bool no_slip = std::abs(e.v_pre.x()) <= 1e-9 * std::abs(e.v_pre.y());
  return no_slip && (e.region == 5 || e.region == 6) ? 0 : e.region;
}

// the grazing margin, the impact itinerary and the stick events of one period
class Diagnostics final : public hybrid::Recorder {
 public:
  explicit Diagnostics(const model::System& m) : m_(m), last_(m.num_contacts()) {}
  void on_event(const hybrid::EventRecord& e) override {
    if (e.kind == hybrid::EventKind::kImpact) {
      itinerary.emplace_back(e.contact, region_of(e));
      min_impact_speed = std::min(min_impact_speed, -e.v_pre.y());
    }
    if (e.kind == hybrid::EventKind::kStick) ++sticks;
    if (e.kind == hybrid::EventKind::kSlipOnset) ++slip_onsets;
    if (e.kind == hybrid::EventKind::kLiftOff) ++lift_offs;
    for (auto& l : last_) l.count = 0;  // no minimum across an event
  }
  void on_sample(const hybrid::Sample& s) override {
    for (int c = 0; c < m_.num_contacts(); ++c) {
      History& h = last_[static_cast<std::size_t>(c)];
      if (s.modes[static_cast<std::size_t>(c)] != hybrid::ContactMode::kOpen) {
        h.count = 0;
        continue;
      }
      m_.contact_geometry(c, s.t, s.q, s.qd, geometry_);
      h.g[0] = h.g[1];
      h.g[1] = h.g[2];
      h.g[2] = geometry_.g_N;
      h.count = std::min(h.count + 1, 3);
      if (h.count == 3 && h.g[1] < h.g[0] && h.g[1] <= h.g[2]) {
        // the parabola through the three samples
        const double curvature = h.g[0] - 2.0 * h.g[1] + h.g[2];
        const double slope = h.g[2] - h.g[0];
        const double g_min = curvature > 0.0 ? h.g[1] - slope * slope / (8.0 * curvature) : h.g[1];
        margin = std::min(margin, g_min);
      }
    }
  }
  double margin{std::numeric_limits<double>::infinity()};
  double min_impact_speed{std::numeric_limits<double>::infinity()};
  std::vector<std::pair<int, int>> itinerary;
  int sticks{0};
  int slip_onsets{0};
  int lift_offs{0};

 private:
  struct History {
    std::array<double, 3> g{};
    int count{0};
  };
  const model::System& m_;
  std::vector<History> last_;
  model::ContactGeometry geometry_;
};

double norm_inf(const Eigen::VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

struct Corrected {
  Eigen::VectorXd y;  // (u, p)
  int iterations{0};
};

class Continuation {
 public:
  Continuation(const PeriodicProblem& problem, const OrbitBranchOptions& o)
      : pr_(problem), o_(o), d_(problem.dimension()) {}

  // the model at parameter value p; the last one is kept (a corrector's flows, the point's
  // Jacobian and its description ask for the same p in turn: one model made, not one per flow)
  std::shared_ptr<const model::System> model_at(double p) const {
    if (!last_model_ || !(p == last_p_)) {
      last_model_ = pr_.model->with_parameter(o_.parameter, p);
      last_p_ = p;
    }
    return last_model_;
  }

  // J = [∂r/∂u | ∂r/∂p] and r at y; false if a flow fails; `warning` (if not null): the
  // differences that straddled a change of the events (residual_jacobian)
  bool jacobian(const Eigen::VectorXd& y, Eigen::MatrixXd& J, Eigen::VectorXd& r,
                std::string* warning = nullptr) const {
    const auto m = model_at(y(d_));
    const Eigen::VectorXd u = y.head(d_);
    const FlowRun run = run_flow(pr_, *m, u);
    if (!run.ok()) {
      note(run, y(d_));
      return false;
    }
    r = run.residual;
    Eigen::MatrixXd Ju;
    Eigen::VectorXd dp;
    std::string why;
    if (!residual_jacobian(pr_, *m, u, Ju, o_.parameter, &dp, &why, warning)) {
      failure_ = "at p = " + format_number(y(d_)) + ", " + why;
      return false;
    }
    J.resize(d_, d_ + 1);
    J << Ju, dp;
    return true;
  }

  static Eigen::VectorXd null_vector(const Eigen::MatrixXd& J) {
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(J.transpose());
    const Eigen::MatrixXd Q = qr.householderQ();
    return Q.col(Q.cols() - 1);
  }

  // Newton on [r(y); t·(y − ŷ)] = 0 from ŷ: first the chord method with the Jacobian `chord` of
  // the last point (one flow per iteration), then, if that fails, full Newton
  // A point farther than `max_move` from ŷ is refused: a corrector that moves further than the
  // step it corrects has jumped to another branch (across a grazing, where the map changes its
  // form, it can land on an orbit with more impacts far away).
  std::optional<Corrected> correct(
      const Eigen::VectorXd& y_hat, const Eigen::VectorXd& t,
      const Eigen::MatrixXd* chord = nullptr,
      double max_move = std::numeric_limits<double>::infinity()) const {
    std::optional<Corrected> c;
    if (chord != nullptr) c = correct_with(y_hat, t, chord);
    if (!c) c = correct_with(y_hat, t, nullptr);
    if (c && (c->y - y_hat).norm() > max_move) {
      failure_ = "the corrector moved " + format_number((c->y - y_hat).norm()) +
                 " from the predictor, more than the step " + format_number(max_move) +
                 " (a jump to another branch)";
      return std::nullopt;
    }
    return c;
  }

  // the point at y (converged) and J there (for the next tangent and the chord); for a forced
  // section the monodromy is J's ∂r/∂u + I, with no further flows
  std::optional<OrbitPoint> point(const Eigen::VectorXd& y, Eigen::MatrixXd& J) const {
    try {
      const auto m = model_at(y(d_));
      Eigen::VectorXd r;
      Orbit orbit;
      if (!jacobian(y, J, r, &orbit.monodromy_warning)) return std::nullopt;
      orbit.u = y.head(d_);
      if (pr_.section.kind == OrbitSectionKind::kForced) {
        orbit.monodromy = J.leftCols(d_) + Eigen::MatrixXd::Identity(d_, d_);
      } else if (std::string why; !monodromy_differences(pr_, *m, orbit.u, orbit.monodromy, &why,
                                                         &orbit.monodromy_warning)) {
        failure_ = "at p = " + format_number(y(d_)) + ", " + why;
        return std::nullopt;
      }
      (void)replace_straddled_monodromy(pr_, *m, orbit);
      return orbit_point(pr_, *m, y(d_), orbit, o_);
    } catch (const InvalidArgument& e) {
      failure_ = "at p = " + format_number(y(d_)) + ", " + e.what();
      return std::nullopt;
    }
  }

  /// The last failed flow (which, from and to what time, the engine's reason), "" if none.
  [[nodiscard]] const std::string& failure() const { return failure_; }

 private:
  std::optional<Corrected> correct_with(const Eigen::VectorXd& y_hat, const Eigen::VectorXd& t,
                                        const Eigen::MatrixXd* chord) const {
    Corrected c;
    c.y = y_hat;
    Eigen::MatrixXd A(d_ + 1, d_ + 1);
    Eigen::FullPivLU<Eigen::MatrixXd> lu;
    if (chord != nullptr) {
      A << *chord, t.transpose();
      lu.compute(A);
    }
    const int iterations = (chord != nullptr ? 2 : 1) * o_.max_corrector_iterations;
    for (int it = 0; it <= iterations; ++it) {
      if (c.y(d_) < o_.p_min - 1e-12 * std::abs(o_.p_min) ||
          c.y(d_) > o_.p_max + 1e-12 * std::abs(o_.p_max))
        return std::nullopt;
      Eigen::VectorXd r;
      try {
        if (chord != nullptr) {
          const auto m = model_at(c.y(d_));
          const FlowRun run = run_flow(pr_, *m, c.y.head(d_));
          if (!run.ok()) {
            note(run, c.y(d_));
            return std::nullopt;
          }
          r = run.residual;
        } else {
          Eigen::MatrixXd J;
          if (!jacobian(c.y, J, r)) return std::nullopt;
          A << J, t.transpose();
          lu.compute(A);
        }
      } catch (const InvalidArgument& e) {  // the parameter left its allowed range
        failure_ = "at p = " + format_number(c.y(d_)) + ", " + e.what();
        return std::nullopt;
      }
      Eigen::VectorXd F(d_ + 1);
      F << r, t.dot(c.y - y_hat);
      if (it > 0 && norm_inf(r) <= o_.tol * (1.0 + norm_inf(c.y))) {
        c.iterations = it;
        return c;
      }
      if (it == iterations) break;
      c.y += lu.solve(-F);
      if (!c.y.allFinite()) return std::nullopt;
    }
    return std::nullopt;
  }

  // records why the flow at parameter value p failed
  void note(const FlowRun& run, double p) const {
    failure_ = "at p = " + format_number(p) + ", the flow from t = " + format_number(run.t0) +
               " stopped at t = " + format_number(run.result.t) + " (" +
               hybrid::to_string(run.result.reason) + "): " + run.result.message;
  }

  const PeriodicProblem& pr_;
  const OrbitBranchOptions& o_;
  Eigen::Index d_;
  mutable std::string failure_;
  mutable std::shared_ptr<const model::System> last_model_;
  mutable double last_p_{0.0};
};

// the real eigenvector of the eigenvalue of A nearest `target` (unit length)
Eigen::VectorXd eigenvector_of(const Eigen::MatrixXd& A, double target) {
  const Eigen::EigenSolver<Eigen::MatrixXd> es(A);
  Eigen::Index best = 0;
  for (Eigen::Index i = 1; i < es.eigenvalues().size(); ++i)
    if (std::abs(es.eigenvalues()(i) - target) < std::abs(es.eigenvalues()(best) - target))
      best = i;
  Eigen::VectorXd w = es.eigenvectors().col(best).real();
  return w / w.norm();
}

bool is_complex_pair_on_circle(const OrbitPoint& pt, double tol) {
  for (const auto& l : pt.multipliers)
    if (std::abs(l.imag()) > tol && std::abs(std::abs(l) - 1.0) < tol) return true;
  return false;
}

double distance_to(const OrbitPoint& pt, std::complex<double> target) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& l : pt.multipliers) best = std::min(best, std::abs(l - target));
  return best;
}

std::string itinerary_text(const std::vector<std::pair<int, int>>& it) {
  std::string s = "[";
  for (std::size_t i = 0; i < it.size(); ++i) {
    if (i > 0) s.push_back(' ');
    s.append(std::to_string(it[i].first));
    s.push_back(':');
    s.append(std::to_string(it[i].second));
  }
  s.push_back(']');
  return s;
}

}  // namespace

std::string_view to_string(OrbitEventKind k) {
  switch (k) {
    case OrbitEventKind::kFold:
      return "SN";
    case OrbitEventKind::kPeriodDoubling:
      return "PD";
    case OrbitEventKind::kNeimarkSacker:
      return "NS";
    case OrbitEventKind::kGrazing:
      return "grazing";
    case OrbitEventKind::kRegionChange:
      return "region_change";
    case OrbitEventKind::kStickChange:
      return "stick_change";
    case OrbitEventKind::kSlipLiftChange:
      return "slip_lift_change";
    case OrbitEventKind::kBranchPoint:
      return "BP";
  }
  return "?";
}

std::string_view to_string(OrbitBranchEnd e) { return name_of(e); }

void validate(const OrbitBranchOptions& o) {
  require(!o.parameter.empty(), "parameter", "must name a model parameter");
  require(o.p_min < o.p_max, "p_min", "must be below p_max");
  require(o.direction == 1 || o.direction == -1, "direction", "must be +1 or -1");
  require(o.ds_min > 0.0 && o.ds_min <= o.ds && o.ds <= o.ds_max, "ds",
          "steps must satisfy 0 < ds_min <= ds <= ds_max");
  require(o.max_points >= 2 && o.max_points <= 1000000, "max_points", "must lie in [2, 1000000]");
  require(o.tol > 0.0 && o.locate_tol > 0.0 && o.grazing_tol > 0.0 && o.multiplier_tol > 0.0, "tol",
          "tolerances must be > 0");
  require(o.max_corrector_iterations >= 1, "max_corrector_iterations", "must be >= 1");
  require(o.max_multiplier > 1.0, "max_multiplier", "must be > 1");
}

OrbitPoint orbit_point(const PeriodicProblem& problem, const model::System& m, double p,
                       const Orbit& orbit, const OrbitBranchOptions& /*o*/) {
  OrbitPoint pt;
  pt.p = p;
  pt.u = orbit.u;
  // one run sampled 256 times per period: the grazing margin, the itinerary, and the end state
  // for the section's Jacobian
  Diagnostics diag(m);
  double t0 = 0.0, T = 0.0;
  start_and_period(problem, m, orbit.u, t0, T);
  const bool impact_section = problem.section.kind == OrbitSectionKind::kImpact;
  // on an impact section T is only the bound max_period (the flow ends at the section's impact):
  // the orbit's own period sets the sampling, and the run's is the point's period
  if (impact_section)
    T = orbit.period > 0.0 && std::isfinite(orbit.period) ? orbit.period
                                                          : run_flow(problem, m, orbit.u).period;
  const FlowRun run = run_flow(problem, m, orbit.u, &diag, T / 256.0);
  pt.period = impact_section ? run.period : T;
  pt.margin = diag.margin;
  pt.min_impact_speed = diag.min_impact_speed;
  pt.itinerary = diag.itinerary;
  pt.sticks = diag.sticks;
  pt.slip_onsets = diag.slip_onsets;
  pt.lift_offs = diag.lift_offs;
  pt.section_rate = section_rate(problem, m, run);
  pt.monodromy_warning = orbit.monodromy_warning;
  pt.DP = section_jacobian(problem, m, run, orbit.monodromy);
  pt.multipliers = multipliers_of(pt.DP);
  pt.stable = !pt.multipliers.empty() && std::abs(pt.multipliers.front()) < 1.0;
  std::complex<double> sn = 1.0, pd = 1.0, ns = 1.0;
  const auto& l = pt.multipliers;
  for (std::size_t i = 0; i < l.size(); ++i) {
    sn *= l[i] - 1.0;
    pd *= l[i] + 1.0;
    for (std::size_t j = i + 1; j < l.size(); ++j) ns *= l[i] * l[j] - 1.0;
  }
  pt.tau_sn = sn.real();
  pt.tau_pd = pd.real();
  pt.tau_ns = ns.real();
  return pt;
}

namespace {

bool sign_change(double a, double b) { return (a < 0.0) != (b < 0.0); }

// One step of a branch, from the accepted point y with tangent t over the step ds to the
// corrected point pt (tangent t_new): what changed between the two, located by bisection.
struct BranchStep {
  const Continuation& cont;
  const OrbitBranchOptions& o;
  const Eigen::MatrixXd& J;  ///< the Jacobian at y (the chord of the corrector)
  const Eigen::VectorXd& y;
  const Eigen::VectorXd& t;
  double ds;
  const OrbitPoint& prev;  ///< the point at y
  const OrbitPoint& pt;    ///< the point at the step's end
  bool turned;             ///< the tangent's p component changed sign over the step

  // bisection on s ∈ (0, ds] for the first s where `changed` holds (each trial a corrected
  // point); the point there, or none if a trial fails first
  template <class Changed>
  [[nodiscard]] std::optional<OrbitPoint> locate(const Changed& changed) const {
    double lo = 0.0, hi = ds;
    std::optional<OrbitPoint> at_hi;
    for (int it = 0; it < 60 && hi - lo > o.locate_tol; ++it) {
      const double mid = 0.5 * (lo + hi);
      const auto c = cont.correct(y + mid * t, t, &J, mid);
      if (!c) return at_hi;
      Eigen::MatrixXd Jm;
      const auto q = cont.point(c->y, Jm);
      if (!q) return at_hi;
      if (changed(*q)) {
        hi = mid;
        at_hi = q;
      } else {
        lo = mid;
      }
    }
    return at_hi;
  }

  // SN, PD and NS: a sign change of τ, located, then checked on the multipliers
  void local_bifurcations(std::vector<OrbitBifurcation>& out) const {
    struct Test {
      OrbitEventKind kind;
      double OrbitPoint::*tau;
    };
    for (const Test test : {Test{OrbitEventKind::kFold, &OrbitPoint::tau_sn},
                            Test{OrbitEventKind::kPeriodDoubling, &OrbitPoint::tau_pd},
                            Test{OrbitEventKind::kNeimarkSacker, &OrbitPoint::tau_ns}}) {
      const double before = prev.*(test.tau);
      // multipliers from differences across a discontinuity of the flow are not the orbit's
      if (!prev.monodromy_warning.empty() || !pt.monodromy_warning.empty()) continue;
      if (!sign_change(before, pt.*(test.tau))) continue;
      const auto at =
          locate([&](const OrbitPoint& q) { return sign_change(before, q.*(test.tau)); });
      // the Jacobian by differences straddles a grazing whose margin is this small: its
      // multipliers are not those of the orbit
      if (!at || at->margin < o.grazing_tol || !at->monodromy_warning.empty()) continue;
      bool genuine = false;
      OrbitEventKind kind = test.kind;
      // a fold also turns the branch back in p; a multiplier crossing +1 without it is a branch
      // point (a pitchfork or a transcritical point), except where the step starts at a
      // multiplier +1 (the doubled branch leaving its period doubling) or it is round-off
      if (test.kind == OrbitEventKind::kFold) {
        genuine = distance_to(*at, 1.0) < o.multiplier_tol &&
                  (turned || !(distance_to(prev, 1.0) < o.multiplier_tol));
        if (!turned) kind = OrbitEventKind::kBranchPoint;
      }
      if (test.kind == OrbitEventKind::kPeriodDoubling)
        genuine = distance_to(*at, -1.0) < o.multiplier_tol;
      if (test.kind == OrbitEventKind::kNeimarkSacker)
        genuine = is_complex_pair_on_circle(*at, o.multiplier_tol);
      if (!genuine) continue;
      OrbitBifurcation b{kind, *at, "", {}};
      if (test.kind == OrbitEventKind::kPeriodDoubling)
        b.eigenvector = eigenvector_of(at->DP, -1.0);
      out.push_back(b);
    }
  }

  // the discrete changes: the itinerary (a grazing when the impacts' count changes), the
  // margin, the stick events, the slip onsets and lift-offs
  void discrete_changes(std::vector<OrbitBifurcation>& out) const {
    if (pt.itinerary != prev.itinerary) {
      const auto& before = prev.itinerary;
      const auto at = locate([&](const OrbitPoint& q) { return q.itinerary != before; });
      const bool count_changed = pt.itinerary.size() != before.size();
      out.push_back(
          {count_changed ? OrbitEventKind::kGrazing : OrbitEventKind::kRegionChange, at ? *at : pt,
           itinerary_text(before) + " -> " + itinerary_text(at ? at->itinerary : pt.itinerary) +
               (at ? "" : not_located())});
    } else if (pt.margin < 1e-3 * o.grazing_tol && !(prev.margin < 1e-3 * o.grazing_tol)) {
      out.push_back({OrbitEventKind::kGrazing, pt, "margin below grazing_tol / 1000", {}});
    }
    if (pt.sticks != prev.sticks) {
      const int before = prev.sticks;
      const auto at = locate([&](const OrbitPoint& q) { return q.sticks != before; });
      out.push_back({OrbitEventKind::kStickChange, at ? *at : pt,
                     std::to_string(before) + " -> " + std::to_string(at ? at->sticks : pt.sticks) +
                         " stick events" + (at ? "" : not_located())});
    }
    if (pt.slip_onsets != prev.slip_onsets || pt.lift_offs != prev.lift_offs) {
      const int slips = prev.slip_onsets, lifts = prev.lift_offs;
      const auto at = locate(
          [&](const OrbitPoint& q) { return q.slip_onsets != slips || q.lift_offs != lifts; });
      const OrbitPoint& after = at ? *at : pt;
      const auto text = [](int s, int l) {
        return std::to_string(s) + " slip onsets, " + std::to_string(l) + " lift-offs";
      };
      out.push_back({OrbitEventKind::kSlipLiftChange, after,
                     text(slips, lifts) + " -> " + text(after.slip_onsets, after.lift_offs) +
                         (at ? "" : not_located())});
    }
  }

  // the detail of a change whose location failed (a corrector trial between the two points
  // did not converge, as next to a grazing): it is reported at the step's end
  [[nodiscard]] std::string not_located() const {
    return " (not located: a trial between p = " + format_number(prev.p) + " and " +
           format_number(pt.p) + " failed; reported at the second)";
  }
};

// How far the last quarter of the points went, and what may hold the steps short there: a
// branch that creeps (a grazing impact ahead, where the impact speed tends to zero and the map's
// square-root singularity keeps the steps small; multipliers so large that single shooting
// loses its digits) is told apart from one that simply ran out of points.
std::string crawl_note(const OrbitBranch& branch) {
  const std::size_t n = branch.points.size();
  if (n < 8) return "";
  const OrbitPoint& a = branch.points[n - n / 4 - 1];
  const OrbitPoint& b = branch.points.back();
  std::string s = "; the last " + std::to_string(n / 4) + " points moved p from " +
                  format_number(a.p) + " to " + format_number(b.p);
  if (std::isfinite(b.min_impact_speed))
    s += ", the last orbit's slowest impact has v_N = " + format_number(b.min_impact_speed) +
         " m/s (against " + format_number(a.min_impact_speed) + ")";
  if (!b.multipliers.empty())
    s += " and |lambda|max = " + format_number(std::abs(b.multipliers.front()));
  s += ": a slowing impact is a grazing ahead, large multipliers cost single shooting its "
       "accuracy (more segments, or a branch started beyond)";
  return s;
}

// Why the corrector failed down to ds_min at y: a grazing (the last margin below grazing_tol),
// or not. Ends the branch.
void end_at_failure(const Continuation& cont, const OrbitBranchOptions& o, double p,
                    OrbitBranch& branch) {
  if (branch.points.back().margin < o.grazing_tol) {
    branch.end = OrbitBranchEnd::kGrazing;
    branch.message = "the orbit grazes at p = " + format_number(p) + " (margin " +
                     format_number(branch.points.back().margin) + " m)";
    // once: the steps that ended grazing may already have recorded it (a margin below
    // grazing_tol/1000, or an impact lost and located), the points since grazing as well
    std::size_t k = branch.points.size() - 1;
    while (k > 0 && branch.points[k - 1].margin < o.grazing_tol) --k;
    const double p_before = k > 0 ? branch.points[k - 1].p : branch.points[k].p;
    const double lo = std::min(p_before, branch.points.back().p);
    const double hi = std::max(p_before, branch.points.back().p);
    const bool recorded = !branch.bifurcations.empty() &&
                          branch.bifurcations.back().kind == OrbitEventKind::kGrazing &&
                          branch.bifurcations.back().at.p >= lo &&
                          branch.bifurcations.back().at.p <= hi;
    if (!recorded)
      branch.bifurcations.push_back(
          {OrbitEventKind::kGrazing, branch.points.back(), "the branch ends", {}});
    return;
  }
  branch.end = OrbitBranchEnd::kStepTooSmall;
  branch.message =
      "the corrector failed down to ds_min at p = " + format_number(p) +
      (cont.failure().empty() ? std::string() : "; the last failed flow: " + cont.failure());
}

// continue_orbits, whose first tangent points away from `away_from` (a point (u, p)) if given,
// else towards o.direction in p
OrbitBranch continue_from(const PeriodicProblem& problem, const Orbit& start,
                          const OrbitBranchOptions& o, const Eigen::VectorXd* away_from) {
  validate(o);
  require(start.converged, "start", "must be a converged orbit");
  // an orbit with a multiplier 1 at the start (not a branch switched onto at a doubling, where
  // the doubled orbit has one) lies in a continuous family: the corrector's Jacobian has a second
  // null direction and the branch wanders along the family, with false folds at every turn
  if (away_from == nullptr) {
    for (const std::complex<double>& l : start.multipliers)
      require(std::abs(l - 1.0) > 1e-6, "start",
              "the start orbit has a multiplier 1 (to " + format_number(std::abs(l - 1.0)) +
                  "): it lies in a continuous family of orbits (a combination of coordinates the "
                  "motion does not depend on, as two gears' angles beside their mesh r1 theta1 - "
                  "r2 theta2, or a cyclic coordinate among the solved ones), and continuation "
                  "needs isolated orbits: leave the cyclic coordinate out of the solved ones, or "
                  "pose the model in coordinates where one is cyclic");
  }
  const Eigen::Index d = problem.dimension();
  Continuation cont(problem, o);
  OrbitBranch branch;
  const double p0 = problem.model->parameter(o.parameter);
  Eigen::VectorXd y(d + 1);
  y << start.u, p0;
  const auto add_point = [&](const OrbitPoint& pt) {
    branch.points.push_back(pt);
    if (o.on_point) o.on_point(branch.points.back(), static_cast<int>(branch.points.size()));
  };
  add_point(orbit_point(problem, *problem.model, p0, start, o));

  Eigen::MatrixXd J;
  Eigen::VectorXd r;
  if (!cont.jacobian(y, J, r)) {
    branch.end = OrbitBranchEnd::kStepTooSmall;
    branch.message = "the flow failed at the start: " + cont.failure();
    return branch;
  }
  Eigen::VectorXd t = Continuation::null_vector(J);
  if (away_from != nullptr ? t.dot(y - *away_from) < 0.0 : t(d) * o.direction < 0.0) t = -t;
  double ds = o.ds;

  while (static_cast<int>(branch.points.size()) < o.max_points) {
    const auto c = cont.correct(y + ds * t, t, &J, ds);
    std::optional<OrbitPoint> pt;
    Eigen::MatrixXd J_new;
    if (c) pt = cont.point(c->y, J_new);
    if (!pt) {
      const double p_next = y(d) + ds * t(d);
      if (p_next < o.p_min || p_next > o.p_max) {
        branch.end = OrbitBranchEnd::kParameterRange;
        branch.message = "the next step leaves [p_min, p_max]";
        return branch;
      }
      ds *= 0.5;
      if (ds < o.ds_min) {
        end_at_failure(cont, o, y(d), branch);
        return branch;
      }
      continue;
    }
    // the orbits stop crossing an autonomous section: end before the turn
    if (sign_change(branch.points.back().section_rate, pt->section_rate) &&
        !std::isnan(pt->section_rate) && !std::isnan(branch.points.back().section_rate)) {
      branch.end = OrbitBranchEnd::kSectionTangency;
      branch.message =
          "the orbits stop crossing the section between p = " + format_number(y(d)) + " and " +
          format_number(c->y(d)) + " (the anchor's rate there falls from " +
          format_number(branch.points.back().section_rate) + " to " +
          format_number(pt->section_rate) +
          "); beyond, they turn back before the anchor's value: pose the section at a value "
          "they cross";
      return branch;
    }
    Eigen::VectorXd t_new = Continuation::null_vector(J_new);
    if (t_new.dot(t) < 0.0) t_new = -t_new;
    // what changed between the last point and this one
    const BranchStep step{
        cont, o, J, y, t, ds, branch.points.back(), *pt, (t(d) < 0.0) != (t_new(d) < 0.0)};
    const std::size_t before = branch.bifurcations.size();
    step.local_bifurcations(branch.bifurcations);
    if (o.stop_at_bifurcation && branch.bifurcations.size() > before) {
      const OrbitBifurcation& b = branch.bifurcations[before];
      branch.bifurcations.resize(before + 1);
      add_point(b.at);
      branch.end = OrbitBranchEnd::kBifurcation;
      branch.message = "stopped at the first bifurcation (" + std::string(to_string(b.kind)) +
                       " at p = " + format_number(b.at.p) + ")";
      return branch;
    }
    step.discrete_changes(branch.bifurcations);

    // accept the point and the new tangent
    J = J_new;
    y = c->y;
    t = t_new;
    add_point(*pt);
    if (!pt->multipliers.empty() && std::abs(pt->multipliers.front()) > o.max_multiplier) {
      branch.end = OrbitBranchEnd::kMultiplierBound;
      branch.message = "a multiplier above max_multiplier at p = " + format_number(pt->p);
      return branch;
    }
    if (c->iterations <= 4) ds = std::min(o.ds_max, 1.5 * ds);
  }
  branch.end = OrbitBranchEnd::kMaxPoints;
  branch.message = "max_points reached" + crawl_note(branch);
  return branch;
}

}  // namespace

OrbitBranch continue_orbits(const PeriodicProblem& problem, const Orbit& start,
                            const OrbitBranchOptions& o) {
  return continue_from(problem, start, o, nullptr);
}

PeriodicProblem doubled_problem(const PeriodicProblem& problem) {
  PeriodicProblem p = problem;
  if (p.section.kind == OrbitSectionKind::kForced) p.section.periods *= 2;
  p.section.symmetry_power *= 2;  // two steps of a gait close on G²(x₀)
  // an impact section's orbit ends at twice as many impacts (of π²(c) modulo a symmetry: once)
  if (p.section.kind == OrbitSectionKind::kImpact && !p.section.modulo_symmetry)
    p.section.impacts *= 2;
  return p;
}

OrbitBranch continue_period_doubled(const PeriodicProblem& problem, const OrbitBifurcation& pd,
                                    const OrbitBranchOptions& options) {
  validate(options);
  require(pd.kind == OrbitEventKind::kPeriodDoubling, "pd", "must be a period-doubling point");
  const Eigen::Index ns = static_cast<Eigen::Index>(problem.solved.size());
  require(pd.eigenvector.size() == ns, "pd.eigenvector",
          "must have one entry per solved component");
  OrbitBranch out;
  out.end = OrbitBranchEnd::kStepTooSmall;
  const PeriodicProblem doubled = doubled_problem(problem);
  const Eigen::Index d = doubled.dimension();
  Eigen::VectorXd y0(d + 1);
  y0.head(d) = pd.at.u;
  if (problem.section.kind == OrbitSectionKind::kAutonomous) y0(d - 1) = 2.0 * pd.at.u(d - 1);
  y0(d) = pd.at.p;
  Eigen::VectorXd t = Eigen::VectorXd::Zero(d + 1);
  t.head(ns) = pd.eigenvector;
  Continuation cont(doubled, options);
  for (double ds = options.ds; ds >= options.ds_min; ds *= 0.5) {
    const auto c = cont.correct(y0 + ds * t, t);
    if (!c) continue;
    // not the old orbit: the single map must move the point
    const auto m = cont.model_at(c->y(d));
    Eigen::VectorXd u1 = c->y.head(d);
    if (problem.section.kind == OrbitSectionKind::kAutonomous) u1(d - 1) *= 0.5;
    const FlowRun single = run_flow(problem, *m, u1);
    if (single.ok() && norm_inf(single.residual) <= 1e-3 * ds) continue;
    // continue away from the PD point
    PeriodicProblem start_problem = doubled;
    start_problem.model = std::shared_ptr<const model::System>(
        doubled.model->with_parameter(options.parameter, c->y(d)));
    Orbit start;
    start.u = c->y.head(d);
    start.converged = true;
    if (!characterize(start_problem, *start_problem.model, start)) continue;
    // away from the PD point: near the pitchfork the doubled branch is nearly parallel to
    // p = const (p − p_PD ∝ |u − u_PD|²), so the sign of the tangent's p component is round-off
    OrbitBranchOptions o = options;
    o.direction = c->y(d) >= pd.at.p ? 1 : -1;
    return continue_from(start_problem, start, o, &y0);
  }
  out.message = "no doubled orbit found near the PD point down to ds_min";
  return out;
}

}  // namespace clatter::analysis
