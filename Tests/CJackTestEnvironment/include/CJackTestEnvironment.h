#ifndef MIDIHUB_C_JACK_TEST_ENVIRONMENT_H
#define MIDIHUB_C_JACK_TEST_ENVIRONMENT_H

/// The JACK server name of this test process: `midihub-test-PID`.
///
/// libjack and RtMidi choose their server through `$JACK_DEFAULT_SERVER`, and the tests
/// start their own `jackd -n NAME`. Setting the variable while the test process runs is
/// unsafe — `setenv` may move the environment while other threads (alsa-lib, libjack,
/// Foundation) read it with `getenv` — so a constructor sets `JACK_DEFAULT_SERVER` to
/// this name and `JACK_NO_START_SERVER=1` before `main`, while the process has one thread.
const char *midihub_jack_test_server_name(void);

#endif
