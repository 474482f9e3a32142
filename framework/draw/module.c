/* libpdt_draw.so's one exported object: the table the library looks up by
 * name after opening the module (framework/draw_module.c).  Everything else
 * in the module is hidden (built with -fvisibility=hidden). */
#include "render.h"

__attribute__((visibility("default"))) extern const pdt_draw_module pdt_draw_module_v1;

const pdt_draw_module pdt_draw_module_v1 = {
    .version = PDT_DRAW_MODULE_V1,
    .abi = PDT_DRAW_ABI,
    .pdt_version = PDT_VERSION_STRING,
    .render_tree = pdt_draw_render_tree,
    .render_picture = pdt_draw_render_picture,
};
