#include "clatter/analysis/section_observer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

const char* to_string(SectionKind k) {
  switch (k) {
    case SectionKind::kApex:
      return "apex";
    case SectionKind::kImpact:
      return "impact";
    case SectionKind::kStroboscopic:
      return "strobe";
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

SectionObserver::SectionObserver(const ResolvedObservable& what, double t_record, double omega,
                                 bool (*keep)(const void*), const void* context,
                                 PeriodicShortcut shortcut, Replay replay)
    : what_(what),
      t_record_(t_record),
      omega_(omega),
      keep_(keep),
      context_(context),
      shortcut_(shortcut),
      replay_(shortcut.check_stability ? std::move(replay) : Replay()) {
  if (shortcut_.tol > 0.0) {
    ring_.resize(static_cast<std::size_t>(3 * shortcut_.max_cycle + 1));
    keys_.assign(2 * ring_.size() * kKeys, 0.0);
  }
}

void SectionObserver::log_value(double t, double v) {
  if (t >= t_record_) values.push_back(v);
  if (!ring_.empty()) {
    log_t_.push_back(t);
    log_v_.push_back(v);
  }
}

namespace {

// max_i |a_i − b_i| / max(1, |b_i|)
template <class V>
double distance(const V& a, const V& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double d = 0.0;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    d = std::max(d, std::abs(a(i) - b(i)) / std::max(1.0, std::abs(b(i))));
  return d;
}

}  // namespace

const hybrid::Sample& SectionObserver::back(int m) const {
  // the ring holds strobe k at k mod R; head_ is strobe_ mod R (no division per look-up)
  const int R = static_cast<int>(ring_.size());
  const int i = head_ - m;
  return ring_[static_cast<std::size_t>(i < 0 ? i + R : i)];
}

double SectionObserver::window_distance(int from, int p) const {
  double d = 0.0;
  for (int j = from; j < from + p; ++j) {
    const hybrid::Sample& a = back(j);
    const hybrid::Sample& b = back(j + p);
    if (a.modes != b.modes) return std::numeric_limits<double>::infinity();
    d = std::max({d, distance(a.q, b.q), distance(a.qd, b.qd), distance(a.aux, b.aux)});
    if (!(d <= shortcut_.tol)) return d;  // early out: most candidate cycles fail at once
  }
  return d;
}

bool SectionObserver::shown_stable(int p) {
  if (!replay_) return true;
  ++checks_;
  const hybrid::Sample& z = back(0);
  const int h = p * ((8 + p - 1) / p);  // ≥ 8 periods, whole cycles
  const int L = 4 * h;
  const double eps = std::min(1e4 * shortcut_.tol, 1e-4);
  hybrid::InitialState start(z.t, z.q, z.qd, z.aux);
  for (std::size_t c = 0; c < start.closed.size(); ++c)
    start.closed[c] = hybrid::is_closed(z.modes[c]);
  for (Eigen::Index i = 0; i < start.qd.size(); ++i) {
    // a velocity exactly 0 at every state of the cycle (ẋ and θ̇ of a ball or a levelled rod
    // bouncing in place) spans an invariant subspace that the brute-force run does not leave
    // either (its zeros stay exact); perturbed, such a neutral direction would drift, not grow
    bool moves = false;
    for (int m = 0; m < p && !moves; ++m) moves = back(m).qd(i) != 0.0;
    if (!moves) continue;
    // a fixed pattern of signs and magnitudes in [½, 1] (the same in every run: the output must
    // not depend on threads or ranks)
    const double frac = std::fmod(0.6180339887498949 * static_cast<double>(i + 1), 1.0);
    const double sign = i % 2 == 0 ? 1.0 : -1.0;
    start.qd(i) += eps * std::max(1.0, std::abs(z.qd(i))) * sign * (0.5 + 0.5 * frac);
  }
  std::vector<double> D(static_cast<std::size_t>(L) + 1, 0.0);
  int verdict = 0;  // +1 stable, −1 growing
  const auto at = [&](int j, const hybrid::Sample& s) {
    // the cycle's state at the phase of strobe k + j: z_{k−m}, m = (p − j mod p) mod p
    const hybrid::Sample& c = back((p - j % p) % p);
    const double Dj = std::max({distance(s.q, c.q), distance(s.qd, c.qd), distance(s.aux, c.aux)});
    if (Dj <= 1e-3 * eps) {
      verdict = 1;
      return false;
    }
    if (!(Dj <= 1e2 * eps)) {
      verdict = -1;
      return false;
    }
    D[static_cast<std::size_t>(j)] = Dj;
    // at j = 2h, 3h, 4h: the envelope has peaked and falls if the last h periods stay below the
    // largest deviation before them
    if (j % h == 0 && j >= 2 * h) {
      const auto mid = D.begin() + (j - h + 1);
      if (*std::max_element(mid, D.begin() + j + 1) < *std::max_element(D.begin() + 1, mid)) {
        verdict = 1;
        return false;
      }
    }
    return true;
  };
  if (!replay_(start, L, at)) return false;
  return verdict > 0;
}

bool SectionObserver::closes(int p) const {
  const double d = window_distance(0, p);
  if (!(d <= shortcut_.tol)) return false;
  // at the round-off floor the ratio below is noise: far below tol is converged
  if (d <= 1e-3 * shortcut_.tol) return true;
  // geometric convergence d_k = r d_{k−p}: the states still move by about d r/(1 − r)
  if (strobe_ < 3L * p - 1) return false;
  const double r = d / window_distance(p, p);
  return r < 1.0 && d * r / (1.0 - r) <= shortcut_.tol;
}

void SectionObserver::on_sample(const hybrid::Sample& s) {
  if (cycle_ > 0) return;
  if (what_.section == SectionKind::kStroboscopic)
    log_value(s.t, what_.kind == ResolvedObservable::Kind::kVelocity ? s.qd(what_.index)
                                                                     : s.q(what_.index));
  if (ring_.empty()) return;
  ++strobe_;
  if (strobe_ == 0) t_first_ = s.t;
  if (strobe_ == 1) period_ = s.t - t_first_;
  head_ = strobe_ == 0 ? 0 : (head_ + 1 == static_cast<int>(ring_.size()) ? 0 : head_ + 1);
  ring_[static_cast<std::size_t>(head_)] = s;
  // the candidate cycles whose latest pair is close in the coordinates, by a scan of the
  // coordinates' own rings (the states are ~250 bytes apart; each coordinate is kept twice, at
  // its slot and R further, so that the last R values are contiguous): most candidates fail here
  const int R = static_cast<int>(ring_.size());
  const int nq = std::min(static_cast<int>(s.q.size()), kKeys);
  // cycles of 1 and 2 periods are looked for at every stroboscopic time, longer ones at every
  // 8th (a closing found up to 7 periods late; the scan costs ~2 ns a candidate)
  const long p_max = strobe_ % 8 == 0 ? shortcut_.max_cycle : std::min(2, shortcut_.max_cycle);
  const int P = static_cast<int>(std::min<long>(p_max, (strobe_ + 1) / 2));
  for (int i = 0; i < nq; ++i) {
    double* key = &keys_[static_cast<std::size_t>(2 * i * R)];
    key[head_] = key[head_ + R] = s.q(i);
  }
  const double tol = shortcut_.tol;
  for (int p = 1; p <= P; ++p) {
    // the coordinate that rejected the last candidate is asked first
    bool near = true;
    for (int m = 0, i = lead_; m < nq; ++m, i = i + 1 == nq ? 0 : i + 1) {
      const double* latest = &keys_[static_cast<std::size_t>(2 * i * R + head_ + R)];
      const double b = latest[-p];  // p periods ago, p < R
      if (std::abs(latest[0] - b) > tol * std::max(1.0, std::abs(b))) {
        near = false;
        lead_ = i;
        break;
      }
    }
    if (near && strobe_ >= quiet_until_ && closes(p)) {
      if (!shown_stable(p)) {
        ++refusals_;
        backoff_ = backoff_ == 0 ? 2L * p * ((8 + p - 1) / p) : 2 * backoff_;
        quiet_until_ = strobe_ + backoff_;
        break;
      }
      // the shortest cycle: a 2-period orbit may first pass the test as 4 (whose window is
      // longer), and is recorded as what it is if its coordinates repeat after a divisor of p
      cycle_ = p;
      for (int d = 1; d < p; ++d) {
        if (p % d != 0) continue;
        bool repeats = true;
        for (int i = 0; i < nq && repeats; ++i) {
          const double* latest = &keys_[static_cast<std::size_t>(2 * i * R + head_ + R)];
          repeats = std::abs(latest[0] - latest[-d]) <= tol * std::max(1.0, std::abs(latest[-d]));
        }
        if (repeats) {
          cycle_ = d;
          break;
        }
      }
      t_closed_ = s.t;
      return;
    }
  }
  // forget what no cycle can hold any more: times before t_{k − max_cycle}, trimmed when the log
  // holds four times that (amortised O(1) per entry)
  const double keep_from = s.t - 1.5 * shortcut_.max_cycle * period_;
  const double trim_at = s.t - 4.0 * shortcut_.max_cycle * period_;
  if (strobe_ > 1 && !log_t_.empty() && log_t_.front() < trim_at) {
    const auto n = std::lower_bound(log_t_.begin(), log_t_.end(), keep_from) - log_t_.begin();
    log_t_.erase(log_t_.begin(), log_t_.begin() + n);
    log_v_.erase(log_v_.begin(), log_v_.begin() + n);
  }
  if (strobe_ > 1 && !log_impacts_.empty() && log_impacts_.front() < trim_at)
    log_impacts_.erase(log_impacts_.begin(),
                       std::lower_bound(log_impacts_.begin(), log_impacts_.end(), keep_from));
}

void SectionObserver::on_section(const hybrid::Sample& s) {
  if ((what_.section != SectionKind::kApex && what_.section != SectionKind::kCrossing) ||
      (cycle_ > 0 && s.t > t_closed_))
    return;
  log_value(s.t, what_.kind == ResolvedObservable::Kind::kVelocity ? s.qd(what_.index)
                                                                   : s.q(what_.index));
}

void SectionObserver::on_event(const hybrid::EventRecord& e) {
  if (e.kind != hybrid::EventKind::kImpact || (cycle_ > 0 && e.t > t_closed_)) return;
  if (what_.section == SectionKind::kImpact && what_.contact >= 0 && e.contact != what_.contact)
    return;
  if (e.t >= t_record_) ++impacts;
  if (!ring_.empty()) log_impacts_.push_back(e.t);
  if (what_.section != SectionKind::kImpact) return;
  switch (what_.kind) {
    case ResolvedObservable::Kind::kCoordinate:
      log_value(e.t, e.q(what_.index));
      break;
    case ResolvedObservable::Kind::kVelocity:
      log_value(e.t, e.qd_pre(what_.index));
      break;
    case ResolvedObservable::Kind::kPhase:
      log_value(e.t, std::fmod(omega_ * e.t, 2.0 * std::numbers::pi));
      break;
    case ResolvedObservable::Kind::kNormalVelocity:
      log_value(e.t, e.v_pre(1));
      break;
  }
}

void SectionObserver::extend(double t_end, long N, double& t, model::VecQ& q, model::VecQ& qd,
                             model::VecA& aux) {
  const long k = strobe_;
  const long p = cycle_;
  const double t_open = back(cycle_).t;  // the cycle is (t_{k−p}, t_k]
  const double shift = t_closed_ - t_open;
  // a repeated stroboscopic time on the boundary t_record or t_end counts as on it, as in the
  // run, whose sample times are the same expressions t₀ + k T
  const double slack = what_.section == SectionKind::kStroboscopic ? 1e-9 * shift : 0.0;
  // the first repetition that can reach t_record
  const long m0 = std::max(1L, static_cast<long>(std::floor((t_record_ - t_closed_) / shift)));
  const auto first = [&](const std::vector<double>& ts) {
    return std::upper_bound(ts.begin(), ts.end(), t_open) - ts.begin();
  };
  const std::size_t v0 = static_cast<std::size_t>(first(log_t_));
  const std::size_t i0 = static_cast<std::size_t>(first(log_impacts_));
  for (long m = m0;; ++m) {
    const double dt = static_cast<double>(m) * shift;
    if (t_open + dt > t_end) break;
    for (std::size_t i = v0; i < log_t_.size(); ++i) {
      const double tm = log_t_[i] + dt;
      if (tm >= t_record_ - slack && tm <= t_end + slack) values.push_back(log_v_[i]);
    }
    for (std::size_t i = i0; i < log_impacts_.size(); ++i) {
      const double tm = log_impacts_[i] + dt;
      if (tm >= t_record_ && tm <= t_end) ++impacts;
    }
  }
  // z_N = z_j with j ≡ N (mod p) among k − p + 1 … k
  const long base = k - p + 1;
  const hybrid::Sample& z = back(static_cast<int>(k - (base + ((N - base) % p + p) % p)));
  t = t_end;
  q = z.q;
  qd = z.qd;
  aux = z.aux;
}

}  // namespace clatter::analysis
