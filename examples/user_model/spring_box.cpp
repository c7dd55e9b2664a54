// A user's own mechanical system as a plugin (docs/models.md): a point mass on two springs in a
// box between the walls x = −L and x = +L. It implements clatter::model::System and registers the
// kind "spring_box"; built as a shared library (libspring_box.so) that every `clatter` command and
// the Python module load at run time, from a scenario (`[model] plugin = "spring_box"`), from
// `--plugin PATH` or from `clatter.load_plugin(path)`. Nothing in clatter knows about it.
//
//   q = (x, y),  M = m I,  f = (−k_x x, −k_y y),  V = ½k_x x² + ½k_y y²,  P_a = 0
//   contact "left":   g_N = x + L,  v = (ẏ,  ẋ),  J = [[0, 1], [ 1, 0]]
//   contact "right":  g_N = L − x,  v = (ẏ, −ẋ),  J = [[0, 1], [−1, 0]]   (w = 0, γ = 0)

#include <cmath>
#include <memory>

#include "clatter/core/error.hpp"
#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"

namespace {

using clatter::model::ContactGeometry;
using clatter::model::MatQ;
using clatter::model::ParameterSet;
using clatter::model::System;
using clatter::model::VecA;
using clatter::model::VecQ;

struct Box {
  double m{1.0}, k_x{1.0}, k_y{1.0}, L{1.0};
};

class SpringBox final : public System {
 public:
  SpringBox(const Box& b, const clatter::LawChoice& law) : b_(b) {
    check(b_);
    set_contacts({clatter::model::Contact::with_law("left", law),
                  clatter::model::Contact::with_law("right", law)});
  }

  // sizes and names
  [[nodiscard]] std::string_view kind() const override { return "spring_box"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override { return {"x", "y"}; }

  // dynamics
  [[nodiscard]] MatQ mass_matrix(double /*t*/, const VecQ& /*q*/) const override {
    return MatQ::Identity(2, 2) * b_.m;
  }
  [[nodiscard]] VecQ applied_forces(double /*t*/, const VecQ& q, const VecQ& /*qd*/,
                                    const VecA& /*aux*/) const override {
    VecQ f(2);
    f << -b_.k_x * q(0), -b_.k_y * q(1);
    return f;
  }
  void contact_geometry(int c, double /*t*/, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override {
    const double s = c == 0 ? 1.0 : -1.0;  // the wall's normal points into the box
    out.g_N = s * q(0) + b_.L;
    out.J = clatter::model::Rows2::Zero(2, 2);
    out.J(0, 1) = 1.0;
    out.J(1, 0) = s;
    out.w.setZero();
    out.v = out.J * qd;
    out.gamma.setZero();
    out.scale = b_.L + std::abs(q(0));
  }

  // energies and scales
  [[nodiscard]] double potential_energy(double /*t*/, const VecQ& q) const override {
    return 0.5 * (b_.k_x * q(0) * q(0) + b_.k_y * q(1) * q(1));
  }
  [[nodiscard]] double force_scale() const override { return (b_.k_x + b_.k_y) * b_.L; }
  [[nodiscard]] double mass_scale() const override { return b_.m; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override {
    return std::make_unique<SpringBox>(*this);
  }
  [[nodiscard]] ParameterSet own_parameters() const override {
    ParameterSet p;
    p.add("mass", b_.m, "kg", "mass");
    p.add("k_x", b_.k_x, "N/m", "spring along x");
    p.add("k_y", b_.k_y, "N/m", "spring along y");
    p.add("half_width", b_.L, "m", "walls at x = -L and x = +L");
    return p;
  }
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override {
    Box b = b_;
    if (name == "mass")
      b.m = value;
    else if (name == "k_x")
      b.k_x = value;
    else if (name == "k_y")
      b.k_y = value;
    else if (name == "half_width")
      b.L = value;
    else
      (void)parameters().get(name);  // throws, naming the known parameters
    check(b);
    auto out = std::make_unique<SpringBox>(*this);
    out->b_ = b;
    return out;
  }

 private:
  static void check(const Box& b) {
    clatter::require(b.m > 0.0, "model.mass", "must be > 0 [kg]", b.m);
    clatter::require(b.k_x > 0.0, "model.k_x", "must be > 0 [N/m]", b.k_x);
    clatter::require(b.k_y >= 0.0, "model.k_y", "must be >= 0 [N/m]", b.k_y);
    clatter::require(b.L > 0.0, "model.half_width", "must be > 0 [m]", b.L);
  }
  Box b_;
};

// the registration: any scenario with [model] kind = "spring_box" reaches this factory
void register_spring_box() {
  clatter::model::register_model("spring_box",
                                 "a point mass on springs between two walls (examples/user_model)",
                                 [](clatter::model::ModelSpec& s) {
                                   Box b;
                                   b.m = s.number("mass", 1.0);
                                   b.k_x = s.number("k_x", 1.0);
                                   b.k_y = s.number("k_y", 1.0);
                                   b.L = s.number("half_width", 1.0);
                                   return std::make_unique<SpringBox>(b, s.law());
                                 });
}

}  // namespace

// the plugin's entry point: its name, and the function that registers its kinds
CLATTER_PLUGIN("spring_box", register_spring_box)
