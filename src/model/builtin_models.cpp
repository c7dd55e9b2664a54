// The built-in model kinds, one line each (model/registry.hpp). A new built-in model adds its
// factory here; a user's model registers itself from its own file.

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "clatter/model/double_pendulum_belt_model.hpp"
#include "clatter/model/pendulum_chain.hpp"
#include "clatter/model/physical_pendulum.hpp"
#include "clatter/model/planar_body_lines.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "clatter/model/registry.hpp"
#include "clatter/model/rod_on_belt.hpp"
#include "clatter/model/spring_block_belt.hpp"

namespace clatter::model::detail {

namespace {

// [surface] of a planar body (model/surface.hpp); every key optional
Surface read_surface(ModelSpec& spec) {
  const std::unique_ptr<ModelSpec> s = spec.table("surface");
  Surface surface;
  surface.height = s->number("height", 0.0);
  surface.amplitude = s->number("amplitude", 0.0);
  surface.omega = s->number("omega", 0.0);
  surface.phase = s->number("phase", 0.0);
  surface.belt_velocity = s->number("belt_velocity", 0.0);
  surface.belt_amplitude = s->number("belt_amplitude", 0.0);
  surface.belt_omega = s->number("belt_omega", 0.0);
  surface.belt_phase = s->number("belt_phase", 0.0);
  s->reject_unknown();
  require(surface.omega >= 0.0, s->key("omega").c_str(), "must be >= 0 [rad/s]", surface.omega);
  require(surface.belt_omega >= 0.0, s->key("belt_omega").c_str(), "must be >= 0 [rad/s]",
          surface.belt_omega);
  return surface;
}

std::unique_ptr<System> make_planar(ModelSpec& spec, const std::string& which) {
  const double mass = spec.required_number("mass");
  require(mass > 0.0, spec.key("mass").c_str(), "must be > 0 [kg]", mass);
  const double gravity = spec.number("gravity", 9.81);
  require(gravity >= 0.0, spec.key("gravity").c_str(), "must be >= 0 [m/s^2]", gravity);
  const Surface surface = read_surface(spec);
  const LawChoice& law = spec.law();
  if (which == "ball") {
    const double R = spec.number("radius", 0.0);
    require(R >= 0.0, spec.key("radius").c_str(), "must be >= 0 [m]", R);
    return std::make_unique<PlanarBodyModel>(make_ball(mass, R, gravity, surface, law));
  }
  if (which == "rod") {
    const double L = spec.required_number("half_length");
    require(L > 0.0, spec.key("half_length").c_str(), "must be > 0 [m]", L);
    return std::make_unique<PlanarBodyModel>(make_rod(mass, L, gravity, surface, law));
  }
  if (which == "block") {
    const double b = spec.required_number("half_width");
    const double h = spec.required_number("half_height");
    require(b > 0.0, spec.key("half_width").c_str(), "must be > 0 [m]", b);
    require(h > 0.0, spec.key("half_height").c_str(), "must be > 0 [m]", h);
    return std::make_unique<PlanarBodyModel>(make_block(mass, b, h, gravity, surface, law));
  }
  // any body: inertia and [[model.contacts]] with name, position, radius and an optional law
  const double inertia = spec.required_number("inertia");
  require(inertia > 0.0, spec.key("inertia").c_str(), "must be > 0 [kg m^2]", inertia);
  std::vector<std::unique_ptr<ModelSpec>> tables = spec.tables("contacts");
  require(!tables.empty(), spec.key("contacts").c_str(),
          "a body needs [[model.contacts]] with name, position = [x, y] and radius");
  std::vector<ContactFeature> features;
  int i = 0;
  for (const std::unique_ptr<ModelSpec>& c : tables) {
    ContactFeature f;
    std::string fallback_name = "C";       // (built in two steps: g++ 12's -Wrestrict misfires on
    fallback_name += std::to_string(++i);  // the concatenation when this function is inlined)
    f.name = c->text("name", fallback_name);
    const std::vector<double> p = c->vector("position", 2, {0.0, 0.0});
    f.c_B = {p[0], p[1]};
    f.radius = c->number("radius", 0.0);
    require(f.radius >= 0.0, c->key("radius").c_str(), "must be >= 0 [m]", f.radius);
    f.law = law;
    const std::string kind = c->text("law", "");
    if (!kind.empty()) {
      try {
        f.law.kind = parse_law(kind);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument(c->key("law"), e.what());
      }
    }
    f.law.params.mu = c->number("mu", f.law.params.mu);
    f.law.params.e = c->number("e", f.law.params.e);
    require(f.law.params.mu >= 0.0, c->key("mu").c_str(), "must be >= 0", f.law.params.mu);
    require(f.law.params.e >= 0.0 && f.law.params.e <= 1.0, c->key("e").c_str(),
            "must lie in [0, 1]", f.law.params.e);
    c->reject_unknown();
    features.push_back(std::move(f));
  }
  return std::make_unique<PlanarBodyModel>(PlanarBody{mass, inertia}, gravity, surface,
                                           std::move(features));
}

// Newton's cradle: n balls; mass/masses, radius/radii, length/lengths (one value for all or one
// per ball), spacing/spacings (pivot distance, default r_i + r_{i+1}: touching at rest)
std::unique_ptr<System> make_pendulum_chain(ModelSpec& spec) {
  long n = spec.integer("n", 0);
  std::vector<double> masses = spec.vector("masses", 0, {});
  std::vector<double> radii = spec.vector("radii", 0, {});
  std::vector<double> lengths = spec.vector("lengths", 0, {});
  if (n == 0) n = static_cast<long>(std::max({masses.size(), radii.size(), lengths.size()}));
  require(n >= 2 && n <= PendulumChain::kMaxBalls, spec.key("n").c_str(),
          "must lie in [2, " + std::to_string(PendulumChain::kMaxBalls) +
              "] (or give masses = [...] with one entry per ball)");
  const auto per_ball = [&](std::vector<double>& list, const char* many, const char* one,
                            double fallback, const char* one_msg, const char* many_msg) {
    if (list.empty()) {
      list.assign(static_cast<std::size_t>(n), spec.number(one, fallback));
      require(list[0] > 0.0, spec.key(one).c_str(), one_msg, list[0]);
    } else {
      require(static_cast<long>(list.size()) == n, spec.key(many).c_str(),
              "needs one entry per ball (n = " + std::to_string(n) + ")");
      for (const double x : list) require(x > 0.0, spec.key(many).c_str(), many_msg, x);
    }
  };
  per_ball(masses, "masses", "mass", 1.0, "must be > 0 [kg]", "entries must be > 0 [kg]");
  per_ball(radii, "radii", "radius", 0.05, "must be > 0 [m]", "entries must be > 0 [m]");
  per_ball(lengths, "lengths", "length", 0.3, "must be > 0 [m]", "entries must be > 0 [m]");
  std::vector<PendulumBall> balls = PendulumChain::touching_row(masses, radii, lengths);
  std::vector<double> spacings = spec.vector("spacings", 0, {});
  const double spacing = spec.number("spacing", 0.0);
  if (spacings.empty() && spacing != 0.0) spacings.assign(static_cast<std::size_t>(n - 1), spacing);
  if (!spacings.empty()) {
    const char* key = spec.vector("spacings", 0, {}).empty() ? "spacing" : "spacings";
    require(
        static_cast<long>(spacings.size()) == n - 1, spec.key(key).c_str(),
        "needs one pivot distance per neighbouring pair (n - 1 = " + std::to_string(n - 1) + ")");
    for (std::size_t i = 0; i + 1 < balls.size(); ++i) {
      require(spacings[i] > 0.0, spec.key(key).c_str(), "must be > 0 [m]", spacings[i]);
      balls[i + 1].pivot = balls[i].pivot + spacings[i];
    }
  }
  const double gravity = spec.number("gravity", 9.81);
  require(gravity >= 0.0, spec.key("gravity").c_str(), "must be >= 0 [m/s^2]", gravity);
  const double k = spec.number("inertia_factor", 0.4);
  require(k >= 0.0, spec.key("inertia_factor").c_str(), "must be >= 0", k);
  return std::make_unique<PendulumChain>(std::move(balls), gravity, k, spec.law());
}

// a planar body against lines at any angle: mass, inertia, gravity = [g_x, g_y] (default [0,
// -9.81]),
// [[model.features]] (name, position = [x, y], radius) or radius alone (one feature "ball" at G),
// [[model.lines]] (name, point = [x, y], normal = [n_x, n_y] or angle, amplitude, omega, phase,
// belt_velocity)
std::unique_ptr<System> make_planar_body_lines(ModelSpec& spec) {
  const double mass = spec.required_number("mass");
  require(mass > 0.0, spec.key("mass").c_str(), "must be > 0 [kg]", mass);
  const double inertia = spec.required_number("inertia");
  require(inertia > 0.0, spec.key("inertia").c_str(), "must be > 0 [kg m^2]", inertia);
  const std::vector<double> g = spec.vector("gravity", 2, {0.0, -9.81});
  std::vector<BodyFeature> features;
  std::vector<std::unique_ptr<ModelSpec>> ftables = spec.tables("features");
  if (ftables.empty()) {
    const double R = spec.number("radius", 0.0);
    require(R >= 0.0, spec.key("radius").c_str(), "must be >= 0 [m]", R);
    features.push_back({"ball", {0.0, 0.0}, R});
  }
  int i = 0;
  for (const std::unique_ptr<ModelSpec>& f : ftables) {
    BodyFeature b;
    std::string fallback = "F";
    fallback += std::to_string(++i);
    b.name = f->text("name", fallback);
    const std::vector<double> p = f->vector("position", 2, {0.0, 0.0});
    b.c_B = {p[0], p[1]};
    b.radius = f->number("radius", 0.0);
    require(b.radius >= 0.0, f->key("radius").c_str(), "must be >= 0 [m]", b.radius);
    f->reject_unknown();
    features.push_back(std::move(b));
  }
  std::vector<std::unique_ptr<ModelSpec>> ltables = spec.tables("lines");
  require(!ltables.empty(), spec.key("lines").c_str(),
          "a body needs [[model.lines]] with name, point = [x, y] and normal = [n_x, n_y]");
  std::vector<ObstacleLine> lines;
  i = 0;
  for (const std::unique_ptr<ModelSpec>& l : ltables) {
    ObstacleLine o;
    std::string fallback = "L";
    fallback += std::to_string(++i);
    o.name = l->text("name", fallback);
    const std::vector<double> p = l->vector("point", 2, {0.0, 0.0});
    o.point = {p[0], p[1]};
    const std::vector<double> n = l->vector("normal", 2, {});
    if (n.empty()) {
      o.angle = l->number("angle", 0.5 * 3.141592653589793);
    } else {
      require(std::hypot(n[0], n[1]) > 0.0, l->key("normal").c_str(), "must not be zero");
      o.angle = std::atan2(n[1], n[0]);
    }
    o.amplitude = l->number("amplitude", 0.0);
    o.omega = l->number("omega", 0.0);
    require(o.omega >= 0.0, l->key("omega").c_str(), "must be >= 0 [rad/s]", o.omega);
    o.phase = l->number("phase", 0.0);
    o.belt_velocity = l->number("belt_velocity", 0.0);
    l->reject_unknown();
    lines.push_back(std::move(o));
  }
  require(features.size() * lines.size() <= static_cast<std::size_t>(kMaxContacts),
          spec.key("lines").c_str(), "features x lines must be at most 8 contacts");
  return std::make_unique<PlanarBodyLines>(mass, inertia, Vec2(g[0], g[1]), std::move(features),
                                           std::move(lines), spec.law());
}

// [B] §6.2: the double pendulum on a belt; `touch = [θ, φ]` places the belt (d) so that the end
// touches it in that configuration
std::unique_ptr<System> make_double_pendulum_belt(ModelSpec& spec) {
  DoublePendulumBelt p;
  p.m1 = spec.number("m1", p.m1);
  p.m2 = spec.number("m2", p.m2);
  p.l1 = spec.number("l1", p.l1);
  p.l2 = spec.number("l2", p.l2);
  p.g = spec.number("gravity", p.g);
  p.torque = spec.number("torque", p.torque);
  const double d = spec.number("d", std::nan(""));
  if (!std::isnan(d)) p.d = d;
  p.belt_velocity = spec.number("belt_velocity", p.belt_velocity);
  const std::vector<double> touch = spec.vector("touch", 2, {});
  require(touch.empty() || std::isnan(d), spec.key("d").c_str(),
          "touch = [phi1, phi2] places the belt (it sets d): give d or touch, not both");
  for (const auto& [x, name] :
       {std::pair{p.m1, "m1"}, {p.m2, "m2"}, {p.l1, "l1"}, {p.l2, "l2"}, {p.g, "gravity"}})
    require(x > 0.0, spec.key(name).c_str(), "must be > 0", x);
  if (!touch.empty()) p = p.touching({touch[0], touch[1]});
  return std::make_unique<DoublePendulumBeltModel>(p, spec.law());
}

// [NDC] §5.3: every spring and damper defaults to 0; r and mu default to the [law] table's e, mu
std::unique_ptr<System> make_rod_on_belt(ModelSpec& spec) {
  RodOnBeltParameters p;
  p.v_dr = spec.number("v_dr", 0.0);
  p.k_x = spec.number("k_x", 0.0);
  p.k_y = spec.number("k_y", 0.0);
  p.k_theta = spec.number("k_theta", 0.0);
  p.c_x = spec.number("c_x", 0.0);
  p.c_y = spec.number("c_y", 0.0);
  p.c_theta = spec.number("c_theta", 0.0);
  p.y0 = spec.number("y0", 0.0);
  p.y1 = spec.number("y1", 0.0);
  p.theta0 = spec.number("theta0", 0.0);
  validate(p, spec.key(""));
  LawChoice law = spec.law();
  law.params.e = spec.number("r", law.params.e);
  law.params.mu = spec.number("mu", law.params.mu);
  require(law.params.e >= 0.0 && law.params.e <= 1.0, spec.key("r").c_str(), "must lie in [0, 1]",
          law.params.e);
  require(law.params.mu >= 0.0, spec.key("mu").c_str(), "must be >= 0", law.params.mu);
  return std::make_unique<RodOnBelt>(p, law);
}

// [Bi] §3.7: a rigid pendulum about a fixed pivot, its tip striking a fixed line
std::unique_ptr<System> make_physical_pendulum(ModelSpec& spec) {
  PhysicalPendulumParameters p;
  p.mass = spec.required_number("mass");
  p.com_distance = spec.required_number("com_distance");
  p.inertia = spec.number("inertia", p.mass * p.com_distance * p.com_distance);
  p.tip_distance = spec.number("tip_distance", p.com_distance);
  p.tip_radius = spec.number("tip_radius", 0.0);
  p.gravity = spec.number("gravity", 9.81);
  p.line_height = spec.required_number("line_height");
  p.line_angle = spec.number("line_angle", 0.0);
  validate(p, spec.key(""));
  return std::make_unique<PhysicalPendulum>(p, spec.law());
}

// the stick-slip oscillator: a block on a belt held by a spring to a wall
std::unique_ptr<System> make_spring_block_belt(ModelSpec& spec) {
  SpringBlockBeltParameters p;
  p.mass = spec.number("mass", 1.0);
  p.stiffness = spec.required_number("stiffness");
  p.damping = spec.number("damping", 0.0);
  p.gravity = spec.number("gravity", 9.81);
  p.belt_velocity = spec.required_number("belt_velocity");
  validate(p, spec.key(""));
  return std::make_unique<SpringBlockBelt>(p, Contact::with_law("bottom", spec.law()));
}

}  // namespace

void add_builtin_models(std::vector<RegisteredModel>& t) {
  // clang-format off
  t.push_back({"ball",  "a ball (or point mass) above a moving line",
               [](ModelSpec& s) { return make_planar(s, "ball"); }});
  t.push_back({"rod",   "the slender rod of [BP] above a moving line (contacts P1, P2)",
               [](ModelSpec& s) { return make_planar(s, "rod"); }});
  t.push_back({"block", "a rectangular block above a moving line (corners C1 ... C4)",
               [](ModelSpec& s) { return make_planar(s, "block"); }});
  t.push_back({"body",  "any planar body with point or circular contacts above a moving line",
               [](ModelSpec& s) { return make_planar(s, "body"); }});
  t.push_back({"double_pendulum_belt", "the double pendulum whose end touches a belt ([B] Ch. 6)",
               make_double_pendulum_belt});
  t.push_back({"rod_on_belt", "the rod on a belt with springs and van der Pol forcing ([NDC] 5.3)",
               make_rod_on_belt});
  t.push_back({"physical_pendulum", "a rigid pendulum whose tip strikes a fixed line ([Bi] 4.2)",
               make_physical_pendulum});
  t.push_back({"pendulum_chain", "Newton's cradle: n pendulums whose balls touch their neighbours",
               make_pendulum_chain});
  t.push_back({"planar_body_lines", "a planar body against lines at any angle, gravity any way",
               make_planar_body_lines});
  t.push_back({"spring_block_belt", "the stick-slip oscillator: a block on a belt held by a spring",
               make_spring_block_belt});
  // clang-format on
}

}  // namespace clatter::model::detail
