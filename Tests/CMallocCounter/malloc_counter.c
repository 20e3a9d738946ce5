#include "CMallocCounter.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

// glibc's allocator under its own names (exported by libc.so.6 since GLIBC_2.2.5).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic bool watching = false;
static _Atomic pthread_t watched_thread;
static _Atomic long allocations = 0;

static inline void count_allocation(void) {
    if (atomic_load_explicit(&watching, memory_order_acquire)
        && pthread_equal(pthread_self(), atomic_load_explicit(&watched_thread, memory_order_relaxed))) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void midihub_malloc_watch_current_thread(void) {
    atomic_store_explicit(&watched_thread, pthread_self(), memory_order_relaxed);
    atomic_store_explicit(&watching, true, memory_order_release);
}

void midihub_malloc_stop_watching(void) {
    atomic_store_explicit(&watching, false, memory_order_release);
}

void midihub_malloc_reset(void) {
    atomic_store_explicit(&allocations, 0, memory_order_relaxed);
}

long midihub_malloc_count(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

// The allocator entry points the process calls (the executable's definitions win over
// libc's for every library).

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_allocation();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_allocation();
    void *block = __libc_memalign(alignment, size);
    if (!block) return ENOMEM;
    *result = block;
    return 0;
}

void *valloc(size_t size) {
    count_allocation();
    return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size) {
    count_allocation();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (size > SIZE_MAX - page) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_memalign(page, (size + page - 1) / page * page);
}
