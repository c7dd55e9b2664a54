// Impacts: one contact, contacts touching at once (multi-point law, sequential, or the seeds'
// symmetric reduction), and grazes. The end of a chatter is decided in run_chatter.cpp.

#include "clatter/contact/delassus.hpp"
#include "clatter/hybrid/simultaneous_impact.hpp"
#include "clatter/multipoint/multipoint_input.hpp"
#include "run.hpp"

namespace clatter::hybrid {

void Run::cache_geometry() {
  m_.contact_geometries(d_.t, d_.q, d_.qd, d_.geometry);
  m_.factor_mass(d_.t, d_.q, d_.mass);
}

ContactImpact Run::group_impact(const Group& g, VecQ& qd, const LawChoice& law) const {
  const model::ContactGeometry& kc = d_.geometry[idx(g.c)];
  if (g.j < 0) return apply_impact(d_.mass, kc.w, qd, kc.J, law);
  const model::ContactGeometry& kj = d_.geometry[idx(g.j)];
  const model::Rows2 J = 0.5 * (kc.J + kj.J);
  return apply_impact(d_.mass, 0.5 * (kc.w + kj.w), qd, J, law);
}

double Run::group_free_acceleration(const Group& g, double t, const VecQ& q, const VecQ& qd,
                                    Modes modes) const {
  modes[idx(g.c)] = ContactMode::kOpen;
  if (g.j >= 0) modes[idx(g.j)] = ContactMode::kOpen;
  constrained_dynamics(m_, t, q, qd, d_.aux, modes, o_.stabilization, d_.cd);
  return g.j < 0 ? d_.cd.accel[idx(g.c)].y()
                 : 0.5 * (d_.cd.accel[idx(g.c)].y() + d_.cd.accel[idx(g.j)].y());
}

int Run::symmetric_partner(int c) const {
  if (d_.shape.symmetry == nullptr) return -1;
  int best = -1;
  double best_d = o_.theta_crit;
  for (int j = 0; j < d_.shape.num_contacts; ++j) {
    if (j == c) continue;
    const double d = d_.shape.symmetry->level_distance(c, j, d_.q);
    if (d <= best_d) {
      best_d = d;
      best = j;
    }
  }
  return best;
}

// level the body about the contact point of c so that c and j touch together; stop the spin.
// Whether anything changed (a body already level, as in the seeds' symmetric motion after its
// first impact, is left as it is, and its energy is not asked for).
bool Run::level_pair(int c, int j) {
  const VecQ q_before = d_.q;
  const VecQ qd_before = d_.qd;
  if (!d_.shape.symmetry->level(c, j, d_.t, d_.q, d_.qd)) return false;
  d_.energy.reset += energy() - energy_at(d_.t, q_before, qd_before);
  record(EventKind::kSymmetric, c);
  return true;
}

// the touching contacts connected to contact c through the bodies they share (the model's
// multi-point description); a resting pair elsewhere (two balls of a cradle at rest, touching)
// takes no part in a collision it is not connected to
Touching Run::connected_to(int c, const Touching& touching) const {
  multipoint::Input& in = simultaneous_scratch().input;  // its vectors keep their capacity
  VecQ frame_velocity;
  if (!m_.multipoint_input(d_.t, d_.q, touching, in, frame_velocity)) return touching;
  std::array<int, kMaxContacts> index{};  // the model's contact of each input contact
  int k = 0;
  for (int j = 0; j < d_.shape.num_contacts; ++j)
    if (touching[idx(j)]) index[idx(k++)] = j;
  // flood fill over contacts sharing a body
  std::array<bool, kMaxContacts> in_set{};
  int local_c = -1;
  for (int a = 0; a < k; ++a)
    if (index[idx(a)] == c) local_c = a;
  if (local_c < 0) return touching;
  in_set[idx(local_c)] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (const multipoint::BodyPoint& p : in.body_points) {
      if (!in_set[idx(p.contact)]) continue;
      for (const multipoint::BodyPoint& o : in.body_points) {
        if (o.body != p.body || in_set[idx(o.contact)]) continue;
        in_set[idx(o.contact)] = true;
        grew = true;
      }
    }
  }
  Touching out{};
  for (int a = 0; a < k; ++a) out[idx(index[idx(a)])] = in_set[idx(a)];
  return out;
}

