#include "rtmidi_support.h"

#include <jack/jack.h>
#include <rtmidi/RtMidi.h>
#include <rtmidi/rtmidi_c.h>

namespace {

struct ErrorForwarding {
    midihub_rtmidi_error_callback callback;
    void *context;
};

void forwardError(RtMidiError::Type type, const std::string &message, void *userData) {
    auto *forwarding = static_cast<ErrorForwarding *>(userData);
    forwarding->callback(static_cast<int>(type), message.c_str(), forwarding->context);
}

void dropJackMessage(const char *) {}

}  // namespace

extern "C" void *midihub_rtmidi_route_errors(void *wrapper, midihub_rtmidi_error_callback callback, void *context) {
    auto *device = static_cast<RtMidiWrapper *>(wrapper);
    auto *forwarding = new ErrorForwarding{callback, context};
    static_cast<RtMidi *>(device->ptr)->setErrorCallback(forwardError, forwarding);
    return forwarding;
}

extern "C" void midihub_rtmidi_free_error_routing(void *routing) {
    delete static_cast<ErrorForwarding *>(routing);
}

extern "C" void midihub_jack_silence(void) {
    jack_set_error_function(dropJackMessage);
    jack_set_info_function(dropJackMessage);
}

extern "C" unsigned int midihub_jack_probe(const char *client_name, const char *server_name) {
    jack_status_t status = static_cast<jack_status_t>(0);
    jack_options_t options = server_name ? static_cast<jack_options_t>(JackNoStartServer | JackServerName) : JackNoStartServer;
    jack_client_t *client = server_name ? jack_client_open(client_name, options, &status, server_name)
                                        : jack_client_open(client_name, options, &status);
    if (client == nullptr) {
        return status == 0 ? static_cast<unsigned int>(JackFailure) : static_cast<unsigned int>(status);
    }
    jack_client_close(client);
    return 0;
}
