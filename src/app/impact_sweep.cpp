// `clatter impact-sweep` (app/impact_sweep.hpp): the thesis's presets ([B] §3.1–3.3), the
// energy-loss curves and the velocity maps with their transitions.

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/app/impact_sweep.hpp"
#include "clatter/core/error.hpp"
#include "clatter/laws/brach.hpp"
#include "clatter/laws/stronge.hpp"
#include "clatter/model/planar_body.hpp"

namespace clatter::app {

namespace {

// the request resolved: a preset's values filled in, e as a list (energy-loss) or one (map)
struct SweepOptions {
  std::string preset;
  std::string kind;
  std::optional<double> angle, mu, e, from, to;
  std::vector<double> qdot, e_list;
  int n{2001};
  double mass{1.0}, inertia{1.0 / 3.0}, offset{1.0};
  int end{1};
};

struct Preset {
  const char* kind;
  double angle;
  std::array<double, 3> qdot;  // V_T (ignored by maps), V_N, θ̇
  std::vector<double> e_list;  // energy-loss
  double e, mu;                // map
  double from, to;
  const char* title;
};

// the thesis's figure parameters ([B] §3.1–3.3, spec/000_thesis.md §6.1); sweep ranges are the
// figures' axes where the captions give them, otherwise chosen to show every transition
const std::map<std::string, Preset>& presets() {
  static const std::map<std::string, Preset> p = {
      {"fig3.3",
       {"energy-loss",
        std::atan(2.0),
        {-2.0, -1.5, 1.9},
        {0.0, 0.5, 1.0},
        0,
        0,
        -9,
        9,
        "Fig 3.3: theta = atan 2, V_T = -2, V_N = -1.5, thetadot = 1.9"}},
      {"fig3.4",
       {"energy-loss",
        0.5,
        {4.5, -3.0, -0.8},
        {0.0, 0.5, 1.0},
        0,
        0,
        -14,
        14,
        "Fig 3.4: theta = 0.5, V_T = 4.5, V_N = -3, thetadot = -0.8"}},
      {"fig3.5",
       {"energy-loss",
        2.3,
        {-2.46, -2.0, 2.9},
        {0.0, 0.5, 1.0},
        0,
        0,
        -14,
        14,
        "Fig 3.5: theta = 2.3, V_T = -2.46, V_N = -2, thetadot = 2.9"}},
      {"fig3.8",
       {"map",
        2.3,
        {0.0, -2.0, 2.9},
        {},
        0.9,
        0.6,
        -0.3,
        0.1,
        "Fig 3.8: theta = 2.3, V_N = -2, thetadot = 2.9, e = 0.9, mu_f = 0.6"}},
      {"fig3.10",
       {"map",
        0.8,
        {0.0, -2.0, 0.5},
        {},
        0.9,
        0.6,
        -0.3,
        0.6,
        "Fig 3.10: theta = 0.8, V_N = -2, thetadot = 0.5, e = 0.9, mu_f = 0.6"}},
      {"fig3.11",
       {"map",
        0.2,
        {0.0, -1.0, -0.8},
        {},
        0.6,
        0.5,
        -0.2,
        0.8,
        "Fig 3.11: theta = 0.2, V_N = -1, thetadot = -0.8, e = 0.6, mu_f = 0.5"}},
  };
  return p;
}

std::string fmt(double x) {
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

struct Sweep {
  std::string csv, markers;
  nlohmann::json summary;
};

Sweep energy_loss(const SweepOptions& o, const model::BodyContact& body, const Vec3& qdot) {
  const ImpactInput in{body.contact_velocity(qdot), body.W()};
  require(in.v_pre.y() < 0.0, "qdot",
          "the contact point must approach (V_NC < 0), got V_NC = " + fmt(in.v_pre.y()));
  const double T_pre = body.kinetic_energy(qdot);
  Sweep s;
  s.csv = "e,mu,T_L_bar\n";
  s.markers = "e,name,mu\n";
  nlohmann::json rows = nlohmann::json::array();
  for (double e : o.e_list) {
    require(e >= 0.0 && e <= 1.0, "e", "must lie in [0, 1], got " + fmt(e));
    const BrachBounds b = brach_bounds(in, {o.mu.value_or(0.0), e});
    for (int i = 0; i < o.n; ++i) {
      const double mu = *o.from + (*o.to - *o.from) * i / (o.n - 1);
      s.csv +=
          fmt(e) + "," + fmt(mu) + "," + fmt(brach_energy_loss(in, e, b.s * mu) / T_pre) + "\n";
    }
    const std::pair<const char*, double> marks[] = {{"mu_E1", b.mu_E1},
                                                    {"mu_E2", b.mu_E2},
                                                    {"mu_M", b.mu_M},
                                                    {"mu_C", b.mu_C},
                                                    {"mu_s", b.mu_s}};
    for (const auto& [name, value] : marks)
      s.markers += fmt(e) + "," + name + "," + fmt(value) + "\n";
    if (o.mu) s.markers += fmt(e) + ",mu_brach," + fmt(b.mu) + "\n";
    rows.push_back({{"e", e},
                    {"case", b.brach_case},
                    {"mu_E1", b.mu_E1},
                    {"mu_E2", b.mu_E2},
                    {"mu_M", b.mu_M},
                    {"mu_C", b.mu_C},
                    {"mu_s", b.mu_s}});
  }
  s.summary = {
      {"v_TC_pre", in.v_pre.x()}, {"v_NC_pre", in.v_pre.y()}, {"T_pre", T_pre}, {"curves", rows}};
  return s;
}

struct MapSample {
  double v_TC_post_brach, v_TC_post_energetic, mu_brach, V_T_post_brach, V_T_post_energetic;
  const char* choice;
  int region, brach_case;
};

Sweep velocity_map(const SweepOptions& o, const model::BodyContact& body, const Vec3& qdot0) {
  const double e = *o.e;
  const double mu_f = *o.mu;
  require(e >= 0.0 && e <= 1.0, "e", "must lie in [0, 1], got " + fmt(e));
  require(mu_f >= 0.0, "mu", "must be >= 0, got " + fmt(mu_f));
  // V_TC = V_T − θ̇ r_N: vary V_T to place V_TC⁻
  const auto qdot_at = [&](double v_TC) {
    return Vec3{v_TC + qdot0.z() * body.r_GP.y(), qdot0.y(), qdot0.z()};
  };
  const auto sample = [&](double v_TC) {
    const Vec3 q = qdot_at(v_TC);
    const ImpactInput in{body.contact_velocity(q), body.W()};
    validate(in, {mu_f, e});
    const ImpactParams p{mu_f, e};
    const BrachBounds b = brach_bounds(in, p);
    const ImpactOutcome br = brach_extended(in, p);
    const ImpactOutcome en = stronge_closed_form(in, p);
    return MapSample{br.v_post.x(),
                     en.v_post.x(),
                     b.mu,
                     (q + body.velocity_jump(br.Lambda)).x(),
                     (q + body.velocity_jump(en.Lambda)).x(),
                     b.choice,
                     en.region,
                     br.brach_case};
  };
  Sweep s;
  s.csv =
      "v_TC_pre,v_TC_post_brach,v_TC_post_energetic,mu_brach,brach_choice,region,brach_case,"
      "V_T_post_brach,V_T_post_energetic\n";
  s.markers = "name,v_TC_pre\n";
  nlohmann::json transitions = nlohmann::json::array();
  std::optional<MapSample> prev;
  double prev_x = 0.0;
  for (int i = 0; i < o.n; ++i) {
    const double x = *o.from + (*o.to - *o.from) * i / (o.n - 1);
    const MapSample m = sample(x);
    s.csv += fmt(x) + "," + fmt(m.v_TC_post_brach) + "," + fmt(m.v_TC_post_energetic) + "," +
             fmt(m.mu_brach) + "," + m.choice + "," + std::to_string(m.region) + "," +
             std::to_string(m.brach_case) + "," + fmt(m.V_T_post_brach) + "," +
             fmt(m.V_T_post_energetic) + "\n";
    if (prev) {
      // locate each change of energetic region or Brach choice by bisection
      const auto locate = [&](auto label) {
        double a = prev_x, b = x;
        const auto la = label(*prev);
        for (int k = 0; k < 60; ++k) {
          const double mid = 0.5 * (a + b);
          (label(sample(mid)) == la ? a : b) = mid;
        }
        return 0.5 * (a + b);
      };
      if (m.region != prev->region && m.region != 0 && prev->region != 0) {
        const double at = locate([](const MapSample& q) { return q.region; });
        const std::string name =
            "region " + std::to_string(prev->region) + "->" + std::to_string(m.region);
        s.markers += name + "," + fmt(at) + "\n";
        transitions.push_back({{"name", name}, {"v_TC_pre", at}});
      }
      if (std::string(m.choice) != prev->choice) {
        const double at = locate([](const MapSample& q) { return std::string(q.choice); });
        const std::string name = std::string("brach ") + prev->choice + "->" + m.choice;
        s.markers += name + "," + fmt(at) + "\n";
        transitions.push_back({{"name", name}, {"v_TC_pre", at}});
      }
    }
    prev = m;
    prev_x = x;
  }
  s.summary = {{"v_NC_pre", body.contact_velocity(qdot_at(0.0)).y()}, {"transitions", transitions}};
  return s;
}

}  // namespace

std::vector<std::string> impact_sweep_presets() {
  std::vector<std::string> names;
  for (const auto& [k, v] : presets()) names.push_back(k);
  return names;
}

ImpactSweep run_impact_sweep(const ImpactSweepRequest& request, const std::filesystem::path& dir,
                             bool plot) {
  SweepOptions o;
  o.preset = request.preset;
  o.kind = request.kind;
  o.angle = request.angle;
  o.qdot = request.qdot;
  o.e_list = request.e;
  o.mu = request.mu;
  o.from = request.from;
  o.to = request.to;
  o.n = request.n;
  o.mass = request.mass;
  o.inertia = request.inertia;
  o.offset = request.offset;
  o.end = request.end;
  require(o.e_list.size() <= 16, "e", "give at most 16 values");
  if (!o.preset.empty()) {
    const auto it = presets().find(o.preset);
    std::string names;
    for (const auto& [k, v] : presets()) names += (names.empty() ? "" : ", ") + k;
    require(it != presets().end(), "preset",
            "unknown preset '" + o.preset + "' (allowed: " + names + ")");
    const Preset& p = it->second;
    if (o.kind.empty()) o.kind = p.kind;
    if (!o.angle) o.angle = p.angle;
    if (o.qdot.empty()) o.qdot = {p.qdot[0], p.qdot[1], p.qdot[2]};
    if (o.e_list.empty()) o.e_list = p.e_list;
    if (!o.e && o.e_list.empty() && o.kind == "map") o.e = p.e;  // an explicit --e wins
    if (!o.mu && o.kind == "map") o.mu = p.mu;
    if (!o.from) o.from = p.from;
    if (!o.to) o.to = p.to;
  }
  require(o.kind == "energy-loss" || o.kind == "map", "kind",
          "must be energy-loss or map (or give a preset), got '" + o.kind + "'");
  require(o.angle.has_value(), "angle", "required (or give a preset)");
  require(o.qdot.size() == 3, "qdot", "required: qdot = (VT, VN, THETADOT) (or give a preset)");
  require(o.from && o.to && std::isfinite(*o.from) && std::isfinite(*o.to) && *o.from < *o.to,
          "from", "need finite from < to");
  require(o.n >= 2 && o.n <= 1000000, "n", "must lie in [2, 1000000], got " + std::to_string(o.n));
  if (o.kind == "energy-loss") {
    if (o.e_list.empty() && o.e) o.e_list = {*o.e};
    require(!o.e_list.empty(), "e", "give e = (E, ...) (restitution values, one curve each)");
  } else {
    require(o.e.has_value() || o.e_list.size() == 1, "e", "give one e for a map");
    if (!o.e) o.e = o.e_list.front();
    require(o.mu.has_value(), "mu", "give mu = MU_F (the Brach friction bound) for a map");
  }
  const model::PlanarBody body{o.mass, o.inertia};
  validate(body);
  const model::BodyContact contact = model::rod_end_contact(body, o.offset, *o.angle, o.end);
  const Vec3 qdot{o.qdot[0], o.qdot[1], o.qdot[2]};
  for (double q : o.qdot) require_finite(q, "qdot");

  const Sweep s =
      o.kind == "energy-loss" ? energy_loss(o, contact, qdot) : velocity_map(o, contact, qdot);
  const auto csv = dir / (o.kind + ".csv");
  const auto markers = dir / "markers.csv";
  const auto png = dir / (o.kind + ".png");
  // a custom map is titled by what it is, not by its kind alone
  std::ostringstream custom;
  custom << (o.kind == "energy-loss" ? "energy loss" : "velocity map") << ": theta = " << *o.angle
         << ", qdot = (" << o.qdot[0] << ", " << o.qdot[1] << ", " << o.qdot[2] << ")";
  const std::string title = !o.preset.empty() ? presets().at(o.preset).title : custom.str();
  ImpactSweep result;
  result.files = {{csv, s.csv}, {markers, s.markers}};
  if (plot) {
    result.plot = PlotCall{"impact_sweep.py",
                           {"--kind", o.kind, "--csv", csv.string(), "--markers", markers.string(),
                            "--out", png.string(), "--title", title},
                           png};
  }
  nlohmann::json summary = s.summary;
  summary["kind"] = o.kind;
  summary["preset"] = o.preset;
  summary["csv"] = csv.string();
  summary["markers"] = markers.string();
  summary["png"] = plot ? nlohmann::json(png.string()) : nlohmann::json();
  result.summary = summary.dump(2) + "\n";
  return result;
}

}  // namespace clatter::app
