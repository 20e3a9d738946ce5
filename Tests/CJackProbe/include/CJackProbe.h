#ifndef MIDIHUB_C_JACK_PROBE_H
#define MIDIHUB_C_JACK_PROBE_H
#include <stdint.h>

/// Key to sound in JACK, measured in JACK's own frames: two JACK clients of the test's,
/// `NAME-keys` (a MIDI output, `out`) and `NAME-ears` (an audio input, `in`, and a MIDI
/// input, `midi_in`). Once fired, the keys write a note-on at `frame` of the next period and
/// note the absolute frame (`jack_last_frame_time` + `frame`); the ears note the absolute
/// frame of the first sample louder than -80 dBFS after it, and of the first note-on on
/// `midi_in`. Both run in JACK's process callbacks, in the period JACK
/// runs them: a client between them that adds no latency makes the two frames equal.
typedef struct midihub_jack_probe midihub_jack_probe;

/// Opens and activates both clients on the default server; NULL when it cannot.
midihub_jack_probe *midihub_jack_probe_open(const char *name, uint32_t frame, uint8_t note);
/// Sends the note at the next period (and its note-off a period after it is heard).
void midihub_jack_probe_fire(midihub_jack_probe *probe);
/// The same, with two stray bytes (the note's number and velocity, no status: a malformed
/// JACK event) written before it, at frame 0.
void midihub_jack_probe_fire_after_stray_bytes(midihub_jack_probe *probe);
/// The first byte of the first event on `midi_in` since the note was sent; -1 while none.
int midihub_jack_probe_first_midi_byte(const midihub_jack_probe *probe);
/// The absolute frames the note was sent at and first heard at; -1 while not yet.
int64_t midihub_jack_probe_sent(const midihub_jack_probe *probe);
int64_t midihub_jack_probe_heard(const midihub_jack_probe *probe);
int64_t midihub_jack_probe_heard_midi(const midihub_jack_probe *probe);
/// Frames since the ears last heard a sample louder than -80 dBFS.
int64_t midihub_jack_probe_quiet_frames(const midihub_jack_probe *probe);
/// Frames in a JACK period.
uint32_t midihub_jack_probe_period(const midihub_jack_probe *probe);
void midihub_jack_probe_close(midihub_jack_probe *probe);

#endif
