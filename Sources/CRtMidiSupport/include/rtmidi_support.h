#ifndef MIDIHUB_RTMIDI_SUPPORT_H
#define MIDIHUB_RTMIDI_SUPPORT_H

// What RtMidi 5's C API and libjack's defaults leave out, for RtMidiBackend only:
// capturing RtMidi's error messages (the C API prints them to stderr and hands back a
// dangling `msg`), silencing libjack's own stderr chatter, and probing for a server
// without starting one.

#ifdef __cplusplus
extern "C" {
#endif

/// Receives one RtMidi error or warning: `type` is an `enum RtMidiErrorType` value,
/// `message` is valid only during the call.
typedef void (*midihub_rtmidi_error_callback)(int type, const char *message, void *context);

/// Routes every error and warning of the RtMidi object behind `wrapper` (an
/// `RtMidiPtr`) to `callback` instead of stderr. RtMidi then neither prints nor
/// throws; the caller reads the message it captured after each call.
/// Returns the routing record; free it with `midihub_rtmidi_free_error_routing` after
/// the RtMidi object is freed.
void *midihub_rtmidi_route_errors(void *wrapper, midihub_rtmidi_error_callback callback, void *context);

/// Frees a record returned by `midihub_rtmidi_route_errors`.
void midihub_rtmidi_free_error_routing(void *routing);

/// Makes libjack silent: its error and info messages are dropped (process-wide).
void midihub_jack_silence(void);

/// Opens and closes a JACK client without ever starting a server (JackNoStartServer).
/// `server_name` NULL means `$JACK_DEFAULT_SERVER` or "default".
/// Returns 0 when a server answered, else libjack's `jack_status_t` bits (never 0).
unsigned int midihub_jack_probe(const char *client_name, const char *server_name);

#ifdef __cplusplus
}
#endif

#endif
