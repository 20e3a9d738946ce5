#include "CJackProbe.h"
#include <jack/jack.h>
#include <jack/midiport.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct midihub_jack_probe {
    jack_client_t *keys, *ears;
    jack_port_t *out, *in, *midi_in;
    uint32_t frame;
    uint8_t note;
    /// 0 idle, 1 fired, 2 note sent, 3 heard (note-off due), 4 done.
    atomic_int stage;
    _Atomic int64_t sent, heard, heard_midi;
    /// Whether the keys send stray bytes (no status) before the note; the first byte of the
    /// first event on midi_in after the note was sent (-1 while none).
    atomic_int stray, first_midi_byte;
    /// The ears' last loud frame and the end of the last period they heard.
    _Atomic int64_t loud, now;
};

static void quiet(const char *message) { (void)message; }

static int keys_process(jack_nframes_t frames, void *argument) {
    midihub_jack_probe *probe = argument;
    void *buffer = jack_port_get_buffer(probe->out, frames);
    jack_midi_clear_buffer(buffer);
    int stage = atomic_load(&probe->stage);
    if (stage == 1 && probe->frame < frames) {
        jack_midi_data_t stray[2] = {probe->note, 110}, on[3] = {0x90, probe->note, 110};
        if (atomic_load(&probe->stray)) jack_midi_event_write(buffer, 0, stray, 2);
        jack_midi_event_write(buffer, probe->frame, on, 3);
        atomic_store(&probe->sent, (int64_t)jack_last_frame_time(probe->keys) + probe->frame);
        atomic_store(&probe->stage, 2);
    } else if (stage == 3) {
        jack_midi_data_t off[3] = {0x80, probe->note, 0};
        jack_midi_event_write(buffer, 0, off, 3);
        atomic_store(&probe->stage, 4);
    }
    return 0;
}

static int ears_process(jack_nframes_t frames, void *argument) {
    midihub_jack_probe *probe = argument;
    const float *samples = jack_port_get_buffer(probe->in, frames);
    int64_t start = (int64_t)jack_last_frame_time(probe->ears), sent = atomic_load(&probe->sent);
    void *midi = jack_port_get_buffer(probe->midi_in, frames);
    jack_midi_event_t event;
    if (sent >= 0 && atomic_load(&probe->heard_midi) < 0 && jack_midi_get_event_count(midi) > 0
        && jack_midi_event_get(&event, midi, 0) == 0 && event.size > 0) {
        if (atomic_load(&probe->first_midi_byte) < 0) atomic_store(&probe->first_midi_byte, event.buffer[0]);
        if ((event.buffer[0] & 0xF0) == 0x90) atomic_store(&probe->heard_midi, start + event.time);
    }
    for (jack_nframes_t i = 0; i < frames; i++) {
        if (fabsf(samples[i]) > 1e-4f) atomic_store(&probe->loud, start + i);
    }
    atomic_store(&probe->now, start + frames);
    if (atomic_load(&probe->stage) != 2 || atomic_load(&probe->heard) >= 0) return 0;
    for (jack_nframes_t i = 0; i < frames; i++) {
        if (start + i >= sent && fabsf(samples[i]) > 1e-4f) {
            atomic_store(&probe->heard, start + i);
            atomic_store(&probe->stage, 3);
            break;
        }
    }
    return 0;
}

midihub_jack_probe *midihub_jack_probe_open(const char *name, uint32_t frame, uint8_t note) {
    jack_set_error_function(quiet);
    jack_set_info_function(quiet);
    midihub_jack_probe *probe = calloc(1, sizeof *probe);
    if (!probe) return NULL;
    probe->frame = frame;
    probe->note = note;
    atomic_init(&probe->stage, 0);
    atomic_init(&probe->sent, -1);
    atomic_init(&probe->heard, -1);
    atomic_init(&probe->heard_midi, -1);
    atomic_init(&probe->loud, -1);
    atomic_init(&probe->now, 0);
    char keys[256], ears[256];
    snprintf(keys, sizeof keys, "%s-keys", name);
    snprintf(ears, sizeof ears, "%s-ears", name);
    probe->keys = jack_client_open(keys, JackNoStartServer | JackUseExactName, NULL);
    probe->ears = jack_client_open(ears, JackNoStartServer | JackUseExactName, NULL);
    if (!probe->keys || !probe->ears) goto fail;
    probe->out = jack_port_register(probe->keys, "out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    probe->in = jack_port_register(probe->ears, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    probe->midi_in = jack_port_register(probe->ears, "midi_in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
    if (!probe->out || !probe->in || !probe->midi_in) goto fail;
    jack_set_process_callback(probe->keys, keys_process, probe);
    jack_set_process_callback(probe->ears, ears_process, probe);
    if (jack_activate(probe->keys) || jack_activate(probe->ears)) goto fail;
    return probe;
fail:
    midihub_jack_probe_close(probe);
    return NULL;
}

void midihub_jack_probe_fire(midihub_jack_probe *probe) {
    atomic_store(&probe->stray, 0);
    atomic_store(&probe->first_midi_byte, -1);
    atomic_store(&probe->sent, -1);
    atomic_store(&probe->heard, -1);
    atomic_store(&probe->heard_midi, -1);
    atomic_store(&probe->stage, 1);
}

void midihub_jack_probe_fire_after_stray_bytes(midihub_jack_probe *probe) {
    midihub_jack_probe_fire(probe);
    atomic_store(&probe->stray, 1);
}

int midihub_jack_probe_first_midi_byte(const midihub_jack_probe *probe) { return atomic_load(&probe->first_midi_byte); }
int64_t midihub_jack_probe_sent(const midihub_jack_probe *probe) { return atomic_load(&probe->sent); }
int64_t midihub_jack_probe_heard(const midihub_jack_probe *probe) { return atomic_load(&probe->heard); }
int64_t midihub_jack_probe_heard_midi(const midihub_jack_probe *probe) { return atomic_load(&probe->heard_midi); }
int64_t midihub_jack_probe_quiet_frames(const midihub_jack_probe *probe) {
    return atomic_load(&probe->now) - atomic_load(&probe->loud);
}
uint32_t midihub_jack_probe_period(const midihub_jack_probe *probe) { return jack_get_buffer_size(probe->keys); }

void midihub_jack_probe_close(midihub_jack_probe *probe) {
    if (!probe) return;
    if (probe->keys) jack_client_close(probe->keys);
    if (probe->ears) jack_client_close(probe->ears);
    free(probe);
}
