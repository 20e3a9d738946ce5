/* The tests' own LV2 plugins (Tests/Fixtures/lv2/README.md): a gain that requires fixed,
 * power-of-two blocks and reports, on two control outputs, the shortest and the longest
 * sample_count its run() was given; and a stereo gain whose `fault` port makes it crash,
 * hang or abort in run(). Built by the tests with the system's cc. */
#include <lv2/core/lv2.h>
#include <signal.h>
#include <stdlib.h>

enum { IN, OUT, GAIN, SHORTEST, LONGEST };

typedef struct {
    const float *in;
    float *out;
    const float *gain;
    float *shortest, *longest;
    uint32_t seenShortest, seenLongest;
} Fixture;

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                              const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle; (void)features;
    return calloc(1, sizeof(Fixture));
}

static void connect_port(LV2_Handle handle, uint32_t port, void *data) {
    Fixture *self = handle;
    switch (port) {
    case IN: self->in = data; break;
    case OUT: self->out = data; break;
    case GAIN: self->gain = data; break;
    case SHORTEST: self->shortest = data; break;
    case LONGEST: self->longest = data; break;
    }
}

static void run(LV2_Handle handle, uint32_t count) {
    Fixture *self = handle;
    if (self->seenShortest == 0 || count < self->seenShortest) self->seenShortest = count;
    if (count > self->seenLongest) self->seenLongest = count;
    for (uint32_t i = 0; i < count; i++) self->out[i] = self->in[i] * *self->gain;
    if (self->shortest) *self->shortest = (float)self->seenShortest;
    if (self->longest) *self->longest = (float)self->seenLongest;
}

static void cleanup(LV2_Handle handle) { free(handle); }

static const LV2_Descriptor blocks = {"urn:midihub:fixture:blocks", instantiate, connect_port, NULL, run, NULL, cleanup, NULL};

/* The fault plugin: its `fault` port, once it differs from the value its first run() saw,
 * makes the next run() crash (1: SIGSEGV), spin for ever (2) or abort() (3); 4 crashes in
 * every run(), the first too (a plugin that cannot be restarted). */
enum { FAULT_LEFT_IN, FAULT_RIGHT_IN, FAULT_LEFT_OUT, FAULT_RIGHT_OUT, FAULT_GAIN, FAULT_FAULT };

typedef struct {
    const float *in[2];
    float *out[2];
    const float *gain, *fault;
    float started;
    int running;
} Fault;

static void connect_fault(LV2_Handle handle, uint32_t port, void *data) {
    Fault *self = handle;
    switch (port) {
    case FAULT_LEFT_IN: self->in[0] = data; break;
    case FAULT_RIGHT_IN: self->in[1] = data; break;
    case FAULT_LEFT_OUT: self->out[0] = data; break;
    case FAULT_RIGHT_OUT: self->out[1] = data; break;
    case FAULT_GAIN: self->gain = data; break;
    case FAULT_FAULT: self->fault = data; break;
    }
}

static void fail(int fault) {
    volatile int *nowhere = NULL;
    volatile unsigned long spins = 0;
    switch (fault) {
    case 1: case 4: *nowhere = 1; break;
    case 2: for (;;) spins++;
    case 3: abort();
    }
}

static void run_fault(LV2_Handle handle, uint32_t count) {
    Fault *self = handle;
    if (!self->running) {
        self->running = 1;
        self->started = *self->fault;
    }
    if ((int)*self->fault == 4 || *self->fault != self->started) fail((int)*self->fault);
    for (int side = 0; side < 2; side++)
        for (uint32_t i = 0; i < count; i++) self->out[side][i] = self->in[side][i] * *self->gain;
}

static LV2_Handle instantiate_fault(const LV2_Descriptor *descriptor, double rate, const char *bundle,
                                    const LV2_Feature *const *features) {
    (void)descriptor; (void)rate; (void)bundle; (void)features;
    return calloc(1, sizeof(Fault));
}

static const LV2_Descriptor fault = {"urn:midihub:fixture:fault", instantiate_fault, connect_fault, NULL, run_fault, NULL, cleanup, NULL};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index == 0 ? &blocks : index == 1 ? &fault : NULL;
}
