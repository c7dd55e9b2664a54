#include "clatter/model/planar_body_model.hpp"

#include "clatter/core/sincos.hpp"
#include "clatter/multipoint/multipoint_input.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <utility>

namespace clatter::model {

namespace {

// world-frame offset R(θ)c of a body-frame point
Vec2 rotate(const Vec2& c, double s, double co) {
  return {c.x() * co - c.y() * s, c.x() * s + c.y() * co};
}

// R(θ) c; at θ = 0 exactly (a levelled body) without sin/cos, with the same result
Vec2 rotate_by(const Vec2& c, double theta) {
  if (theta == 0.0) return c;
  const SinCos sc = clatter::sincos(theta);
  return rotate(c, sc.sin, sc.cos);
}

}  // namespace

PlanarBodyModel::PlanarBodyModel(PlanarBody body, double gravity, Surface surface,
                                 std::vector<ContactFeature> features)
    : body_(body), g_(gravity), surface_(surface), features_(std::move(features)) {
  validate(body_);
  require(std::isfinite(g_) && g_ >= 0.0, "gravity", "must be finite and >= 0 [m/s^2]", g_);
  validate(surface_);
  require(!features_.empty() && features_.size() <= static_cast<std::size_t>(kMaxContacts),
          "contacts", "need between 1 and 8 contact features");
  for (const ContactFeature& f : features_) {
    require_finite(f.c_B.x(), "contact.position");
    require_finite(f.c_B.y(), "contact.position");
    require(std::isfinite(f.radius) && f.radius >= 0.0, "contact.radius", "must be finite and >= 0",
            f.radius);
  }
  std::vector<model::Contact> contacts;
  for (const ContactFeature& f : features_)
    contacts.push_back(model::Contact::with_law(f.name, f.law));
  set_contacts(std::move(contacts));
}

ContactKinematics PlanarBodyModel::contact(int i, double t, const Vec3& q, const Vec3& qd) const {
  const ContactFeature& f = feature(i);
  // a feature at the centre of mass needs no rotation
  const Vec2 c = f.c_B.isZero() ? Vec2::Zero() : rotate_by(f.c_B, q.z());
  const Surface::State s = surface_.state(t);
  const double omega = qd.z();
  ContactKinematics k;
  k.r = {c.x(), c.y() - f.radius};
  k.g_N = q.y() + k.r.y() - s.h;
  k.v = {qd.x() - omega * k.r.y() - s.u, qd.y() + omega * k.r.x() - s.hdot};
  k.J << 1.0, 0.0, -k.r.y(), 0.0, 1.0, k.r.x();
  k.gamma = {-omega * omega * c.x() - s.udot, -omega * omega * c.y() - s.hddot};
  return k;
}

void PlanarBodyModel::flight(double tau, const Vec3& q0, const Vec3& qd0, Vec3& q, Vec3& qd) const {
  q = {q0.x() + qd0.x() * tau, q0.y() + (qd0.y() - 0.5 * g_ * tau) * tau, q0.z() + qd0.z() * tau};
  qd = {qd0.x(), qd0.y() - g_ * tau, qd0.z()};
}

ValueSlope PlanarBodyModel::flight_gap(int i, double t0, const Vec3& q0, const Vec3& qd0,
                                       double tau) const {
  const ContactFeature& f = feature(i);
  const double y = q0.y() + (qd0.y() - 0.5 * g_ * tau) * tau;
  const double ydot = qd0.y() - g_ * tau;
  const double t = t0 + tau;
  double cy = 0.0;
  double cx = 0.0;
  if (f.c_B.x() != 0.0 || f.c_B.y() != 0.0) {
    const double theta = q0.z() + qd0.z() * tau;
    const Vec2 c = rotate_by(f.c_B, theta);
    cx = c.x();
    cy = c.y();
  }
  const Surface::State s = surface_.state(t);
  return {y + cy - f.radius - s.h, ydot + qd0.z() * cx - s.hdot};
}

void PlanarBodyModel::flight_gaps(double t0, const Vec3& q0, const Vec3& qd0, double tau,
                                  GapValues& out) const {
  const double y = q0.y() + (qd0.y() - 0.5 * g_ * tau) * tau;
  const double ydot = qd0.y() - g_ * tau;
  const double theta = q0.z() + qd0.z() * tau;
  // a levelled body (θ = 0) needs no sin/cos: the same values
  const SinCos sc = theta == 0.0 ? SinCos{0.0, 1.0} : clatter::sincos(theta);
  const double s = sc.sin;
  const double co = sc.cos;
  const Surface::State st = surface_.state(t0 + tau);
  for (std::size_t i = 0; i < features_.size(); ++i) {
    const ContactFeature& f = features_[i];
    const Vec2 c = rotate(f.c_B, s, co);
    out[i] = {y + c.y() - f.radius - st.h, ydot + qd0.z() * c.x() - st.hdot,
              -g_ - qd0.z() * qd0.z() * c.y() - st.hddot};
  }
}

double PlanarBodyModel::flight_gap_curvature_bound(int i, const Vec3& qd0) const {
  return g_ + qd0.z() * qd0.z() * feature(i).c_B.norm() + surface_.hddot_max();
}

double PlanarBodyModel::flight_gap_jerk_bound(int i, const Vec3& qd0) const {
  const double w = std::abs(qd0.z());
  return w * w * w * feature(i).c_B.norm() + surface_.hdddot_max();
}

double PlanarBodyModel::flight_gap_far_step(int i, const Vec3& q0, const Vec3& qd0,
                                            double tau) const {
  const ContactFeature& f = feature(i);
  // gap = y(τ) + (R(θ)c_B)_y − ρ − h ≥ y(τ) − K with K = ρ + h_max − (R(θ)c_B)_y, known exactly
  // without spin (θ = θ₀; the same sin/cos as flight_gaps), else K = |c| + ρ + h_max; the next
  // zero of y(τ) − K after τ
  double offset = -f.c_B.norm();
  if (qd0.z() == 0.0) {
    const SinCos sc = q0.z() == 0.0 ? SinCos{0.0, 1.0} : clatter::sincos(q0.z());
    offset = rotate(f.c_B, sc.sin, sc.cos).y();
  }
  const double K = f.radius + surface_.h_max() - offset;
  const double y = q0.y() + (qd0.y() - 0.5 * g_ * tau) * tau;
  if (y <= K) return 0.0;
  const double ydot = qd0.y() - g_ * tau;
  if (g_ == 0.0) return ydot < 0.0 ? (y - K) / -ydot : std::numeric_limits<double>::infinity();
  // ½ g s² − ẏ s − (y − K) = 0, the positive root
  return (ydot + std::sqrt(ydot * ydot + 2.0 * g_ * (y - K))) / g_;
}

double PlanarBodyModel::gap_scale(int i, const Vec3& q) const {
  const ContactFeature& f = feature(i);
  return std::abs(q.y()) + f.c_B.norm() + f.radius + std::abs(surface_.height) +
         std::abs(surface_.amplitude);
}

double PlanarBodyModel::level_angle(int i, int j, double theta) const {
  const Vec2 d = feature(i).c_B - feature(j).c_B;
  // (R(θ) d)_y = d_x sinθ + d_y cosθ = 0  ⇔  θ = −atan2(d_y, d_x) + kπ
  const double base = -std::atan2(d.y(), d.x());
  const double k = std::round((theta - base) / std::numbers::pi);
  return base + k * std::numbers::pi;
}

// ---------------------------------------------------------------------------------------------
// model::System

namespace {
Vec3 head3(const model::VecQ& v) { return {v(0), v(1), v(2)}; }
}  // namespace

std::vector<std::string> PlanarBodyModel::coordinate_names() const { return {"x", "y", "theta"}; }

model::MatQ PlanarBodyModel::mass_matrix(double /*t*/, const VecQ& /*q*/) const {
  return Vec3(body_.m, body_.m, body_.I).asDiagonal();
}

model::VecQ PlanarBodyModel::applied_forces(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/,
                                            const VecA& /*aux*/) const {
  return applied_forces();
}

void PlanarBodyModel::contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                                       model::ContactGeometry& out) const {
  const Surface::State s = surface_.state(t);
  fill_geometry(c, s, q, qd, out);
}

