#ifndef MIDIHUB_CALSA_SHIM_H
#define MIDIHUB_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include "pcm_shim.h"

/*
 * Static inline wrappers for the ALSA sequencer macros that Swift cannot import
 * (function-like macros). Names mirror the macro with a `midihub_` prefix.
 * Only the Swift module `ALSA` imports this header.
 */

/* ---- library messages ---- */

/* alsa-lib prints its own diagnostics to stderr ("ALSA lib seq_hw.c:…"); midihub
   reports every failure itself as a typed error, so those lines are dropped.
   (The handler is variadic, which Swift cannot define.) */
static void midihub_ignore_alsa_message(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void midihub_silence_alsa_messages(void) { snd_lib_error_set_handler(midihub_ignore_alsa_message); }

/* ---- event header ---- */

static inline void midihub_seq_ev_clear(snd_seq_event_t *ev) { snd_seq_ev_clear(ev); }
static inline void midihub_seq_ev_set_source(snd_seq_event_t *ev, unsigned char port) { snd_seq_ev_set_source(ev, port); }
static inline void midihub_seq_ev_set_dest(snd_seq_event_t *ev, unsigned char client, unsigned char port) { snd_seq_ev_set_dest(ev, client, port); }
static inline void midihub_seq_ev_set_subs(snd_seq_event_t *ev) { snd_seq_ev_set_subs(ev); }
static inline void midihub_seq_ev_set_direct(snd_seq_event_t *ev) { snd_seq_ev_set_direct(ev); }
static inline void midihub_seq_ev_schedule_real(snd_seq_event_t *ev, int queue, unsigned int sec, unsigned int nsec) {
    snd_seq_real_time_t time = { sec, nsec };
    snd_seq_ev_schedule_real(ev, queue, 0, &time);
}
static inline void midihub_seq_ev_schedule_tick(snd_seq_event_t *ev, int queue, int relative, snd_seq_tick_time_t tick) {
    snd_seq_ev_schedule_tick(ev, queue, relative, tick);
}
static inline void midihub_seq_ev_set_fixed(snd_seq_event_t *ev) { snd_seq_ev_set_fixed(ev); }
static inline void midihub_seq_ev_set_sysex(snd_seq_event_t *ev, unsigned int len, void *data) { snd_seq_ev_set_sysex(ev, len, data); }
static inline int midihub_seq_ev_is_variable(const snd_seq_event_t *ev) { return snd_seq_ev_is_variable(ev); }
static inline int midihub_seq_ev_is_real(const snd_seq_event_t *ev) { return snd_seq_ev_is_real(ev); }

/* ---- channel voice ---- */

static inline void midihub_seq_ev_set_noteon(snd_seq_event_t *ev, int ch, int key, int vel) { snd_seq_ev_set_noteon(ev, ch, key, vel); }
static inline void midihub_seq_ev_set_noteoff(snd_seq_event_t *ev, int ch, int key, int vel) { snd_seq_ev_set_noteoff(ev, ch, key, vel); }
static inline void midihub_seq_ev_set_keypress(snd_seq_event_t *ev, int ch, int key, int vel) { snd_seq_ev_set_keypress(ev, ch, key, vel); }
static inline void midihub_seq_ev_set_controller(snd_seq_event_t *ev, int ch, int cc, int val) { snd_seq_ev_set_controller(ev, ch, cc, val); }
static inline void midihub_seq_ev_set_pgmchange(snd_seq_event_t *ev, int ch, int val) { snd_seq_ev_set_pgmchange(ev, ch, val); }
static inline void midihub_seq_ev_set_chanpress(snd_seq_event_t *ev, int ch, int val) { snd_seq_ev_set_chanpress(ev, ch, val); }
static inline void midihub_seq_ev_set_pitchbend(snd_seq_event_t *ev, int ch, int val) { snd_seq_ev_set_pitchbend(ev, ch, val); }

/* ---- queue control ---- */

static inline void midihub_seq_ev_set_queue_tempo(snd_seq_event_t *ev, int queue, int tempo) { snd_seq_ev_set_queue_tempo(ev, queue, tempo); }
static inline void midihub_seq_ev_set_queue_stop(snd_seq_event_t *ev, int queue) { snd_seq_ev_set_queue_stop(ev, queue); }
static inline int midihub_seq_start_queue(snd_seq_t *seq, int queue) { return snd_seq_start_queue(seq, queue, NULL); }
static inline int midihub_seq_stop_queue(snd_seq_t *seq, int queue) { return snd_seq_stop_queue(seq, queue, NULL); }

/* ---- another client's input room ---- */

/* The kernel's SNDRV_SEQ_IOCTL_GET_CLIENT_POOL answers for any client number, but alsa-lib's
   snd_seq_get_client_pool asks only for the caller's own client. The kernel's struct
   (sound/asequencer.h, which clashes with alsa-lib's own definitions) mirrored here. */
#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
struct midihub_seq_client_pool {
    int client, output_pool, input_pool, output_room, output_free, input_free;
    char reserved[64];
};
/* How many more events client `client`'s input can hold now (>= 0), with its input pool's
   size in *size; *size is 0 for a kernel client (a device: it has no input pool). -errno on failure. */
static inline int midihub_seq_client_input_room(snd_seq_t *seq, int client, int *size) {
    struct pollfd descriptor;
    if (snd_seq_poll_descriptors(seq, &descriptor, 1, POLLIN) != 1) return -EINVAL;
    struct midihub_seq_client_pool pool = { .client = client };
    if (ioctl(descriptor.fd, _IOWR('S', 0x4b, struct midihub_seq_client_pool), &pool) < 0) return -errno;
    *size = pool.input_pool;
    return pool.input_free;
}

/* poll() to the microsecond (-1: forever): glibc's ppoll, which <poll.h> declares only under
   _GNU_SOURCE (Swift's Glibc module is built without it), declared here as glibc exports it. */
#include <signal.h>
#include <time.h>
extern int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout, const sigset_t *mask);
static inline int midihub_poll_microseconds(struct pollfd *fds, nfds_t count, long long microseconds) {
    if (microseconds < 0) return ppoll(fds, count, NULL, NULL);
    struct timespec timeout = { .tv_sec = microseconds / 1000000, .tv_nsec = (microseconds % 1000000) * 1000 };
    return ppoll(fds, count, &timeout, NULL);
}

#endif
