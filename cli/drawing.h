/* Options whose output is drawn (--dot, --svg, --png, --plot, --picture) need
 * the drawing module (libpdt_draw.so); it is loaded while the options are
 * read, so a missing module stops the run before the search, not after it. */
#ifndef PDT_CLI_DRAWING_H
#define PDT_CLI_DRAWING_H

#include "options.h"

/* True when no drawing option is set or the module is loaded; otherwise
 * prints "pdt CMD: option --NAME: why" and returns false (exit status 1). */
bool cli_drawing_ready(cli_option *opts, const char *cmd);

#endif
