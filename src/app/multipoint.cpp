// `clatter multipoint` (app/multipoint.hpp): the thesis's presets of [R] and any cradle, the
// collision's summary and its trace against the impulse.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/app/multipoint.hpp"
#include "clatter/core/error.hpp"
#include "clatter/multipoint/bodies.hpp"
#include "clatter/multipoint/collision.hpp"
#include "json_views.hpp"

namespace clatter::app {

namespace {

namespace mp = clatter::multipoint;

struct Preset {
  std::string title;
  std::vector<double> e_star;
  // builds the model with the friction overrides
  mp::Input (*build)(std::optional<double> mu_s, std::optional<double> mu_d);
};

double pick(std::optional<double> v, double preset) { return v ? *v : preset; }

mp::Input cradle_model(std::vector<double> masses, double v_pre, std::optional<double> mu_s,
                       std::optional<double> mu_d) {
  mp::Cradle c;
  c.masses = std::move(masses);
  c.v_pre = v_pre;
  c.mu_d = pick(mu_d, 0.0);
  c.mu_s = pick(mu_s, c.mu_d);
  return mp::cradle(c);
}

mp::Input rocking_model(double slip, double mu_s, double mu_d, std::optional<double> os,
                        std::optional<double> od) {
  mp::RockingBlock b;
  b.mu_d = pick(od, mu_d);
  b.mu_s = pick(os, std::max(mu_s, b.mu_d));
  b.slip_pre = slip;
  return mp::rocking_block(b);
}

mp::Input block_model(mp::BlockPoints pts, std::optional<double> mu_s, std::optional<double> mu_d) {
  mp::Block3d b;
  b.points = pts;
  b.mu_d = pick(mu_d, b.mu_d);
  b.mu_s = pick(mu_s, std::max(b.mu_s, b.mu_d));
  return mp::block_3d(b);
}

const std::map<std::string, Preset>& presets() {
  static const std::map<std::string, Preset> p = {
      {"ball-corner",
       {"Planar ball in a corner (Table 6.1), e* = 0.715",
        {0.715},
        [](std::optional<double> s, std::optional<double> d) {
          mp::BallInCorner b;
          b.mu_d = pick(d, b.mu_d);
          b.mu_s = pick(s, std::max(b.mu_s, b.mu_d));
          return mp::ball_in_corner(b);
        }}},
      {"rocking-block",
       {"Rocking block, frictionless (Table 6.2), e* = -0.803, 0.654",
        {-0.803, 0.654},
        [](std::optional<double> s, std::optional<double> d) {
          return rocking_model(0.0, 0.0, 0.0, s, d);
        }}},
      {"rocking-block-friction",
       {"Rocking block, mu = 0.35 (Table 6.3), e* = -0.883, 0.662",
        {-0.883, 0.662},
        [](std::optional<double> s, std::optional<double> d) {
          return rocking_model(0.005, 0.6, 0.35, s, d);
        }}},
      {"cradle3",
       {"Three-ball cradle, case 1 (Fig. 6.12), e* = 1",
        {1.0},
        [](std::optional<double> s, std::optional<double> d) {
          return cradle_model({1.0, 1.0, 1.0}, 1.304, s, d);
        }}},
      {"cradle3-case2",
       {"Three-ball cradle, case 2 (Table 6.4), e* = 0.85",
        {0.85},
        [](std::optional<double> s, std::optional<double> d) {
          return cradle_model({0.166, 0.166, 0.166}, 1.0, s, d);
        }}},
      {"cradle5",
       {"Five-ball cradle, case 1 (Table D.1), e* = 1",
        {1.0},
        [](std::optional<double> s, std::optional<double> d) {
          return cradle_model({1.0, 1.0, 1.0, 1.0, 1.0}, 1.0, s, d);
        }}},
      {"cradle5-case2",
       {"Five-ball cradle, case 2 (App. D), e* = 0.8",
        {0.8},
        [](std::optional<double> s, std::optional<double> d) {
          return cradle_model({1.0, 1.0, 1.0, 1.0, 1.0}, 1.304, s, d);
        }}},
      {"cradle5-case3",
       {"Five-ball cradle ABACA, case 3 (Table D.2), e* = 0.4",
        {0.4},
        [](std::optional<double> s, std::optional<double> d) {
          return cradle_model({0.045, 0.053, 0.045, 0.053, 0.045}, 1.0, s, d);
        }}},
      {"sphere-corner",
       {"3-D sphere hitting a corner (Sec. 8.1), e* = 0.5",
        {0.5},
        [](std::optional<double> s, std::optional<double> d) {
          mp::SphereInCorner b;
          b.mu_d = pick(d, b.mu_d);
          b.mu_s = pick(s, std::max(b.mu_s, b.mu_d));
          return mp::sphere_in_corner(b);
        }}},
      {"block3d-3",
       {"3-D block, three corners (Sec. 8.2.1), e* = 0.5",
        {0.5},
        [](std::optional<double> s, std::optional<double> d) {
          return block_model(mp::BlockPoints::kThreeCorners, s, d);
        }}},
      {"block3d-4",
       {"3-D block, four corners (Sec. 8.2.2), e* = 0.5",
        {0.5},
        [](std::optional<double> s, std::optional<double> d) {
          return block_model(mp::BlockPoints::kFourCorners, s, d);
        }}},
      {"block3d-centered",
       {"3-D block, three centred points (Sec. 8.2.3), e* = 0.5",
        {0.5},
        [](std::optional<double> s, std::optional<double> d) {
          return block_model(mp::BlockPoints::kThreeCentered, s, d);
        }}},
  };
  return p;
}

const auto& number = detail::json_number;

nlohmann::json vec(const Eigen::Ref<const Eigen::VectorXd>& v) {
  nlohmann::json j = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) j.push_back(number(v[i]));
  return j;
}

// per-contact components {T1, [T2,] N} of a stacked vector
nlohmann::json per_contact(const mp::Input& in, const mp::ContactVector& v) {
  nlohmann::json j = nlohmann::json::object();
  const int d = in.d();
  for (int i = 0; i < in.n_contacts(); ++i) {
    nlohmann::json c;
    c["T1"] = v[d * i];
    if (d == 3) c["T2"] = v[d * i + 1];
    c["N"] = v[d * i + d - 1];
    j[in.contacts[static_cast<std::size_t>(i)].name] = c;
  }
  return j;
}

nlohmann::json event_json(const mp::Input& in, const mp::EventResult& e) {
  nlohmann::json j;
  j["index"] = e.index;
  j["e_star"] = e.e_star;
  nlohmann::json active = nlohmann::json::array();
  for (int i = 0; i < in.n_contacts(); ++i) {
    if (e.active[static_cast<std::size_t>(i)])
      active.push_back(in.contacts[static_cast<std::size_t>(i)].name);
  }
  j["active"] = active;
  nlohmann::json pairs = nlohmann::json::array();
  for (int p = 0; p < e.pairs.n; ++p) {
    const mp::PairConstraint& pc = e.pairs.pairs[static_cast<std::size_t>(p)];
    pairs.push_back({{"body", pc.body < static_cast<int>(in.body_names.size())
                                  ? in.body_names[static_cast<std::size_t>(pc.body)]
                                  : std::to_string(pc.body)},
                     {"i", in.contacts[static_cast<std::size_t>(pc.contact_i)].name},
                     {"j", in.contacts[static_cast<std::size_t>(pc.contact_j)].name},
                     {"coef_i", {pc.coef_i.x(), pc.coef_i.y(), pc.coef_i.z()}},
                     {"coef_j", {pc.coef_j.x(), pc.coef_j.y(), pc.coef_j.z()}},
                     {"flipped", pc.flipped},
                     {"normal_free", pc.normal_free}});
  }
  j["pairs"] = pairs;
  j["status"] = mp::to_string(e.status);
  j["P_compression"] = number(e.P_compression);
  j["P_end"] = e.P_end;
  j["work_Nc"] = number(e.work_Nc);
  j["work_Nf"] = number(e.work_Nf);
  j["work_N_end"] = e.work_N_end;
  j["Lambda"] = per_contact(in, e.Lambda);
  j["Lambda_compression"] = per_contact(in, e.Lambda_compression);
  j["v_pre"] = per_contact(in, e.v_pre);
  j["v_post"] = per_contact(in, e.v_post);
  j["qdot_pre"] = vec(e.qdot_pre);
  j["qdot_post"] = vec(e.qdot_post);
  j["kinetic_energy_pre"] = e.kinetic_energy_pre;
  j["kinetic_energy_post"] = e.kinetic_energy_post;
  nlohmann::json segs = nlohmann::json::array();
  for (const mp::Segment& s : e.segments) {
    nlohmann::json ratio = nlohmann::json::object();
    nlohmann::json modes = nlohmann::json::object();
    for (int i = 0; i < in.n_contacts(); ++i) {
      if (!e.active[static_cast<std::size_t>(i)]) continue;
      const std::string& name = in.contacts[static_cast<std::size_t>(i)].name;
      ratio[name] = s.ratio[static_cast<std::size_t>(i)];
      modes[name] = mp::to_string(s.modes[static_cast<std::size_t>(i)].state);
    }
    segs.push_back({{"P_begin", s.P_begin},
                    {"P_end", s.P_end},
                    {"ratio", ratio},
                    {"state", modes},
                    {"work_Nc", number(s.work_Nc)},
                    {"P_compression", number(s.P_compression)}});
  }
  j["segments"] = segs;
  nlohmann::json changes = nlohmann::json::array();
  for (const mp::SlipChange& c : e.slip_changes) {
    changes.push_back({{"P", c.P},
                       {"contact", in.contacts[static_cast<std::size_t>(c.contact)].name},
                       {"kind", mp::to_string(c.kind)},
                       {"slip", {c.slip.x(), c.slip.y()}},
                       {"mu_bar", number(c.mu_bar)}});
  }
  j["slip_changes"] = changes;
  return j;
}

// the quantities the thesis tabulates for its models
nlohmann::json derived(const std::string& preset, const mp::Input& in, const mp::CollisionResult& r,
                       double L, double R) {
  nlohmann::json j = nlohmann::json::object();
  if (preset.rfind("cradle", 0) == 0) {
    nlohmann::json speeds = nlohmann::json::array();
    double sum = 0.0;
    for (int b = 0; b < in.n_dofs(); ++b) {
      const double v = L * r.qdot_post[b];
      const double m = in.M(b, b) / (L * L + 0.4 * R * R);
      speeds.push_back(v);
      sum += m * v * v;
    }
    j["ball_centre_speeds_post"] = speeds;
    j["sum_m_qdot2_post"] = sum;
    nlohmann::json active = nlohmann::json::array();
    for (const auto& e : r.events) {
      std::string s;
      for (int i = 0; i < in.n_contacts(); ++i) {
        if (e.active[static_cast<std::size_t>(i)])
          s += (s.empty() ? "" : ",") + in.contacts[static_cast<std::size_t>(i)].name;
      }
      active.push_back(s);
    }
    j["event_contacts"] = active;
  }
  if (preset.rfind("rocking-block", 0) == 0) {
    const double v2_pre = r.v_pre[3];
    nlohmann::json per_event = nlohmann::json::array();
    for (const auto& e : r.events) {
      per_event.push_back(
          {{"v1_over_v2_pre", e.v_post[1] / v2_pre}, {"v2_over_v2_pre", e.v_post[3] / v2_pre}});
    }
    j["v2_pre"] = v2_pre;
    j["after_event"] = per_event;
  }
  return j;
}

std::string safe(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

std::string trace_csv(const mp::Input& in, const mp::Trace& trace) {
  const int d = in.d();
  std::ostringstream o;
  o << "event,P,work_N";
  for (const auto& c : in.contacts) {
    const std::string n = safe(c.name);
    o << ",Lambda_N_" << n;
    if (d == 2) {
      o << ",v_T_" << n;
    } else {
      o << ",v_T1_" << n << ",v_T2_" << n << ",s_" << n << ",phi_" << n;
    }
    o << ",v_N_" << n;
  }
  o << "\n";
  o.precision(12);
  // at most about kMaxTraceRows rows: a long trace (an event that does not terminate) is thinned
  // evenly, keeping the first and last samples of every event
  constexpr std::size_t kMaxTraceRows = 20000;
  const std::size_t stride = trace.size() / kMaxTraceRows + 1;
  for (std::size_t k = 0; k < trace.size(); ++k) {
    const mp::TraceSample& t = trace[k];
    const bool boundary = k == 0 || k + 1 == trace.size() || trace[k - 1].event != t.event ||
                          trace[k + 1].event != t.event;
    if (!boundary && k % stride != 0) continue;
    o << t.event << "," << t.P << "," << t.work_N;
    for (int i = 0; i < in.n_contacts(); ++i) {
      o << "," << t.Lambda[d * i + d - 1];
      if (d == 2) {
        o << "," << t.v[d * i];
      } else {
        const double a = t.v[d * i], b = t.v[d * i + 1];
        o << "," << a << "," << b << "," << std::hypot(a, b) << "," << std::atan2(b, a);
      }
      o << "," << t.v[d * i + d - 1];
    }
    o << "\n";
  }
  return o.str();
}

// preset cradle: a Newton's cradle of any number of balls and masses ([R] §6.3's model,
// mp::Cradle); e* = 1 unless e_star is given
Preset custom_cradle(const MultipointRequest& o, mp::Cradle& c) {
  const bool cradle = o.preset == "cradle";
  require(cradle || (o.masses.empty() && !o.v_pre && !o.length && !o.radius), "masses",
          "masses, v_pre, length and radius apply to preset cradle only");
  if (!o.masses.empty()) c.masses = o.masses;
  require(c.masses.size() >= 2 && c.masses.size() <= static_cast<std::size_t>(mp::kMaxCradleBalls),
          "masses", "give 2 to " + std::to_string(mp::kMaxCradleBalls) + " ball masses");
  for (const double m : c.masses)
    require(std::isfinite(m) && m > 0.0 && m <= 1e6, "masses", "must be in (0, 1e6] [kg]", m);
  c.v_pre = o.v_pre.value_or(1.0);
  require(std::isfinite(c.v_pre) && c.v_pre > 0.0 && c.v_pre <= 1e3, "v_pre",
          "must be a speed in (0, 1e3] [m/s]", c.v_pre);
  c.L = o.length.value_or(c.L);
  require(std::isfinite(c.L) && c.L > 0.0 && c.L <= 1e3, "length", "must be in (0, 1e3] [m]", c.L);
  c.R = o.radius.value_or(c.R);
  require(std::isfinite(c.R) && c.R > 0.0 && c.R <= c.L, "radius", "must be in (0, length] [m]",
          c.R);
  c.mu_d = pick(o.mu_d, 0.0);
  c.mu_s = pick(o.mu_s, c.mu_d);
  std::ostringstream title;
  title << c.masses.size() << "-ball cradle, masses";
  for (const double m : c.masses) title << ' ' << m;
  title << ", ball A at " << c.v_pre << " m/s";
  return {title.str(), {1.0}, nullptr};
}

}  // namespace

std::vector<std::string> multipoint_presets() {
  std::vector<std::string> names;
  for (const auto& [k, v] : presets()) names.push_back(k);
  return names;
}

Multipoint run_multipoint(const MultipointRequest& o, const std::filesystem::path& dir, bool plot) {
  const auto it = presets().find(o.preset);
  std::string names;
  for (const auto& [k, v] : presets()) names += (names.empty() ? "" : ", ") + k;
  require(
      it != presets().end() || o.preset == "cradle", "preset",
      "must be cradle (any cradle: masses ...) or one of " + names + ", got '" + o.preset + "'");
  require(o.e_star.size() <= 64, "e_star", "give at most 64 values");
  mp::Cradle cradle_params;
  const Preset custom = custom_cradle(o, cradle_params);
  const Preset& preset = o.preset == "cradle" ? custom : it->second;
  mp::Input in = o.preset == "cradle" ? mp::cradle(cradle_params) : preset.build(o.mu_s, o.mu_d);
  if (!o.qdot.empty()) {
    require(static_cast<int>(o.qdot.size()) == in.n_dofs(), "qdot",
            "needs " + std::to_string(in.n_dofs()) + " values for this preset");
    for (std::size_t i = 0; i < o.qdot.size(); ++i)
      in.qdot_pre[static_cast<Eigen::Index>(i)] = o.qdot[i];
  }
  mp::Params params;
  params.e_star = o.e_star.empty() ? preset.e_star : o.e_star;
  require(o.work_def == "thesis" || o.work_def == "integral", "work_def",
          "must be thesis or integral, got '" + o.work_def + "'");
  params.work =
      o.work_def == "thesis" ? mp::WorkDefinition::kThesis : mp::WorkDefinition::kIntegral;
  require(o.compression == "latest-parabola" || o.compression == "first-minimum", "compression",
          "must be latest-parabola or first-minimum, got '" + o.compression + "'");
  params.compression = o.compression == "latest-parabola" ? mp::CompressionRule::kLatestParabola
                                                          : mp::CompressionRule::kFirstMinimum;
  require(o.recipe == "thesis" || o.recipe == "min-norm", "recipe",
          "must be thesis or min-norm, got '" + o.recipe + "'");
  params.recipe =
      o.recipe == "thesis" ? mp::ConstraintRecipe::kThesis : mp::ConstraintRecipe::kMinimumNorm;
  require(o.pairs == "chain" || o.pairs == "star", "pairs",
          "must be chain or star, got '" + o.pairs + "'");
  params.pair_rule = o.pairs == "chain" ? mp::PairRule::kChain : mp::PairRule::kStar;
  require(o.method == "analytic" || o.method == "ode", "method",
          "must be analytic or ode, got '" + o.method + "'");
  params.planar_method =
      o.method == "analytic" ? mp::PlanarMethod::kPiecewiseLinear : mp::PlanarMethod::kOde;
  params.max_events = o.max_events;
  require(o.max_steps >= 100 && o.max_steps <= 1000000, "max_steps",
          "must be an integer in [100, 1000000]", o.max_steps);
  params.ode.max_steps = o.max_steps;
  mp::validate(params);

  mp::Trace trace;
  const mp::CollisionResult r = mp::resolve_collision(in, params, &trace);

  nlohmann::json j;
  j["preset"] = o.preset;
  j["title"] = preset.title;
  j["model"] = in.name;
  j["dimension"] = in.d();
  nlohmann::json contacts = nlohmann::json::array();
  for (const auto& c : in.contacts) {
    contacts.push_back({{"name", c.name}, {"mu_s", c.mu_s}, {"mu_d", c.mu_d}});
  }
  j["contacts"] = contacts;
  j["params"] = {{"e_star", params.e_star},
                 {"work_def", mp::to_string(params.work)},
                 {"compression", mp::to_string(params.compression)},
                 {"recipe", mp::to_string(params.recipe)},
                 {"pairs", mp::to_string(params.pair_rule)},
                 {"method", o.method},
                 {"max_events", params.max_events}};
  j["status"] = mp::to_string(r.status);
  j["n_events"] = r.events.size();
  j["qdot_pre"] = vec(r.qdot_pre);
  j["qdot_post"] = vec(r.qdot_post);
  j["v_pre"] = per_contact(in, r.v_pre);
  j["v_post"] = per_contact(in, r.v_post);
  j["kinetic_energy_pre"] = r.kinetic_energy_pre;
  j["kinetic_energy_post"] = r.kinetic_energy_post;
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : r.events) events.push_back(event_json(in, e));
  j["events"] = events;
  j["derived"] = derived(o.preset, in, r, cradle_params.L, cradle_params.R);

