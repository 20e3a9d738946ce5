// The smallest JACK MIDI router: a client "jack-midi-relay" whose process callback copies
// every event of its input port `in` to its output port `out` at the same frame. The anchor
// of the hub's JACK MIDI hop in bench/vm/jack.bench.sh (jack-midi-probe times both).
// Usage: jack-midi-relay   (runs until SIGTERM or SIGINT)
#include <jack/jack.h>
#include <jack/midiport.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static jack_port_t *in, *out;
static volatile sig_atomic_t done;

static int process(jack_nframes_t frames, void *argument) {
    (void)argument;
    void *from = jack_port_get_buffer(in, frames), *to = jack_port_get_buffer(out, frames);
    jack_midi_clear_buffer(to);
    jack_midi_event_t event;
    for (uint32_t i = 0, n = jack_midi_get_event_count(from); i < n; i++) {
        if (jack_midi_event_get(&event, from, i) == 0) jack_midi_event_write(to, event.time, event.buffer, event.size);
    }
    return 0;
}

static void stop(int signal) { (void)signal; done = 1; }

int main(void) {
    jack_client_t *client = jack_client_open("jack-midi-relay", JackNoStartServer | JackUseExactName, NULL);
    if (!client) { fprintf(stderr, "jack-midi-relay: no JACK server (start jackd first)\n"); return 1; }
    in = jack_port_register(client, "in", JACK_DEFAULT_MIDI_TYPE, JackPortIsInput, 0);
    out = jack_port_register(client, "out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
    if (!in || !out) { fprintf(stderr, "jack-midi-relay: JACK refused the ports\n"); return 1; }
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client)) { fprintf(stderr, "jack-midi-relay: JACK would not activate the client\n"); return 1; }
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    while (!done) pause();
    jack_client_close(client);
    return 0;
}
