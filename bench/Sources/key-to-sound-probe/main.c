// Times a key to its sound the way a musician hears it: a note-on written to a keyboard's
// raw MIDI port (snd-virmidi, as a USB keyboard's driver delivers it) against the first
// loud sample of what the player plays. Two ways to hear it:
//   - a sound card's capture (PCM: snd-aloop's hw:Loopback,1,0 gives what the player wrote
//     to hw:Loopback,0,0 at the frame the card plays it): the capture's position is tied to
//     CLOCK_MONOTONIC by the driver's own timestamps (snd_pcm_htimestamp after every read);
//   - a JACK port (jack:CLIENT:PORT, the player's left output): a JACK client of its own,
//     "probe-ears", takes it in and ties each period's first frame to JACK's clock
//     (jack_frames_to_time, the clock sends are stamped with too); the server's playback
//     latency (system:playback_1's) is added, when the sound would leave the card.
// A send time becomes a frame, and the latency is onset frame minus send frame. Whatever
// plays the keyboard — the hub in JACK or on ALSA PCM, FluidSynth — is what is timed; the
// script around it (bench/vm/key-to-sound.bench.sh) starts it and then creates GO_FILE.
// Each note is the organ (program 16: no attack ramp) on middle C, 100 ms long, 400–600 ms
// after the last (a random gap, so notes fall anywhere in a period); one is timed only when
// the 50 ms before it are quiet (the last note's tail gone), its onset is the first sample
// above -60 dBFS within 300 ms.
// Usage: key-to-sound-probe RAWMIDI PCM|jack:PORT COUNT GO_FILE
//   prints "p50=MS avg=MS sd=MS low=MS high=MS timed=N lost=N not_quiet=N sent=N overruns=N
//   output_latency=FRAMES" (overruns: the capture's own, or the xruns JACK reported while
//   listening; output_latency: the JACK playback latency added, 0 for a card)
#include <alsa/asoundlib.h>
#include <jack/jack.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { RATE = 48000, PERIOD = 256, THRESHOLD = 33, QUIET_FRAMES = RATE / 20, SEARCH_FRAMES = RATE * 3 / 10 };

typedef struct { int64_t frame; double seconds; } Reference;

static snd_rawmidi_t *keyboard;
static int count;
static const char *go_file;
static double *sent_at;
static atomic_int done, going;
static atomic_int overruns;

// What was heard, from GO_FILE on: the louder channel as |sample| (16-bit scale), a frame
// each, and references tying frames to the clock the sends are stamped with.
static int16_t *loudness;
static int64_t used, capacity;
static Reference *references;
static int64_t reference_count, reference_capacity;

static jack_client_t *ears;
static jack_port_t *ears_in;
static int64_t first_jack_frame = -1;

static double now(void) {
    if (ears) return (double)jack_get_time() / 1e6;
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void sleep_seconds(double seconds) {
    struct timespec time = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
    nanosleep(&time, NULL);
}

static void play(const unsigned char *bytes, size_t size) {
    if (snd_rawmidi_write(keyboard, bytes, size) != (ssize_t)size) {
        fprintf(stderr, "key-to-sound-probe: could not write to the keyboard's port\n");
        exit(1);
    }
    snd_rawmidi_drain(keyboard);
}

static void *keys(void *argument) {
    (void)argument;
    while (access(go_file, F_OK) != 0) sleep_seconds(0.01);
    atomic_store(&going, 1);
    sleep_seconds(0.2);  // the first references
    const unsigned char organ[2] = {0xC0, 16}, on[3] = {0x90, 60, 100}, off[3] = {0x80, 60, 0};
    play(organ, sizeof organ);
    unsigned seed = 41;
    for (int index = 0; index < count; index++) {
        sleep_seconds(0.4 + (double)(rand_r(&seed) % 200) / 1000);
        sent_at[index] = now();
        play(on, sizeof on);
        sleep_seconds(0.1);
        play(off, sizeof off);
    }
    sleep_seconds(0.5);
    atomic_store(&done, 1);
    return NULL;
}

static snd_pcm_t *open_capture(const char *name) {
    snd_pcm_t *pcm;
    snd_pcm_hw_params_t *hw;
    snd_pcm_sw_params_t *sw;
    snd_pcm_uframes_t period = PERIOD, buffer = PERIOD * 64;  // 341 ms: an emulated VM stalls
    if (snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, 0) < 0) return NULL;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_hw_params_any(pcm, hw);
    if (snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) < 0
        || snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE) < 0
        || snd_pcm_hw_params_set_channels(pcm, hw, 2) < 0
        || snd_pcm_hw_params_set_rate(pcm, hw, RATE, 0) < 0
        || snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, NULL) < 0
        || snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer) < 0
        || snd_pcm_hw_params(pcm, hw) < 0) return NULL;
    snd_pcm_sw_params_alloca(&sw);
    snd_pcm_sw_params_current(pcm, sw);
    if (snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) < 0
        || snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) < 0
        || snd_pcm_sw_params(pcm, sw) < 0) return NULL;
    return pcm;
}

