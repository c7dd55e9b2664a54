#include "clatter/app/dib.hpp"

#include <cmath>
#include <complex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/contact/delassus.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/schema.hpp"
#include "clatter/laws/stronge_scaling.hpp"
#include "json_views.hpp"

namespace clatter::app {

namespace {

using detail::json_number;

nlohmann::json multipliers_json(const analysis::Orbit& o) {
  nlohmann::json m = nlohmann::json::array();
  for (const auto& l : o.multipliers)
    m.push_back({{"re", l.real()}, {"im", l.imag()}, {"abs", std::abs(l)}});
  return m;
}

}  // namespace

void validate(const DibRequest& r) {
  require(!r.parameter.empty(), "param", "name the parameter");
  require(r.regions.size() == 2, "regions", "give the two regions of the boundary, e.g. 5,9");
  require(r.offset > 0.0 && std::isfinite(r.offset) && r.offset < 0.1, "offset",
          "must lie in (0, 0.1)", r.offset);
  require(r.span >= 0.0 && std::isfinite(r.span), "span", "must be >= 0", r.span);
  require(r.kink_step >= 0.0 && r.kink_step < 0.1, "kink_step", "must lie in [0, 0.1)",
          r.kink_step);
  require(r.newton == "differences" || r.newton == "variational", "newton",
          "must be differences or variational");
}

Dib run_dib(const OrbitSetup& s, const DibRequest& r, const std::string& scenario) {
  validate(r);
  // the boundaries are those between the regions of Stronge's law: some contact must use it
  const model::System& model = *s.problem.model;
  bool stronge = false;
  for (int c = 0; c < model.num_contacts(); ++c)
    stronge = stronge || model.contact(c).law.kind == LawKind::kStronge;
  require(stronge, "law",
          "dib locates where an impact crosses a boundary between the regions of Stronge's law, "
          "and no contact of the model uses it (the first's law is " +
              (model.num_contacts() > 0 ? std::string(to_string(model.contact(0).law.kind))
                                        : std::string("none: it has no contact")) +
              "): set [law] kind = \"stronge\" (Python law=\"stronge\")");
  Dib d;
  analysis::CriticalPointOptions& co = d.options;
  co.parameter = r.parameter;
  co.impact = r.impact;
  co.region_a = r.regions[0];
  co.region_b = r.regions[1];
  co.jacobian = r.newton == "variational" ? analysis::CriticalJacobian::kVariational
                                          : analysis::CriticalJacobian::kDifferences;
  analysis::validate(co);
  (void)s.problem.model->parameter(r.parameter);  // names the known parameters if unknown
  d.critical = analysis::locate_critical_point(s.problem, s.guess, co);
  const analysis::CriticalPoint& cp = d.critical;
  const std::vector<std::string> names = analysis::state_names(*s.problem.model);
  nlohmann::json j = {{"scenario", scenario},
                      {"parameter", r.parameter},
                      {"regions", r.regions},
                      {"converged", cp.converged},
                      {"message", cp.message}};
  if (!cp.converged) {
    d.json = j.dump(2);
    return d;
  }
  nlohmann::json u = nlohmann::json::object();
  for (std::size_t k = 0; k < s.problem.solved.size(); ++k)
    u[names[static_cast<std::size_t>(s.problem.solved[k])]] = cp.u(static_cast<Eigen::Index>(k));
  nlohmann::json impact = {{"t", cp.impact.t},
                           {"region", cp.impact.region},
                           {"v_pre", {cp.impact.v_pre.x(), cp.impact.v_pre.y()}}};
  nlohmann::json q = nlohmann::json::object();
  for (Eigen::Index i = 0; i < cp.impact.q.size(); ++i)
    q[names[static_cast<std::size_t>(i)]] = cp.impact.q(i);
  impact["q"] = q;
  // the scaled law variables of [NDC] §3.2 / Table 5 at the critical impact
  if (cp.impact.v_pre.y() < 0.0) {
    const auto m_star = s.problem.model->with_parameter(r.parameter, cp.p);
    const model::Contact& contact = m_star->contact(cp.impact.contact);
    model::MassFactor mass;
    m_star->factor_mass(cp.impact.t, cp.impact.q, mass);
    model::ContactGeometry k;
    m_star->contact_geometry(cp.impact.contact, cp.impact.t, cp.impact.q, cp.impact.qd_pre, k);
    model::MatQ MinvJt(m_star->nq(), 2);
    Mat2 Wm;
    delassus(mass, k.J, MinvJt, Wm);
    const ContactMatrix W = ContactMatrix::from_matrix(Wm);
    const StrongeScaled sc = stronge_scaled(cp.impact.v_pre, W, contact.law.params.mu);
    impact["W"] = {W.A, W.B, W.C};
    impact["scaled"] = {{"B", sc.B}, {"mu", sc.mu}, {"v_T", sc.v_T}};
  }
  j["critical_value"] = cp.p;
  j["iterations"] = cp.iterations;
  j["flows"] = cp.flows;
  j["H"] = cp.H;
  j["start"] = u;
  if (s.problem.section.kind == analysis::OrbitSectionKind::kAutonomous)
    j["period"] = cp.u(cp.u.size() - 1);
  else
    j["period"] =
        2.0 * 3.141592653589793 * s.problem.section.periods /
        s.problem.model->with_parameter(r.parameter, cp.p)->parameter(s.problem.section.frequency);
  j["impact"] = impact;

  analysis::BoundaryCrossingOptions bo;
  bo.offset = r.offset;
  bo.shooting = s.shooting;
  d.crossing = analysis::classify_boundary_crossing(s.problem, cp, co, bo);
  const analysis::BoundaryCrossing& bc = d.crossing;
  const auto side_json = [&](const analysis::SideOrbit& side) {
    if (!side.found) return nlohmann::json();
    return nlohmann::json{{"p", side.p},
                          {"region", side.region},
                          {"H", side.H},
                          {"period", side.orbit.period},
                          {"stable", side.orbit.stable},
                          {"multipliers", multipliers_json(side.orbit)}};
  };
  j["positive_side"] = side_json(bc.positive);
  j["negative_side"] = side_json(bc.negative);
  j["classification"] =
      bc.message.empty()
          ? nlohmann::json{{"one_minus_sigma", bc.one_minus_sigma},
                           {"one_minus_sigma_error", json_number(bc.one_minus_sigma_error)},
                           {"D", bc.D},
                           {"D_error", json_number(bc.D_error)},
                           {"verdict", bc.verdict},
                           {"continuity", bc.c1 ? "C1" : "C0"},
                           {"H_positive_branch_side", bc.side_positive > 0 ? "above" : "below"},
                           {"H_negative_branch_side", bc.side_negative > 0 ? "above" : "below"}}
          : nlohmann::json{{"message", bc.message}};

  // the explicit normal form of [NDC] §5.1 (analysis/feigin_normal_form.hpp), keys named after
  // the digest's symbols (spec/003_dib.md §5.1); its z is (q, q̇, a) with the anchor in the
  // drifting frame
  d.normal_form = analysis::feigin_normal_form(s.problem, cp, co);
  const analysis::FeiginNormalForm& nf = d.normal_form;
  if (nf.ok) {
    const auto vec = [](const Eigen::VectorXd& v) {
      return std::vector<double>(v.data(), v.data() + v.size());
    };
    const auto mat = [&](const Eigen::MatrixXd& a) {
      nlohmann::json rows = nlohmann::json::array();
      for (Eigen::Index i = 0; i < a.rows(); ++i) rows.push_back(vec(a.row(i).transpose()));
      return rows;
    };
    const auto eigs = [](const std::vector<std::complex<double>>& v) {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& l : v)
        a.push_back({{"re", l.real()}, {"im", l.imag()}, {"abs", std::abs(l)}});
      return a;
    };
    j["normal_form"] = {{"z", nf.names},
                        {"z_star", vec(nf.z_star)},
                        {"region_g1", nf.region_positive},
                        {"region_g2", nf.region_negative},
                        {"dQ_dz", mat(nf.dQ_dz)},
                        {"dQ_dp", vec(nf.dQ_dp)},
                        {"dg1_dz", mat(nf.dg1_dz)},
                        {"dg1_dp", vec(nf.dg1_dp)},
                        {"dg2_minus_g1_dH", vec(nf.jump)},
                        {"dg2_minus_g1_dH_closed_form", vec(nf.jump_closed_form)},
                        {"gamma", vec(nf.gamma.transpose())},
                        {"N", nf.N},
                        {"alpha", mat(nf.alpha)},
                        {"beta", vec(nf.beta)},
                        {"M", vec(nf.M)},
                        {"sigma", nf.sigma},
                        {"one_minus_sigma", nf.one_minus_sigma},
                        {"D", nf.D},
                        {"eig_alpha", eigs(nf.multipliers_positive)},
                        {"eig_alpha_plus_beta_gamma", eigs(nf.multipliers_negative)},
                        {"verdict", nf.verdict}};
  } else {
    j["normal_form"] = {{"message", nf.message}};
  }
  // the multipliers at p* from each side and their one-sided slopes (the kink of a C¹ boundary)
  if (bc.message.empty() && r.kink_step > 0.0) {
    d.kink = analysis::multiplier_kink(s.problem, cp, co, bc, r.kink_step, s.shooting);
    const analysis::MultiplierKink& mk = d.kink;
    j["multiplier_kink"] = mk.found ? nlohmann::json{{"h", mk.h},
                                                     {"abs_positive", mk.abs_positive},
                                                     {"abs_negative", mk.abs_negative},
                                                     {"slope_positive", mk.slope_positive},
                                                     {"slope_negative", mk.slope_negative},
                                                     {"jump", mk.jump},
                                                     {"slope_jump", mk.slope_jump},
                                                     {"max_jump", mk.max_jump},
                                                     {"max_slope_jump", mk.max_slope_jump}}
                                    : nlohmann::json{{"message", mk.message}};
  }