void Run::handle_impact(int c) {
  cache_geometry();
  std::array<bool, kMaxContacts> enabled;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  update_guards(enabled);
  d_.ignored[idx(c)] = false;  // it landed: a waiting contact (contact_guards) is on its obstacle
  // contacts touching their obstacle now (closed ones included; not those the guards ignore)
  Touching touching{};
  for (int j = 0; j < d_.shape.num_contacts; ++j) {
    touching[idx(j)] =
        j == c || is_closed(d_.modes[idx(j)]) ||
        (!d_.ignored[idx(j)] &&
         d_.geometry[idx(j)].g_N <= tol::kTouchingGaps * gap_tol(d_.geometry[idx(j)].scale));
  }
  const double v_eps = velocity_tol();

  Group g{c, -1};
  if (o_.two_contact == TwoContactRule::kSymmetric) {
    const int j = symmetric_partner(c);
    if (j >= 0 && (touching[idx(j)] || d_.geometry[idx(j)].g_N <=
                                           d_.shape.symmetry->level_gap_window(j, o_.theta_crit))) {
      // the seeds' rule VII: level whenever θ is within θ_crit at an impact
      if (level_pair(c, j)) cache_geometry();
      g.j = j;
      touching[idx(j)] = true;
    }
  }

  bool energetic = true;  // the multi-point law generalizes Stronge's
  for (int j = 0; j < d_.shape.num_contacts; ++j) {
    const LawKind law = m_.contact(j).law.kind;
    if (touching[idx(j)] && law != LawKind::kStronge && law != LawKind::kStrongeMarcher)
      energetic = false;
  }
  if (o_.two_contact == TwoContactRule::kMultipoint && energetic) {
    int n_touching = 0;
    double v_min = 0.0;
    double v_max = 0.0;
    for (int j = 0; j < d_.shape.num_contacts; ++j) {
      if (!touching[idx(j)]) continue;
      ++n_touching;
      const Vec2 v = velocity(j, d_.qd);
      v_min = std::min(v_min, v.y());
      v_max = std::max(v_max, v.norm());
    }
    // the multi-point solver's own approach tolerance is relative (1e-9 of the largest velocity)
    const double v_approach = std::max(v_eps, tol::kMultipointApproach * v_max);
    const bool approach = v_min < -v_approach;
    // one approaching contact whose own impact leaves every other touching contact not
    // approaching needs no impulse elsewhere (Signorini: the others separate or stay): its law
    // alone resolves it (a rocking block changing pivot: Housner's impact; the multi-point law
    // would push the leaving pivot too). Otherwise the contacts are resolved together.
    bool single_suffices = false;
    int n_approaching = 0;
    for (int j = 0; j < d_.shape.num_contacts; ++j)
      if (touching[idx(j)] && velocity(j, d_.qd).y() < -v_approach) ++n_approaching;
    if (n_touching >= 2 && n_approaching == 1 && velocity(c, d_.qd).y() < -v_approach) {
      VecQ qd_trial = d_.qd;
      (void)group_impact({c, -1}, qd_trial, m_.contact(c).law);
      single_suffices = true;
      for (int j = 0; j < d_.shape.num_contacts; ++j)
        if (j != c && touching[idx(j)] && velocity(j, qd_trial).y() < -v_eps)
          single_suffices = false;
    }
    if (n_touching >= 2 && approach && !single_suffices &&
        multipoint_impact(connected_to(c, touching)))
      return;
    if (n_touching == 2 && g.j < 0) {
      // the solver fails on some nearly symmetric configurations (a flat body tilted by ~1e-13,
      // where its slip-state system is numerically singular); its answer there is the symmetric
      // one, equal impulses at both contacts, which the pair impact gives. Symmetric: the same
      // velocities and the same contact matrices W_k = J_k M⁻¹ J_kᵀ (two unequal balls struck at
      // once from both sides have equal velocities but not equal W: they go sequential)
      int j = -1;
      for (int k2 = 0; k2 < d_.shape.num_contacts; ++k2)
        if (touching[idx(k2)] && k2 != c) j = k2;
      const Vec2 vc = velocity(c, d_.qd);
      const Vec2 vj = velocity(j, d_.qd);
      if ((vc - vj).norm() <= tol::kNearlySymmetricPair * std::max(vc.norm(), vj.norm())) {
        Eigen::Matrix<double, Eigen::Dynamic, 2, 0, model::kMaxDof, 2> minv_jt;
        Mat2 Wc, Wj;
        delassus(d_.mass, d_.geometry[idx(c)].J, minv_jt, Wc);
        delassus(d_.mass, d_.geometry[idx(j)].J, minv_jt, Wj);
        if ((Wc - Wj).norm() <= tol::kNearlySymmetricPair * std::max(Wc.norm(), Wj.norm())) g.j = j;
      }
    }
  }

  const VecQ qd_pre = d_.qd;
  const auto group_velocity = [&]() {
    const Vec2 v = velocity(g.c, d_.qd);
    return g.j < 0 ? v : Vec2(0.5 * (v + velocity(g.j, d_.qd)));
  };
  if (!(group_velocity().y() < -v_eps)) {
    handle_graze(c);
    return;
  }
  const ContactImpact first = group_impact(g, d_.qd, m_.contact(c).law);
  bool others = false;
  for (int j = 0; j < d_.shape.num_contacts; ++j) {
    if (j != g.c && j != g.j && touching[idx(j)] && velocity(j, d_.qd).y() < -v_eps) others = true;
  }

  if (!others) {
    // a single contact (or pair): the bounce, or the end of a chatter
    double t_acc = 0.0;
    if (first.outcome.v_post.y() > v_eps) {
      d_.modes[idx(g.c)] = ContactMode::kOpen;
      if (g.j >= 0) d_.modes[idx(g.j)] = ContactMode::kOpen;
      if (chatter_closes(g, qd_pre, first, t_acc)) {
        decide_modes();
        project_closed();
        count_event();
        return;
      }
      d_.released[idx(g.c)] = false;
      if (g.j >= 0) d_.released[idx(g.j)] = false;
      record_impact(g, first, EventKind::kImpact);
    } else {
      set_group_mode(g, d_.qd, d_.modes);
      record_impact(g, first, EventKind::kImpact);
    }
  } else {
    // several contacts at once: sequential single-contact impacts, most approaching first
    record_impact(g, first, EventKind::kImpact);
    if (!count_event()) return;
    for (int pass = 0; pass < 64; ++pass) {
      int worst = -1;
      double v_worst = -v_eps;
      for (int j = 0; j < d_.shape.num_contacts; ++j) {
        if (!touching[idx(j)]) continue;
        const double v = velocity(j, d_.qd).y();
        if (v < v_worst) {
          v_worst = v;
          worst = j;
        }
      }
      if (worst < 0) break;
      const Group gj{worst, -1};
      const ContactImpact r = group_impact(gj, d_.qd, m_.contact(worst).law);
      record_impact(gj, r, EventKind::kImpact);
      if (!count_event()) return;
    }
  }
  assign_touching_modes(touching);
  if (!others) count_event();  // sequential impacts were counted one by one
}

