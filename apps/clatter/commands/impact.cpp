// `clatter impact`: one impact, printed as JSON.
//
// Contact-space form:  --law L --W A B C --mu MU --e E --v VT VN
// Rigid-body form:     --law L --mass m --inertia I --offset L --angle θ --qdot VT VN θdot
//                      [--end 1|2] --mu MU --e E
// The options of app::ImpactRequest (app/impact.hpp: the two forms, the checks and the JSON
// report), printed and with --out also written atomically; exit 3 where the law cannot resolve
// the impact.

#include <iostream>
#include <memory>
#include <string>

#include "clatter/app/impact.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"
#include "commands/commands.hpp"

namespace clatter::cli {

namespace {

struct ImpactCliOptions {
  app::ImpactRequest request;
  std::string out;
};

int run_impact(const ImpactCliOptions& o) {
  if (!o.out.empty()) io::require_replaceable_file(o.out, "--out");
  const app::ImpactReport report = app::run_impact(o.request);
  if (!o.out.empty()) io::write_file_atomic(o.out, report.json, "--out");
  std::cout << report.json;
  if (!report.resolved()) {
    std::cerr << "clatter: impact: no valid result (status " << to_string(report.outcome.status)
              << "): the law cannot resolve this impact\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_impact(CLI::App& app) {
  auto o = std::make_shared<ImpactCliOptions>();
  app::ImpactRequest& r = o->request;
  CLI::App* sub = app.add_subcommand("impact", "Evaluate one impact and print it as JSON");
  std::string laws;
  for (const auto n : kLawNames) laws += (laws.empty() ? "" : ", ") + std::string(n);
  sub->add_option("--law", r.law, "impact law: " + laws)->capture_default_str();
  sub->add_option("--W", r.W, "contact matrix entries A B C (W = [[A, B], [B, C]], SPD)")
      ->expected(3);
  sub->add_option("--v,--v-pre", r.v_pre, "pre-impact contact velocity VT VN (VN < 0)")
      ->expected(2);
  sub->add_option("--mu", r.mu, "friction coefficient mu >= 0 (Brach: the bound mu_f)");
  sub->add_option("--e", r.e, "restitution in [0, 1] (Newton e_N, Poisson e_P, Stronge e*)");
  sub->add_option("--mass", r.mass, "rigid-body form: mass m > 0 [kg]");
  sub->add_option("--inertia", r.inertia, "rigid-body form: inertia I > 0 about G [kg m^2]");
  sub->add_option("--offset", r.offset, "rigid-body form: distance L > 0 from G to the contact");
  sub->add_option("--angle", r.angle, "rigid-body form: body angle theta to the surface [rad]");
  sub->add_option("--qdot", r.qdot, "rigid-body form: VT VN THETADOT of the centre of mass")
      ->expected(3);
  sub->add_option("--end", r.end, "rigid-body form: contact at end 1 (G - L e) or 2 (G + L e)");
  sub->add_option("--out", o->out, "also write the JSON to this file (atomically)");
  return [o] { return run_impact(*o); };
}

}  // namespace clatter::cli
