#include "clatter/model/pendulum_chain.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "clatter/core/error.hpp"
#include "clatter/multipoint/multipoint_input.hpp"

namespace clatter::model {

namespace {

// the kinematics of one contact shared by contact_geometry and multipoint_input
struct PairKinematics {
  Vec2 n{1.0, 0.0};  // from ball i to ball j
  Vec2 t{0.0, 1.0};  // ẑ × n
  Vec2 a_i{0.0, 0.0};
  Vec2 a_j{0.0, 0.0};
  double D{0.0};
};

Vec2 string_direction(double L, double q) { return {L * std::cos(q), L * std::sin(q)}; }

}  // namespace

PendulumChain::PendulumChain(std::vector<PendulumBall> balls, double gravity, double inertia_factor,
                             LawChoice law)
    : balls_(std::move(balls)), g_(gravity), k_(inertia_factor) {
  const int n = static_cast<int>(balls_.size());
  require(n >= 2 && n <= kMaxBalls, "n",
          "a pendulum chain has 2 to " + std::to_string(kMaxBalls) + " balls (" +
              std::to_string(n) + " given)");
  require(std::isfinite(g_) && g_ >= 0.0, "gravity", "must be finite and >= 0 [m/s^2]", g_);
  require(std::isfinite(k_) && k_ >= 0.0, "inertia_factor", "must be finite and >= 0", k_);
  for (int i = 0; i < n; ++i) {
    const PendulumBall& b = balls_[static_cast<std::size_t>(i)];
    const std::string pre = ball_name(i) + ".";
    require(std::isfinite(b.mass) && b.mass > 0.0, (pre + "mass").c_str(),
            "must be finite and > 0 [kg]", b.mass);
    require(std::isfinite(b.radius) && b.radius > 0.0, (pre + "radius").c_str(),
            "must be finite and > 0 [m]", b.radius);
    require(std::isfinite(b.length) && b.length > 0.0, (pre + "length").c_str(),
            "must be finite and > 0 [m]", b.length);
    require_finite(b.pivot, (pre + "pivot").c_str());
    if (i > 0) {
      require(b.pivot > balls_[static_cast<std::size_t>(i - 1)].pivot, (pre + "pivot").c_str(),
              "pivots must increase strictly along the chain [m]", b.pivot);
    }
  }
  std::vector<Contact> contacts;
  for (int c = 0; c + 1 < n; ++c)
    contacts.push_back(Contact::with_law(ball_name(c) + ball_name(c + 1), law));
  set_contacts(std::move(contacts));
}

std::vector<PendulumBall> PendulumChain::touching_row(const std::vector<double>& masses,
                                                      const std::vector<double>& radii,
                                                      const std::vector<double>& lengths) {
  require(masses.size() == radii.size() && masses.size() == lengths.size(), "n",
          "masses, radii and lengths need one entry per ball");
  std::vector<PendulumBall> out;
  double p = 0.0;
  for (std::size_t i = 0; i < masses.size(); ++i) {
    if (i > 0) p += radii[i - 1] + radii[i];
    out.push_back({masses[i], radii[i], lengths[i], p});
  }
  return out;
}

std::string PendulumChain::ball_name(int i) { return std::string(1, static_cast<char>('A' + i)); }

double PendulumChain::pivot_inertia(int i) const {
  const PendulumBall& b = ball(i);
  return b.mass * (b.length * b.length + k_ * b.radius * b.radius);
}

Vec2 PendulumChain::centre(int i, const VecQ& q) const {
  const PendulumBall& b = ball(i);
  return {b.pivot + b.length * std::sin(q(i)), -b.length * std::cos(q(i))};
}

std::vector<std::string> PendulumChain::coordinate_names() const {
  std::vector<std::string> out;
  for (int i = 0; i < nq(); ++i) out.push_back("theta_" + ball_name(i));
  return out;
}

MatQ PendulumChain::mass_matrix(double /*t*/, const VecQ& /*q*/) const {
  MatQ M = MatQ::Zero(nq(), nq());
  for (int i = 0; i < nq(); ++i) M(i, i) = pivot_inertia(i);
  return M;
}

void PendulumChain::factor_mass(double /*t*/, const VecQ& /*q*/, MassFactor& out) const {
  VecQ d(nq());
  for (int i = 0; i < nq(); ++i) d(i) = pivot_inertia(i);
  out.set_diagonal(d);
}

VecQ PendulumChain::applied_forces(double /*t*/, const VecQ& q, const VecQ& /*qd*/,
                                   const VecA& /*aux*/) const {
  VecQ f(nq());
  for (int i = 0; i < nq(); ++i) f(i) = -ball(i).mass * g_ * ball(i).length * std::sin(q(i));
  return f;
}

double PendulumChain::potential_energy(double /*t*/, const VecQ& q) const {
  double V = 0.0;
  for (int i = 0; i < nq(); ++i) V -= ball(i).mass * g_ * ball(i).length * std::cos(q(i));
  return V;
}

void PendulumChain::contact_geometry(int c, double /*t*/, const VecQ& q, const VecQ& qd,
                                     ContactGeometry& out) const {
  const int i = c;
  const int j = c + 1;
  const PendulumBall& bi = ball(i);
  const PendulumBall& bj = ball(j);
  const Vec2 d = centre(j, q) - centre(i, q);
  const double D = d.norm();
  const Vec2 n = d / D;
  const Vec2 t(-n.y(), n.x());
  const Vec2 a_i = string_direction(bi.length, q(i));
  const Vec2 a_j = string_direction(bj.length, q(j));
  out.g_N = D - bi.radius - bj.radius;
  out.J = Rows2::Zero(2, nq());
  out.J(0, i) = -(t.dot(a_i) + bi.radius);
  out.J(0, j) = t.dot(a_j) - bj.radius;
  out.J(1, i) = -n.dot(a_i);
  out.J(1, j) = n.dot(a_j);
  out.w = Vec2::Zero();
  out.v = out.J * qd;
  // velocity products: the turning of the line of centres and the centripetal accelerations
  const Vec2 delta = a_j * qd(j) - a_i * qd(i);
  const Vec2 kappa_i = qd(i) * qd(i) * Vec2(-a_i.y(), a_i.x());
  const Vec2 kappa_j = qd(j) * qd(j) * Vec2(-a_j.y(), a_j.x());
  const double td = t.dot(delta);
  const double nd = n.dot(delta);
  out.gamma = {-td * nd / D + t.dot(kappa_j - kappa_i), td * td / D + n.dot(kappa_j - kappa_i)};
  out.scale = (bj.pivot - bi.pivot) + bi.length + bj.length + bi.radius + bj.radius;
}

double PendulumChain::force_scale() const {
  double m = 0.0;
  for (const PendulumBall& b : balls_) m += b.mass;
  return m * (g_ > 0.0 ? g_ : 1.0);
}

double PendulumChain::mass_scale() const {
  double m = 0.0;
  for (const PendulumBall& b : balls_) m = std::max(m, b.mass);
  return m;
}

double PendulumChain::velocity_scale(double /*t*/, const VecQ& /*q*/, const VecQ& qd) const {
  double s = 0.0;
  for (int i = 0; i < nq(); ++i)
    s = std::max(s, std::abs(qd(i)) * (ball(i).length + ball(i).radius));
  return s;
}

double PendulumChain::rate_bound(const VecQ& qd) const {
  double r = 0.0;
  for (int i = 0; i < nq(); ++i) r = std::max(r, std::sqrt(g_ / ball(i).length) + std::abs(qd(i)));
  return r;
}

bool PendulumChain::multipoint_input(double t, const VecQ& q,
                                     const std::array<bool, kMaxContacts>& active,
                                     multipoint::Input& in, VecQ& frame_velocity) const {
  namespace mp = multipoint;
  const int n = nq();
  frame_velocity = VecQ::Zero(n);
  int k = 0;
  for (int c = 0; c < num_contacts(); ++c) k += active[static_cast<std::size_t>(c)] ? 1 : 0;
  in.dim = mp::Dimension::kPlanar;
  in.M = mass_matrix(t, q);
  in.J = mp::JacobianX::Zero(2 * k, n);
  in.name = "pendulum_chain";
  in.contacts.clear();
  in.body_points.clear();
  in.body_names.clear();
  for (int i = 0; i < n; ++i) in.body_names.push_back(ball_name(i));
  ContactGeometry g;
  const VecQ zero = VecQ::Zero(n);
  int a = 0;
  for (int c = 0; c < num_contacts(); ++c) {
    if (!active[static_cast<std::size_t>(c)]) continue;
    contact_geometry(c, t, q, zero, g);
    in.J.block(2 * a, 0, 2, n) = g.J;
    const Vec2 d = centre(c + 1, q) - centre(c, q);
    const Vec2 nn = d / d.norm();
    mp::ContactPoint p;
    p.name = contact(c).name;
    p.frame = {Vec3(-nn.y(), nn.x(), 0.0), Vec3(0.0, 0.0, 1.0), Vec3(nn.x(), nn.y(), 0.0)};
    p.mu_s = contact(c).mu_s;
    p.mu_d = contact(c).mu_d;
    in.contacts.push_back(p);
    // ball c is the first side (receives −Λ) at +r n̂, ball c+1 the second at −r n̂
    const double ri = ball(c).radius;
    const double rj = ball(c + 1).radius;
    in.body_points.push_back({c, a, -1, {ri * nn.x(), ri * nn.y(), 0.0}});
    in.body_points.push_back({c + 1, a, 1, {-rj * nn.x(), -rj * nn.y(), 0.0}});
    ++a;
  }
  // body by body, each ball's left point before its right point (the chain A–B, B–C of [R]): a
  // stable insertion sort, which (unlike std::stable_sort's buffer) allocates nothing
  for (std::size_t i = 1; i < in.body_points.size(); ++i) {
    const mp::BodyPoint x = in.body_points[i];
    std::size_t j = i;
    for (; j > 0 && x.body < in.body_points[j - 1].body; --j)
      in.body_points[j] = in.body_points[j - 1];
    in.body_points[j] = x;
  }
  return k > 0;
}

std::unique_ptr<System> PendulumChain::clone() const {
  return std::make_unique<PendulumChain>(*this);
}

ParameterSet PendulumChain::own_parameters() const {
  ParameterSet p;
  p.add("gravity", g_, "m/s^2", "gravity g (along -y)");
  p.add("inertia_factor", k_, "", "k of I = m L^2 + k m r^2 (0.4: solid spheres)");
  for (int i = 0; i < nq(); ++i) {
    const std::string pre = ball_name(i) + ".";
    p.add(pre + "mass", ball(i).mass, "kg", "mass of ball " + ball_name(i));
    p.add(pre + "radius", ball(i).radius, "m", "radius of ball " + ball_name(i));
    p.add(pre + "length", ball(i).length, "m", "string length (pivot to centre)");
    p.add(pre + "pivot", ball(i).pivot, "m", "x of the pivot");
  }
  return p;
}

std::unique_ptr<System> PendulumChain::with_own_parameter(std::string_view name,
                                                          double value) const {
  std::vector<PendulumBall> balls = balls_;
  double g = g_;
  double k = k_;
  bool known = false;
  if (name == "gravity") {
    g = value;
    known = true;
  } else if (name == "inertia_factor") {
    k = value;
    known = true;
  } else {
    for (int i = 0; i < nq() && !known; ++i) {
      const std::string pre = ball_name(i) + ".";
      if (!name.starts_with(pre)) continue;
      const std::string_view what = name.substr(pre.size());
      PendulumBall& b = balls[static_cast<std::size_t>(i)];
      known = true;
      if (what == "mass") {
        b.mass = value;
      } else if (what == "radius") {
        b.radius = value;
      } else if (what == "length") {
        b.length = value;
      } else if (what == "pivot") {
        b.pivot = value;
      } else {
        known = false;
      }
    }
  }
  if (!known) (void)parameters().get(name);  // throws, listing the known names
  auto m = std::make_unique<PendulumChain>(std::move(balls), g, k, contact(0).law);
  std::vector<Contact> cs;
  for (int c = 0; c < num_contacts(); ++c) cs.push_back(contact(c));
  m->set_contacts(std::move(cs));
  return m;
}

}  // namespace clatter::model