// the kinematics of contact() in the generic form, for a surface state computed once
void PlanarBodyModel::fill_geometry(int c, const Surface::State& s, const VecQ& q, const VecQ& qd,
                                    model::ContactGeometry& out) const {
  const ContactFeature& f = feature(c);
  const double theta = q(2);
  const Vec2 cw = f.c_B.isZero() ? Vec2::Zero() : rotate_by(f.c_B, theta);
  const double omega = qd(2);
  const Vec2 r{cw.x(), cw.y() - f.radius};
  out.g_N = q(1) + r.y() - s.h;
  out.v = {qd(0) - omega * r.y() - s.u, qd(1) + omega * r.x() - s.hdot};
  out.J.resize(2, 3);
  out.J << 1.0, 0.0, -r.y(), 0.0, 1.0, r.x();
  out.w = {s.u, s.hdot};
  out.gamma = {-omega * omega * cw.x() - s.udot, -omega * omega * cw.y() - s.hddot};
  out.scale = std::abs(q(1)) + f.c_B.norm() + f.radius + std::abs(surface_.height) +
              std::abs(surface_.amplitude);
}

void PlanarBodyModel::contact_geometries(
    double t, const VecQ& q, const VecQ& qd,
    std::array<model::ContactGeometry, model::kMaxContacts>& out) const {
  const Surface::State s = surface_.state(t);
  for (int c = 0; c < num_contacts(); ++c)
    fill_geometry(c, s, q, qd, out[static_cast<std::size_t>(c)]);
}

