/* A `pdt` subcommand: one file in cli/ defines one with PDT_DEFINE_COMMAND(name). */
#ifndef PDT_COMMAND_H
#define PDT_COMMAND_H

#include <stdio.h>

typedef struct pdt_command {
    const char *name;
    const char *summary;                 /* one line for `pdt --help` */
    int (*run)(int argc, char **argv);   /* argv[0] is the subcommand name; returns the exit status */
    void (*help)(FILE *out);
} pdt_command;

#define PDT_DEFINE_COMMAND(ident) const pdt_command pdt_command_##ident

extern const pdt_command *const pdt_command_table[];

#endif
