// Counts the xruns a JACK server reports while something plays (bench/vm/xruns.bench.sh,
// key-to-sound.bench.sh): a client of its own, "xrun-count", with no ports; every client
// sees every xrun.
// Usage: jack-xrun-count [SECONDS]   (prints "xruns=N periods=N seconds=S" when the time is
//   up, or at SIGINT or SIGTERM — without SECONDS it counts until then; periods: the process
//   callbacks it was called for, the periods the server ran)
#include <jack/jack.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int xruns, periods;
static volatile sig_atomic_t stopped;

static void stop(int signal) {
    (void)signal;
    stopped = 1;
}

static int counted_xrun(void *argument) {
    (void)argument;
    atomic_fetch_add(&xruns, 1);
    return 0;
}

static int process(jack_nframes_t frames, void *argument) {
    (void)frames;
    (void)argument;
    atomic_fetch_add(&periods, 1);
    return 0;
}

int main(int argc, char **argv) {
    int seconds = argc == 2 ? atoi(argv[1]) : 0;
    if (argc > 2 || (argc == 2 && seconds <= 0)) {
        fprintf(stderr, "usage: jack-xrun-count [SECONDS]\n");
        return 2;
    }
    signal(SIGINT, stop);
    signal(SIGTERM, stop);
    jack_client_t *client = jack_client_open("xrun-count", JackNoStartServer, NULL);
    if (!client) {
        fprintf(stderr, "jack-xrun-count: no JACK server to join (fix: start jackd first)\n");
        return 1;
    }
    jack_set_xrun_callback(client, counted_xrun, NULL);
    jack_set_process_callback(client, process, NULL);
    if (jack_activate(client)) {
        fprintf(stderr, "jack-xrun-count: the server refused to activate the client\n");
        return 1;
    }
    int tenths = 0;
    while (!stopped && (seconds == 0 || tenths < seconds * 10)) {
        usleep(100000);
        tenths++;
    }
    printf("xruns=%d periods=%d seconds=%.1f\n", atomic_load(&xruns), atomic_load(&periods), tenths / 10.0);
    fflush(stdout);
    jack_client_close(client);
    return 0;
}