void PlanarBodyModel::evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& /*aux*/,
                               model::Evaluation& out) const {
  out.mass.set_diagonal(Vec3(body_.m, body_.m, body_.I));
  out.f = applied_forces();
  out.aux_rate.resize(0);
  out.power_applied = 0.0;
  const Surface::State s = surface_.state(t);
  out.for_each_requested(num_contacts(), [&](int c) {
    fill_geometry(c, s, q, qd, out.contacts[static_cast<std::size_t>(c)]);
  });
}

void PlanarBodyModel::factor_mass(double /*t*/, const VecQ& /*q*/, model::MassFactor& out) const {
  out.set_diagonal(Vec3(body_.m, body_.m, body_.I));
}

double PlanarBodyModel::kinetic_energy(double /*t*/, const VecQ& /*q*/, const VecQ& qd) const {
  return kinetic_energy(head3(qd));
}

double PlanarBodyModel::potential_energy(double /*t*/, const VecQ& q) const {
  return potential_energy(head3(q));
}

double PlanarBodyModel::force_scale() const { return body_.m * (g_ + surface_.hddot_max()); }

double PlanarBodyModel::velocity_scale(double /*t*/, const VecQ& /*q*/, const VecQ& qd) const {
  return std::sqrt(qd(0) * qd(0) + qd(1) * qd(1)) + std::abs(surface_.amplitude * surface_.omega);
}

double PlanarBodyModel::rate_bound(const VecQ& qd) const {
  return surface_.omega + surface_.belt_omega + std::abs(qd(2));
}

bool PlanarBodyModel::multipoint_input(double t, const VecQ& q,
                                       const std::array<bool, model::kMaxContacts>& active,
                                       multipoint::Input& in, VecQ& frame_velocity) const {
  namespace mp = multipoint;
  const Surface::State s = surface_.state(t);
  frame_velocity = Vec3(s.u, s.hdot, 0.0);
  int k = 0;
  for (int c = 0; c < num_contacts(); ++c) k += active[static_cast<std::size_t>(c)] ? 1 : 0;
  in.dim = mp::Dimension::kPlanar;
  in.M = mass_matrix();
  in.J = mp::JacobianX::Zero(2 * k, 3);
  in.name = "body";
  in.contacts.clear();
  in.body_points.clear();
  int a = 0;
  const Vec3 q3 = head3(q);
  for (int c = 0; c < num_contacts(); ++c) {
    if (!active[static_cast<std::size_t>(c)]) continue;
    const ContactKinematics kin = contact(c, t, q3, Vec3::Zero());
    in.J.block(2 * a, 0, 2, 3) = kin.J;
    mp::ContactPoint p;
    p.name = this->contact(c).name;
    p.mu_s = this->contact(c).mu_s;
    p.mu_d = this->contact(c).mu_d;
    in.contacts.push_back(p);
    in.body_points.push_back({0, a, 1, {kin.r.x(), kin.r.y(), 0.0}});
    ++a;
  }
  return true;
}