static void remember(int64_t frame, double seconds) {
    if (reference_count == reference_capacity) return;  // sized for the whole run
    references[reference_count++] = (Reference){frame, seconds};
}

static void hear(int64_t frame, int16_t level) {
    if (frame >= 0 && frame < capacity) {
        loudness[frame] = level;
        if (frame >= used) used = frame + 1;
    }
}

static int16_t level_of(double sample) {
    double level = fabs(sample) * 32768;
    return (int16_t)(level > 32767 ? 32767 : level);
}

// JACK's process callback: each period's samples at their frames from the first one heard.
static int ears_process(jack_nframes_t frames, void *argument) {
    (void)argument;
    if (!atomic_load(&going)) return 0;
    const float *samples = jack_port_get_buffer(ears_in, frames);
    jack_nframes_t period_start = jack_last_frame_time(ears);
    if (first_jack_frame < 0) first_jack_frame = period_start;
    int64_t frame = (int64_t)period_start - first_jack_frame;
    remember(frame, (double)jack_frames_to_time(ears, period_start) / 1e6);
    for (jack_nframes_t i = 0; i < frames; i++) hear(frame + i, level_of(samples[i]));
    return 0;
}

static int on_xrun(void *argument) {
    (void)argument;
    atomic_fetch_add(&overruns, 1);
    return 0;
}

