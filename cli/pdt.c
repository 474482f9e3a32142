/* pdt: the command line.  Thin: parse options, call the library, print. */
#include <stdio.h>
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
    fprintf(out, "\n'pdt COMMAND --help' describes a command; 'pdt demo' runs an example.\n");
}

int main(int argc, char **argv)
{
    cli_signals_install();
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
