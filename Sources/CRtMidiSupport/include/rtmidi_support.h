#ifndef MIDIHUB_RTMIDI_SUPPORT_H
#define MIDIHUB_RTMIDI_SUPPORT_H

// What RtMidi 5's C API and libjack's defaults leave out, for RtMidiBackend only:
// capturing RtMidi's error messages (the C API prints them to stderr and hands back a
// dangling `msg`), silencing libjack's own stderr chatter, and probing for a server
// without starting one; an eventfd to wake a poll loop; connecting and disconnecting JACK ports by name.

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

/// Opens a JACK client that makes and breaks connections between other clients'
/// ports, without ever starting a server. `server_name` NULL means
/// `$JACK_DEFAULT_SERVER` or "default". Returns NULL when no server answered (then
/// `*status` holds libjack's `jack_status_t` bits). The connector watches its server:
/// see `midihub_jack_connector_server_gone`. Close it with
/// `midihub_jack_connector_close` — never once its server died (libjack aborts).
void *midihub_jack_connector_open(const char *client_name, const char *server_name, unsigned int *status);

/// Closes a client returned by `midihub_jack_connector_open`.
void midihub_jack_connector_close(void *connector);

/// 1 once the connector's server has shut down or died (libjack's `jack_on_shutdown`,
/// reported on libjack's thread, read here from any thread), else 0.
int midihub_jack_connector_server_gone(void *connector);

/// Connects the JACK port named `source` (an output) to `destination` (an input).
/// Returns 0 when connected (already connected counts), else `jack_connect`'s error
/// (EEXIST is never returned; -1 when a port does not exist).
int midihub_jack_connector_connect(void *connector, const char *source, const char *destination);

/// Disconnects `source` from `destination`. Returns 0 when they are not connected
/// afterwards (including when they were not), else `jack_disconnect`'s error.
int midihub_jack_connector_disconnect(void *connector, const char *source, const char *destination);

/// Whether the JACK port named `source` is connected to `destination`
/// (1 yes, 0 no, -1 no port named `source`).
int midihub_jack_connector_is_connected(void *connector, const char *source, const char *destination);

/// A non-blocking, close-on-exec eventfd starting at 0 (Swift's Glibc module lacks
/// <sys/eventfd.h>). Returns -1 with errno set on failure.
int midihub_eventfd_open(void);

#ifdef __cplusplus
}
#endif

#endif
