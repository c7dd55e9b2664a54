#include "clatter/app/ball_orbits.hpp"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/core/error.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "json_views.hpp"

namespace clatter::app {

namespace {

using detail::json_number;

constexpr double kFeigenbaum = 4.669201609102990;

std::string num(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

analysis::ContinuationOptions continuation_options(const BallOrbitsRequest& r) {
  analysis::ContinuationOptions copt;
  copt.omega_min = r.omega_min;
  copt.omega_max = r.omega_max;
  analysis::validate(copt);
  return copt;
}

void write_points(std::ostringstream& csv, double e, const analysis::Branch& br) {
  for (const analysis::BranchPoint& p : br.points) {
    csv << num(e) << ',' << br.impacts << ',' << br.periods << ',' << num(p.omega) << ','
        << num(p.z.phase) << ',' << num(p.z.velocity) << ',' << num(p.apex_min) << ','
        << num(p.apex_max) << ',' << num(p.multipliers[0].real()) << ','
        << num(p.multipliers[0].imag()) << ',' << num(p.multipliers[1].real()) << ','
        << num(p.multipliers[1].imag()) << ',' << (p.stable ? 1 : 0) << ',' << num(p.margin)
        << '\n';
  }
}

void write_bifurcation(std::ostringstream& csv, double e, int m, int n,
                       const analysis::Bifurcation& b, double closed) {
  csv << num(e) << ',' << m << ',' << n << ',' << analysis::to_string(b.kind) << ','
      << num(b.at.omega) << ',' << num(b.at.z.phase) << ',' << num(b.at.z.velocity) << ','
      << num(b.at.apex_max) << ',' << num(b.at.multipliers[0].real()) << ','
      << num(b.at.multipliers[1].real()) << ',' << num(b.at.margin) << ','
      << (std::isfinite(closed) ? num(closed) : "") << '\n';
}

// the closed form's ω of a bifurcation of the n-period branch (NaN for grazing)
double closed_form_omega(const BallOrbitsOfE& r, const analysis::Bifurcation& b) {
  if (b.kind == analysis::BifurcationKind::kSaddleNode) return r.closed_form.omega_sn;
  if (b.kind == analysis::BifurcationKind::kPeriodDoubling) return r.closed_form.omega_pd;
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

void validate(const BallOrbitsRequest& r) {
  require(!r.e.empty(), "e", "give at least one restitution");
  for (const double e : r.e)
    require(e > 0.0 && e < 1.0, "e", "each restitution must lie in (0, 1)", e);
  require(r.amplitude > 0.0 && std::isfinite(r.amplitude), "amplitude",
          "must be positive and finite [m]", r.amplitude);
  require(r.gravity > 0.0 && std::isfinite(r.gravity), "gravity",
          "must be positive and finite [m/s^2]", r.gravity);
  require(r.periods >= 1 && r.periods <= 16, "periods", "must lie in [1, 16]");
  require(r.cascade >= 0 && r.cascade <= 8, "cascade", "must lie in [0, 8]");
  (void)continuation_options(r);
}

std::vector<BallOrbitsOfE> run_ball_orbits(const BallOrbitsRequest& r) {
  validate(r);
  const analysis::ContinuationOptions copt = continuation_options(r);
  std::vector<BallOrbitsOfE> out;
  for (const double e : r.e) {
    BallOrbitsOfE o;
    o.e = e;
    o.closed_form = analysis::closed_form_orbit(r.amplitude, 1.0, r.gravity, e, r.periods);
    o.start_omega = 0.5 * (o.closed_form.omega_sn + o.closed_form.omega_pd);
    if (!(o.start_omega > copt.omega_min && o.start_omega < copt.omega_max)) {
      // the orbits move with A and g (ω ∝ √(g/A)): name what the user changed
      const BallOrbitsRequest defaults;
      const char* field = r.amplitude != defaults.amplitude ? "amplitude"
                          : r.gravity != defaults.gravity   ? "gravity"
                                                            : "omega_range";
      throw InvalidArgument(
          field, "the period orbits of e = " + num(e) + " with amplitude " + num(r.amplitude) +
                     " and gravity " + num(r.gravity) + " start at omega = " + num(o.start_omega) +
                     " (between the closed-form SN " + num(o.closed_form.omega_sn) + " and PD " +
                     num(o.closed_form.omega_pd) + "), outside the omega range [" +
                     num(copt.omega_min) + ", " + num(copt.omega_max) +
                     "]: change the omega range or the amplitude");
    }
    model::Surface s;
    s.amplitude = r.amplitude;
    s.omega = o.start_omega;
    const analysis::ImpactOscillator osc(
        model::make_ball(1.0, 0.0, r.gravity, s, {LawKind::kNewton, {0.0, e}}));
    const analysis::PeriodicOrbit start = analysis::find_periodic_orbit(
        osc,
        analysis::closed_form_orbit(r.amplitude, o.start_omega, r.gravity, e, r.periods).stable, 1,
        r.periods);
    require(start.converged, "e", "shooting did not converge on the closed-form orbit", e);
    o.branch = analysis::continue_both_ways(osc, start, copt, &o.end_low);
    const analysis::Bifurcation* pd = nullptr;
    for (const analysis::Bifurcation& b : o.branch.bifurcations)
      if (pd == nullptr && b.kind == analysis::BifurcationKind::kPeriodDoubling &&
          std::sin(b.at.z.phase) > 0.0)
        pd = &b;
    if (r.cascade > 0 && pd != nullptr) {
      o.cascade = analysis::period_doubling_cascade(osc, *pd, 1, r.periods, r.cascade, copt);
      // the stable segments between successive doublings, for the plot
      analysis::ContinuationOptions seg = copt;
      seg.stop_at_bifurcation = true;
      int m = 1, n = r.periods;
      for (std::size_t k = 0; k + 1 < o.cascade.size() && k < 4; ++k) {
        seg.ds_max = copt.ds_max * std::pow(0.25, static_cast<double>(k));
        seg.ds = 0.1 * seg.ds_max;
        o.doubled.push_back(analysis::continue_period_doubled(osc, o.cascade[k], m, n, seg));
        m *= 2;
        n *= 2;
      }
      // asked for K doublings: fewer found means the run did not do what was asked
      o.incomplete = static_cast<int>(o.cascade.size()) < r.cascade + 1;
    }
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<OutputFile> ball_orbits_files(const BallOrbitsRequest& r,
                                          const std::vector<BallOrbitsOfE>& result,
                                          const std::filesystem::path& folder, bool plot) {
  std::ostringstream branches, bifs;
  branches << "e,impacts,periods,omega,phase,velocity,apex_min,apex_max,lambda1_re,lambda1_im,"
              "lambda2_re,lambda2_im,stable,margin\n";
  bifs << "e,impacts,periods,kind,omega,phase,velocity,apex_max,lambda1,lambda2,margin,"
          "closed_form_omega\n";
  nlohmann::json per_e = nlohmann::json::array();
  for (const BallOrbitsOfE& o : result) {
    write_points(branches, o.e, o.branch);
    nlohmann::json found = nlohmann::json::array();
    for (const analysis::Bifurcation& b : o.branch.bifurcations) {
      const double closed = closed_form_omega(o, b);
      found.push_back({{"kind", analysis::to_string(b.kind)},
                       {"omega", b.at.omega},
                       {"phase", b.at.z.phase},
                       {"velocity", b.at.z.velocity},
                       {"apex_max", b.at.apex_max},
                       {"multipliers", {b.at.multipliers[0].real(), b.at.multipliers[1].real()}},
                       {"margin", json_number(b.at.margin)},
                       {"closed_form_omega", json_number(closed)}});
      write_bifurcation(bifs, o.e, o.branch.impacts, o.branch.periods, b, closed);
    }
    nlohmann::json entry = {{"e", o.e},
                            {"omega_sn_closed_form", o.closed_form.omega_sn},
                            {"omega_pd_closed_form", o.closed_form.omega_pd},
                            {"start_omega", o.start_omega},
                            {"points", o.branch.points.size()},
                            {"end_high", analysis::to_string(o.branch.end)},
                            {"end_low", analysis::to_string(o.end_low)},
                            {"bifurcations", found}};
    if (!o.cascade.empty()) {
      const std::vector<analysis::Bifurcation>& c = o.cascade;
      nlohmann::json levels = nlohmann::json::array();
      int m = 1, n = r.periods;
      for (std::size_t k = 0; k < c.size(); ++k) {
        nlohmann::json level = {
            {"impacts", 2 * m}, {"periods", 2 * n}, {"omega_pd", c[k].at.omega}};
        if (k >= 2)
          level["ratio"] =
              (c[k - 1].at.omega - c[k - 2].at.omega) / (c[k].at.omega - c[k - 1].at.omega);
        levels.push_back(level);
        // c[0] is the branch's own PD, written above
        if (k > 0)
          write_bifurcation(bifs, o.e, m, n, c[k], std::numeric_limits<double>::quiet_NaN());
        if (k < o.doubled.size()) write_points(branches, o.e, o.doubled[k]);
        m *= 2;
        n *= 2;
      }
      nlohmann::json cascade = {{"levels", levels}};
      if (o.incomplete) cascade["incomplete"] = true;
      if (c.size() >= 3) {
        const double last = c.back().at.omega, prev = c[c.size() - 2].at.omega;
        cascade["omega_accumulation"] = last + (last - prev) / (kFeigenbaum - 1.0);
        cascade["feigenbaum_delta"] = kFeigenbaum;
      }
      entry["cascade"] = cascade;
    }
    per_e.push_back(entry);
  }
  const auto data = folder / "branches.csv";
  const auto bif = folder / "bifurcations.csv";
  const auto js = folder / "summary.json";
  const nlohmann::json summary = {
      {"amplitude", r.amplitude},
      {"gravity", r.gravity},
      {"periods", r.periods},
      {"omega_range", {r.omega_min, r.omega_max}},
      {"cascade", r.cascade},
      {"restitutions", per_e},
      {"files",
       {{"branches", data.string()},
        {"bifurcations", bif.string()},
        {"plot", plot ? nlohmann::json((folder / "orbits.png").string()) : nlohmann::json()}}}};
  return {{data, branches.str()}, {bif, bifs.str()}, {js, summary.dump(2) + "\n"}};
}

}  // namespace clatter::app
