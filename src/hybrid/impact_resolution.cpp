#include "clatter/hybrid/impact_resolution.hpp"

#include "clatter/contact/delassus.hpp"
#include "clatter/laws/impact_without_collision.hpp"

namespace clatter::hybrid {

namespace {

using model::Rows2;
using model::VecQ;
using MinvJt2 = Eigen::Matrix<double, Eigen::Dynamic, 2, 0, model::kMaxDof, 2>;

// W = J M⁻¹ Jᵀ and M⁻¹ Jᵀ of the contact rows J
struct ContactInertia {
  MinvJt2 MinvJt;
  ContactMatrix W;
};
// the planar rigid body's M = diag(m, m, I), solved as MassFactor::solve does (b_i / m_i), in
// fixed-size arithmetic
struct Diagonal3 {
  Vec3 d;
  [[nodiscard]] Vec3 solve(const Vec3& b) const { return b.cwiseQuotient(d); }
};
ContactInertia contact_inertia(const model::MassFactor& mass, const Rows2& J) {
  ContactInertia c;
  Mat2 W;
  if (mass.diagonal && J.cols() == 3) {
    const Eigen::Matrix<double, 2, 3> J3 = J;
    Eigen::Matrix<double, 3, 2> MinvJt3;
    delassus(Diagonal3{mass.diag}, J3, MinvJt3, W);
    c.MinvJt = MinvJt3;
  } else {
    delassus(mass, J, c.MinvJt, W);
  }
  c.W = ContactMatrix::from_matrix(W);
  return c;
}

}  // namespace

ContactImpact apply_impact(const model::MassFactor& mass, const Vec2& w, VecQ& qd, const Rows2& J,
                           const LawChoice& law) {
  ContactImpact out;
  out.qd_pre = qd;
  out.v_pre = J.lazyProduct(qd) - w;
  const ContactInertia ci = contact_inertia(mass, J);
  out.outcome = law.apply({out.v_pre, ci.W});
  qd += ci.MinvJt.lazyProduct(out.outcome.Lambda);
  out.surface_work = out.outcome.Lambda.dot(w);
  return out;
}

ContactImpact apply_impact_without_collision(const model::MassFactor& mass, const Vec2& w, VecQ& qd,
                                             const Rows2& J, const ImpactParams& params) {
  ContactImpact out;
  out.qd_pre = qd;
  out.v_pre = {J.row(0).dot(qd) - w.x(), 0.0};
  const ContactInertia ci = contact_inertia(mass, J);
  out.outcome = impact_without_collision(ci.W, out.v_pre.x(), params);
  qd += ci.MinvJt.lazyProduct(out.outcome.Lambda);
  out.surface_work = out.outcome.Lambda.dot(w);
  return out;
}

ContactImpact apply_contact_impact(const model::System& system, double t, const VecQ& q, VecQ& qd,
                                   int i, const LawChoice& law) {
  model::MassFactor mass;
  system.factor_mass(t, q, mass);
  model::ContactGeometry g;
  system.contact_geometry(i, t, q, qd, g);
  return apply_impact(mass, g.w, qd, g.J, law);
}

ContactImpact apply_pair_impact(const model::System& system, double t, const VecQ& q, VecQ& qd,
                                int i, int j, const LawChoice& law) {
  model::MassFactor mass;
  system.factor_mass(t, q, mass);
  model::ContactGeometry gi, gj;
  system.contact_geometry(i, t, q, qd, gi);
  system.contact_geometry(j, t, q, qd, gj);
  const Rows2 J = 0.5 * (gi.J + gj.J);
  return apply_impact(mass, 0.5 * (gi.w + gj.w), qd, J, law);
}

}  // namespace clatter::hybrid
