// seq-probe: measures one MIDI path through the ALSA sequencer, for bench/vm/hub.bench.sh.
//
// Opens two sequencer clients, PREFIX-tx (a source port "out") and PREFIX-rx (a
// destination port "in"), and sends note-ons from tx, each carrying a sequence number
// (channel, note and velocity), paced at RATE per second in writes of BATCH events.
// Whatever connects tx to rx — a direct `aconnect`, or midihub in between — is the
// path measured. Before measuring, tx sends a warm-up control change (CC 119) every
// 20 ms until one reaches rx, so the path is known to be up.
//
// rx reads on its own thread, stamps each arrival with CLOCK_MONOTONIC against the
// send stamp of the same sequence number, and counts gaps in the numbers as lost.
// Prints one line of key=value pairs:
//   sent received lost overruns stalls seconds send_rate receive_rate p50_us p99_us max_us
//
// With --osc PORT, tx sends each event instead as an OSC message `/midi m` in a UDP
// datagram to 127.0.0.1:PORT (midihub serve --osc plays it out of its port "midihub osc"),
// so the path measured starts at an OSC surface; rx is the same.
//
// Usage: seq-probe [--count N] [--rate HZ] [--batch K] [--name PREFIX] [--timeout S] [--osc PORT]
#include <alsa/asoundlib.h>
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Sequence numbers repeat after PERIOD: 16 channels × 128 notes × 127 velocities (1…127).
enum { PERIOD = 16 * 128 * 127, WARMUP_CONTROLLER = 119 };

struct probe {
    snd_seq_t *tx, *rx;
    int tx_port, rx_port;
    long count;
    _Atomic uint64_t *sent_at;   // send stamp (ns) per sequence code
    uint64_t *latency;           // ns, one per received note-on
    _Atomic long received;
    _Atomic int warm;            // set when anything reached rx
    _Atomic int stop;
    long lost, overruns;         // gaps in the sequence numbers; -ENOSPC reads
    long next;                   // the sequence number expected next
    long stalls;                 // times the path refused tx's events for a moment
    uint64_t last_arrival;
    int osc;                     // a UDP socket connected to the OSC server, or -1
};

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void die(const char *what, int err) {
    fprintf(stderr, "seq-probe: %s: %s\n", what, err ? snd_strerror(err) : "failed");
    exit(1);
}

static void check(const char *what, int err) {
    if (err < 0) die(what, err);
}

static snd_seq_t *open_client(const char *prefix, const char *suffix, int *port, unsigned caps) {
    snd_seq_t *seq;
    char name[64];
    check("snd_seq_open", snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, 0));
    snprintf(name, sizeof name, "%s-%s", prefix, suffix);
    check("snd_seq_set_client_name", snd_seq_set_client_name(seq, name));
    *port = snd_seq_create_simple_port(seq, caps & SND_SEQ_PORT_CAP_READ ? "out" : "in", caps,
                                       SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
    check("snd_seq_create_simple_port", *port);
    return seq;
}

static void encode(snd_seq_event_t *event, long code) {
    snd_seq_ev_set_noteon(event, code & 15, (code >> 4) & 127, 1 + (code >> 11));
}

static long decode(const snd_seq_event_t *event) {
    return event->data.note.channel | (long)event->data.note.note << 4 | (long)(event->data.note.velocity - 1) << 11;
}

// Opens a UDP socket connected to the OSC server on 127.0.0.1:PORT.
static int open_osc(int port) {
    int socket_fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in server = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (socket_fd < 0 || connect(socket_fd, (struct sockaddr *)&server, sizeof server) < 0) die("OSC socket", 0);
    return socket_fd;
}

