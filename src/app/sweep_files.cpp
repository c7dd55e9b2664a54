// app/sweep_files.hpp: the sweep's CSV and JSON files, record by record in slot order.

#include "clatter/app/sweep_files.hpp"

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "clatter/io/csv_number.hpp"
#include "clatter/io/schema.hpp"

namespace clatter::app {

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

// the names the sweep's records expand with (io/schema.hpp)
io::SchemaNames schema_names(const SweepTable& t, const analysis::SweepPlan& plan) {
  io::SchemaNames n;
  for (const analysis::GridAxis& a : t.sweep.grid.axes()) n.parameters.push_back(a.name);
  n.several_initials = t.initials.size() > 1;
  n.both_directions = plan.directions() > 1;
  n.observable = analysis::column_name(t.sweep.observe);
  return n;
}

}  // namespace

std::string SweepTable::label(int k) const {
  return io::parameter_label(sweep.grid.axes()[static_cast<std::size_t>(k)].name);
}

std::string SweepTable::reason(const analysis::SweepRecord& r) {
  return r.error.empty() ? hybrid::to_string(r.reason) : "error";
}

std::string SweepTable::message(const analysis::SweepRecord& r) {
  if (!r.error.empty()) return r.error;
  // a run that reached its end says nothing, unless its record is short (an event clock's count
  // not reached by --max-time); "reached t_end" is what records of earlier versions carry
  if (r.reason == hybrid::StopReason::kEndTime && r.message.rfind("reached t_end", 0) == 0)
    return {};
  return r.message;
}

namespace {

// `text` (a JSON value dumped with indent 2) indented by `by` more spaces after each line break
std::string indented(const std::string& text, const std::string& by) {
  std::string s;
  s.reserve(text.size() + 64);
  for (const char c : text) {
    s += c;
    if (c == '\n') s += by;
  }
  return s;
}

}  // namespace

SweepWriter::SweepWriter(SweepTable table, const SweepPaths& paths, const SweepStreams& streams,
                         std::function<void(const analysis::SweepRecord&)> also)
    : t_(std::move(table)), plan_(t_.plan()), paths_(paths), out_(streams), also_(std::move(also)) {
  const io::SchemaNames names = schema_names(t_, plan_);
  chunk_ = io::csv_header(io::schema(io::RecordKind::kSweepValue), names) + '\n';
  *out_.summary << io::csv_header(io::schema(io::RecordKind::kSweepPoint), names) << '\n';
  if (out_.timings != nullptr)
    *out_.timings << io::csv_header(io::schema(io::RecordKind::kSweepTiming), names) << '\n';

  // summary.json: the options, then "points" written record by record, then "failed" and "files"
  nlohmann::json params = nlohmann::json::array();
  for (const analysis::GridAxis& a : t_.sweep.grid.axes())
    params.push_back({{"name", a.name}, {"from", a.from}, {"to", a.to}, {"n", a.n}});
  nlohmann::json j = {{"scenario", t_.scenario}};
  const analysis::GridAxis& a0 = t_.sweep.grid.axes()[0];
  if (t_.sweep.grid.dimension() == 1 && a0.name == "surface.omega") {
    j["omega_from"] = a0.from;
    j["omega_to"] = a0.to;
    j["n"] = a0.n;
  }
  j["parameters"] = params;
  j["observable"] = analysis::column_name(t_.sweep.observe);
  j["clock"] = analysis::to_string(t_.sweep.clock);
  j["transient_periods"] = t_.sweep.transient_periods;  // in units of the clock
  j["record_periods"] = t_.sweep.record_periods;
  if (t_.sweep.clock == analysis::SweepClock::kImpacts) j["clock_contact"] = t_.sweep.clock_contact;
  if (t_.sweep.clock == analysis::SweepClock::kImpacts ||
      t_.sweep.clock == analysis::SweepClock::kCrossings)
    j["max_time"] = t_.sweep.max_time;
  j["periodic_tol"] = t_.sweep.periodic.tol;
  j["continuation"] = t_.sweep.carry != analysis::CarryOver::kNone;
  j["carry_over"] = analysis::to_string(t_.sweep.carry);
  j["initial_states"] = t_.initial_texts;
  std::string text = j.dump(2);  // "{\n  ...\n}"
  text.resize(text.size() - 2);  // without the closing "\n}"
  *out_.json << text << ",\n  \"points\": [";
}

