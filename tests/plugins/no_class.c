/* A pdt_plugin record that lists no class. */
#define PDT_PLUGIN_MANUAL
#include "pdt_plugin.h"

PDT_PLUGIN(NULL, NULL);
