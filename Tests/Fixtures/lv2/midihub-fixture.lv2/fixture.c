/* The tests' own LV2 plugin (Tests/Fixtures/lv2/README.md): a gain that requires fixed,
 * power-of-two blocks and reports, on two control outputs, the shortest and the longest
 * sample_count its run() was given. Built by the tests with the system's cc. */
#include <lv2/core/lv2.h>
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

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) { return index == 0 ? &blocks : NULL; }
