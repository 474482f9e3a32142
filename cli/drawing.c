#include "drawing.h"

#include "pdt.h"

bool cli_drawing_ready(cli_option *opts, const char *cmd)
{
    static const char *const drawn[] = {"dot", "svg", "png", "plot", "picture"};
    for (size_t i = 0; i < sizeof drawn / sizeof *drawn; i++) {
        if (!cli_get(opts, drawn[i])) continue;
        pdt_error err;
        pdt_error_clear(&err);
        if (pdt_draw_module_load(&err) == PDT_OK) return true;
        fprintf(stderr, "pdt %s: option --%s: %s\n", cmd, drawn[i], err.message);
        return false;
    }
    return true;
}
