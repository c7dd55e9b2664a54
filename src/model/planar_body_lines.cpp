#include "clatter/model/planar_body_lines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <utility>

#include "clatter/core/error.hpp"
#include "clatter/core/sincos.hpp"
#include "clatter/multipoint/multipoint_input.hpp"

namespace clatter::model {

namespace {

Vec2 rotate(const Vec2& c, double theta) {
  const SinCos sc = clatter::sincos(theta);
  return {c.x() * sc.cos - c.y() * sc.sin, c.x() * sc.sin + c.y() * sc.cos};
}

struct LineState {
  double h{0.0};
  double hdot{0.0};
  double hddot{0.0};
};

LineState line_state(const ObstacleLine& l, double t) {
  const SinCos sc = clatter::sincos(l.omega * t + l.phase);
  return {l.amplitude * sc.sin, l.amplitude * l.omega * sc.cos,
          -l.amplitude * l.omega * l.omega * sc.sin};
}

}  // namespace

Vec2 ObstacleLine::normal() const { return {std::cos(angle), std::sin(angle)}; }
Vec2 ObstacleLine::tangent() const {
  const Vec2 n = normal();
  return {n.y(), -n.x()};
}

PlanarBodyLines::PlanarBodyLines(double mass, double inertia, Vec2 gravity,
                                 std::vector<BodyFeature> features, std::vector<ObstacleLine> lines,
                                 LawChoice law)
    : m_(mass), I_(inertia), g_(gravity), features_(std::move(features)), lines_(std::move(lines)) {
  require(std::isfinite(m_) && m_ > 0.0, "mass", "must be finite and > 0 [kg]", m_);
  require(std::isfinite(I_) && I_ > 0.0, "inertia", "must be finite and > 0 [kg m^2]", I_);
  require_finite(g_.x(), "gravity.x");
  require_finite(g_.y(), "gravity.y");
  require(!features_.empty(), "features", "a body needs at least one contact feature");
  require(!lines_.empty(), "lines", "a body needs at least one obstacle line");
  const std::size_t pairs = features_.size() * lines_.size();
  require(pairs <= static_cast<std::size_t>(kMaxContacts), "lines",
          "features x lines must be at most " + std::to_string(kMaxContacts) + " contacts (" +
              std::to_string(pairs) + " given)");
  std::set<std::string> names;
  for (const BodyFeature& f : features_) {
    require(names.insert(f.name).second, "features.name",
            "feature names must be unique, '" + f.name + "' repeats");
    require_finite(f.c_B.x(), "features.position");
    require_finite(f.c_B.y(), "features.position");
    require(std::isfinite(f.radius) && f.radius >= 0.0, "features.radius",
            "must be finite and >= 0 [m]", f.radius);
  }
  names.clear();
  for (const ObstacleLine& l : lines_) {
    const std::string pre = l.name + ".";
    require(names.insert(l.name).second, "lines.name",
            "line names must be unique, '" + l.name + "' repeats");
    require_finite(l.point.x(), (pre + "x").c_str());
    require_finite(l.point.y(), (pre + "y").c_str());
    require_finite(l.angle, (pre + "angle").c_str());
    require_finite(l.amplitude, (pre + "amplitude").c_str());
    require(std::isfinite(l.omega) && l.omega >= 0.0, (pre + "omega").c_str(),
            "must be finite and >= 0 [rad/s]", l.omega);
    require_finite(l.phase, (pre + "phase").c_str());
    require_finite(l.belt_velocity, (pre + "belt_velocity").c_str());
  }
  std::vector<Contact> contacts;
  for (const BodyFeature& f : features_)
    for (const ObstacleLine& l : lines_)
      contacts.push_back(Contact::with_law(f.name + "-" + l.name, law));
  set_contacts(std::move(contacts));
}

const BodyFeature& PlanarBodyLines::feature_of(int c) const {
  return features_[static_cast<std::size_t>(c) / lines_.size()];
}

const ObstacleLine& PlanarBodyLines::line_of(int c) const {
  return lines_[static_cast<std::size_t>(c) % lines_.size()];
}

std::vector<std::string> PlanarBodyLines::coordinate_names() const { return {"x", "y", "theta"}; }

MatQ PlanarBodyLines::mass_matrix(double /*t*/, const VecQ& /*q*/) const {
  return Vec3(m_, m_, I_).asDiagonal();
}

void PlanarBodyLines::factor_mass(double /*t*/, const VecQ& /*q*/, MassFactor& out) const {
  out.set_diagonal(Vec3(m_, m_, I_));
}

VecQ PlanarBodyLines::applied_forces(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/,
                                     const VecA& /*aux*/) const {
  return Vec3(m_ * g_.x(), m_ * g_.y(), 0.0);
}

double PlanarBodyLines::potential_energy(double /*t*/, const VecQ& q) const {
  return -m_ * (g_.x() * q(0) + g_.y() * q(1));
}

void PlanarBodyLines::contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                                       ContactGeometry& out) const {
  const BodyFeature& f = feature_of(c);
  const ObstacleLine& l = line_of(c);
  const Vec2 n = l.normal();
  const Vec2 tt = l.tangent();
  const Vec2 cW = rotate(f.c_B, q(2));
  const Vec2 r = cW - f.radius * n;
  const Vec2 zr(-r.y(), r.x());
  const LineState s = line_state(l, t);
  const Vec2 G(q(0), q(1));
  out.g_N = n.dot(G + cW - l.point) - f.radius - s.h;
  out.J = Rows2::Zero(2, 3);
  out.J << tt.x(), tt.y(), tt.dot(zr), n.x(), n.y(), n.dot(zr);
  out.w = {l.belt_velocity, s.hdot};
  out.v = out.J * qd - out.w;
  const double w2 = qd(2) * qd(2);
  out.gamma = {-w2 * tt.dot(cW), -w2 * n.dot(cW) - s.hddot};
  out.scale = (G - l.point).norm() + f.c_B.norm() + f.radius + std::abs(l.amplitude);
}

