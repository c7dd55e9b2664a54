// The engine at its capacities (model::kMaxDof coordinates, model::kMaxContacts contacts; issue 25
// item 7) and beyond them.
//
// At capacity: kMaxDof balls falling side by side, each on its own floor (q_i its height, M = I,
// f_i = −g, contact i: g_N = q_i), dropped from distinct heights h_i so that every impact is an
// event of its own. A model without a closed-form flight: every phase is Runge–Kutta steps on the
// largest state. Analytic (each ball is a bouncing ball, Newton's law v⁺ = −e v⁻): the first
// impact at t₁ = √(2h/g) with v⁻ = −g t₁, the k-th at t₁ (1 + 2e + … + 2e^(k−1)) with
// v⁻ = −e^(k−1) g t₁.
//
// Beyond: a model with kMaxDof + 1 coordinates or kMaxAux + 1 auxiliary states is refused by
// make_data, naming the field and the range, before any storage is written.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/step.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {
namespace {

constexpr double kG = 9.81;
constexpr double kE = 0.5;

// n balls on n floors; `aux` auxiliary states with zero rate (only to test the refusal)
class BallRow final : public model::System {
 public:
  BallRow(int n, int aux) : n_(n), aux_(aux) {
    LawChoice law;
    law.kind = LawKind::kNewton;
    law.params.e = kE;
    std::vector<model::Contact> contacts;
    const int k = n < model::kMaxContacts ? n : model::kMaxContacts;
    for (int i = 0; i < k; ++i)
      contacts.push_back(model::Contact::with_law("floor" + std::to_string(i), law));
    set_contacts(std::move(contacts));
  }
  [[nodiscard]] std::string_view kind() const override { return "test_ball_row"; }
  [[nodiscard]] int nq() const override { return n_; }
  [[nodiscard]] int num_aux() const override { return aux_; }
  [[nodiscard]] model::MatQ mass_matrix(double, const model::VecQ&) const override {
    return model::MatQ::Identity(n_, n_);
  }
  [[nodiscard]] model::VecQ applied_forces(double, const model::VecQ&, const model::VecQ&,
                                           const model::VecA&) const override {
    return model::VecQ::Constant(n_, -kG);
  }
  [[nodiscard]] model::VecA aux_rate(double, const model::VecQ&, const model::VecQ&,
                                     const model::VecA&) const override {
    return model::VecA::Zero(aux_);
  }
  void contact_geometry(int c, double, const model::VecQ& q, const model::VecQ& qd,
                        model::ContactGeometry& out) const override {
    out.g_N = q(c);
    out.J = model::Rows2::Zero(2, n_);
    out.J(1, c) = 1.0;
    out.w.setZero();
    out.v = {0.0, qd(c)};
    out.gamma.setZero();
    out.scale = 1.0 + std::abs(q(c));
  }
  [[nodiscard]] double potential_energy(double, const model::VecQ& q) const override {
    return kG * q.sum();
  }
  [[nodiscard]] double force_scale() const override { return kG; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<BallRow>(*this);
  }
  [[nodiscard]] model::ParameterSet own_parameters() const override { return {}; }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double) const override {
    (void)parameters().get(name);
    return clone();
  }

 private:
  int n_;
  int aux_;
};

double height(int i) { return 1.0 + 0.037 * i; }

TEST(Capacity, AsManyBallsAsCoordinatesEachBounceAsTheClosedForm) {
  const int n = model::kMaxDof;
  ASSERT_GE(model::kMaxContacts, n);
  const BallRow m(n, 0);
  ASSERT_EQ(m.num_contacts(), n);
  InitialState init;
  init.q = model::VecQ::Zero(n);
  init.qd = model::VecQ::Zero(n);
  for (int i = 0; i < n; ++i) init.q(i) = height(i);
  SimulationOptions o;
  const double t1_last = std::sqrt(2.0 * height(n - 1) / kG);
  o.t_end = t1_last * (1.0 + 2.0 * kE) + 0.01;  // past every ball's second impact
  o.record_events = true;
  // bounce by bounce (each ball's chatter would otherwise be ended at its first impact by the
  // predicted accumulation point, t₁ (1 + e)/(1 − e); here it is predicted to last ≥ 0.45 s)
  o.chatter_horizon = 0.05;
  TrajectoryRecorder rec;
  const SimulationResult r = simulate(m, init, o, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  std::map<int, std::vector<const EventRecord*>> by_ball;
  for (const EventRecord& e : rec.events)
    if (e.kind == EventKind::kImpact) by_ball[e.contact].push_back(&e);
  ASSERT_EQ(static_cast<int>(by_ball.size()), n) << r.impacts << " impacts";
  for (int i = 0; i < n; ++i) {
    const std::vector<const EventRecord*>& ev = by_ball[i];
    ASSERT_GE(ev.size(), 2U) << "ball " << i;
    // impact k (1, 2, …): t_k = t₁ (1 + 2e + … + 2e^(k−1)), v⁻ = −e^(k−1) g t₁, v⁺ = e^k g t₁
    const double t1 = std::sqrt(2.0 * height(i) / kG);
    double t_k = t1;
    double v_k = kG * t1;  // the speed before impact k
    for (const EventRecord* e : ev) {
      EXPECT_NEAR(e->t, t_k, 1e-9) << "ball " << i;
      EXPECT_NEAR(e->qd_pre(i), -v_k, 1e-8) << "ball " << i;
      EXPECT_NEAR(e->qd_post(i), kE * v_k, 1e-8) << "ball " << i;
      t_k += 2.0 * kE * v_k / kG;
      v_k *= kE;
    }
  }
}

void expect_refused(const model::System& m, const std::string& field, const std::string& range) {
  InitialState init;
  const int n = std::min(m.nq(), model::kMaxDof);  // (a VecQ cannot hold more)
  init.q = model::VecQ::Constant(n, 1.0);
  init.qd = model::VecQ::Zero(n);
  try {
    (void)make_data(m, init, SimulationOptions{});
    FAIL() << "accepted";
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(field), std::string::npos) << what;
    EXPECT_NE(what.find(range), std::string::npos) << what;
  }
}

TEST(Capacity, AModelBeyondTheCapacitiesIsRefusedNamingTheField) {
  expect_refused(BallRow(model::kMaxDof + 1, 0), "model.nq",
                 "[1, " + std::to_string(model::kMaxDof) + "]");
  expect_refused(BallRow(2, model::kMaxAux + 1), "model.num_aux",
                 "[0, " + std::to_string(model::kMaxAux) + "]");
}

}  // namespace
}  // namespace clatter::hybrid
