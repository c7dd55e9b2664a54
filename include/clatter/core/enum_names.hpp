#pragma once
/// @file
/// The one way the values of an enumeration become words, and words values: a table of names
/// declared beside the enumeration, in the order of its values 0, 1, …
/// @code
///   template <> struct EnumNames<hybrid::StopReason> {
///     static constexpr std::array<const char*, 9> names{"end_time", "max_events", ...};
///     static_assert(names.size() == static_cast<std::size_t>(hybrid::StopReason::kMaxSteps) + 1);
///   };
/// @endcode
/// name_of(e) reads it (each `to_string` of a result's status is one call of it), parse_name
/// inverts it, and Python and the docs list the vocabulary from the same tables
/// (docs/columns.md, "Status words").
///
/// The status words of every result share one vocabulary: `ok` (a valid result), `energy_gain`
/// (valid as the law prescribes it, but the kinetic energy grew), `no_termination` (an
/// impulse-space integration did not end), `max_events` (an event cap reached), `grazing` (a
/// branch ends at a grazing); a value out of its table reads `unknown`.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace clatter {

/// Specialised beside each enumeration with a static constexpr std::array<const char*, N> names.
template <class E>
struct EnumNames;

/// The word of `e` ("unknown" for a value outside the table).
template <class E>
[[nodiscard]] constexpr const char* name_of(E e) {
  constexpr auto& names = EnumNames<E>::names;
  const auto i = static_cast<std::size_t>(e);
  return i < names.size() ? names[i] : "unknown";
}

/// The value whose word is `word`, if any.
template <class E>
[[nodiscard]] constexpr std::optional<E> parse_name(std::string_view word) {
  constexpr auto& names = EnumNames<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (word == names[i]) return static_cast<E>(i);
  return std::nullopt;
}

/// The number of values of E.
template <class E>
[[nodiscard]] constexpr std::size_t name_count() {
  return EnumNames<E>::names.size();
}

}  // namespace clatter
