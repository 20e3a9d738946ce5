#include "CJackTestEnvironment.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char server_name[64];

__attribute__((constructor)) static void set_jack_environment(void) {
    snprintf(server_name, sizeof server_name, "midihub-test-%ld", (long)getpid());
    setenv("JACK_DEFAULT_SERVER", server_name, 1);
    setenv("JACK_NO_START_SERVER", "1", 1);
}

const char *midihub_jack_test_server_name(void) {
    return server_name;
}