// modes of the touching contacts after an impact: leaving ones open, the others closed
void Run::assign_touching_modes(const Touching& touching) {
  const double v_eps = velocity_tol();
  // a contact leaving slower than the resolution of the motion into a free acceleration a < 0
  // that brings it back would chatter below round-off: it is closed (the projection below removes
  // its velocity). One contact: below kBounceFloor v_eps (a bounce of ~1e-14 m; its chatter above
  // that is ended by the accumulation prediction). Several touching contacts chatter alternately,
  // which no prediction ends: a bounce v²/(2|a|) that cannot rise above the gap tolerance is
  // closed (two corners of a settling block kept such a chatter at ~2e-7 m/s, 3e-15 m)
  int n_touching = 0;
  for (int j = 0; j < d_.shape.num_contacts; ++j) n_touching += touching[idx(j)] ? 1 : 0;
  const auto unresolvable = [&](int j, double v) {
    if (v > (n_touching > 1 ? tol::kPairBounceFloor : tol::kBounceFloor * v_eps)) return false;
    const double a = group_free_acceleration({j, -1}, d_.t, d_.q, d_.qd, d_.modes);
    return a < 0.0 && (n_touching == 1 || v * v <= 2.0 * -a * gap_tol(j, d_.q));
  };
  Touching closing{};  // the touching contacts that close now: decided together
  for (int j = 0; j < d_.shape.num_contacts; ++j) {
    if (!touching[idx(j)]) continue;
    const double v = velocity(j, d_.qd).y();
    if (v > v_eps && !unresolvable(j, v)) {
      d_.modes[idx(j)] = ContactMode::kOpen;
      d_.released[idx(j)] = false;
    } else if (!is_closed(d_.modes[idx(j)])) {
      d_.modes[idx(j)] = ContactMode::kStick;
      closing[idx(j)] = true;
    } else if (const double v_t = velocity(j, d_.qd).x(); std::abs(v_t) > v_eps) {
      // a closed contact the impact left slipping (a block sticking on a belt, struck along it by
      // a stop: the belt took no normal impulse, so no tangential one held the block) slides its
      // new way; kept sticking, the projection below would undo the impact's velocity
      d_.modes[idx(j)] = sliding_mode(v_t);
    }
  }
  close_together(closing, d_.qd, d_.modes);
  for (int j = 0; j < d_.shape.num_contacts; ++j) {
    const double v = velocity(j, d_.qd).y();
    if (closing[idx(j)] && v > v_eps)
      record(EventKind::kClosure, j, velocity(j, d_.qd), Vec2{velocity(j, d_.qd).x(), 0.0});
  }
  decide_modes();
  project_closed();
}

