#ifndef MIDIHUB_CALSA_SHIM_H
#define MIDIHUB_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#include "pcm_shim.h"
#endif
