#ifndef MIDIHUB_C_MALLOC_COUNTER_H
#define MIDIHUB_C_MALLOC_COUNTER_H

/// Counts the heap allocations of one thread, for the zero-allocation tests.
///
/// This target defines `malloc`, `calloc`, `realloc`, `memalign`, `posix_memalign`,
/// `aligned_alloc`, `valloc` and `pvalloc` for the whole test process. Each forwards to
/// glibc's allocator (`__libc_malloc`, …), so every block is an ordinary glibc block that
/// `free` takes as it is; each also adds one to the count when the calling thread is the
/// watched one. Nothing else happens inside malloc: no thread-local state, no locks, no
/// Swift code — the allocator runs in threads that are starting or exiting, inside the
/// dynamic loader and inside the Swift runtime's locked sections.
///
/// Thread: all functions on any thread; none allocates.

/// Counts the calling thread's allocations from now on, until `midihub_malloc_stop_watching`.
void midihub_malloc_watch_current_thread(void);

/// Counts no thread's allocations.
void midihub_malloc_stop_watching(void);

/// Sets the count to zero.
void midihub_malloc_reset(void);

/// The watched thread's allocations since the last reset.
long midihub_malloc_count(void);

#endif