// several contacts touching at once, resolved together by the multi-point law; false if the
// model has no multi-point description or the solver could not (the caller then resolves them
// sequentially)
bool Run::multipoint_impact(const Touching& touching) {
  const VecQ qd_pre = d_.qd;
  SimultaneousImpact r;
  try {
    r = resolve_simultaneous(m_, d_.t, d_.q, d_.qd, touching, simultaneous_scratch());
  } catch (const InvalidArgument&) {
    r.ok = false;  // a configuration the solver rejects (e.g. coincident points)
  }
  if (!r.ok) {
    ++d_.counters.multipoint_fallbacks;
    return false;
  }
  d_.qd = r.qd_post;
  // the contacts that took an impulse
  std::array<int, kMaxContacts> hit{};
  int n_hit = 0;
  for (int j = 0; j < d_.shape.num_contacts; ++j)
    if (touching[idx(j)] && r.Lambda[idx(j)].y() > 0.0) hit[idx(n_hit++)] = j;
  const double v_eps = velocity_tol();
  // two contacts leaving together at about the same speed (a flat body bouncing on both, its
  // residual tilt giving slightly different speeds): a pair chatter is ended at its accumulation
  // point like a single contact's, with the mean normal speed
  if (n_hit == 2) {
    const int a = hit[0];
    const int b = hit[1];
    const double va = r.v_post[idx(a)].y();
    const double vb = r.v_post[idx(b)].y();
    if (va > v_eps && vb > v_eps &&
        std::abs(va - vb) <= tol::kPairChatterSpread * std::max(va, vb)) {
      const Group g{a, b};
      ContactImpact pair;
      pair.v_pre = 0.5 * (r.v_pre[idx(a)] + r.v_pre[idx(b)]);
      pair.outcome.v_post = 0.5 * (r.v_post[idx(a)] + r.v_post[idx(b)]);
      const Modes saved = d_.modes;
      d_.modes[idx(a)] = d_.modes[idx(b)] = ContactMode::kOpen;
      double t_acc = 0.0;
      if (chatter_closes(g, qd_pre, pair, t_acc)) {
        decide_modes();
        project_closed();
        count_event();
        return true;
      }
      d_.modes = saved;
      d_.qd = r.qd_post;
    }
  }
  // a row per contact and impact event of the collision (an unequal cradle resolves in several
  // events), each with its event's q̇ before and after, so the intermediate states are kept; the
  // rows' ½Λ·(v⁻ + v⁺) of one event sum to that event's kinetic-energy change
  const std::size_t first_row = d_.events.size();
  for (const multipoint::EventResult& ev : simultaneous_scratch().result.events) {
    std::array<int, kMaxContacts> in_event{};  // solver rows that took a normal impulse
    int n_in = 0;
    for (int a = 0; a < r.n_active; ++a)
      if (ev.Lambda(2 * a + 1) > 0.0) in_event[idx(n_in++)] = a;
    const VecQ qd_before = ev.qdot_pre + r.frame_velocity;
    d_.qd = ev.qdot_post + r.frame_velocity;  // the rows' q̇ after and energy are the event's
    for (int h = 0; h < n_in; ++h) {
      const int a = in_event[idx(h)];
      const int j = r.contact[idx(a)];
      ContactImpact ci;
      ci.qd_pre = qd_before;
      ci.v_pre = {ev.v_pre(2 * a), ev.v_pre(2 * a + 1)};
      ci.outcome.v_post = {ev.v_post(2 * a), ev.v_post(2 * a + 1)};
      ci.outcome.Lambda = {ev.Lambda(2 * a), ev.Lambda(2 * a + 1)};
      ci.outcome.delta_energy = 0.5 * ci.outcome.Lambda.dot(ci.v_pre + ci.outcome.v_post);
      ci.outcome.status =
          ev.status == multipoint::Status::kEnergyGain ? Status::kEnergyGain : Status::kOk;
      ci.surface_work = ci.outcome.Lambda.dot(d_.geometry[idx(j)].w);
      const int other = n_in > 1 ? r.contact[idx(in_event[idx(h == 0 ? 1 : 0)])] : -1;
      record_impact({j, other}, ci, EventKind::kImpact);
    }
  }
  d_.qd = r.qd_post;
  assign_touching_modes(touching);
  // the collision's rows show the modes it leaves, decided only now from the post-impact
  // velocities (a contact that separates is open, not the stick it had before)
  for (std::size_t k = first_row; k < d_.events.size(); ++k) {
    EventRecord& e = d_.events[k];
    if (e.kind != EventKind::kImpact) continue;
    e.mode_after = d_.modes[idx(e.contact)];
    e.modes = d_.modes;
  }
  count_event();
  return true;
}