std::unique_ptr<model::System> PlanarBodyModel::clone() const {
  return std::make_unique<PlanarBodyModel>(*this);
}

model::ParameterSet PlanarBodyModel::own_parameters() const {
  model::ParameterSet p;
  p.add("mass", body_.m, "kg", "mass m");
  p.add("inertia", body_.I, "kg m^2", "moment of inertia about G");
  p.add("gravity", g_, "m/s^2", "gravity g (along -y)");
  p.add("surface.height", surface_.height, "m", "h0");
  p.add("surface.amplitude", surface_.amplitude, "m", "A of h = h0 + A sin(omega t + phase)");
  p.add("surface.omega", surface_.omega, "rad/s", "omega");
  p.add("surface.phase", surface_.phase, "rad", "phase");
  p.add("surface.belt_velocity", surface_.belt_velocity, "m/s", "u0 of u = u0 + U sin(...)");
  p.add("surface.belt_amplitude", surface_.belt_amplitude, "m/s", "U");
  p.add("surface.belt_omega", surface_.belt_omega, "rad/s", "belt Omega");
  p.add("surface.belt_phase", surface_.belt_phase, "rad", "belt phase");
  return p;
}

double PlanarBodyModel::own_parameter(std::string_view name) const {
  if (name == "surface.omega") return surface_.omega;
  if (name == "surface.amplitude") return surface_.amplitude;
  if (name == "surface.phase") return surface_.phase;
  if (name == "surface.belt_velocity") return surface_.belt_velocity;
  if (name == "surface.belt_omega") return surface_.belt_omega;
  return own_parameters().get(name);  // the others, and the error naming the known ones
}

std::unique_ptr<model::System> PlanarBodyModel::with_own_parameter(std::string_view name,
                                                                   double value) const {
  PlanarBody body = body_;
  double g = g_;
  Surface s = surface_;
  if (name == "mass") {
    body.m = value;
  } else if (name == "inertia") {
    body.I = value;
  } else if (name == "gravity") {
    g = value;
  } else if (name == "surface.height") {
    s.height = value;
  } else if (name == "surface.amplitude") {
    s.amplitude = value;
  } else if (name == "surface.omega") {
    s.omega = value;
  } else if (name == "surface.phase") {
    s.phase = value;
  } else if (name == "surface.belt_velocity") {
    s.belt_velocity = value;
  } else if (name == "surface.belt_amplitude") {
    s.belt_amplitude = value;
  } else if (name == "surface.belt_omega") {
    s.belt_omega = value;
  } else if (name == "surface.belt_phase") {
    s.belt_phase = value;
  } else {
    (void)parameters().get(name);  // throws, listing the known names
  }
  auto m = std::make_unique<PlanarBodyModel>(body, g, s, features_);
  m->set_contacts(std::vector<model::Contact>([&] {
    std::vector<model::Contact> cs;
    for (int c = 0; c < num_contacts(); ++c) cs.push_back(contact(c));
    return cs;
  }()));
  return m;
}

// exact flight and symmetric pairs over the generic vectors

void PlanarBodyModel::flight(double tau, const VecQ& q0, const VecQ& qd0, VecQ& q, VecQ& qd) const {
  Vec3 q3, qd3;
  flight(tau, head3(q0), head3(qd0), q3, qd3);
  q = q3;
  qd = qd3;
}

void PlanarBodyModel::flight_gaps(double t0, const VecQ& q0, const VecQ& qd0, double tau,
                                  GapValues& out) const {
  flight_gaps(t0, head3(q0), head3(qd0), tau, out);
}

double PlanarBodyModel::gap_curvature_bound(int c, const VecQ& qd0) const {
  return flight_gap_curvature_bound(c, head3(qd0));
}

double PlanarBodyModel::gap_jerk_bound(int c, const VecQ& qd0) const {
  return flight_gap_jerk_bound(c, head3(qd0));
}

double PlanarBodyModel::far_step(int c, const VecQ& q0, const VecQ& qd0, double tau) const {
  return flight_gap_far_step(c, head3(q0), head3(qd0), tau);
}

