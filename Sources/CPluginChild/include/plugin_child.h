#ifndef MIDIHUB_PLUGIN_CHILD_H
#define MIDIHUB_PLUGIN_CHILD_H

/* What an isolated plugin node (Plugins' `IsolatedPluginNode`) needs of Linux that Swift
 * cannot call itself: futexes on a word of shared memory, atomic loads and stores of it,
 * spawning its child with two descriptors at fixed numbers, a pidfd to watch the child by,
 * and the child's death with its parent. No allocation; the futex and atomic calls are
 * render-safe (a futex is the one system call the render thread makes to wake a child). */

#include <stdint.h>
#include <sys/types.h>

/// The value of `word`, with acquire ordering. Any thread.
uint32_t midihub_load_acquire(const uint32_t *word);

/// Stores `value` into `word`, with release ordering. Any thread.
void midihub_store_release(uint32_t *word, uint32_t value);

/// Waits while `*word == expected`, for at most `nanoseconds` (0: no limit), on a futex
/// shared between processes. Returns 0 when woken (or the word had changed), else an errno
/// value (ETIMEDOUT, EINTR). Any thread.
int midihub_futex_wait(uint32_t *word, uint32_t expected, int64_t nanoseconds);

/// Wakes every waiter on `word` (a futex shared between processes). Any thread.
void midihub_futex_wake(uint32_t *word);

/// The monotonic clock, in nanoseconds (vDSO: no system call). Any thread.
int64_t midihub_monotonic_nanoseconds(void);

/// An anonymous shared memory file of `bytes` (memfd), close-on-exec; -1 with errno.
int midihub_shared_memory(const char *name, int64_t bytes);

/// Starts `path` with `argv` (NULL-terminated) and `environment`, its descriptors 3 and 4
/// being `first` and `second` and no other of the caller's open; returns the child's pid,
/// or -1 with errno.
pid_t midihub_spawn_child(const char *path, char *const argv[], char *const environment[], int first, int second);

/// A pidfd for `pid` (readable once it ends), close-on-exec; -1 with errno.
int midihub_pidfd(pid_t pid);

/// Makes the calling process get SIGKILL when its parent ends; returns 0, or -1 when the
/// parent had already ended (the caller then exits).
int midihub_die_with_parent(pid_t parent);

#endif