// Sends EVENT (a note-on or a control change) as OSC's `/midi m`: the address, the type
// tags, then the m argument's port byte, status and two data bytes.
static void send_osc(const struct probe *probe, const snd_seq_event_t *event) {
    unsigned char message[16] = "/midi\0\0\0,m\0\0";
    if (event->type == SND_SEQ_EVENT_NOTEON) {
        message[13] = 0x90 | event->data.note.channel;
        message[14] = event->data.note.note;
        message[15] = event->data.note.velocity;
    } else {
        message[13] = 0xB0 | event->data.control.channel;
        message[14] = (unsigned char)event->data.control.param;
        message[15] = (unsigned char)event->data.control.value;
    }
    while (send(probe->osc, message, sizeof message, 0) < 0) {
        if (errno != ENOBUFS && errno != EAGAIN) die("OSC send", 0);
        usleep(100);
    }
}

static void *receive(void *argument) {
    struct probe *probe = argument;
    struct pollfd fds[4];
    int nfds = snd_seq_poll_descriptors(probe->rx, fds, 4, POLLIN);
    while (!atomic_load(&probe->stop)) {
        if (poll(fds, nfds, 50) <= 0) continue;
        snd_seq_event_t *event;
        int status;
        while ((status = snd_seq_event_input(probe->rx, &event)) >= 0 || status == -ENOSPC) {
            if (status == -ENOSPC) { probe->overruns++; continue; }
            uint64_t arrival = now_ns();
            atomic_store(&probe->warm, 1);
            if (event->type != SND_SEQ_EVENT_NOTEON) continue;
            long code = decode(event);
            long gap = ((code - probe->next % PERIOD) + PERIOD) % PERIOD;
            long received = atomic_load(&probe->received);
            if (received < probe->count) {
                probe->latency[received] = arrival - atomic_load(&probe->sent_at[code]);
            }
            probe->lost += gap;
            probe->next += gap + 1;
            probe->last_arrival = arrival;
            atomic_store(&probe->received, received + 1);
        }
    }
    return NULL;
}

static void send_warmups(struct probe *probe, double timeout) {
    snd_seq_event_t event;
    snd_seq_ev_clear(&event);
    snd_seq_ev_set_source(&event, probe->tx_port);
    snd_seq_ev_set_subs(&event);
    snd_seq_ev_set_direct(&event);
    snd_seq_ev_set_controller(&event, 0, WARMUP_CONTROLLER, 0);
    uint64_t deadline = now_ns() + (uint64_t)(timeout * 1e9);
    while (!atomic_load(&probe->warm)) {
        if (now_ns() > deadline) {
            fprintf(stderr, "seq-probe: nothing reached the rx port within %.0f s (fix: connect the tx port's path to the rx port)\n", timeout);
            exit(1);
        }
        if (probe->osc >= 0) send_osc(probe, &event);
        else snd_seq_event_output_direct(probe->tx, &event);
        usleep(20000);
    }
    usleep(300000); // let warm-ups still on the way arrive before the count starts
}