  const auto csv = dir / "trace.csv";
  const auto png = dir / "multipoint.png";
  const auto summary = dir / "summary.json";
  j["csv"] = csv.string();
  j["png"] = plot ? nlohmann::json(png.string()) : nlohmann::json();
  Multipoint result;
  result.status = r.status;
  result.n_events = static_cast<int>(r.events.size());
  result.summary = j.dump(2) + "\n";
  result.files = {{csv, trace_csv(in, trace)}, {summary, result.summary}};
  if (plot) {
    result.plot =
        PlotCall{"multipoint.py",
                 {"--csv", csv.string(), "--summary", summary.string(), "--out", png.string()},
                 png};
  }
  // the collision did not end as asked: the files show how far it got
  if (r.status == mp::Status::kNoTermination || r.status == mp::Status::kMaxEvents ||
      r.status == mp::Status::kSingularRates || r.status == mp::Status::kDisconnected) {
    result.failure = "the collision was not resolved (status " +
                     std::string(mp::to_string(r.status)) + " after " +
                     std::to_string(r.events.size()) + " events; see summary.json)";
  } else if (r.status != mp::Status::kOk) {
    // resolved, but the result breaks an invariant of the law: a contact pulls (its normal
    // impulse would have to be negative) or the kinetic energy grew
    result.failure =
        "the result breaks a physical invariant (status " + std::string(mp::to_string(r.status)) +
        ": " +
        (r.status == mp::Status::kPullingContact ? "a contact pulls" : "the kinetic energy grew") +
        "; see summary.json)";
  }
  return result;
}

}  // namespace clatter::app
