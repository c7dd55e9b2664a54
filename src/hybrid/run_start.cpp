// The start of a run: make_data validates the input and finds the contacts closed at the start;
// the first step resolves it (an approaching contact's impact, or the modes of the closed ones).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "run.hpp"

namespace clatter::hybrid {

namespace {

void validate_state(const Data& d, int nq, int na) {
  require(std::isfinite(d.t), "initial.t", "must be finite");
  require(
      d.q.size() == nq, "initial.q",
      "must have " + std::to_string(nq) + " entries (" + std::to_string(d.q.size()) + " given)");
  require(
      d.qd.size() == nq, "initial.qdot",
      "must have " + std::to_string(nq) + " entries (" + std::to_string(d.qd.size()) + " given)");
  require(
      d.aux.size() == na, "initial.aux",
      "must have " + std::to_string(na) + " entries (" + std::to_string(d.aux.size()) + " given)");
  for (int i = 0; i < nq; ++i) {
    require_finite(d.q(i), "initial.q");
    require_finite(d.qd(i), "initial.qdot");
  }
  for (int i = 0; i < na; ++i) require_finite(d.aux(i), "initial.aux");
}

// M(t₀, q₀) must be positive definite (a negative mass moves against its force): one
// factorization at the start, kept as the Data's scratch
void check_mass(const model::System& model, Data& d) {
  model.factor_mass(d.t, d.q, d.mass);
  const model::MassFactor& f = d.mass;
  double worst = std::numeric_limits<double>::infinity();
  if (f.diagonal) {  // every entry positive (the solve divides by it)
    for (Eigen::Index i = 0; i < f.diag.size(); ++i) worst = std::min(worst, f.diag(i));
    if (worst > 0.0 && std::isfinite(worst)) return;
  } else if (f.unpivoted) {
    return;  // every pivot of the unpivoted L D Lᵀ is positive
  } else {   // the pivoting fallback (a pivot was not positive): semi-definite to round-off is
             // left to the model
    const auto D = f.ldlt.vectorD();
    worst = D.minCoeff();
    if (std::isfinite(worst) && worst >= -1e-12 * D.cwiseAbs().maxCoeff()) return;
  }
  throw InvalidArgument("model.mass_matrix",
                        "M(t, q) at the start is not positive definite (a pivot " +
                            format_number(worst) +
                            "): a mass matrix must be symmetric positive definite");
}

}  // namespace

Data make_data(const model::System& model, const InitialState& init,
               const SimulationOptions& options) {
  // the capacities of the engine's fixed-size storage (model/system.hpp): a model beyond them
  // would write past it (the message is built only for a model that fails)
  const auto capacity = [](int value, int lo, int hi, const char* field, const char* name) {
    if (value < lo || value > hi)
      require(false, field,
              "is " + std::to_string(value) + "; must lie in [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "] (" + name + ")");
  };
  capacity(model.nq(), 1, model::kMaxDof, "model.nq", "model::kMaxDof");
  capacity(model.num_aux(), 0, model::kMaxAux, "model.num_aux", "model::kMaxAux");
  capacity(model.num_contacts(), 0, model::kMaxContacts, "model.num_contacts",
           "model::kMaxContacts");
  Data d;
  d.shape = {model.exact_flight(), model.carried_motion(), model.symmetry(),
             model.nq(),           model.num_aux(),        model.num_contacts()};
  {
    // a model with guards answers true at every state; its flights are integrated, where the
    // guards are asked at every step (the closed-form flight search does not ask them)
    std::array<bool, model::kMaxContacts> enabled{};
    const VecA aux0 = init.aux.size() == 0 ? VecA(VecA::Zero(model.num_aux())) : init.aux;
    if (init.q.size() == model.nq() && init.qd.size() == model.nq() &&
        aux0.size() == model.num_aux())
      d.shape.guarded = model.contact_guards(init.t, init.q, init.qd, aux0, enabled);
    if (d.shape.guarded) d.shape.flight = nullptr;
  }
  if (options.section == Section::kApex) {  // the names cost an allocation: only when asked
    const std::vector<std::string> names = model.coordinate_names();
    const auto y = std::find(names.begin(), names.end(), "y");
    if (y != names.end()) d.shape.height = static_cast<int>(y - names.begin());
  }
  d.t = init.t;
  d.q = init.q;
  d.qd = init.qd;
  d.aux = init.aux.size() == 0 ? VecA(VecA::Zero(model.num_aux())) : init.aux;
  d.closed_at_start = init.closed;
  d.modes.fill(ContactMode::kOpen);
  d.released.fill(false);
  d.ignored.fill(d.shape.guarded);  // watched as update_guards finds them at the start
  d.chatter_end.fill(kNaN);
  d.chatter_skip.fill(0);
  d.chatter_last_v.fill(0.0);
  d.lambda_tol = tol::kForceTol * std::max(model.force_scale(), 1e-300);
  d.wall_start = std::chrono::steady_clock::now();
  d.keep_events = options.record_events;
  validate(options, d.t, model.nq());
  validate_state(d, model.nq(), model.num_aux());
  check_mass(model, d);
  d.zeno_ring.assign(static_cast<std::size_t>(options.zeno_events),
                     -std::numeric_limits<double>::infinity());
  Run run(model, d, options);
  d.energy.initial = run.energy();
  run.find_initial_modes();
  d.segment.t0 = d.t;
  d.segment.t1 = d.t;
  d.segment.q0 = d.q;
  d.segment.qd0 = d.qd;
  d.segment.modes = d.modes;
  return d;
}

// contacts on their obstacle and at rest are closed, approaching ones impact (the first step)
void Run::find_initial_modes() {
  int approaching = -1;
  Touching closing{};  // touching at the start, not approaching: decided together below
  bool declared = false;
  // a guarded model's contacts: those disabled, or enabled below their obstacle, start ignored
  // (no penetration there: a swing foot behind the stance foot); those touching are watched
  if (d_.shape.guarded) {
    std::array<bool, kMaxContacts> enabled;  // NOLINT(cppcoreguidelines-pro-type-member-init)
    update_guards(enabled, -std::numeric_limits<double>::infinity());
    for (int c = 0; c < d_.shape.num_contacts; ++c) {
      if (d_.closed_at_start[idx(c)]) {
        d_.ignored[idx(c)] = false;
      } else if (!d_.ignored[idx(c)]) {
        const model::ContactGeometry k = contact_at(c, d_.t, d_.q, d_.qd);
        d_.ignored[idx(c)] = k.g_N < -tol::kStartPenetration * (1.0 + k.scale);
      }
    }
  }
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    if (d_.ignored[idx(c)] && !d_.closed_at_start[idx(c)]) continue;
    const model::ContactGeometry k = contact_at(c, d_.t, d_.q, d_.qd);
    const double tol = tol::kTouchingGaps * gap_tol(k.scale);
    // below its obstacle by less than kStartPenetration: touching (a start the analysis perturbed
    // by its differences across a closed contact)
    if (k.g_N < -tol::kStartPenetration * (1.0 + k.scale)) {
      throw InvalidArgument("initial.q", "contact " + name(c) + " penetrates its obstacle by " +
                                             format_number(-k.g_N) + " m");
    }
    if (d_.closed_at_start[idx(c)]) {
      d_.modes[idx(c)] = ContactMode::kSlidePositive;  // decided below, once all are known
      closing[idx(c)] = true;
      declared = true;
      continue;
    }
    if (k.g_N > tol) continue;
    if (k.v.y() < -velocity_tol()) {
      approaching = c;
    } else if (k.v.y() <= velocity_tol()) {
      d_.modes[idx(c)] = ContactMode::kSlidePositive;  // closed; decided below
      closing[idx(c)] = true;
    } else {
      d_.released[idx(c)] = true;  // leaving from its obstacle: armed once clear of it
    }
  }
  // the declared ones start on their constraint (the placeholder mode projects v_N only), then
  // the sticking ones' v_T as well
  if (declared) project_closed();
  close_together(closing, d_.qd, d_.modes);
  if (declared) project_closed();
  d_.approaching = approaching;
}

SimultaneousScratch& Run::simultaneous_scratch() const {
  if (!d_.simultaneous) {
    multipoint::Input& in = d_.simultaneous.emplace().input;
    in.contacts.reserve(kMaxContacts);
    in.body_points.reserve(2 * kMaxContacts);
    in.body_names.reserve(kMaxContacts + 1);
  }
  return *d_.simultaneous;
}

void Run::start() {
  d_.started = true;
  if (d_.approaching >= 0) {
    handle_impact(d_.approaching);
  } else {
    decide_modes();
  }
}

}  // namespace clatter::hybrid