// Hands tx's buffer to the kernel. A full receiving FIFO makes the kernel refuse the
// rest with -EAGAIN (nothing is dropped: the events stay in the buffer); count the stall
// and retry, as a blocking MIDI sender would wait.
static void drain(struct probe *probe) {
    int status;
    while ((status = snd_seq_drain_output(probe->tx)) != 0) {
        if (status != -EAGAIN) check("snd_seq_drain_output", status);
        probe->stalls++;
        usleep(100);
    }
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double percentile_us(const uint64_t *sorted, long n, double p) {
    if (n == 0) return 0;
    long index = (long)(p * (n - 1) + 0.5);
    return sorted[index] / 1000.0;
}

int main(int argc, char **argv) {
    long count = 5000, batch = 0;
    double rate = 1000, timeout = 60;
    const char *prefix = "hubbench";
    int osc_port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--count")) count = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--rate")) rate = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--batch")) batch = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--name")) prefix = argv[i + 1];
        else if (!strcmp(argv[i], "--timeout")) timeout = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--osc")) osc_port = atoi(argv[i + 1]);
        else { fprintf(stderr, "seq-probe: unknown option '%s' (fix: --count, --rate, --batch, --name, --timeout, --osc)\n", argv[i]); return 2; }
    }
    if (count < 1 || rate <= 0) { fprintf(stderr, "seq-probe: --count and --rate must be positive\n"); return 2; }
    if (batch < 1) batch = rate > 1000 ? (long)(rate / 1000) : 1;

    struct probe probe = { .count = count, .osc = osc_port > 0 ? open_osc(osc_port) : -1 };
    probe.sent_at = calloc(PERIOD, sizeof *probe.sent_at);
    probe.latency = calloc(count, sizeof *probe.latency);
    if (!probe.sent_at || !probe.latency) die("out of memory", 0);
    probe.tx = open_client(prefix, "tx", &probe.tx_port, SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ);
    probe.rx = open_client(prefix, "rx", &probe.rx_port, SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE);
    check("snd_seq_nonblock", snd_seq_nonblock(probe.rx, 1));
    check("snd_seq_set_client_pool_input", snd_seq_set_client_pool_input(probe.rx, 2000));
    check("snd_seq_set_input_buffer_size", snd_seq_set_input_buffer_size(probe.rx, 2000 * sizeof(snd_seq_event_t)));
    check("snd_seq_set_output_buffer_size", snd_seq_set_output_buffer_size(probe.tx, (batch + 1) * sizeof(snd_seq_event_t)));
    printf("ready tx=%d:%d rx=%d:%d\n", snd_seq_client_id(probe.tx), probe.tx_port, snd_seq_client_id(probe.rx), probe.rx_port);
    fflush(stdout);

    pthread_t reader;
    if (pthread_create(&reader, NULL, receive, &probe)) die("pthread_create", 0);
    send_warmups(&probe, timeout);

    snd_seq_event_t event;
    snd_seq_ev_clear(&event);
    snd_seq_ev_set_source(&event, probe.tx_port);
    snd_seq_ev_set_subs(&event);
    snd_seq_ev_set_direct(&event);
    uint64_t start = now_ns(), last_send = start;
    for (long sent = 0; sent < count;) {
        uint64_t due = start + (uint64_t)(sent / rate * 1e9);
        struct timespec wake = { (time_t)(due / 1000000000u), (long)(due % 1000000000u) };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL) == EINTR) {}
        for (long end = sent + batch < count ? sent + batch : count; sent < end; sent++) {
            long code = sent % PERIOD;
            encode(&event, code);
            atomic_store(&probe.sent_at[code], now_ns());
            if (probe.osc >= 0) send_osc(&probe, &event);
            else check("snd_seq_event_output", snd_seq_event_output(probe.tx, &event));
        }
        if (probe.osc < 0) drain(&probe);
        last_send = now_ns();
    }
    // Wait for stragglers: until every event arrived, or nothing arrived for 2 s.
    long seen = -1;
    for (uint64_t quiet_since = now_ns(); now_ns() - quiet_since < 2000000000u;) {
        long received = atomic_load(&probe.received);
        if (received >= count) break;
        if (received != seen) { seen = received; quiet_since = now_ns(); }
        usleep(10000);
    }
    atomic_store(&probe.stop, 1);
    pthread_join(reader, NULL);

    long received = atomic_load(&probe.received);
    long measured = received < count ? received : count;
    qsort(probe.latency, measured, sizeof *probe.latency, compare);
    double send_seconds = (last_send - start) / 1e9;
    double receive_seconds = ((received ? probe.last_arrival : last_send) - start) / 1e9;
    printf("sent=%ld received=%ld lost=%ld overruns=%ld stalls=%ld seconds=%.3f send_rate=%.0f receive_rate=%.0f "
           "p50_us=%.1f p99_us=%.1f max_us=%.1f\n",
           count, received, probe.lost + (count - probe.next), probe.overruns, probe.stalls, receive_seconds,
           send_seconds > 0 ? count / send_seconds : 0, receive_seconds > 0 ? received / receive_seconds : 0,
           percentile_us(probe.latency, measured, 0.50), percentile_us(probe.latency, measured, 0.99),
           measured ? probe.latency[measured - 1] / 1000.0 : 0);
    return 0;
}
