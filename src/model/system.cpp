#include "clatter/model/system.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>

#include "clatter/core/error.hpp"

namespace clatter::model {

// ---------------------------------------------------------------------------------------------
// mass factorization

namespace {

// M = L D Lᵀ without pivoting into l (column-major n × n, leading dimension n): L unit lower
// triangular below the diagonal, 1/D_j on it; false at a pivot D_j that is not positive and
// finite. N > 0: the size at compile time (loops unroll).
template <int N>
bool ldl_factor(const double* m, double* l, int n_dynamic) {
  const int n = N > 0 ? N : n_dynamic;
  std::array<double, kMaxDof> D;  // NOLINT(cppcoreguidelines-pro-type-member-init): set below
  for (int j = 0; j < n; ++j) {
    double d = m[j + j * n];
    for (int k = 0; k < j; ++k) d -= l[j + k * n] * l[j + k * n] * D[static_cast<std::size_t>(k)];
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    D[static_cast<std::size_t>(j)] = d;
    const double inv = 1.0 / d;
    l[j + j * n] = inv;
    for (int i = j + 1; i < n; ++i) {
      double s = m[i + j * n];
      for (int k = 0; k < j; ++k) s -= l[i + k * n] * l[j + k * n] * D[static_cast<std::size_t>(k)];
      l[i + j * n] = s * inv;
    }
  }
  return true;
}

}  // namespace

void MassFactor::compute(const MatQ& M) {
  n = static_cast<int>(M.rows());
  unpivoted = false;
  const double* m = M.data();  // column-major, leading dimension n
  diagonal = true;
  for (int j = 0; j < n && diagonal; ++j)
    for (int i = 0; i < n; ++i)
      if (i != j && m[i + j * n] != 0.0) {
        diagonal = false;
        break;
      }
  if (diagonal) {
    diag = M.diagonal();
    return;
  }
  // M = L D Lᵀ without pivoting: no square roots, one division per column; a pivot that is not
  // positive and finite (M not positive definite) falls back to the pivoting LDLᵀ
  L.resize(n, n);
  double* l = L.data();
  switch (n) {
    case 2:
      unpivoted = ldl_factor<2>(m, l, 2);
      break;
    case 3:
      unpivoted = ldl_factor<3>(m, l, 3);
      break;
    case 4:
      unpivoted = ldl_factor<4>(m, l, 4);
      break;
    case 6:
      unpivoted = ldl_factor<6>(m, l, 6);
      break;
    default:
      unpivoted = ldl_factor<0>(m, l, n);
  }
  if (!unpivoted) ldlt.compute(M);
}

void MassFactor::set_diagonal(const VecQ& d) {
  n = static_cast<int>(d.size());
  diagonal = true;
  unpivoted = false;
  diag = d;
}

// ---------------------------------------------------------------------------------------------
// defaults

std::vector<std::string> numbered_names(std::string_view prefix, int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(std::string(prefix) + std::to_string(i));
  return out;
}

std::vector<std::string> System::coordinate_names() const { return numbered_names("q", nq()); }
std::vector<std::string> System::aux_names() const { return numbered_names("a", num_aux()); }

std::unique_ptr<System> System::with_contacts(std::vector<Contact> contacts) const {
  require(static_cast<int>(contacts.size()) == num_contacts(), "contacts",
          "must list every contact of the model");
  std::unique_ptr<System> copy = clone();
  copy->set_contacts(std::move(contacts));
  return copy;
}

double System::parameter(std::string_view name) const {
  // the contacts' by name, without building the list (parameters() has them all)
  const auto of = [&](const Contact& c, std::string_view what) -> std::optional<double> {
    if (what == "e") return c.law.params.e;
    if (what == "mu") return c.law.params.mu;
    if (what == "mu_s") return c.mu_s;
    if (what == "mu_d") return c.mu_d;
    return std::nullopt;
  };
  if (!contacts_.empty() && (name == "e" || name == "mu")) return *of(contacts_.front(), name);
  constexpr std::string_view kContact = "contact.";
  if (name.substr(0, kContact.size()) == kContact) {
    const std::string_view rest = name.substr(kContact.size());
    for (const Contact& c : contacts_) {
      if (rest.size() <= c.name.size() + 1 || rest.substr(0, c.name.size()) != c.name ||
          rest[c.name.size()] != '.')
        continue;
      if (const auto v = of(c, rest.substr(c.name.size() + 1))) return *v;
    }
    return parameters().get(name);  // unknown: the list's error names the known ones
  }
  try {
    return own_parameter(name);
  } catch (const InvalidArgument&) {
    if (parameters().has(name)) throw;  // the model's own error
    return parameters().get(name);      // unknown: names every parameter, the contacts' too
  }
}

VecA System::aux_rate(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/, const VecA& aux) const {
  return VecA::Zero(aux.size());
}

double System::gap_scale(int c, double t, const VecQ& q) const {
  ContactGeometry g;
  contact_geometry(c, t, q, VecQ::Zero(q.size()), g);
  return g.scale;
}

void System::evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& aux,
                      Evaluation& out) const {
  factor_mass(t, q, out.mass);
  out.f = applied_forces(t, q, qd, aux);
  out.aux_rate = num_aux() > 0 ? aux_rate(t, q, qd, aux) : VecA();
  out.power_applied = applied_power(t, q, qd, aux);
  out.for_each_requested(num_contacts(), [&](int c) {
    contact_geometry(c, t, q, qd, out.contacts[static_cast<std::size_t>(c)]);
  });
}

