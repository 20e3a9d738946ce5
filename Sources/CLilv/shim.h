// lilv (liblilv-dev): the LV2 plugins installed on the system, their ports, presets and
// required features, read from their bundles' Turtle; and the LV2 headers (lv2-dev) of the
// features midihub gives a plugin it hosts. Only Plugins imports this module.
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/log/log.h>
#include <lv2/options/options.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>
#include <stdarg.h>
#include <stdio.h>

// The log feature's functions are C varargs, which Swift can neither define nor call: the
// plugin's printf and vprintf format here into a line (cut at 511 bytes) and hand it to the
// host's `sink`, which never blocks (a line logged from run() is kept for later, not written).
typedef struct {
    void (*sink)(void *context, LV2_URID type, const char *line);
    void *context;
} MidihubLogSink;

static int midihub_log_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *format, va_list arguments) {
    char line[512];
    int length = vsnprintf(line, sizeof line, format, arguments);
    const MidihubLogSink *sink = (const MidihubLogSink *)handle;
    sink->sink(sink->context, type, line);
    return length;
}

static int midihub_log_printf(LV2_Log_Handle handle, LV2_URID type, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int length = midihub_log_vprintf(handle, type, format, arguments);
    va_end(arguments);
    return length;
}

/// Fills `log` with the functions above, writing to `sink`.
static inline void midihub_log_install(LV2_Log_Log *log, MidihubLogSink *sink) {
    log->handle = sink;
    log->printf = midihub_log_printf;
    log->vprintf = midihub_log_vprintf;
}
