// Encodes MIDI channel messages as alsa-lib sequencer events into a caller's buffer, as
// midihub's output does before a drain (for the hub-route benchmark; no kernel needed).
#ifndef SEQ_ENCODE_H
#define SEQ_ENCODE_H
#include <stddef.h>
#include <stdint.h>

/// The size of one snd_seq_event_t, in bytes.
size_t seq_encode_event_size(void);

/// Writes a note-on, note-off or control change (by `status`, channel in the low nibble) as a
/// direct-dispatched event from port `source` to `client`:`port` into slot `index` of `buffer`
/// (an array of snd_seq_event_t). Returns 0, or -1 for another status.
int seq_encode_channel_message(void *buffer, size_t index, uint8_t status, uint8_t data1, uint8_t data2,
                               uint8_t source, uint8_t client, uint8_t port);
#endif
