// seq-relay: the smallest userspace MIDI router, the anchor of the hub's own hop
// (bench/vm/hub.bench.sh). One sequencer client "seq-relay" with a port "in" (0) and a
// port "out" (1): it blocks reading events and writes each out of "out" to its
// subscribers, everything already read in one write — the same two kernel hops and one
// process wake-up a hop through midihub pays, and nothing else.
// Prints "ready in=C:0 out=C:1"; on SIGINT or SIGTERM
// "events=N writes=N overflows=N" (overflows: reads the kernel answered -ENOSPC, its
// input FIFO emptied) and exits 0.
#include <alsa/asoundlib.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

enum { POOL = 2000 }; // events: the kernel's largest client pool

static volatile sig_atomic_t stopping;
static void stop(int signal) { (void)signal; stopping = 1; }

static void check(const char *what, int err) {
    if (err < 0) { fprintf(stderr, "seq-relay: %s: %s\n", what, snd_strerror(err)); exit(1); }
}

// Hands the output buffer to the kernel; a full receiving FIFO refuses the rest
// (-EAGAIN, nothing dropped): wait 100 µs and retry, as seq-probe's sender does.
static void drain(snd_seq_t *seq) {
    int status;
    while ((status = snd_seq_drain_output(seq)) != 0) {
        if (status != -EAGAIN) check("snd_seq_drain_output", status);
        usleep(100);
    }
}

int main(void) {
    snd_seq_t *seq;
    check("snd_seq_open", snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, 0));
    check("snd_seq_set_client_name", snd_seq_set_client_name(seq, "seq-relay"));
    unsigned type = SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION;
    int in = snd_seq_create_simple_port(seq, "in", SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE, type);
    check("snd_seq_create_simple_port", in);
    int out = snd_seq_create_simple_port(seq, "out", SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ, type);
    check("snd_seq_create_simple_port", out);
    check("snd_seq_set_client_pool_input", snd_seq_set_client_pool_input(seq, POOL));
    check("snd_seq_set_client_pool_output", snd_seq_set_client_pool_output(seq, POOL));
    // alsa-lib's buffers hold a whole FIFO: one read takes it in, one write sends it on.
    check("snd_seq_set_input_buffer_size", snd_seq_set_input_buffer_size(seq, POOL * sizeof(snd_seq_event_t)));
    check("snd_seq_set_output_buffer_size", snd_seq_set_output_buffer_size(seq, POOL * sizeof(snd_seq_event_t)));
    struct sigaction action = { .sa_handler = stop }; // no SA_RESTART: the blocked read returns
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    printf("ready in=%d:%d out=%d:%d\n", snd_seq_client_id(seq), in, snd_seq_client_id(seq), out);
    fflush(stdout);

    long events = 0, writes = 0, overflows = 0;
    while (!stopping) {
        snd_seq_event_t *event;
        int status = snd_seq_event_input(seq, &event); // blocks; reads all the FIFO holds
        if (status == -ENOSPC) { overflows++; continue; }
        if (status == -EINTR) continue;
        check("snd_seq_event_input", status);
        do {
            snd_seq_ev_set_source(event, out);
            snd_seq_ev_set_subs(event);
            snd_seq_ev_set_direct(event);
            while ((status = snd_seq_event_output(seq, event)) == -EAGAIN) drain(seq);
            check("snd_seq_event_output", status);
            events++;
        } while (snd_seq_event_input_pending(seq, 0) > 0 && snd_seq_event_input(seq, &event) >= 0);
        drain(seq);
        writes++;
    }
    printf("events=%ld writes=%ld overflows=%ld\n", events, writes, overflows);
    return 0;
}
