#pragma once
// A replaced global operator new that counts heap allocations, for the tests that prove a hot path
// allocates nothing (STYLE.md §6.5). Include it in exactly one source file of a test executable.
// Under AddressSanitizer (which owns operator new) nothing is replaced and the count stays 0: such
// tests skip themselves (CLATTER_ALLOCATIONS_COUNTED is false).

#include <atomic>
#include <cstdlib>
#include <new>

namespace clatter::test {
inline std::atomic<long> g_allocations{0};
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAllocationsCounted = false;
#else
inline constexpr bool kAllocationsCounted = true;
#endif
}  // namespace clatter::test

#if !defined(__SANITIZE_ADDRESS__)
void* operator new(std::size_t n) {
  ++clatter::test::g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif
