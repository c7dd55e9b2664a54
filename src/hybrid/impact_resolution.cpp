#include "clatter/hybrid/impact_resolution.hpp"

#include "clatter/laws/impact_without_collision.hpp"

namespace clatter::hybrid {

namespace {

// W = J M⁻¹ Jᵀ and M⁻¹ Jᵀ of the contact rows J
struct ContactInertia {
  Eigen::Matrix<double, 3, 2> MinvJt;
  ContactMatrix W;
};
ContactInertia contact_inertia(const dynamics::PlanarBodyModel& model,
                               const Eigen::Matrix<double, 2, 3>& J) {
  ContactInertia c;
  c.MinvJt.col(0) = model.solve_mass(J.row(0).transpose());
  c.MinvJt.col(1) = model.solve_mass(J.row(1).transpose());
  c.W = ContactMatrix::from_matrix(J * c.MinvJt);
  return c;
}

}  // namespace

ContactImpact apply_impact(const dynamics::PlanarBodyModel& model, double t, Vec3& qd,
                           const Eigen::Matrix<double, 2, 3>& J, const LawChoice& law) {
  const dynamics::Surface& s = model.surface();
  const Vec2 v_surface{s.u(t), s.hdot(t)};
  ContactImpact out;
  out.qd_pre = qd;
  out.v_pre = J * qd - v_surface;
  const ContactInertia ci = contact_inertia(model, J);
  out.outcome = law.apply({out.v_pre, ci.W});
  qd += ci.MinvJt * out.outcome.Lambda;
  out.surface_work = out.outcome.Lambda.dot(v_surface);
  return out;
}

ContactImpact apply_impact_without_collision(const dynamics::PlanarBodyModel& model, double t,
                                             Vec3& qd, const Eigen::Matrix<double, 2, 3>& J,
                                             const ImpactParams& params) {
  const dynamics::Surface& s = model.surface();
  const Vec2 v_surface{s.u(t), s.hdot(t)};
  ContactImpact out;
  out.qd_pre = qd;
  out.v_pre = {J.row(0).dot(qd) - v_surface.x(), 0.0};
  const ContactInertia ci = contact_inertia(model, J);
  out.outcome = impact_without_collision(ci.W, out.v_pre.x(), params);
  qd += ci.MinvJt * out.outcome.Lambda;
  out.surface_work = out.outcome.Lambda.dot(v_surface);
  return out;
}

ContactImpact apply_contact_impact(const dynamics::PlanarBodyModel& model, double t, const Vec3& q,
                                   Vec3& qd, int i, const LawChoice& law) {
  return apply_impact(model, t, qd, model.contact(i, t, q, qd).J, law);
}

ContactImpact apply_pair_impact(const dynamics::PlanarBodyModel& model, double t, const Vec3& q,
                                Vec3& qd, int i, int j, const LawChoice& law) {
  const Eigen::Matrix<double, 2, 3> J =
      0.5 * (model.contact(i, t, q, qd).J + model.contact(j, t, q, qd).J);
  return apply_impact(model, t, qd, J, law);
}

}  // namespace clatter::hybrid
