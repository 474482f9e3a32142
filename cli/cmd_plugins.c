/* pdt plugins: the rule families and problems this pdt knows, built in or
 * loaded with --plugin / $PDT_PLUGIN_PATH, and the plugin ABI it loads. */
#include <stdio.h>

#include "command.h"
#include "options.h"
#include "pdt_plugin.h"

static cli_option plugins_options[] = {
    {"help", 'h', NULL, "show this help", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static void plugins_help(FILE *out)
{
    fprintf(out, "usage: pdt plugins [--plugin FILE.so ...]\n\n"
                 "Lists the rule families (--rules) and problems this pdt knows, with the file\n"
                 "each loaded plugin came from.  Plugins are shared objects built against the\n"
                 "installed pdt (docs/writing-a-rule.md, \"Outside the tree\").\n\noptions:\n");
    cli_print_options(out, plugins_options);
}

static void print_origin(const char *origin)
{
    printf("  [%s]\n", origin ? origin : "built in");
}

static int plugins_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        plugins_help(stdout);
        return 0;
    }
    if (!cli_parse(plugins_options, argc, argv, "plugins")) return 2;
    printf("pdt %s, plugin ABI %u\n\nrule families:\n", PDT_VERSION_STRING, PDT_PLUGIN_ABI);
    for (size_t i = 0; i < pdt_rule_class_count(); i++) {
        const pdt_rule_class *c = pdt_rule_class_at(i);
        printf("  %-14s %s", c->name, c->description ? c->description : "");
        print_origin(pdt_rule_class_origin(c));
    }
    printf("\nproblems:\n");
    for (size_t i = 0; i < pdt_problem_class_count(); i++) {
        const pdt_problem_class *c = pdt_problem_class_at(i);
        printf("  %-14s %s", c->name, c->description ? c->description : "");
        print_origin(pdt_problem_class_origin(c));
    }
    return 0;
}

PDT_DEFINE_COMMAND(plugins) = {"plugins", "list the rule families and problems, built in and loaded",
                               plugins_run, plugins_help};
