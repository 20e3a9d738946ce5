// Times JACK MIDI through a client between two JACK clients of its own, in JACK's frames:
// "probe-keys" (a MIDI output, `out`) sends COUNT note-ons, one every 4 periods at a frame
// that moves through the period, each one's number and velocity naming it; "probe-ears" (a
// MIDI input, `in`) notes the absolute frame each one arrives at. Whatever connects out →
// CLIENT → in (the hub's JACK client, jack-midi-relay) is what is timed; with no cycle in
// JACK's graph a client that adds nothing shows 0 frames. A message sent or answered across
// an xrun (JACK's server reports it) is left out, not counted late: in an emulated VM the
// server's periods slip. The anchor and the hub's row in bench/vm/jack.bench.sh.
// Usage: jack-midi-probe COUNT   (starts sending once both ports are connected; prints
//   "avg=FRAMES p50=FRAMES low=FRAMES high=FRAMES same_period=N sent=N received=N across_xruns=N";
//   same_period: those that arrived in the period they were sent in)
#include <jack/jack.h>
#include <jack/midiport.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static jack_client_t *keys, *ears;
static jack_port_t *out, *in;
static int count;
static int64_t *sent_at, *heard_at;
static int *xruns_at_send;
static atomic_int next, xruns, started, periods;

static int keys_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    void *buffer = jack_port_get_buffer(out, frames);
    jack_midi_clear_buffer(buffer);
    if (!atomic_load(&started) || atomic_fetch_add(&periods, 1) % 4 != 0) return 0;
    int index = atomic_load(&next);
    if (index >= count) return 0;
    jack_nframes_t frame = (jack_nframes_t)(index * 37) % frames;
    jack_midi_data_t on[3] = {0x90, (jack_midi_data_t)(index & 0x7F), (jack_midi_data_t)(1 + ((index >> 7) & 0x3F))};
    if (jack_midi_event_write(buffer, frame, on, 3) == 0) {
        sent_at[index] = (int64_t)jack_last_frame_time(keys) + frame;
        xruns_at_send[index] = atomic_load(&xruns);
        atomic_store(&next, index + 1);
    }
    return 0;
}

static int ears_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    void *buffer = jack_port_get_buffer(in, frames);
    jack_midi_event_t event;
    for (uint32_t i = 0, n = jack_midi_get_event_count(buffer); i < n; i++) {
        if (jack_midi_event_get(&event, buffer, i) || event.size != 3 || event.buffer[0] != 0x90) continue;
        int index = event.buffer[1] | (event.buffer[2] - 1) << 7;
        if (index >= 0 && index < count && heard_at[index] < 0 && xruns_at_send[index] == atomic_load(&xruns)) {
            heard_at[index] = (int64_t)jack_last_frame_time(ears) + event.time;
        }
    }
    return 0;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int on_xrun(void *argument) { (void)argument; atomic_fetch_add(&xruns, 1); return 0; }

static jack_client_t *open_client(const char *name, jack_port_t **port, const char *port_name, unsigned long flags,
                                  JackProcessCallback process) {
    jack_client_t *client = jack_client_open(name, JackNoStartServer | JackUseExactName, NULL);
    if (!client) { fprintf(stderr, "jack-midi-probe: cannot open %s (is jackd running?)\n", name); exit(1); }
    *port = jack_port_register(client, port_name, JACK_DEFAULT_MIDI_TYPE, flags, 0);
    if (!*port) { fprintf(stderr, "jack-midi-probe: JACK refused %s:%s\n", name, port_name); exit(1); }
    jack_set_process_callback(client, process, NULL);
    jack_set_xrun_callback(client, on_xrun, NULL);
    if (jack_activate(client)) { fprintf(stderr, "jack-midi-probe: JACK would not activate %s\n", name); exit(1); }
    return client;
}

int main(int argc, char **argv) {
    count = argc == 2 ? atoi(argv[1]) : 0;
    if (count <= 0 || count > 8192) { fprintf(stderr, "usage: jack-midi-probe COUNT (1 to 8192)\n"); return 2; }
    sent_at = calloc(count, sizeof *sent_at);
    heard_at = calloc(count, sizeof *heard_at);
    xruns_at_send = calloc(count, sizeof *xruns_at_send);
    for (int i = 0; i < count; i++) heard_at[i] = -1;
    keys = open_client("probe-keys", &out, "out", JackPortIsOutput, keys_process);
    ears = open_client("probe-ears", &in, "in", JackPortIsInput, ears_process);
    while (!jack_port_connected(out) || !jack_port_connected(in)) usleep(10000);
    usleep(500000);  // whatever connects them has settled
    atomic_store(&started, 1);
    while (atomic_load(&next) < count) usleep(10000);
    usleep(500000);  // the last answers
    int received = 0, across = 0, same_period = 0;
    int64_t sum = 0, *latencies = calloc(count, sizeof *latencies), period = jack_get_buffer_size(keys);
    for (int i = 0; i < count; i++) {
        if (heard_at[i] < 0) { across += xruns_at_send[i] != atomic_load(&xruns); continue; }
        int64_t latency = heard_at[i] - sent_at[i];
        latencies[received++] = latency;
        sum += latency;
        same_period += latency < period - (sent_at[i] % period);
    }
    qsort(latencies, received, sizeof *latencies, compare);
    printf("avg=%.2f p50=%lld low=%lld high=%lld same_period=%d sent=%d received=%d across_xruns=%d\n",
           received ? (double)sum / received : -1.0, (long long)(received ? latencies[received / 2] : -1),
           (long long)(received ? latencies[0] : -1), (long long)(received ? latencies[received - 1] : -1), same_period, count,
           received, across);
    jack_client_close(keys);
    jack_client_close(ears);
    return received > 0 ? 0 : 1;
}
