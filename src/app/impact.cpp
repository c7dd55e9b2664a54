#include "clatter/app/impact.hpp"

#include "clatter/core/error.hpp"
#include "clatter/laws/brach.hpp"
#include "clatter/model/planar_body.hpp"
#include "json_views.hpp"

namespace clatter::app {

ImpactReport run_impact(const ImpactRequest& o) {
  const LawKind law = parse_law(o.law);
  const bool rigid = o.mass || o.inertia || o.offset || o.angle || !o.qdot.empty();
  ImpactInput in;
  std::optional<model::BodyContact> body;
  Vec3 qdot = Vec3::Zero();
  if (rigid) {
    require(o.W.empty() && o.v_pre.empty(), "W",
            "give either W and v_pre or the rigid-body form, not both");
    require(o.mass && o.inertia && o.offset && o.angle && !o.qdot.empty(), "mass",
            "the rigid-body form needs mass, inertia, offset, angle and qdot (V_T, V_N, "
            "theta_dot)");
    const model::PlanarBody b{*o.mass, *o.inertia};
    validate(b);
    require(o.qdot.size() == 3, "qdot",
            "give the three components V_T, V_N, theta_dot, got " + std::to_string(o.qdot.size()) +
                " values");
    for (const double x : o.qdot) require_finite(x, "qdot");
    qdot = {o.qdot[0], o.qdot[1], o.qdot[2]};
    require(o.end == 1 || o.end == 2, "end", "must be 1 or 2", o.end);
    body = model::rod_end_contact(b, *o.offset, *o.angle, o.end);
    in = {body->contact_velocity(qdot), body->W()};
    try {
      validate(in.W, "W");
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("mass", std::string("with inertia, offset and angle gives a contact "
                                                "matrix that is not usable (") +
                                        e.what() + "): give values of ordinary magnitude");
    }
  } else {
    require(!o.W.empty(), "W",
            "required: the contact matrix entries (A, B, C), or the rigid-body form");
    require(o.W.size() == 3, "W",
            "give the three entries A, B, C of W = [[A, B], [B, C]], got " +
                std::to_string(o.W.size()) + " values");
    require(!o.v_pre.empty(), "v_pre",
            "required: the pre-impact contact velocity (v_T, v_N), or the rigid-body form");
    require(o.v_pre.size() == 2, "v_pre",
            "give the two components v_T, v_N, got " + std::to_string(o.v_pre.size()) + " values");
    in = {{o.v_pre[0], o.v_pre[1]}, {o.W[0], o.W[1], o.W[2]}};
  }
  const ImpactParams params{o.mu, o.e};
  ImpactReport report;
  report.outcome = apply_law(law, in, params);
  const ImpactOutcome& out = report.outcome;
  nlohmann::json j = detail::outcome_json(in, params, out);
  j["law"] = std::string(to_string(law));
  if (law == LawKind::kBrach) j["brach"] = detail::brach_json(brach_bounds(in, params));
  if (body) {
    const Vec3 qdot_post = qdot + body->velocity_jump(out.Lambda);
    j["qdot_pre"] = {qdot.x(), qdot.y(), qdot.z()};
    j["qdot_post"] = {qdot_post.x(), qdot_post.y(), qdot_post.z()};
    j["kinetic_energy_pre"] = body->kinetic_energy(qdot);
    j["kinetic_energy_post"] = body->kinetic_energy(qdot_post);
  }
  report.json = j.dump(2) + "\n";
  return report;
}

}  // namespace clatter::app