// Joins JACK as probe-ears and takes PORT in; returns the server's playback latency, frames.
static int64_t listen_to_jack(const char *port) {
    ears = jack_client_open("probe-ears", JackNoStartServer | JackUseExactName, NULL);
    if (!ears) {
        fprintf(stderr, "key-to-sound-probe: no JACK server to join (fix: start jackd first)\n");
        exit(1);
    }
    ears_in = jack_port_register(ears, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
    jack_set_process_callback(ears, ears_process, NULL);
    jack_set_xrun_callback(ears, on_xrun, NULL);
    if (!ears_in || jack_activate(ears)) {
        fprintf(stderr, "key-to-sound-probe: JACK would not take probe-ears:in\n");
        exit(1);
    }
    for (int tries = 0; jack_connect(ears, port, "probe-ears:in"); tries++) {
        if (tries == 1200) {
            fprintf(stderr, "key-to-sound-probe: no JACK port %s to listen to after 120 s\n", port);
            exit(1);
        }
        sleep_seconds(0.1);
    }
    jack_latency_range_t range = {0, 0};
    jack_port_t *playback = jack_port_by_name(ears, "system:playback_1");
    if (playback) jack_port_get_latency_range(playback, JackPlaybackLatency, &range);
    return range.max;
}

// Reads the card until the keys are done, the frames from the first read after GO_FILE.
static void listen_to_card(snd_pcm_t *pcm) {
    int16_t block[PERIOD * 2];
    int64_t captured = 0;
    while (!atomic_load(&done)) {
        snd_pcm_sframes_t frames = snd_pcm_readi(pcm, block, PERIOD);
        if (frames < 0) {
            atomic_fetch_add(&overruns, 1);  // frames lost: the positions after it would not be the driver's
            snd_pcm_recover(pcm, (int)frames, 1);
            continue;
        }
        if (!atomic_load(&going)) continue;
        snd_pcm_uframes_t avail;
        snd_htimestamp_t stamp;
        if (snd_pcm_htimestamp(pcm, &avail, &stamp) == 0 && (stamp.tv_sec || stamp.tv_nsec)) {
            remember(captured + frames + (int64_t)avail, (double)stamp.tv_sec + (double)stamp.tv_nsec / 1e9);
        }
        for (snd_pcm_sframes_t i = 0; i < frames; i++) {
            int left = abs(block[2 * i]), right = abs(block[2 * i + 1]);
            hear(captured + i, level_of((double)(left > right ? left : right) / 32768));
        }
        captured += frames;
    }
}

// The capture frame at TIME, from the reference taken nearest to it.
static double frame_at(double time, const Reference *references, int64_t count) {
    int64_t best = 0;
    for (int64_t i = 1; i < count; i++) {
        if (fabs(references[i].seconds - time) < fabs(references[best].seconds - time)) best = i;
    }
    return (double)references[best].frame + (time - references[best].seconds) * RATE;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5 || (count = atoi(argv[3])) <= 0) {
        fprintf(stderr, "usage: key-to-sound-probe RAWMIDI PCM|jack:PORT COUNT GO_FILE\n");
        return 2;
    }
    go_file = argv[4];
    capacity = (int64_t)RATE * (count + 10);  // a note takes at most 0.7 s
    loudness = calloc((size_t)capacity, sizeof *loudness);
    reference_capacity = capacity / 32;
    references = malloc((size_t)reference_capacity * sizeof *references);
    if (snd_rawmidi_open(NULL, &keyboard, argv[1], 0) < 0) {
        fprintf(stderr, "key-to-sound-probe: cannot open the raw MIDI port %s\n", argv[1]);
        return 1;
    }
    sent_at = calloc((size_t)count, sizeof *sent_at);
    int64_t output_latency = 0;
    snd_pcm_t *pcm = NULL;
    if (strncmp(argv[2], "jack:", 5) == 0) {
        output_latency = listen_to_jack(argv[2] + 5);
    } else if (!(pcm = open_capture(argv[2]))) {
        fprintf(stderr, "key-to-sound-probe: cannot capture from %s at 48 kHz, 16 bits, stereo\n", argv[2]);
        return 1;
    }
    pthread_t thread;
    pthread_create(&thread, NULL, keys, NULL);
    if (pcm) listen_to_card(pcm);
    pthread_join(thread, NULL);
    if (ears) jack_deactivate(ears);

    double *latencies = malloc((size_t)count * sizeof *latencies);
    int timed = 0, lost = 0, not_quiet = 0;
    for (int index = 0; index < count; index++) {
        int64_t from = (int64_t)floor(frame_at(sent_at[index], references, reference_count));
        int quiet = from >= QUIET_FRAMES;
        for (int64_t i = from - QUIET_FRAMES; quiet && i < from; i++) quiet = i < (int64_t)used && loudness[i] < THRESHOLD;
        if (!quiet) {
            not_quiet++;
            continue;
        }
        int64_t onset = -1;
        for (int64_t i = from; i < from + SEARCH_FRAMES && i < (int64_t)used; i++) {
            if (loudness[i] >= THRESHOLD) {
                onset = i;
                break;
            }
        }
        if (onset < 0) {
            lost++;
            continue;
        }
        latencies[timed++] = ((double)(onset + output_latency) - frame_at(sent_at[index], references, reference_count)) * 1000 / RATE;
    }
    if (!timed) {
        fprintf(stderr, "key-to-sound-probe: no note was heard (lost %d, not quiet before %d)\n", lost, not_quiet);
        return 1;
    }
    qsort(latencies, (size_t)timed, sizeof *latencies, compare);
    double sum = 0, squares = 0;
    for (int i = 0; i < timed; i++) sum += latencies[i];
    double average = sum / timed;
    for (int i = 0; i < timed; i++) squares += (latencies[i] - average) * (latencies[i] - average);
    printf("p50=%.2f avg=%.2f sd=%.2f low=%.2f high=%.2f timed=%d lost=%d not_quiet=%d sent=%d overruns=%d "
           "output_latency=%lld\n", latencies[timed / 2], average, sqrt(squares / timed), latencies[0],
           latencies[timed - 1], timed, lost, not_quiet, count, atomic_load(&overruns), (long long)output_latency);
    return 0;
}
