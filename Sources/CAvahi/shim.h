// The Avahi client library (libavahi-client-dev): announcing and browsing DNS-SD services
// through the avahi-daemon, with the threaded poll that runs its callbacks on a thread of
// its own. Only NetworkMIDI imports this module.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/thread-watch.h>
