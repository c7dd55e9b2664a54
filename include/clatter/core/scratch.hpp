#pragma once
/// @file
/// Scratch<T, N>: room for N values of T on the stack, left uninitialized.
///
/// The engine's capacities (model::kMaxContacts, the event functions 4·kMaxContacts) are sized for
/// the largest model, while a call works on the model's own count. A std::array<ValueSlope, N>{}
/// per sample of a step zeroes all N entries (3 KB at 32 contacts), which cost more than the
/// work for a one-contact model; a Scratch costs nothing until an entry is written. The caller
/// writes entries [0, count) before reading them; the others stay indeterminate.
///
/// T must be trivially copyable and destructible (an aggregate of numbers): an assignment to an
/// entry begins its lifetime ([class.union]), and nothing needs destroying. Copying a whole
/// Scratch is deleted; copy the `count` entries in use with copy_from.

#include <cstddef>
#include <type_traits>

namespace clatter {

template <class T, std::size_t N>
class Scratch {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "Scratch holds plain values only");

 public:
  Scratch() {}  // NOLINT(modernize-use-equals-default): = default would value-initialize items_
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  [[nodiscard]] static constexpr std::size_t capacity() { return N; }
  T& operator[](std::size_t i) { return items_[i]; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  T* data() { return items_; }
  const T* data() const { return items_; }

  /// Entries [0, count) of `other`, copied (count is clamped to N).
  void copy_from(const Scratch& other, std::size_t count) {
    const std::size_t n = count < N ? count : N;
    for (std::size_t i = 0; i < n; ++i) items_[i] = other.items_[i];
  }
  /// Entries [0, count) set to `value` (count is clamped to N).
  void fill(const T& value, std::size_t count) {
    const std::size_t n = count < N ? count : N;
    for (std::size_t i = 0; i < n; ++i) items_[i] = value;
  }

 private:
  union {
    T items_[N];  // NOLINT(modernize-avoid-c-arrays): a union member cannot be a std::array here
  };
};

}  // namespace clatter
