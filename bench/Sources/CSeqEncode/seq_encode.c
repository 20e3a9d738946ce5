#include "seq_encode.h"
#include <alsa/asoundlib.h>
#include <string.h>

size_t seq_encode_event_size(void) { return sizeof(snd_seq_event_t); }

int seq_encode_channel_message(void *buffer, size_t index, uint8_t status, uint8_t data1, uint8_t data2,
                               uint8_t source, uint8_t client, uint8_t port) {
    snd_seq_event_t event;
    snd_seq_ev_clear(&event);
    int channel = status & 0x0F;
    switch (status & 0xF0) {
    case 0x90: snd_seq_ev_set_noteon(&event, channel, data1, data2); break;
    case 0x80: snd_seq_ev_set_noteoff(&event, channel, data1, data2); break;
    case 0xB0: snd_seq_ev_set_controller(&event, channel, data1, data2); break;
    default: return -1;
    }
    snd_seq_ev_set_source(&event, source);
    snd_seq_ev_set_dest(&event, client, port);
    snd_seq_ev_set_direct(&event);
    // What snd_seq_event_output does with a fixed-size event: copy it into the output buffer.
    memcpy((snd_seq_event_t *)buffer + index, &event, sizeof event);
    return 0;
}