double PlanarBodyLines::force_scale() const {
  double a = g_.norm();
  for (const ObstacleLine& l : lines_) a += std::abs(l.amplitude) * l.omega * l.omega;
  return m_ * (a > 0.0 ? a : 1.0);
}

double PlanarBodyLines::velocity_scale(double /*t*/, const VecQ& /*q*/, const VecQ& qd) const {
  double s = std::hypot(qd(0), qd(1));
  for (const ObstacleLine& l : lines_)
    s += std::abs(l.amplitude) * l.omega + std::abs(l.belt_velocity);
  return s;
}

double PlanarBodyLines::rate_bound(const VecQ& qd) const {
  double r = std::abs(qd(2));
  for (const ObstacleLine& l : lines_) r += l.omega;
  return r;
}

bool PlanarBodyLines::multipoint_input(double t, const VecQ& q,
                                       const std::array<bool, kMaxContacts>& active,
                                       multipoint::Input& in, VecQ& frame_velocity) const {
  namespace mp = multipoint;
  // the obstacles must move as one rigid frame: equal world velocities of the active lines
  bool first = true;
  Vec2 V(0.0, 0.0);
  int k = 0;
  for (int c = 0; c < num_contacts(); ++c) {
    if (!active[static_cast<std::size_t>(c)]) continue;
    ++k;
    const ObstacleLine& l = line_of(c);
    const Vec2 Vl = l.belt_velocity * l.tangent() + line_state(l, t).hdot * l.normal();
    if (first) {
      V = Vl;
      first = false;
    } else if ((Vl - V).norm() > 1e-12 * (1.0 + V.norm())) {
      return false;
    }
  }
  if (k == 0) return false;
  frame_velocity = Vec3(V.x(), V.y(), 0.0);
  in.dim = mp::Dimension::kPlanar;
  in.M = mass_matrix(t, q);
  in.J = mp::JacobianX::Zero(2 * k, 3);
  in.name = "planar_body_lines";
  in.contacts.clear();
  in.body_points.clear();
  in.body_names = {"body"};
  ContactGeometry g;
  int a = 0;
  for (int c = 0; c < num_contacts(); ++c) {
    if (!active[static_cast<std::size_t>(c)]) continue;
    contact_geometry(c, t, q, VecQ::Zero(3), g);
    in.J.block(2 * a, 0, 2, 3) = g.J;
    const ObstacleLine& l = line_of(c);
    const Vec2 n = l.normal();
    const Vec2 tt = l.tangent();
    mp::ContactPoint p;
    p.name = contact(c).name;
    p.frame = {Vec3(tt.x(), tt.y(), 0.0), Vec3(0.0, 0.0, 1.0), Vec3(n.x(), n.y(), 0.0)};
    p.mu_s = contact(c).mu_s;
    p.mu_d = contact(c).mu_d;
    in.contacts.push_back(p);
    const Vec2 r = rotate(feature_of(c).c_B, q(2)) - feature_of(c).radius * n;
    in.body_points.push_back({0, a, 1, {r.x(), r.y(), 0.0}});
    ++a;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// exact free flight

void PlanarBodyLines::flight(double tau, const VecQ& q0, const VecQ& qd0, VecQ& q, VecQ& qd) const {
  q = Vec3(q0(0) + (qd0(0) + 0.5 * g_.x() * tau) * tau, q0(1) + (qd0(1) + 0.5 * g_.y() * tau) * tau,
           q0(2) + qd0(2) * tau);
  qd = Vec3(qd0(0) + g_.x() * tau, qd0(1) + g_.y() * tau, qd0(2));
}

void PlanarBodyLines::flight_gaps(double t0, const VecQ& q0, const VecQ& qd0, double tau,
                                  GapValues& out) const {
  VecQ q, qd;
  flight(tau, q0, qd0, q, qd);
  const SinCos sc = clatter::sincos(q(2));
  const double s = sc.sin, co = sc.cos;
  const Vec2 G(q(0), q(1));
  const Vec2 V(qd(0), qd(1));
  for (int c = 0; c < num_contacts(); ++c) {
    const BodyFeature& f = feature_of(c);
    const ObstacleLine& l = line_of(c);
    const Vec2 n = l.normal();
    const Vec2 cW(f.c_B.x() * co - f.c_B.y() * s, f.c_B.x() * s + f.c_B.y() * co);
    const LineState ls = line_state(l, t0 + tau);
    // ẑ×c_W = (−c_y, c_x): the radius term −ρ n̂ does not move the gap
    out[static_cast<std::size_t>(c)] = {
        n.dot(G + cW - l.point) - f.radius - ls.h,
        n.dot(V) + qd(2) * (n.y() * cW.x() - n.x() * cW.y()) - ls.hdot};
  }
}

double PlanarBodyLines::gap_curvature_bound(int c, const VecQ& qd0) const {
  const ObstacleLine& l = line_of(c);
  const double M2 = -l.normal().dot(g_) + qd0(2) * qd0(2) * feature_of(c).c_B.norm() +
                    std::abs(l.amplitude) * l.omega * l.omega;
  return std::max(M2, 0.0);
}

double PlanarBodyLines::far_step(int c, const VecQ& q0, const VecQ& qd0, double tau) const {
  const BodyFeature& f = feature_of(c);
  const ObstacleLine& l = line_of(c);
  const Vec2 n = l.normal();
  const double K = f.c_B.norm() + f.radius + std::abs(l.amplitude);
  // y(u) = s(τ + u) − K = y + y′u + ½ a u², a = n̂·g⃗
  const double a = n.dot(g_);
  const Vec2 G(q0(0) + (qd0(0) + 0.5 * g_.x() * tau) * tau,
               q0(1) + (qd0(1) + 0.5 * g_.y() * tau) * tau);
  const double y = n.dot(G - l.point) - K;
  if (y <= 0.0) return 0.0;
  const double yd = n.dot(Vec2(qd0(0) + g_.x() * tau, qd0(1) + g_.y() * tau));
  const double inf = std::numeric_limits<double>::infinity();
  if (a < 0.0) return (yd + std::sqrt(yd * yd - 2.0 * a * y)) / -a;  // the positive root
  if (yd >= 0.0) return inf;                                         // a ≥ 0: moving away
  if (a == 0.0) return y / -yd;
  const double disc = yd * yd - 2.0 * a * y;
  if (disc < 0.0) return inf;                // turns back before reaching K
  return 2.0 * y / (-yd + std::sqrt(disc));  // the smaller positive root, without cancellation
}

double PlanarBodyLines::apex_time(const VecQ& /*q0*/, const VecQ& qd0) const {
  // the height along −g⃗: its rate −ĝ·V₀ − |g|τ falls through 0
  const double g = g_.norm();
  if (!(g > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const double rate = -g_.dot(Vec2(qd0(0), qd0(1))) / g;
  return rate > 0.0 ? rate / g : std::numeric_limits<double>::quiet_NaN();
}

// free flight: q̈ = (g⃗.x, g⃗.y, 0)
double PlanarBodyLines::coordinate_curvature_bound(int i, const VecQ& /*q0*/,
                                                   const VecQ& /*qd0*/) const {
  return i < 2 ? std::abs(g_(i)) : 0.0;
}

std::unique_ptr<System> PlanarBodyLines::clone() const {
  return std::make_unique<PlanarBodyLines>(*this);
}

ParameterSet PlanarBodyLines::own_parameters() const {
  ParameterSet p;
  p.add("mass", m_, "kg", "mass m");
  p.add("inertia", I_, "kg m^2", "moment of inertia about G");
  p.add("gravity.x", g_.x(), "m/s^2", "gravity, x component");
  p.add("gravity.y", g_.y(), "m/s^2", "gravity, y component");
  for (const ObstacleLine& l : lines_) {
    const std::string pre = l.name + ".";
    p.add(pre + "x", l.point.x(), "m", "x of a point of the line");
    p.add(pre + "y", l.point.y(), "m", "y of a point of the line");
    p.add(pre + "angle", l.angle, "rad", "direction of the normal (into the free side)");
    p.add(pre + "amplitude", l.amplitude, "m", "A of h = A sin(omega t + phase) along the normal");
    p.add(pre + "omega", l.omega, "rad/s", "omega");
    p.add(pre + "phase", l.phase, "rad", "phase");
    p.add(pre + "belt_velocity", l.belt_velocity, "m/s", "surface velocity along the tangent");
  }
  return p;
}

std::unique_ptr<System> PlanarBodyLines::with_own_parameter(std::string_view name,
                                                            double value) const {
  double m = m_, I = I_;
  Vec2 g = g_;
  std::vector<ObstacleLine> lines = lines_;
  bool known = true;
  if (name == "mass") {
    m = value;
  } else if (name == "inertia") {
    I = value;
  } else if (name == "gravity.x") {
    g.x() = value;
  } else if (name == "gravity.y") {
    g.y() = value;
  } else {
    known = false;
    for (ObstacleLine& l : lines) {
      const std::string pre = l.name + ".";
      if (!name.starts_with(pre)) continue;
      const std::string_view what = name.substr(pre.size());
      known = true;
      if (what == "x") {
        l.point.x() = value;
      } else if (what == "y") {
        l.point.y() = value;
      } else if (what == "angle") {
        l.angle = value;
      } else if (what == "amplitude") {
        l.amplitude = value;
      } else if (what == "omega") {
        l.omega = value;
      } else if (what == "phase") {
        l.phase = value;
      } else if (what == "belt_velocity") {
        l.belt_velocity = value;
      } else {
        known = false;
      }
      break;
    }
  }
  if (!known) (void)parameters().get(name);  // throws, listing the known names
  auto out =
      std::make_unique<PlanarBodyLines>(m, I, g, features_, std::move(lines), contact(0).law);
  std::vector<Contact> cs;
  for (int c = 0; c < num_contacts(); ++c) cs.push_back(contact(c));
  out->set_contacts(std::move(cs));
  return out;
}

}  // namespace clatter::model
