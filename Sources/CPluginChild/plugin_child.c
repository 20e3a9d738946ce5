#define _GNU_SOURCE
#include "plugin_child.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint32_t midihub_load_acquire(const uint32_t *word) {
    return atomic_load_explicit((const _Atomic uint32_t *)word, memory_order_acquire);
}

void midihub_store_release(uint32_t *word, uint32_t value) {
    atomic_store_explicit((_Atomic uint32_t *)word, value, memory_order_release);
}

int midihub_futex_wait(uint32_t *word, uint32_t expected, int64_t nanoseconds) {
    struct timespec limit = {(time_t)(nanoseconds / 1000000000), (long)(nanoseconds % 1000000000)};
    long result = syscall(SYS_futex, word, FUTEX_WAIT, expected, nanoseconds > 0 ? &limit : NULL, NULL, 0);
    if (result == 0) return 0;
    return errno == EAGAIN ? 0 : errno;
}

void midihub_futex_wake(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

int64_t midihub_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int midihub_shared_memory(const char *name, int64_t bytes) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, bytes) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

pid_t midihub_spawn_child(const char *path, char *const argv[], char *const environment[], int first, int second) {
    /* Copies above the numbers they go to, so that neither dup2 overwrites the other's source. */
    int high_first = fcntl(first, F_DUPFD_CLOEXEC, 64), high_second = fcntl(second, F_DUPFD_CLOEXEC, 64);
    if (high_first < 0 || high_second < 0) {
        int saved = errno;
        if (high_first >= 0) close(high_first);
        if (high_second >= 0) close(high_second);
        errno = saved;
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, high_first, 3);
    posix_spawn_file_actions_adddup2(&actions, high_second, 4);
    posix_spawn_file_actions_addclosefrom_np(&actions, 5);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    /* The child starts with no signal blocked and every signal at its default action. */
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    int result = posix_spawn(&pid, path, &actions, &attributes, argv, environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(high_first);
    close(high_second);
    if (result != 0) {
        errno = result;
        return -1;
    }
    return pid;
}

int midihub_pidfd(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int midihub_die_with_parent(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return getppid() == parent ? 0 : -1;
}