// without spin (θ̇₀ = 0, as after the symmetric levelling) the gap of feature c is
// y(τ) + (R(θ₀)c_B)_y − ρ − h(t), its rate and curvature do not depend on c, M₂ and M₃ depend on
// c through |c_B| alone and the far step through (R(θ₀)c_B)_y and ρ: equal offsets, radii and
// |c_B| make the gaps and their bounds equal bit for bit
bool PlanarBodyModel::gaps_coincide(int i, int j, const VecQ& q0, const VecQ& qd0) const {
  if (qd0(2) != 0.0) return false;
  const ContactFeature& a = feature(i);
  const ContactFeature& b = feature(j);
  if (a.radius != b.radius || a.c_B.norm() != b.c_B.norm()) return false;
  // the same sin/cos as flight_gaps
  const double theta = q0(2);
  const SinCos sc = theta == 0.0 ? SinCos{0.0, 1.0} : clatter::sincos(theta);
  const double s = sc.sin;
  const double co = sc.cos;
  return rotate(a.c_B, s, co).y() == rotate(b.c_B, s, co).y();
}

double PlanarBodyModel::apex_time(const VecQ& /*q0*/, const VecQ& qd0) const {
  if (!(qd0(1) > 0.0 && g_ > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  return qd0(1) / g_;
}

// free flight: q̈ = (0, −g, 0)
double PlanarBodyModel::coordinate_curvature_bound(int i, const VecQ& /*q0*/,
                                                   const VecQ& /*qd0*/) const {
  return i == 1 ? std::abs(g_) : 0.0;
}

// rigid: q̈ = (u̇, ḧ, 0); rolling: (0, ḧ, 0) with u̇ ≡ 0; |u̇| ≤ |U|Ω, |ḧ| ≤ |A|ω²
double PlanarBodyModel::carried_coordinate_curvature_bound(const Contacts& /*stick*/, double /*t0*/,
                                                           const VecQ& /*q0*/, const VecQ& /*qd0*/,
                                                           int i) const {
  if (i == 0) return std::abs(surface_.belt_amplitude) * surface_.belt_omega;
  if (i == 1) return surface_.hddot_max();
  return 0.0;
}

double PlanarBodyModel::level_distance(int c, int j, const VecQ& q) const {
  return std::abs(level_angle(c, j, q(2)) - q(2));
}

double PlanarBodyModel::level_gap_window(int j, double theta_crit) const {
  return 2.0 * theta_crit * feature(j).c_B.norm();
}

bool PlanarBodyModel::level(int c, int j, double /*t*/, VecQ& q, VecQ& qd) const {
  // the contact point's offset r from G (contact()'s r; the surface's state does not enter)
  const auto offset = [&](double theta) {
    const ContactFeature& f = feature(c);
    const Vec2 cw = f.c_B.isZero() ? Vec2::Zero() : rotate_by(f.c_B, theta);
    return Vec2{cw.x(), cw.y() - f.radius};
  };
  const Vec3 q3 = head3(q);
  Vec3 levelled = q3;
  levelled.z() = level_angle(c, j, q3.z());
  // already level and not spinning: the state is left exactly as it is
  if (qd(2) == 0.0 && levelled.z() == q3.z()) return false;
  const Vec2 r = offset(q3.z());
  const Vec2 P{q3.x() + r.x(), q3.y() + r.y()};
  const Vec2 r2 = offset(levelled.z());
  levelled.x() = P.x() - r2.x();
  levelled.y() = P.y() - r2.y();
  q = levelled;
  qd(2) = 0.0;
  return true;
}

// sustained contact in closed form (the header's equations)

struct PlanarBodyModel::Carriage {
  enum class Kind : std::uint8_t { kNone, kRigid, kRolling };
  Kind kind{Kind::kNone};
  /// rigid: λ_c = P_c F for the rows (T, N) of every contact c (2 num_contacts rows; those of
  /// the contacts not sticking are 0)
  Eigen::Matrix<double, Eigen::Dynamic, 3, 0, 2 * kMaxContacts, 3> P;
};

bool PlanarBodyModel::rolls(const Contacts& stick) const {
  int n_stick = 0;
  bool all_centred = true;
  for (int c = 0; c < num_contacts(); ++c) {
    all_centred = all_centred && feature(c).c_B.isZero();
    n_stick += stick[static_cast<std::size_t>(c)] ? 1 : 0;
  }
  return n_stick == 1 && all_centred && surface_.belt_amplitude == 0.0;
}

PlanarBodyModel::Carriage PlanarBodyModel::carriage(const Contacts& stick, const VecQ& q0) const {
  Carriage out;
  out.P.setZero(2 * num_contacts(), 3);
  if (rolls(stick)) {
    out.kind = Carriage::Kind::kRolling;
    return out;
  }
  int n_stick = 0;
  for (int c = 0; c < num_contacts(); ++c) n_stick += stick[static_cast<std::size_t>(c)] ? 1 : 0;
  if (n_stick < 2) return out;
  // G (2k × 3) and GᵀG; rank 3 ⇔ GᵀG positive definite (its smallest eigenvalue clearly > 0)
  // (rows of the model's contacts only: a product over the capacity would cost kMaxContacts)
  Eigen::Matrix<double, Eigen::Dynamic, 3, 0, 2 * kMaxContacts, 3> G;
  G.setZero(2 * num_contacts(), 3);
  const SinCos sc = clatter::sincos(q0(2));
  const double s = sc.sin;
  const double co = sc.cos;
  for (int c = 0; c < num_contacts(); ++c) {
    if (!stick[static_cast<std::size_t>(c)]) continue;
    const ContactFeature& f = feature(c);
    const Vec2 cw = rotate(f.c_B, s, co);
    const Vec2 r{cw.x(), cw.y() - f.radius};
    G.row(2 * c) << 1.0, 0.0, -r.y();
    G.row(2 * c + 1) << 0.0, 1.0, r.x();
  }
  // small fixed sizes: coefficient-wise products (Eigen's default takes its blocked GEMM path)
  const Mat3 GtG = G.transpose().lazyProduct(G);
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(GtG, Eigen::EigenvaluesOnly);
  if (!(eig.eigenvalues()(0) > 1e-9 * eig.eigenvalues()(2))) return out;
  out.P = G.lazyProduct(GtG.inverse());
  // the engine shares the tangential force of sticking contacts with equal J_T rows in
  // proportion to their normal forces (constrained_dynamics.hpp); the minimum-norm forces share it
  // equally: they agree only if λ_T,c λ_N,j = λ_T,j λ_N,c for every reachable F = m (u̇, ḧ + g, 0)
  const std::array<Vec3, 3> reach{Vec3(0.0, 1.0, 0.0), Vec3(1.0, 0.0, 0.0), Vec3(1.0, 1.0, 0.0)};
  const int n_reach = surface_.belt_amplitude == 0.0 ? 1 : 3;
  for (int c = 0; c < num_contacts(); ++c) {
    for (int j = c + 1; j < num_contacts(); ++j) {
      if (!stick[static_cast<std::size_t>(c)] || !stick[static_cast<std::size_t>(j)]) continue;
      if ((G.row(2 * c) - G.row(2 * j)).norm() > 1e-12 * G.row(2 * c).norm()) continue;
      for (int k = 0; k < n_reach; ++k) {
        const Vec3& F = reach[static_cast<std::size_t>(k)];
        const Vec2 lc = out.P.middleRows<2>(2 * c) * F;
        const Vec2 lj = out.P.middleRows<2>(2 * j) * F;
        if (std::abs(lc.x() * lj.y() - lj.x() * lc.y()) > 1e-12 * (lc.norm() * lj.norm() + 1e-300))
          return out;
      }
    }
  }
  out.kind = Carriage::Kind::kRigid;
  return out;
}

bool PlanarBodyModel::carries(const Contacts& stick, double /*t0*/, const VecQ& q0,
                              const VecQ& /*qd0*/) const {
  return carriage(stick, q0).kind != Carriage::Kind::kNone;
}

void PlanarBodyModel::carry(const Contacts& stick, double t0, const VecQ& q0, const VecQ& qd0,
                            double tau, VecQ& q, VecQ& qd) const {
  const double t = t0 + tau;
  const Surface::State s = surface_.state(t);
  q = q0;
  qd = qd0;
  q(1) = q0(1) + (s.h - surface_.h(t0));
  qd(1) = s.hdot;
  if (rolls(stick)) {
    q(0) = q0(0) + qd0(0) * tau;
    q(2) = q0(2) + qd0(2) * tau;
    return;
  }
  q(0) = q0(0) + surface_.belt_travel(t0, t);
  qd(0) = s.u;
  qd(2) = 0.0;
}

void PlanarBodyModel::carried_forces(const Contacts& stick, double t0, const VecQ& q0,
                                     const VecQ& /*qd0*/, double tau,
                                     std::array<Vec2, kMaxContacts>& lambda,
                                     std::array<Vec2, kMaxContacts>& rate) const {
  const double t = t0 + tau;
  const double m = body_.m;
  const Surface::State s = surface_.state(t);
  const Carriage k = carriage(stick, q0);
  if (k.kind == Carriage::Kind::kRolling) {
    for (int c = 0; c < num_contacts(); ++c) {
      if (!stick[static_cast<std::size_t>(c)]) continue;
      lambda[static_cast<std::size_t>(c)] = {0.0, m * (s.hddot + g_)};
      rate[static_cast<std::size_t>(c)] = {0.0, m * surface_.hdddot(t)};
    }
    return;
  }
  const Vec3 F{m * s.udot, m * (s.hddot + g_), 0.0};
  const Vec3 Fdot{m * surface_.uddot(t), m * surface_.hdddot(t), 0.0};
  for (int c = 0; c < num_contacts(); ++c) {
    if (!stick[static_cast<std::size_t>(c)]) continue;
    const auto Pc = k.P.middleRows<2>(2 * c);
    lambda[static_cast<std::size_t>(c)] = Pc * F;
    rate[static_cast<std::size_t>(c)] = Pc * Fdot;
  }
}

void PlanarBodyModel::carried_force_bounds(const Contacts& stick, double /*t0*/, const VecQ& q0,
                                           const VecQ& /*qd0*/, int c, const Vec2& w,
                                           double& curvature, double& lower) const {
  const double m = body_.m;
  const Carriage k = carriage(stick, q0);
  // φ = p·F with F = m (u̇, ḧ + g, 0)
  Vec2 p{0.0, w.y()};
  if (k.kind == Carriage::Kind::kRigid) {
    const Eigen::Matrix<double, 1, 3> row = w.transpose() * k.P.middleRows<2>(2 * c);
    p = {row(0), row(1)};
  }
  const double A = std::abs(surface_.amplitude);
  const double om = surface_.omega;
  const double U = std::abs(surface_.belt_amplitude);
  const double Om = surface_.belt_omega;
  lower = p.y() * m * g_ - std::abs(p.x()) * m * U * Om - std::abs(p.y()) * m * A * om * om;
  curvature = std::abs(p.x()) * m * U * Om * Om * Om + std::abs(p.y()) * m * A * om * om * om * om;
}

PlanarBodyModel make_ball(double m, double R, double gravity, Surface surface, LawChoice law) {
  require(std::isfinite(R) && R >= 0.0, "radius", "must be finite and >= 0 [m]", R);
  // solid sphere, I = (2/5) m R²; a point mass (R = 0) has its spin decoupled from the contact
  // (r = 0), so any I > 0 gives the same motion: I = m · 1 m² is used
  const double I = R > 0.0 ? 0.4 * m * R * R : m;
  return PlanarBodyModel({m, I}, gravity, surface, {{"ball", {0.0, 0.0}, R, law}});
}

PlanarBodyModel make_rod(double m, double L, double gravity, Surface surface, LawChoice law) {
  require(std::isfinite(L) && L > 0.0, "half_length", "must be finite and > 0 [m]", L);
  return PlanarBodyModel(slender_rod(m, L), gravity, surface,
                         {{"P1", {-L, 0.0}, 0.0, law}, {"P2", {L, 0.0}, 0.0, law}});
}

PlanarBodyModel make_block(double m, double b, double h, double gravity, Surface surface,
                           LawChoice law) {
  require(std::isfinite(b) && b > 0.0, "half_width", "must be finite and > 0 [m]", b);
  require(std::isfinite(h) && h > 0.0, "half_height", "must be finite and > 0 [m]", h);
  return PlanarBodyModel({m, m * (b * b + h * h) / 3.0}, gravity, surface,
                         {{"C1", {-b, -h}, 0.0, law},
                          {"C2", {b, -h}, 0.0, law},
                          {"C3", {b, h}, 0.0, law},
                          {"C4", {-b, h}, 0.0, law}});
}

}  // namespace clatter::model
