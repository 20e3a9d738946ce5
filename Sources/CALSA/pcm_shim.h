#ifndef MIDIHUB_CALSA_PCM_SHIM_H
#define MIDIHUB_CALSA_PCM_SHIM_H
#include <alsa/asoundlib.h>

/*
 * Helpers for the Swift PCM wrapper (Sources/ALSA/PCM*.swift) that Swift cannot
 * express itself. Only the Swift module `ALSA` imports this header.
 */

/* alsa-lib's default error handler prints "ALSA lib pcm.c:...: Unknown PCM x"
 * lines to stderr for failures that midihub already reports as one typed error.
 * The handler is C-variadic, so it has to be written in C. */
static void midihub_pcm_quiet_error_handler(const char *file, int line, const char *function,
                                            int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/* Routes alsa-lib's diagnostic messages (process-wide) to the quiet handler. */
static inline void midihub_pcm_silence_library_messages(void) {
    snd_lib_error_set_handler(midihub_pcm_quiet_error_handler);
}

#endif
