/* pdt: the command line.  Thin: parse options, call the library, print. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "outputs.h"
#include "pdt.h"

static void usage(FILE *out)
{
    fprintf(out, "pdt %s — provably optimal proper decision trees\n\n"
                 "usage: pdt COMMAND [OPTIONS]\n\ncommands:\n", PDT_VERSION_STRING);
    for (size_t i = 0; pdt_command_table[i]; i++)
        fprintf(out, "  %-10s %s\n", pdt_command_table[i]->name, pdt_command_table[i]->summary);
    fprintf(out, "\n'pdt COMMAND --help' describes a command; 'pdt demo' runs an example.\n"
                 "Every command takes --plugin FILE.so (repeatable) to load rule and problem\n"
                 "plugins, as does $PDT_PLUGIN_PATH (FILE.so or directory, ':'-separated).\n");
}

/* Loads the plugins of $PDT_PLUGIN_PATH, then of every "--plugin FILE" and
 * "--plugin=FILE" of argv (taken out of it), before the command parses its
 * options: a plugin's rule family is then known by name like a built-in one. */
static bool load_plugins(int *argc, char **argv)
{
    pdt_error err;
    pdt_error_clear(&err);
    const char *env = getenv("PDT_PLUGIN_PATH");
    if (env && pdt_plugin_load_list(env, &err)) {
        fprintf(stderr, "pdt: PDT_PLUGIN_PATH: %s\n", err.message);
        return false;
    }
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *file = NULL;
        if (strcmp(argv[i], "--plugin") == 0) {
            if (i + 1 == *argc) {
                fprintf(stderr, "pdt: option --plugin: missing FILE.so\n");
                return false;
            }
            file = argv[++i];
        } else if (strncmp(argv[i], "--plugin=", 9) == 0) {
            file = argv[i] + 9;
        } else {
            argv[kept++] = argv[i];
            continue;
        }
        if (pdt_plugin_load(file, &err)) {
            fprintf(stderr, "pdt: option --plugin: %s\n", err.message);
            return false;
        }
    }
    argv[kept] = NULL;
    *argc = kept;
    return true;
}

int main(int argc, char **argv)
{
    cli_signals_install();
    if (!load_plugins(&argc, argv)) return 1;
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pdt %s\n", PDT_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; pdt_command_table[i]; i++) {
        const pdt_command *c = pdt_command_table[i];
        if (strcmp(argv[1], c->name) == 0) return c->run(argc - 1, argv + 1);
    }
    fprintf(stderr, "pdt: unknown command '%s' (try 'pdt --help')\n", argv[1]);
    return 2;
}
