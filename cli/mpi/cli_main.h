/* pdt-mpi builds the pdt CLI with -Dmain=pdt_cli_main and includes this first
 * (-include), so cli/pdt.c's main has a prototype under that name. */
#ifndef PDT_CLI_MAIN_H
#define PDT_CLI_MAIN_H
int pdt_cli_main(int argc, char **argv);
#endif
