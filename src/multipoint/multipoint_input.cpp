#include "clatter/multipoint/multipoint_input.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <string>

#include "clatter/contact/delassus.hpp"
#include "clatter/core/error.hpp"

namespace clatter::multipoint {

namespace {

// tolerance of the orthonormality checks of the frames
constexpr double kFrameTolerance = 1e-9;

bool finite(const Vec3& v) { return v.allFinite(); }

void require_unit(const Vec3& v, const std::string& field) {
  require(finite(v) && std::abs(v.norm() - 1.0) <= kFrameTolerance, field.c_str(),
          "must be a finite unit vector");
}

}  // namespace

void validate(const Input& in) {
  require(in.dim == Dimension::kPlanar || in.dim == Dimension::kSpatial, "dim", "must be 2 or 3");
  const int n = static_cast<int>(in.M.rows());
  require(n >= 1 && n <= kMaxDofs && in.M.cols() == n, "M",
          "must be square with 1 to " + std::to_string(kMaxDofs) + " rows");
  require(in.M.allFinite(), "M", "must be finite");
  require(in.M.isApprox(in.M.transpose(), 1e-12), "M", "must be symmetric");
  const Eigen::LLT<MassMatrixX> llt(in.M);
  require(llt.info() == Eigen::Success, "M", "must be positive definite");

  const int k = in.n_contacts();
  require(k >= 1 && k <= kMaxContacts, "contacts",
          "need 1 to " + std::to_string(kMaxContacts) + " contacts");
  const int d = in.d();
  require(in.J.rows() == d * k && in.J.cols() == n, "J",
          "must have d·k = " + std::to_string(d * k) + " rows and n = " + std::to_string(n) +
              " columns");
  require(in.J.allFinite(), "J", "must be finite");
  require(in.qdot_pre.size() == n && in.qdot_pre.allFinite(), "qdot_pre",
          "must have n = " + std::to_string(n) + " finite entries");

  for (int i = 0; i < k; ++i) {
    const ContactPoint& c = in.contacts[static_cast<std::size_t>(i)];
    const std::string field = "contacts[" + std::to_string(i) + "]";
    require_unit(c.frame.T1, field + ".T1");
    require_unit(c.frame.N, field + ".N");
    require(std::abs(c.frame.T1.dot(c.frame.N)) <= kFrameTolerance, (field + ".T1").c_str(),
            "must be perpendicular to N");
    if (in.dim == Dimension::kSpatial) {
      require_unit(c.frame.T2, field + ".T2");
      require(std::abs(c.frame.T2.dot(c.frame.N)) <= kFrameTolerance &&
                  std::abs(c.frame.T2.dot(c.frame.T1)) <= kFrameTolerance,
              (field + ".T2").c_str(), "must be perpendicular to T1 and N");
    } else {
      require(
          std::abs(c.frame.T1.z()) <= kFrameTolerance && std::abs(c.frame.N.z()) <= kFrameTolerance,
          (field + ".N").c_str(), "planar frames must lie in the x-y plane");
    }
    require(std::isfinite(c.mu_d) && c.mu_d >= 0.0, (field + ".mu_d").c_str(),
            "must be finite and >= 0", c.mu_d);
    require(std::isfinite(c.mu_s) && c.mu_s >= c.mu_d, (field + ".mu_s").c_str(),
            "must be finite and >= mu_d", c.mu_s);
  }

  const auto& pts = in.body_points;
  require(pts.size() <= static_cast<std::size_t>(2 * kMaxContacts), "body_points",
          "at most two bodies touch at a contact");
  for (std::size_t a = 0; a < pts.size(); ++a) {
    const BodyPoint& p = pts[a];
    const std::string field = "body_points[" + std::to_string(a) + "]";
    require(p.body >= 0, (field + ".body").c_str(), "must be >= 0");
    require(p.contact >= 0 && p.contact < k, (field + ".contact").c_str(),
            "must name an existing contact");
    require(p.side == 1 || p.side == -1, (field + ".side").c_str(), "must be +1 or -1");
    require(finite(p.r_G), (field + ".r_G").c_str(), "must be finite");
    if (in.dim == Dimension::kPlanar) {
      require(std::abs(p.r_G.z()) <= kFrameTolerance, (field + ".r_G").c_str(),
              "planar points lie in the x-y plane");
    }
    for (std::size_t b = 0; b < a; ++b) {
      if (pts[b].body != p.body) continue;
      require(pts[b].contact != p.contact, (field + ".contact").c_str(),
              "a body touches a contact once");
      require((pts[b].r_G - p.r_G).norm() > 1e-12, (field + ".r_G").c_str(),
              "two points of one body must be distinct");
    }
  }
}

Prepared prepare(const Input& in) {
  validate(in);
  Prepared p;
  p.input = &in;
  p.d = in.d();
  p.k = in.n_contacts();
  p.n = in.n_dofs();
  const Eigen::LLT<MassMatrixX> llt(in.M);
  delassus(llt, in.J, p.MinvJt, p.beta);
  p.beta = 0.5 * (p.beta + p.beta.transpose()).eval();
  p.v_pre = in.J * in.qdot_pre;
  const double scale = p.v_pre.cwiseAbs().maxCoeff();
  p.velocity_scale = scale > 0.0 ? scale : 1.0;
  return p;
}

double kinetic_energy(const Input& in, const DofVector& qdot) {
  return 0.5 * qdot.dot(in.M * qdot);
}

}  // namespace clatter::multipoint
