#ifndef MIDIHUB_MAPPED_FILE_H
#define MIDIHUB_MAPPED_FILE_H

#include <stddef.h>

/// Guards the file mapping [base, base + length): when the file under it shrinks or goes
/// (replaced in place, truncated), touching a page past its new end raises SIGBUS, which
/// would kill the process. Guarded, that page and the rest of the mapping read as zeros
/// from then on (the fault's page is mapped over with anonymous zero pages and the read
/// is retried), and the guard remembers it (`midihub_mapping_damaged`). A SIGBUS anywhere
/// else goes to the handler that was there before (or the default action: the crash it
/// is). Installs the process's SIGBUS handler on first use.
/// Returns the guard's number, or -1 when all 256 guards are taken (the mapping is then
/// not guarded). Any thread; no allocation.
int midihub_guard_mapping(const void *base, size_t length);

/// Stops guarding (before the mapping is unmapped). Any thread.
void midihub_unguard_mapping(int guard);

/// 1 once a fault in the guarded mapping was turned into zeros, else 0. Any thread,
/// render-safe (one atomic load).
int midihub_mapping_damaged(int guard);

/// Reads the file at `path` once, start to end, on a thread of its own (detached, at the
/// lowest priority), so its pages are in the kernel's page cache before a mapping of it
/// is read: a later first touch of a page is a minor fault (the kernel maps a cached
/// page), not a disk read. The pages stay the kernel's cache, not the process's memory.
/// Returns 0 when the thread started, else an errno value. Any thread; returns at once.
int midihub_warm_page_cache(const char *path);

#endif
