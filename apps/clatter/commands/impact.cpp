// `clatter impact`: one impact, printed as JSON.
//
// Contact-space form:  --law L --W A B C --mu MU --e E --v VT VN
// Rigid-body form:     --law L --mass m --inertia I --offset L --angle θ --qdot VT VN θdot
//                      [--end 1|2] --mu MU --e E
// The rigid-body form is the body of [B] §3.2 with its contact at end 1, G − L(cosθ, sinθ), or
// end 2, G + L(cosθ, sinθ), in the contact frame; it also reports the post-impact generalized
// velocities q̇⁺ = q̇⁻ + M⁻¹JᵀΛ.

#include <array>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"
#include "clatter/laws/brach.hpp"
#include "clatter/laws/impact_law.hpp"
#include "clatter/model/planar_body.hpp"
#include "commands/commands.hpp"
#include "commands/json_output.hpp"

namespace clatter::cli {

namespace {

struct ImpactOptions {
  std::string law{"stronge"};
  std::vector<double> W, v, qdot;
  double mu{0.0}, e{0.0};
  std::optional<double> mass, inertia, offset, angle;
  int end{1};
  std::string out;
};

int run_impact(const ImpactOptions& o) {
  const LawKind law = parse_law(o.law);
  const bool rigid = o.mass || o.inertia || o.offset || o.angle || !o.qdot.empty();
  ImpactInput in;
  std::optional<model::BodyContact> body;
  Vec3 qdot = Vec3::Zero();
  if (rigid) {
    require(o.W.empty() && o.v.empty(), "W",
            "give either --W/--v or the rigid-body form, not both");
    require(
        o.mass && o.inertia && o.offset && o.angle && o.qdot.size() == 3, "mass",
        "the rigid-body form needs --mass, --inertia, --offset, --angle and --qdot VT VN THETADOT");
    const model::PlanarBody b{*o.mass, *o.inertia};
    validate(b);
    for (int i = 0; i < 3; ++i) require_finite(o.qdot[static_cast<std::size_t>(i)], "qdot");
    qdot = {o.qdot[0], o.qdot[1], o.qdot[2]};
    require(o.end == 1 || o.end == 2, "--end", "must be 1 or 2", o.end);
    body = model::rod_end_contact(b, *o.offset, *o.angle, o.end);
    in = {body->contact_velocity(qdot), body->W()};
    try {
      validate(in.W, "W");
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("--mass", std::string("with --inertia, --offset and --angle gives a "
                                                  "contact matrix that is not usable (") +
                                          e.what() + "): give values of ordinary magnitude");
    }
  } else {
    require(o.W.size() == 3, "W", "required: --W A B C (or the rigid-body form)");
    require(o.v.size() == 2, "v", "required: --v VT VN (or the rigid-body form)");
    in = {{o.v[0], o.v[1]}, {o.W[0], o.W[1], o.W[2]}};
  }
  if (!o.out.empty()) io::require_replaceable_file(o.out, "--out");
  const ImpactParams params{o.mu, o.e};
  const ImpactOutcome out = apply_law(law, in, params);

  nlohmann::json j = outcome_json(in, params, out);
  j["law"] = std::string(to_string(law));
  if (law == LawKind::kBrach) j["brach"] = brach_json(brach_bounds(in, params));
  if (body) {
    const Vec3 qdot_post = qdot + body->velocity_jump(out.Lambda);
    j["qdot_pre"] = {qdot.x(), qdot.y(), qdot.z()};
    j["qdot_post"] = {qdot_post.x(), qdot_post.y(), qdot_post.z()};
    j["kinetic_energy_pre"] = body->kinetic_energy(qdot);
    j["kinetic_energy_post"] = body->kinetic_energy(qdot_post);
  }
  const std::string text = j.dump(2) + "\n";
  if (!o.out.empty()) io::write_file_atomic(o.out, text, "--out");
  std::cout << text;
  if (out.status == Status::kSingular || out.status == Status::kNoTermination) {
    std::cerr << "clatter: impact: no valid result (status " << to_string(out.status)
              << "): the law cannot resolve this impact\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_impact(CLI::App& app) {
  auto o = std::make_shared<ImpactOptions>();
  CLI::App* sub = app.add_subcommand("impact", "Evaluate one impact and print it as JSON");
  std::string laws;
  for (const auto n : kLawNames) laws += (laws.empty() ? "" : ", ") + std::string(n);
  sub->add_option("--law", o->law, "impact law: " + laws)->capture_default_str();
  sub->add_option("--W", o->W, "contact matrix entries A B C (W = [[A, B], [B, C]], SPD)")
      ->expected(3);
  sub->add_option("--v", o->v, "pre-impact contact velocity VT VN (VN < 0)")->expected(2);
  sub->add_option("--mu", o->mu, "friction coefficient mu >= 0 (Brach: the bound mu_f)");
  sub->add_option("--e", o->e, "restitution in [0, 1] (Newton e_N, Poisson e_P, Stronge e*)");
  sub->add_option("--mass", o->mass, "rigid-body form: mass m > 0 [kg]");
  sub->add_option("--inertia", o->inertia, "rigid-body form: inertia I > 0 about G [kg m^2]");
  sub->add_option("--offset", o->offset, "rigid-body form: distance L > 0 from G to the contact");
  sub->add_option("--angle", o->angle, "rigid-body form: body angle theta to the surface [rad]");
  sub->add_option("--qdot", o->qdot, "rigid-body form: VT VN THETADOT of the centre of mass")
      ->expected(3);
  sub->add_option("--end", o->end, "rigid-body form: contact at end 1 (G - L e) or 2 (G + L e)");
  sub->add_option("--out", o->out, "also write the JSON to this file (atomically)");
  return [o] { return run_impact(*o); };
}

}  // namespace clatter::cli
