#pragma once

// Heap allocations counted for the whole physics test program, to check that code meant for
// simulation loops does not allocate once its data exists. malloc, calloc and realloc are
// interposed (malloc_count_helpers.cc): Eigen allocates with malloc, and operator new calls
// it. Only with glibc and without sanitizers (which own malloc); otherwise nothing is counted
// and kMallocCounted is false.

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define TB_COUNT_MALLOC 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#undef TB_COUNT_MALLOC
#endif
#endif

namespace twinblocks::testing {

#ifdef TB_COUNT_MALLOC
inline constexpr bool kMallocCounted = true;
#else
inline constexpr bool kMallocCounted = false;
#endif

/// Starts counting from zero.
void StartCountingAllocations();
/// Stops counting; returns the allocations since StartCountingAllocations.
long StopCountingAllocations();

}  // namespace twinblocks::testing
