#ifndef MIDIHUB_CJACK_SHIM_H
#define MIDIHUB_CJACK_SHIM_H
#include <jack/jack.h>
#include <jack/types.h>
#include <jack/midiport.h>

static void midihub_jack_audio_quiet(const char *message) { (void)message; }

/// jack_client_open without its variadic tail (Swift cannot call it), never starting a
/// server, and with libjack's own error and info printing silenced: a failure is told by
/// `status`, which the caller turns into one line.
static inline jack_client_t *midihub_jack_audio_open(const char *name, jack_status_t *status) {
    jack_set_error_function(midihub_jack_audio_quiet);
    jack_set_info_function(midihub_jack_audio_quiet);
    return jack_client_open(name, JackNoStartServer, status);
}
#endif
