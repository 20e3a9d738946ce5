#include "rtmidi_support.h"

#include <atomic>
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

/// A connector's client and whether its server has shut down (set on libjack's thread).
struct JackConnector {
    jack_client_t *client;
    std::atomic<bool> serverGone{false};
};

void markServerGone(void *connector) {
    static_cast<JackConnector *>(connector)->serverGone.store(true, std::memory_order_release);
}

jack_client_t *clientOf(void *connector) {
    return static_cast<JackConnector *>(connector)->client;
}

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
    if (client == nullptr) {
        return nullptr;
    }
    auto *connector = new JackConnector{client};
    jack_on_shutdown(client, markServerGone, connector);
    return connector;
}

extern "C" void midihub_jack_connector_close(void *connector) {
    jack_client_close(clientOf(connector));
    delete static_cast<JackConnector *>(connector);
}

extern "C" int midihub_jack_connector_server_gone(void *connector) {
    return static_cast<JackConnector *>(connector)->serverGone.load(std::memory_order_acquire) ? 1 : 0;
}

extern "C" int midihub_jack_connector_connect(void *connector, const char *source, const char *destination) {
    int result = jack_connect(clientOf(connector), source, destination);
    return result == EEXIST ? 0 : result;
}

extern "C" int midihub_jack_connector_disconnect(void *connector, const char *source, const char *destination) {
    int connected = midihub_jack_connector_is_connected(connector, source, destination);
    if (connected <= 0) {
        return connected;
    }
    return jack_disconnect(clientOf(connector), source, destination);
}

extern "C" int midihub_jack_connector_is_connected(void *connector, const char *source, const char *destination) {
    jack_port_t *port = jack_port_by_name(clientOf(connector), source);
    if (port == nullptr) {
        return -1;
    }
    return jack_port_connected_to(port, destination) ? 1 : 0;
}

extern "C" int midihub_eventfd_open(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
