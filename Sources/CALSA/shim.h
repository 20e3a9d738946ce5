#ifndef MIDIHUB_CALSA_SHIM_H
#define MIDIHUB_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
