#include "commands/sweep_output.hpp"

#include <charconv>
#include <sstream>

namespace clatter::cli {

namespace {

std::string csv_field(const std::string& s) {
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// the leading columns of a record: parameter values, then the run's initial state and direction
void key_columns(std::ostringstream& out, const SweepTable& t, const analysis::SweepPlan& plan,
                 const analysis::SweepRecord& r) {
  for (int k = 0; k < t.sweep.grid.dimension(); ++k)
    out << (k > 0 ? "," : "") << t.sweep.grid.value(r.point, k);
  if (t.initials.size() > 1) out << ',' << plan.initial_of(r.run);
  if (plan.directions() > 1) out << ',' << (plan.descending(r.run) ? "down" : "up");
}

void key_header(std::ostringstream& out, const SweepTable& t, const analysis::SweepPlan& plan) {
  for (int k = 0; k < t.sweep.grid.dimension(); ++k) out << (k > 0 ? "," : "") << t.label(k);
  if (t.initials.size() > 1) out << ",initial";
  if (plan.directions() > 1) out << ",direction";
}

}  // namespace

void append_g12(std::string& s, double x) {
  char buf[32];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 12).ptr);
}

std::string SweepTable::label(int k) const {
  const std::string& name = sweep.grid.axes()[static_cast<std::size_t>(k)].name;
  return name == "surface.omega" ? "omega" : name;
}

std::string SweepTable::reason(const analysis::SweepRecord& r) {
  return r.error.empty() ? hybrid::to_string(r.reason) : "error";
}

std::string SweepTable::message(const analysis::SweepRecord& r) {
  if (!r.error.empty()) return r.error;
  return r.reason == hybrid::StopReason::kEndTime ? std::string() : r.message;
}

int SweepTable::failed() const {
  int n = 0;
  for (const analysis::SweepRecord& r : records) n += r.error.empty() ? 0 : 1;
  return n;
}

// the bulk of the output (a row per recorded value): written with to_chars, the same text as the
// streams' precision(12) (C's %.12g) at a fraction of their cost, and passed on in chunks of about
// 1 MB (the whole text is never held: a large grid's CSV can exceed its records many times)
void write_bifurcation_csv(const SweepTable& t, std::ostream& out) {
  const analysis::SweepPlan plan = t.plan();
  std::ostringstream head;
  head.precision(12);
  key_header(head, t, plan);
  head << ',' << analysis::column_name(t.sweep.observe) << '\n';
  std::string chunk = head.str();
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  chunk.reserve(kChunk + 4096);
  for (const analysis::SweepRecord& r : t.records) {
    std::ostringstream key;
    key.precision(12);
    key_columns(key, t, plan, r);
    std::string k = key.str();
    k += ',';
    for (const double v : r.values) {
      chunk += k;
      append_g12(chunk, v);
      chunk += '\n';
      if (chunk.size() >= kChunk) {
        out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        chunk.clear();
      }
    }
  }
  out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
}

std::string bifurcation_csv(const SweepTable& t) {
  std::ostringstream s;
  write_bifurcation_csv(t, s);
  return s.str();
}

std::string summary_csv(const SweepTable& t) {
  const analysis::SweepPlan plan = t.plan();
  std::ostringstream csv;
  csv.precision(12);
  key_header(csv, t, plan);
  csv << ",distinct,samples,impacts_per_period,reason,message\n";
  for (const analysis::SweepRecord& r : t.records) {
    key_columns(csv, t, plan, r);
    const std::string m = SweepTable::message(r);
    csv << ',' << r.distinct << ',' << r.values.size() << ',' << r.impacts_per_period << ','
        << SweepTable::reason(r) << ',' << (m.empty() ? std::string() : csv_field(m)) << '\n';
  }
  return csv.str();
}

std::string timings_csv(const SweepTable& t) {
  const analysis::SweepPlan plan = t.plan();
  std::ostringstream csv;
  csv.precision(12);
  key_header(csv, t, plan);
  csv << ",seconds,events,cycle,closed_at,refused\n";
  for (const analysis::SweepRecord& r : t.records) {
    key_columns(csv, t, plan, r);
    csv << ',' << r.seconds << ',' << r.events << ',' << r.cycle << ',' << r.closed_at << ','
        << r.refused << '\n';
  }
  return csv.str();
}

nlohmann::json summary_json(const SweepTable& t, const nlohmann::json& files) {
  const analysis::SweepPlan plan = t.plan();
  nlohmann::json params = nlohmann::json::array();
  for (const analysis::GridAxis& a : t.sweep.grid.axes())
    params.push_back({{"name", a.name}, {"from", a.from}, {"to", a.to}, {"n", a.n}});
  nlohmann::json points = nlohmann::json::array();
  for (const analysis::SweepRecord& r : t.records) {
    nlohmann::json p;
    for (int k = 0; k < t.sweep.grid.dimension(); ++k)
      p[t.label(k)] = t.sweep.grid.value(r.point, k);
    if (t.initials.size() > 1) p["initial"] = plan.initial_of(r.run);
    if (plan.directions() > 1) p["direction"] = plan.descending(r.run) ? "down" : "up";
    const std::string m = SweepTable::message(r);
    p["distinct"] = r.distinct;
    p["samples"] = r.values.size();
    p["impacts_per_period"] = r.impacts_per_period;
    p["reason"] = SweepTable::reason(r);
    p["message"] = m.empty() ? nlohmann::json() : nlohmann::json(m);
    p["events"] = r.events;
    p["rk_steps"] = r.rk_steps;
    if (t.sweep.periodic.tol > 0.0) {
      p["cycle"] = r.cycle;
      p["closed_at"] = r.closed_at;
      p["refused"] = r.refused;
    }
    points.push_back(std::move(p));
  }
  nlohmann::json j = {{"scenario", t.scenario}};
  const analysis::GridAxis& a0 = t.sweep.grid.axes()[0];
  if (t.sweep.grid.dimension() == 1 && a0.name == "surface.omega") {
    j["omega_from"] = a0.from;
    j["omega_to"] = a0.to;
    j["n"] = a0.n;
  }
  j["parameters"] = params;
  j["observable"] = analysis::column_name(t.sweep.observe);
  j["transient_periods"] = t.sweep.transient_periods;
  j["record_periods"] = t.sweep.record_periods;
  j["periodic_tol"] = t.sweep.periodic.tol;
  j["continuation"] = t.sweep.carry != analysis::CarryOver::kNone;
  j["carry_over"] = analysis::to_string(t.sweep.carry);
  j["initial_states"] = t.initial_texts;
  j["failed"] = t.failed();
  j["points"] = points;
  j["files"] = files;
  return j;
}

}  // namespace clatter::cli