  // the branches of both sides, away from p*
  std::ostringstream csv;
  csv.precision(15);
  const std::size_t nl = bc.positive.found ? bc.positive.orbit.multipliers.size() : 0;
  io::SchemaNames columns;
  for (int i : s.problem.solved) columns.solved.push_back(names[static_cast<std::size_t>(i)]);
  columns.multipliers = static_cast<int>(nl);
  csv << io::csv_header(io::schema(io::RecordKind::kDibBranchPoint), columns) << '\n';
  for (const analysis::SideOrbit* side : {&bc.positive, &bc.negative}) {
    if (!side->found) continue;
    const std::string label = side == &bc.positive ? "H>0" : "H<0";
    // the side's model at p: the law as it is, or (--forced) the side's region formula forced
    const auto model_at = [&](double p) -> std::shared_ptr<const model::System> {
      const std::shared_ptr<const model::System> m(s.problem.model->with_parameter(r.parameter, p));
      return r.forced ? analysis::with_forced_region(*m, cp.impact.contact, side->region) : m;
    };
    std::vector<analysis::OrbitPoint> points;
    if (r.span > 0.0) {
      analysis::PeriodicProblem pq = s.problem;
      pq.model = model_at(side->p);
      analysis::OrbitBranchOptions br;
      br.parameter = r.parameter;
      br.p_min = r.forced ? cp.p - r.span : std::min(cp.p, cp.p - r.span);
      br.p_max = r.forced ? cp.p + r.span : std::max(cp.p, cp.p + r.span);
      if (!r.forced) {
        br.p_min = side->p > cp.p ? cp.p : cp.p - r.span;
        br.p_max = side->p > cp.p ? cp.p + r.span : cp.p;
      }
      br.ds = std::min(0.1 * r.span, 0.01);
      br.ds_max = std::max(br.ds, 0.05 * r.span);
      br.max_points = 400;
      analysis::Orbit start = side->orbit;
      start.converged = true;
      // away from p*, and with the region forced also through it
      std::vector<int> directions{side->p > cp.p ? 1 : -1};
      if (r.forced) directions.push_back(-directions.front());
      for (const int direction : directions) {
        br.direction = direction;
        const analysis::OrbitBranch b = analysis::continue_orbits(pq, start, br);
        points.insert(points.end(), b.points.begin(), b.points.end());
      }
    } else {
      points.push_back(
          analysis::orbit_point(s.problem, *model_at(side->p), side->p, side->orbit, {}));
    }
    for (const analysis::OrbitPoint& pt : points) {
      const int region = pt.itinerary.empty() ? 0 : pt.itinerary.front().second;
      double H = std::nan("");
      analysis::PeriodicProblem pq = s.problem;
      pq.model = model_at(pt.p);
      (void)analysis::impact_boundary_value(pq, *pq.model, pt.u, co, H);
      const bool admissible = std::isfinite(H) && ((H > 0.0) == (side == &bc.positive));
      csv << label << ',' << region << ',' << pt.p << ',' << pt.period << ',' << (pt.stable ? 1 : 0)
          << ',' << (pt.multipliers.empty() ? 0.0 : std::abs(pt.multipliers.front())) << ',' << H
          << ',' << (admissible ? 1 : 0);
      for (Eigen::Index k = 0;
           k < pt.u.size() && k < static_cast<Eigen::Index>(s.problem.solved.size()); ++k)
        csv << ',' << pt.u(k);
      for (std::size_t k = 0; k < nl; ++k)
        csv << ',' << (k < pt.multipliers.size() ? std::abs(pt.multipliers[k]) : 0.0);
      csv << '\n';
    }
  }
  d.json = j.dump(2);
  d.branches_csv = csv.str();
  return d;
}

std::vector<OutputFile> dib_files(const Dib& d, const std::filesystem::path& folder, bool plot) {
  const auto js = folder / "dib.json";
  const auto data = folder / "branches.csv";
  nlohmann::json j = nlohmann::json::parse(d.json);
  j["files"] = {{"dib", js.string()},
                {"branches", data.string()},
                {"plot", plot ? nlohmann::json((folder / "dib.png").string()) : nlohmann::json()}};
  return {{data, d.branches_csv}, {js, j.dump(2) + "\n"}};
}

}  // namespace clatter::app
