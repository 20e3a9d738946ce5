// lilv (liblilv-dev): the LV2 plugins installed on the system, their ports, presets and
// required features, read from their bundles' Turtle. Only Plugins imports this module.
#include <lilv/lilv.h>
