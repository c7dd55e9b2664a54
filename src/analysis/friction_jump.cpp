#include "clatter/analysis/friction_jump.hpp"

#include <cmath>
#include <limits>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/hybrid/schedule.hpp"
#include "clatter/model/double_pendulum_belt_model.hpp"

namespace clatter::analysis {

namespace {

// the engine's samples and events, with the belt quantities of each sample
class BeltRecorder final : public hybrid::Recorder {
 public:
  BeltRecorder(const model::System& model, const hybrid::SimulationOptions& o, BeltRunResult& out)
      : m_(model), o_(o), out_(out) {}
  void on_sample(const hybrid::Sample& s) override {
    BeltSample b;
    b.t = s.t;
    b.q = {s.q(0), s.q(1)};
    b.qd = {s.qd(0), s.qd(1)};
    model::ContactGeometry g;
    m_.contact_geometry(0, s.t, s.q, s.qd, g);
    b.gap = g.g_N;
    b.gap_rate = g.v.y();
    b.slip = g.v.x();
    const hybrid::ContactMode mode = s.modes[0];
    b.phase = !hybrid::is_closed(mode)              ? BeltPhase::kFlight
              : mode == hybrid::ContactMode::kStick ? BeltPhase::kSticking
                                                    : BeltPhase::kSliding;
    if (hybrid::is_closed(mode))
      b.lambda_N =
          hybrid::constrained_dynamics(m_, s.t, s.q, s.qd, s.modes, o_.stabilization).lambda[0].y();
    out_.samples.push_back(b);
  }
  void on_event(const hybrid::EventRecord& e) override { out_.events.push_back(e); }

 private:
  const model::System& m_;
  const hybrid::SimulationOptions& o_;
  BeltRunResult& out_;
};

}  // namespace

const char* to_string(BeltPhase p) {
  return p == BeltPhase::kFlight ? "flight" : p == BeltPhase::kSticking ? "sticking" : "sliding";
}

void validate(const FrictionJump& x) {
  x.model.validate();
  require(x.q0.allFinite(), "q0", "must be finite");
  // the impact law's bound (laws/impact.hpp validate): beyond it the rate constants overflow
  require(std::isfinite(x.mu0) && x.mu0 >= 0.0 && x.mu0 <= 1e6, "mu0", "must lie in [0, 1e6]");
  require(std::isfinite(x.mu_p) && x.mu_p >= 0.0 && x.mu_p <= 1e6, "mu_p", "must lie in [0, 1e6]");
  require(std::isfinite(x.e) && x.e >= 0.0 && x.e <= 1.0, "e", "must lie in [0, 1]");
  require(std::isfinite(x.t_jump) && x.t_jump >= 0.0, "t_jump", "must be finite and >= 0");
  require(std::isfinite(x.t_end) && x.t_end > x.t_jump, "t_end", "must be finite and > t_jump");
  require(x.sample_dt > 0.0 && (x.t_end / x.sample_dt) < 1e7, "sample_dt",
          "must be > 0 and give fewer than 1e7 samples");
  require(x.max_events >= 1 && x.max_events <= 1'000'000, "max_events", "must lie in [1, 1000000]");
  require(x.abs_tol > 0.0 && x.rel_tol > 0.0, "abs_tol", "tolerances must be positive");
  require(std::isfinite(x.baumgarte_omega) && x.baumgarte_omega >= 0.0, "baumgarte_omega",
          "must be finite and >= 0");
}

BeltRunResult run_friction_jump(const FrictionJump& x) {
  validate(x);
  const model::DoublePendulumBelt p = x.model.touching(x.q0);
  const model::DoublePendulumBeltModel model(p, {LawKind::kStronge, {x.mu0, x.e}});
  BeltRunResult r;
  r.W_jump = p.delassus(x.q0);
  const double v_T0 = -p.belt_velocity;
  r.mu_critical = v_T0 * r.W_jump.B > 0.0 ? r.W_jump.C / std::abs(r.W_jump.B)
                                          : std::numeric_limits<double>::infinity();

  hybrid::SimulationOptions o;
  o.t_end = x.t_end;
  o.output_dt = x.sample_dt;
  o.max_events = x.max_events;
  o.abs_tol = x.abs_tol;
  o.rel_tol = x.rel_tol;
  o.max_dt = 1e-2;
  o.stabilization = {x.baumgarte_omega, 1.0};
  o.painleve = hybrid::PainlevePolicy::kImpactWithoutCollision;

  // held at rest on the belt until the jump ([B]'s assumption, see the header)
  const model::VecQ q0 = Vec2(x.q0);
  const model::VecQ qd0 = Vec2::Zero();
  BeltRecorder rec(model, o, r);
  for (long k = 0;; ++k) {
    const double t = static_cast<double>(k) * x.sample_dt;
    if (t >= x.t_jump) break;
    hybrid::Sample s;
    s.t = t;
    s.q = q0;
    s.qd = qd0;
    s.modes[0] =
        v_T0 > 0.0 ? hybrid::ContactMode::kSlidePositive : hybrid::ContactMode::kSlideNegative;
    rec.on_sample(s);
  }
  // the jump: the law's μ at impact and the sustained μ change together
  hybrid::InitialState init(x.t_jump, q0, qd0);
  init.closed[0] = true;
  r.result = hybrid::simulate_scheduled(model, init, o, {{x.t_jump, "mu", x.mu_p}}, &rec);
  return r;
}

}  // namespace clatter::analysis
