#include "rtmidi_support.h"

#include <cerrno>
#include <jack/jack.h>
#include <rtmidi/RtMidi.h>
#include <rtmidi/rtmidi_c.h>
#include <sys/eventfd.h>

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

extern "C" void *midihub_jack_connector_open(const char *client_name, const char *server_name, unsigned int *status) {
    jack_status_t opened = static_cast<jack_status_t>(0);
    jack_options_t options = server_name ? static_cast<jack_options_t>(JackNoStartServer | JackServerName) : JackNoStartServer;
    jack_client_t *client = server_name ? jack_client_open(client_name, options, &opened, server_name)
                                        : jack_client_open(client_name, options, &opened);
    *status = client == nullptr && opened == 0 ? static_cast<unsigned int>(JackFailure) : static_cast<unsigned int>(opened);
    return client;
}

extern "C" void midihub_jack_connector_close(void *connector) {
    jack_client_close(static_cast<jack_client_t *>(connector));
}

extern "C" int midihub_jack_connector_connect(void *connector, const char *source, const char *destination) {
    int result = jack_connect(static_cast<jack_client_t *>(connector), source, destination);
    return result == EEXIST ? 0 : result;
}

extern "C" int midihub_jack_connector_disconnect(void *connector, const char *source, const char *destination) {
    int connected = midihub_jack_connector_is_connected(connector, source, destination);
    if (connected <= 0) {
        return connected;
    }
    return jack_disconnect(static_cast<jack_client_t *>(connector), source, destination);
}

extern "C" int midihub_jack_connector_is_connected(void *connector, const char *source, const char *destination) {
    jack_port_t *port = jack_port_by_name(static_cast<jack_client_t *>(connector), source);
    if (port == nullptr) {
        return -1;
    }
    return jack_port_connected_to(port, destination) ? 1 : 0;
}

extern "C" int midihub_eventfd_open(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
