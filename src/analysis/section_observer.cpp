#include "clatter/analysis/section_observer.hpp"

#include <cmath>
#include <numbers>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

const char* to_string(SectionKind k) {
  switch (k) {
    case SectionKind::kApex:
      return "apex";
    case SectionKind::kImpact:
      return "impact";
    case SectionKind::kCrossing:
      return "crossing";
  }
  return "unknown";
}

void set_engine_section(const ResolvedObservable& what, hybrid::SimulationOptions& options) {
  options.section = what.section == SectionKind::kApex       ? hybrid::Section::kApex
                    : what.section == SectionKind::kCrossing ? hybrid::Section::kCrossing
                                                             : hybrid::Section::kNone;
  options.crossing_coordinate = what.crossing_index;
  options.crossing_value = what.crossing_value;
  options.crossing_direction = what.crossing_direction;
}

ResolvedObservable resolve(const Observable& o, const model::System& model, const char* field) {
  ResolvedObservable r;
  r.section = o.section;
  r.contact = o.contact;
  const std::vector<std::string> names = model.coordinate_names();
  if (o.section == SectionKind::kCrossing) {
    std::string coordinates;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (o.crossing == names[i]) r.crossing_index = static_cast<int>(i);
      coordinates += (coordinates.empty() ? "" : ", ") + names[i];
    }
    require(r.crossing_index >= 0, field,
            "unknown crossing coordinate \"" + o.crossing + "\" (allowed: " + coordinates + ")");
    require(std::isfinite(o.crossing_value), field, "the crossing value must be finite",
            o.crossing_value);
    require(o.crossing_direction >= -1 && o.crossing_direction <= 1, field,
            "the crossing direction must be +1 (up), -1 (down) or 0 (both)");
    r.crossing_value = o.crossing_value;
    r.crossing_direction = o.crossing_direction;
  }
  std::string allowed;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (o.quantity == names[i]) {
      r.kind = ResolvedObservable::Kind::kCoordinate;
      r.index = static_cast<int>(i);
      return r;
    }
    if (o.quantity == names[i] + "dot") {
      r.kind = ResolvedObservable::Kind::kVelocity;
      r.index = static_cast<int>(i);
      return r;
    }
    allowed += (allowed.empty() ? "" : ", ") + names[i] + ", " + names[i] + "dot";
  }
  if (o.section == SectionKind::kImpact) {
    require(o.contact >= -1 && o.contact < model.num_contacts(), field,
            "the contact index must be -1 (any) or lie in [0, " +
                std::to_string(model.num_contacts() - 1) + "]");
    if (o.quantity == "phase") {
      r.kind = ResolvedObservable::Kind::kPhase;
      return r;
    }
    if (o.quantity == "v_N") {
      r.kind = ResolvedObservable::Kind::kNormalVelocity;
      return r;
    }
    allowed += ", phase, v_N";
  }
  throw InvalidArgument(field, "unknown quantity \"" + o.quantity + "\" on the " +
                                   to_string(o.section) + " section (allowed: " + allowed + ")");
}

std::string column_name(const Observable& o) { return o.quantity + "_" + to_string(o.section); }

void SectionObserver::on_section(const hybrid::Sample& s) {
  if (what_.section == SectionKind::kImpact || s.t < t_record_) return;
  values.push_back(what_.kind == ResolvedObservable::Kind::kVelocity ? s.qd(what_.index)
                                                                     : s.q(what_.index));
}

void SectionObserver::on_event(const hybrid::EventRecord& e) {
  if (e.kind != hybrid::EventKind::kImpact || e.t < t_record_) return;
  if (what_.section != SectionKind::kImpact) {
    ++impacts;
    return;
  }
  if (what_.contact >= 0 && e.contact != what_.contact) return;
  ++impacts;
  switch (what_.kind) {
    case ResolvedObservable::Kind::kCoordinate:
      values.push_back(e.q(what_.index));
      break;
    case ResolvedObservable::Kind::kVelocity:
      values.push_back(e.qd_pre(what_.index));
      break;
    case ResolvedObservable::Kind::kPhase:
      values.push_back(std::fmod(omega_ * e.t, 2.0 * std::numbers::pi));
      break;
    case ResolvedObservable::Kind::kNormalVelocity:
      values.push_back(e.v_pre(1));
      break;
  }
}

}  // namespace clatter::analysis