void SweepWriter::add(const analysis::SweepRecord& r) {
  const std::size_t s = plan_.slot(r.point, r.run);
  if (s < next_ || s >= plan_.records() || waiting_.count(s) > 0)
    throw std::logic_error("SweepWriter::add: slot " + std::to_string(s) + " given twice");
  if (s != next_) {
    waiting_.emplace(s, r);
    return;
  }
  write(r);
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_;
       it = waiting_.erase(it))
    write(it->second);
}

// the bulk of the output (a row per recorded value): written with to_chars, the same text as the
// streams' precision(12) (C's %.12g) at a fraction of their cost, and passed on in chunks of about
// 1 MB
void SweepWriter::write(const analysis::SweepRecord& r) {
  std::ostringstream key_stream;
  key_stream.precision(12);
  key_columns(key_stream, t_, plan_, r);
  const std::string key = key_stream.str();

  const std::string lead = key + ',';
  for (const double v : r.values) {
    chunk_ += lead;
    io::append_g12(chunk_, v);
    chunk_ += '\n';
  }
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  if (chunk_.size() >= kChunk) flush_data();

  const std::string m = SweepTable::message(r);
  std::ostringstream row;
  row.precision(12);
  row << key << ',' << r.distinct << ',' << r.values.size() << ',' << r.impacts_per_period << ','
      << SweepTable::reason(r) << ',' << (m.empty() ? std::string() : csv_field(m)) << '\n';
  *out_.summary << row.str();

  if (out_.timings != nullptr) {
    std::ostringstream tr;
    tr.precision(12);
    tr << key << ',' << r.seconds << ',' << r.events << ',' << r.cycle << ',' << r.closed_at << ','
       << r.refused << '\n';
    *out_.timings << tr.str();
  }

  nlohmann::json p;
  for (int k = 0; k < t_.sweep.grid.dimension(); ++k)
    p[t_.label(k)] = t_.sweep.grid.value(r.point, k);
  if (t_.initials.size() > 1) p["initial"] = plan_.initial_of(r.run);
  if (plan_.directions() > 1) p["direction"] = plan_.descending(r.run) ? "down" : "up";
  p["distinct"] = r.distinct;
  p["samples"] = r.values.size();
  p["impacts_per_period"] = r.impacts_per_period;
  p["reason"] = SweepTable::reason(r);
  p["message"] = m.empty() ? nlohmann::json() : nlohmann::json(m);
  p["events"] = r.events;
  p["rk_steps"] = r.rk_steps;
  if (t_.sweep.periodic.tol > 0.0) {
    p["cycle"] = r.cycle;
    p["closed_at"] = r.closed_at;
    p["refused"] = r.refused;
  }
  *out_.json << (next_ > 0 ? ",\n    " : "\n    ") << indented(p.dump(2), "    ");

  if (also_) also_(r);
  failed_ += r.error.empty() ? 0 : 1;
  ++next_;
}

void SweepWriter::flush_data() {
  out_.data->write(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
  chunk_.clear();
}

void SweepWriter::finish() {
  if (!complete()) throw std::logic_error("SweepWriter::finish before every record was written");
  flush_data();
  const nlohmann::json files = {
      {"data", paths_.data.string()},
      {"summary", paths_.summary.string()},
      {"hdf5", paths_.hdf5.empty() ? nlohmann::json() : nlohmann::json(paths_.hdf5.string())},
      {"plot", paths_.plot.empty() ? nlohmann::json() : nlohmann::json(paths_.plot.string())}};
  *out_.json << (next_ > 0 ? "\n  ]" : "]") << ",\n  \"failed\": " << failed_
             << ",\n  \"files\": " << indented(files.dump(2), "  ") << "\n}\n";
}

PlotCall sweep_plot(const SweepPaths& paths, bool from_hdf5, const std::string& title) {
  PlotCall call{"sweep.py", {}, paths.plot};
  if (from_hdf5)
    call.args = {"--hdf5", paths.hdf5.string()};
  else
    call.args = {"--data", paths.data.string(), "--summary", paths.summary.string()};
  call.args.insert(call.args.end(), {"--out", paths.plot.string(), "--title", title});
  return call;
}

}  // namespace clatter::app
