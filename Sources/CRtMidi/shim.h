#ifndef MIDIHUB_CRTMIDI_SHIM_H
#define MIDIHUB_CRTMIDI_SHIM_H
#include <rtmidi/rtmidi_c.h>
#endif
