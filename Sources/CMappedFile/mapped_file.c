#define _GNU_SOURCE
#include "mapped_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

enum { GUARDS = 256 };

/// A guarded range: `claimed` while someone owns the slot; `base` non-zero once the range
/// is complete (the handler matches only those).
struct guard {
    atomic_int claimed;
    _Atomic uintptr_t base;
    _Atomic size_t length;
    atomic_int damaged;
};

static struct guard guards[GUARDS];
static struct sigaction previous;
static uintptr_t page_size;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

/// Async-signal-safe: atomic loads and stores, mmap, sigaction, raise.
static void on_sigbus(int signal, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    if (info->si_code > 0) {  // a fault of this process's own access, not a kill(2)
        for (int i = 0; i < GUARDS; i++) {
            uintptr_t base = atomic_load(&guards[i].base);
            size_t length = atomic_load(&guards[i].length);
            if (base == 0 || address < base || address - base >= length) continue;
            uintptr_t from = address & ~(page_size - 1);
            uintptr_t end = (base + length + page_size - 1) & ~(page_size - 1);
            if (mmap((void *)from, end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
            atomic_store(&guards[i].damaged, 1);
            return;  // the read runs again, on zeros
        }
    }
    // Not ours: whoever handled SIGBUS before does (the fault recurs when the access runs
    // again; a SIGBUS sent by kill is raised again).
    sigaction(signal, &previous, NULL);
    if (info->si_code <= 0) raise(signal);
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

int midihub_guard_mapping(const void *base, size_t length) {
    if (base == NULL || length == 0) return -1;
    pthread_once(&installed, install);
    for (int i = 0; i < GUARDS; i++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&guards[i].claimed, &expected, 1)) continue;
        atomic_store(&guards[i].damaged, 0);
        atomic_store(&guards[i].length, length);
        atomic_store(&guards[i].base, (uintptr_t)base);
        return i;
    }
    return -1;
}

void midihub_unguard_mapping(int guard) {
    if (guard < 0 || guard >= GUARDS) return;
    atomic_store(&guards[guard].base, 0);
    atomic_store(&guards[guard].length, 0);
    atomic_store(&guards[guard].claimed, 0);
}

int midihub_mapping_damaged(int guard) {
    if (guard < 0 || guard >= GUARDS) return 0;
    return atomic_load(&guards[guard].damaged);
}

static void *warm(void *argument) {
    char *path = argument;
    int file = open(path, O_RDONLY | O_CLOEXEC);
    free(path);
    if (file < 0) return NULL;
    setpriority(PRIO_PROCESS, 0, 19);  // this thread only (Linux): the disk's work, no one's wait
    posix_fadvise(file, 0, 0, POSIX_FADV_SEQUENTIAL);
    enum { CHUNK = 1 << 20 };
    char *buffer = malloc(CHUNK);
    while (buffer && read(file, buffer, CHUNK) > 0) {}
    free(buffer);
    close(file);
    return NULL;
}

int midihub_warm_page_cache(const char *path) {
    char *copy = strdup(path);
    if (!copy) return ENOMEM;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int result = pthread_create(&thread, &attributes, warm, copy);
    pthread_attr_destroy(&attributes);
    if (result != 0) {
        free(copy);
        return result;
    }
    pthread_setname_np(thread, "midihub-font-rd");
    return 0;
}