void System::contact_geometries(double t, const VecQ& q, const VecQ& qd,
                                std::array<ContactGeometry, kMaxContacts>& out) const {
  for (int c = 0; c < num_contacts(); ++c)
    contact_geometry(c, t, q, qd, out[static_cast<std::size_t>(c)]);
}

void System::factor_mass(double t, const VecQ& q, MassFactor& out) const {
  out.compute(mass_matrix(t, q));
}

double System::kinetic_energy(double t, const VecQ& q, const VecQ& qd) const {
  return 0.5 * qd.dot(mass_matrix(t, q) * qd);
}

double System::applied_power(double /*t*/, const VecQ& /*q*/, const VecQ& /*qd*/,
                             const VecA& /*aux*/) const {
  return 0.0;
}

double System::velocity_scale(double t, const VecQ& q, const VecQ& qd) const {
  double s = 0.0;
  ContactGeometry g;
  for (int c = 0; c < num_contacts(); ++c) {
    contact_geometry(c, t, q, qd, g);
    s = std::max(s, (g.J * qd).norm() + g.w.norm());
  }
  return s;
}

double System::rate_bound(const VecQ& /*qd*/) const { return 0.0; }

bool System::multipoint_input(double /*t*/, const VecQ& /*q*/,
                              const std::array<bool, kMaxContacts>& /*active*/,
                              multipoint::Input& /*in*/, VecQ& /*frame_velocity*/) const {
  return false;
}

void System::set_contacts(std::vector<Contact> contacts) {
  require(static_cast<int>(contacts.size()) <= kMaxContacts, "contacts",
          "a model has at most " + std::to_string(kMaxContacts) + " contacts");
  std::set<std::string> names;
  for (const Contact& c : contacts) {
    validate(c, "contact." + c.name);
    require(names.insert(c.name).second, "contact.name",
            "contact names must be unique, '" + c.name + "' repeats");
  }
  contacts_ = std::move(contacts);
}

}  // namespace clatter::model

namespace clatter::model {

ParameterSet System::parameters() const {
  ParameterSet p = own_parameters();
  for (const Contact& c : contacts_) {
    const std::string pre = "contact." + c.name + ".";
    p.add(pre + "e", c.law.params.e, "", "restitution of the impact law");
    p.add(pre + "mu", c.law.params.mu, "", "friction coefficient at impact");
    p.add(pre + "mu_s", c.mu_s, "", "static friction of sustained contact");
    p.add(pre + "mu_d", c.mu_d, "", "dynamic friction of sustained contact");
  }
  if (!contacts_.empty()) {
    p.add("e", contacts_.front().law.params.e, "", "restitution of every contact");
    p.add("mu", contacts_.front().law.params.mu, "", "friction of every contact (all kinds)");
  }
  return p;
}

std::unique_ptr<System> System::with_parameter(std::string_view name, double value) const {
  // no parameter takes NaN or ±∞ (a model's own check may not think of them: a Python model's
  // run then ended in non_finite, or in a math domain error inside the model)
  if (!std::isfinite(value))
    throw InvalidArgument(std::string(name),
                          "must be a finite number, got " + format_number(value));
  // mu (of all contacts or of one) sets the impact law's μ and the sustained contact's
  // μ_s = μ_d alike; mu_s and mu_d set those alone
  const auto set = [&](Contact& c, std::string_view what) {
    if (what == "e") c.law.params.e = value;
    if (what == "mu") c.law.params.mu = c.mu_s = c.mu_d = value;
    if (what == "mu_s") c.mu_s = value;
    if (what == "mu_d") c.mu_d = value;
  };
  std::vector<Contact> contacts = contacts_;
  if (name == "e" || name == "mu") {
    for (Contact& c : contacts) set(c, name);
    return with_contacts(std::move(contacts));
  }
  if (name.starts_with("contact.")) {
    for (Contact& c : contacts) {
      const std::string pre = "contact." + c.name + ".";
      if (!name.starts_with(pre)) continue;
      const std::string_view what = name.substr(pre.size());
      if (what != "e" && what != "mu" && what != "mu_s" && what != "mu_d") break;
      set(c, what);
      return with_contacts(std::move(contacts));
    }
    (void)parameters().get(name);  // throws, naming the known parameters
  }
  return with_own_parameter(name, value);
}

}  // namespace clatter::model
