#include "clatter/multipoint/bodies.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "clatter/core/error.hpp"

namespace clatter::multipoint {

namespace {

void require_positive(double x, const char* field) {
  require(std::isfinite(x) && x > 0.0, field, "must be finite and > 0", x);
}

void require_friction(double mu_s, double mu_d) {
  require(std::isfinite(mu_d) && mu_d >= 0.0, "mu_d", "must be finite and >= 0", mu_d);
  require(std::isfinite(mu_s) && mu_s >= mu_d, "mu_s", "must be finite and >= mu_d", mu_s);
}

ContactFrame planar_frame(const Vec3& T, const Vec3& N) { return {T, Vec3(0.0, 0.0, 1.0), N}; }

// planar rows (T, N) of a point r of the body with q̇ = (V_x, V_y, θ̇): v = V + θ̇ (−r_y, r_x)
void planar_rows(JacobianX& J, int contact, const Vec3& r, const ContactFrame& f) {
  const Vec3 dv_dtheta(-r.y(), r.x(), 0.0);
  for (int c = 0; c < 2; ++c) {
    const Vec3& e = c == 0 ? f.T1 : f.N;
    J(2 * contact + c, 0) = e.x();
    J(2 * contact + c, 1) = e.y();
    J(2 * contact + c, 2) = e.dot(dv_dtheta);
  }
}

// spatial rows (T1, T2, N) of a point r of a rigid body with q = (x, y, z, q4, q5, q6)
void spatial_rows(JacobianX& J, int contact, const Vec3& r, const ContactFrame& f, const Mat3& S) {
  for (int c = 0; c < 3; ++c) {
    const Vec3& e = c == 0 ? f.T1 : (c == 1 ? f.T2 : f.N);
    const Vec3 rot = (r.cross(e)).transpose() * S;
    for (int a = 0; a < 3; ++a) {
      J(3 * contact + c, a) = e[a];
      J(3 * contact + c, 3 + a) = rot[a];
    }
  }
}

MassMatrixX rigid_mass_matrix(double m, const Vec3& I_body, const Mat3& S, const Mat3& R) {
  MassMatrixX M = MassMatrixX::Zero(6, 6);
  M.topLeftCorner(3, 3) = m * Mat3::Identity();
  M.bottomRightCorner(3, 3) = S.transpose() * R * I_body.asDiagonal() * R.transpose() * S;
  return M;
}

}  // namespace

Input ball_in_corner(const BallInCorner& p) {
  require_positive(p.m, "mass");
  require_positive(p.R, "radius");
  require_positive(p.inertia_factor, "inertia_factor");
  require_friction(p.mu_s, p.mu_d);
  Input in;
  in.name = "ball-corner";
  in.dim = Dimension::kPlanar;
  in.M = MassMatrixX::Zero(3, 3);
  in.M.diagonal() << p.m, p.m, p.inertia_factor * p.m * p.R * p.R;
  in.qdot_pre = DofVector(3);
  in.qdot_pre << p.qdot_pre.x(), p.qdot_pre.y(), p.qdot_pre.z();
  in.contacts = {{"ground", planar_frame({1, 0, 0}, {0, 1, 0}), p.mu_s, p.mu_d},
                 {"wall", planar_frame({0, 1, 0}, {-1, 0, 0}), p.mu_s, p.mu_d}};
  in.body_points = {{0, 0, 1, {0.0, -p.R, 0.0}}, {0, 1, 1, {p.R, 0.0, 0.0}}};
  in.body_names = {"ball"};
  in.J = JacobianX::Zero(4, 3);
  for (int i = 0; i < 2; ++i) {
    planar_rows(in.J, i, in.body_points[static_cast<std::size_t>(i)].r_G,
                in.contacts[static_cast<std::size_t>(i)].frame);
  }
  return in;
}

Input rocking_block(const RockingBlock& p) {
  require_positive(p.m, "mass");
  require_positive(p.b, "width");
  require_positive(p.h, "height");
  require_friction(p.mu_s, p.mu_d);
  require(std::isfinite(p.omega_pre) && p.omega_pre < 0.0, "omega_pre",
          "must be finite and < 0 (corner 2 moving down)", p.omega_pre);
  require_finite(p.slip_pre, "slip_pre");
  Input in;
  in.name = "rocking-block";
  in.dim = Dimension::kPlanar;
  in.M = MassMatrixX::Zero(3, 3);
  in.M.diagonal() << p.m, p.m, p.m * (p.b * p.b + p.h * p.h) / 12.0;
  const Vec3 r1(-0.5 * p.b, -0.5 * p.h, 0.0);
  const Vec3 r2(0.5 * p.b, -0.5 * p.h, 0.0);
  in.contacts = {{"corner1", planar_frame({1, 0, 0}, {0, 1, 0}), p.mu_s, p.mu_d},
                 {"corner2", planar_frame({1, 0, 0}, {0, 1, 0}), p.mu_s, p.mu_d}};
  in.body_points = {{0, 0, 1, r1}, {0, 1, 1, r2}};
  in.body_names = {"block"};
  in.J = JacobianX::Zero(4, 3);
  planar_rows(in.J, 0, r1, in.contacts[0].frame);
  planar_rows(in.J, 1, r2, in.contacts[1].frame);
  // rocking about corner 1 (v₁ = (v_T⁻, 0)): V = (v_T⁻, 0) − θ̇ (−r₁y, r₁x)
  const double w = p.omega_pre;
  in.qdot_pre = DofVector(3);
  in.qdot_pre << p.slip_pre + w * r1.y(), -w * r1.x(), w;
  return in;
}

Input cradle(const Cradle& p) {
  const int nb = static_cast<int>(p.masses.size());
  require(nb >= 2 && nb <= kMaxCradleBalls, "masses",
          "need 2 to " + std::to_string(kMaxCradleBalls) + " balls");
  for (const double m : p.masses) require_positive(m, "masses");
  require_positive(p.L, "length");
  require_positive(p.R, "radius");
  require_positive(p.v_pre, "v_pre");
  require_friction(p.mu_s, p.mu_d);
  Input in;
  in.name = "cradle" + std::to_string(nb);
  in.dim = Dimension::kPlanar;
  in.M = MassMatrixX::Zero(nb, nb);
  for (int i = 0; i < nb; ++i) {
    const double m = p.masses[static_cast<std::size_t>(i)];
    in.M(i, i) = m * p.L * p.L + 0.4 * m * p.R * p.R;
    in.body_names.push_back(std::string(1, static_cast<char>('A' + i)));
  }
  in.J = JacobianX::Zero(2 * (nb - 1), nb);
  for (int c = 0; c < nb - 1; ++c) {
    const std::string name =
        in.body_names[static_cast<std::size_t>(c)] + in.body_names[static_cast<std::size_t>(c + 1)];
    in.contacts.push_back({name, planar_frame({0, 1, 0}, {1, 0, 0}), p.mu_s, p.mu_d});
    // ball c (first side, receives −Λ) at its right point, ball c+1 at its left point
    in.body_points.push_back({c, c, -1, {p.R, 0.0, 0.0}});
    in.body_points.push_back({c + 1, c, 1, {-p.R, 0.0, 0.0}});
    in.J(2 * c, c) = -p.R;
    in.J(2 * c, c + 1) = -p.R;
    in.J(2 * c + 1, c) = -p.L;
    in.J(2 * c + 1, c + 1) = p.L;
  }
  // body points listed body by body (ball B: left point before right point)
  std::stable_sort(in.body_points.begin(), in.body_points.end(),
                   [](const BodyPoint& a, const BodyPoint& b) { return a.body < b.body; });
  in.qdot_pre = DofVector::Zero(nb);
  in.qdot_pre[0] = p.v_pre / p.L;
  return in;
}

Mat3 euler123_rate_matrix(double q4, double q5) {
  const double s4 = std::sin(q4), c4 = std::cos(q4), s5 = std::sin(q5), c5 = std::cos(q5);
  Mat3 S;
  S << 1.0, 0.0, s5, 0.0, c4, -s4 * c5, 0.0, s4, c4 * c5;
  return S;
}

Mat3 euler123_rotation(double q4, double q5, double q6) {
  const double s4 = std::sin(q4), c4 = std::cos(q4), s5 = std::sin(q5), c5 = std::cos(q5);
  const double s6 = std::sin(q6), c6 = std::cos(q6);
  const Vec3 b1(c5 * c6, s4 * s5 * c6 + c4 * s6, -c4 * s5 * c6 + s4 * s6);
  const Vec3 b2(-c5 * s6, c4 * c6 - s4 * s5 * s6, s4 * c6 + c4 * s5 * s6);
  Mat3 R;
  R.col(0) = b1;
  R.col(1) = b2;
  R.col(2) = b1.cross(b2);
  return R;
}

Input sphere_in_corner(const SphereInCorner& p) {
  require_positive(p.m, "mass");
  require_positive(p.R, "radius");
  require_friction(p.mu_s, p.mu_d);
  require(p.v_pre.allFinite(), "v_pre", "must be finite");
  require(p.omega_pre.allFinite(), "omega_pre", "must be finite");
  Input in;
  in.name = "sphere-corner";
  in.dim = Dimension::kSpatial;
  const Mat3 S = euler123_rate_matrix(0.0, 0.0);
  const Mat3 R = euler123_rotation(0.0, 0.0, 0.0);
  const double I = 0.4 * p.m * p.R * p.R;
  in.M = rigid_mass_matrix(p.m, Vec3(I, I, I), S, R);
  const Vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  in.contacts = {{"B:ground", {x, y, z}, p.mu_s, p.mu_d},
                 {"C:wall-x", {z, y, -x}, p.mu_s, p.mu_d},
                 {"D:wall-y", {x, z, -y}, p.mu_s, p.mu_d}};
  in.body_points = {{0, 0, 1, -p.R * z}, {0, 1, 1, p.R * x}, {0, 2, 1, p.R * y}};
  in.body_names = {"sphere"};
  in.J = JacobianX::Zero(9, 6);
  for (int i = 0; i < 3; ++i) {
    spatial_rows(in.J, i, in.body_points[static_cast<std::size_t>(i)].r_G,
                 in.contacts[static_cast<std::size_t>(i)].frame, S);
  }
  in.qdot_pre = DofVector(6);
  const Vec3 rates = S.inverse() * p.omega_pre;
  in.qdot_pre << p.v_pre, rates;
  return in;
}

Input block_3d(const Block3d& p) {
  require_positive(p.m, "mass");
  require_positive(p.l, "length");
  require_positive(p.b, "width");
  require_positive(p.h, "height");
  require_friction(p.mu_s, p.mu_d);
  require(p.omega_pre.allFinite(), "omega_pre", "must be finite");
  require(p.slip_pre.allFinite(), "slip_pre", "must be finite");
  Input in;
  in.dim = Dimension::kSpatial;
  const double hx = 0.5 * p.l, hy = 0.5 * p.b, hz = 0.5 * p.h;
  std::vector<std::pair<std::string, Vec3>> pts = {{"A", {-hx, -hy, -hz}}, {"B", {hx, -hy, -hz}}};
  switch (p.points) {
    case BlockPoints::kThreeCorners:
      in.name = "block3d-3";
      pts.push_back({"C", {hx, hy, -hz}});
      break;
    case BlockPoints::kFourCorners:
      in.name = "block3d-4";
      pts.push_back({"C", {hx, hy, -hz}});
      pts.push_back({"D", {-hx, hy, -hz}});
      break;
    case BlockPoints::kThreeCentered:
      in.name = "block3d-centered";
      pts.push_back({"C", {0.0, hy, -hz}});
      break;
  }
  const Mat3 S = euler123_rate_matrix(0.0, 0.0);
  const Mat3 R = euler123_rotation(0.0, 0.0, 0.0);
  const Vec3 I_body(p.m * (p.b * p.b + p.h * p.h) / 12.0, p.m * (p.l * p.l + p.h * p.h) / 12.0,
                    p.m * (p.l * p.l + p.b * p.b) / 12.0);
  in.M = rigid_mass_matrix(p.m, I_body, S, R);
  const int k = static_cast<int>(pts.size());
  in.J = JacobianX::Zero(3 * k, 6);
  const ContactFrame ground{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < k; ++i) {
    const auto& [name, r] = pts[static_cast<std::size_t>(i)];
    in.contacts.push_back({name, ground, p.mu_s, p.mu_d});
    in.body_points.push_back({0, i, 1, r});
    spatial_rows(in.J, i, r, ground, S);
  }
  in.body_names = {"block"};
  // v_G = v_A − ω × r_A with v_A = (slip, 0)
  const Vec3 vA(p.slip_pre.x(), p.slip_pre.y(), 0.0);
  const Vec3 vG = vA - p.omega_pre.cross(pts[0].second);
  in.qdot_pre = DofVector(6);
  in.qdot_pre << vG, S.inverse() * p.omega_pre;
  return in;
}

}  // namespace clatter::multipoint