// the contact touches at zero normal velocity: it stays if pushed onto its obstacle, else it is
// released and followed by the Runge–Kutta phase until it clears the obstacle
void Run::handle_graze(int c) {
  cache_geometry();
  const Group g{c, -1};
  if (group_free_acceleration(g, d_.t, d_.q, d_.qd, d_.modes) < 0.0) {
    const Vec2 v_pre = velocity(c, d_.qd);
    if (v_pre.y() < 0.0) {
      LawChoice plastic = m_.contact(c).law;
      plastic.params.e = 0.0;
      const ContactImpact r = group_impact(g, d_.qd, plastic);
      d_.modes[idx(c)] = closed_mode(c, d_.qd, d_.modes);
      record_impact(g, r, EventKind::kClosure, d_.t);
    } else {
      // leaving slower than can be resolved: the normal velocity is projected to 0 (an impulse
      // −v_N/C along the normal, which removes ½ v_N²/C of kinetic energy), so that the closed
      // contact starts exactly on its constraint
      const model::ContactGeometry& k = d_.geometry[idx(c)];
      VecQ MinvJN;
      Eigen::Matrix<double, 1, 1> C;  // W_NN = J_N M⁻¹ J_Nᵀ
      delassus(d_.mass, k.J.row(1), MinvJN, C);
      ContactImpact r;
      r.qd_pre = d_.qd;
      r.v_pre = v_pre;
      r.outcome.Lambda = {0.0, -v_pre.y() / C(0, 0)};
      d_.qd += MinvJN * r.outcome.Lambda.y();
      r.outcome.v_post = velocity(c, d_.qd);
      r.outcome.delta_energy = 0.5 * r.outcome.Lambda.dot(v_pre + r.outcome.v_post);
      r.surface_work = r.outcome.Lambda.dot(k.w);
      d_.modes[idx(c)] = closed_mode(c, d_.qd, d_.modes);
      record_impact(g, r, EventKind::kClosure, d_.t);
    }
    decide_modes();
    project_closed();
  } else {
    // leaving, or not pushed back: a start below the obstacle (drift) is moved onto it, so that
    // the released contact does not graze again at once
    if (d_.geometry[idx(c)].g_N < 0.0) {
      d_.modes[idx(c)] = ContactMode::kSlidePositive;  // project the normal direction only
      project_closed();
      d_.modes[idx(c)] = ContactMode::kOpen;
    }
    d_.released[idx(c)] = true;
  }
  count_event();
}

}  // namespace clatter::hybrid
