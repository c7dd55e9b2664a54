#pragma once
/// @file
/// The three closed-form maps of Stronge's energetic law ([NDC] §3.4, spec/003_dib.md §3.4), for
/// any number type T with +, −, ×, ÷ and sqrt_clamped (double in the law, a dual number for its
/// exact Jacobians in laws/stronge_jacobian.hpp). (k_T, k_N): the first segment's rate
/// constants, (k′_T, k′_N): the second's, r = e*:
/// @verbatim
///   Map I   (one mode):          v⁺ = (v_T − (1+r)(k_T/k_N) v_N,  −r v_N)
///   Map II  (slip stops during restitution):
///           a = (k_N/k_T) v_T − v_N,  ρ = k′_N/k_N,  S = √((1−ρ)a² + r²ρ v_N²)
///           v⁺ = ((k′_T/k′_N)(a + S),  S)
///   Map III (slip stops during compression; polynomial in k_N, so no division by k_N):
///           u = v_T/k_T,  S = √(v_N² + 2(k′_N − k_N) u v_N + k_N(k_N − k′_N) u²)
///           v⁺ = ((k′_T/k′_N)(a + r S),  r S)
/// @endverbatim

#include <algorithm>
#include <array>
#include <cmath>

namespace clatter::stronge::detail {

inline double sqrt_clamped(double x) { return std::sqrt(std::max(x, 0.0)); }

template <class T>
std::array<T, 2> map_I(const T& v_T, const T& v_N, const T& k_T, const T& k_N, const T& r) {
  return {v_T - (1.0 + r) * (k_T / k_N) * v_N, -r * v_N};
}

template <class T>
std::array<T, 2> map_II(const T& v_T, const T& v_N, const T& k_T, const T& k_N, const T& kp_T,
                        const T& kp_N, const T& r) {
  const T a = (k_N / k_T) * v_T - v_N;
  const T rho = kp_N / k_N;
  const T S = sqrt_clamped((1.0 - rho) * a * a + r * r * rho * v_N * v_N);
  return {(kp_T / kp_N) * (a + S), S};
}

template <class T>
std::array<T, 2> map_III(const T& v_T, const T& v_N, const T& k_T, const T& k_N, const T& kp_T,
                         const T& kp_N, const T& r) {
  const T a = (k_N / k_T) * v_T - v_N;
  const T u = v_T / k_T;
  const T S = sqrt_clamped(v_N * v_N + 2.0 * (kp_N - k_N) * u * v_N + k_N * (k_N - kp_N) * u * u);
  return {(kp_T / kp_N) * (a + r * S), r * S};
}

}  // namespace clatter::stronge::detail
