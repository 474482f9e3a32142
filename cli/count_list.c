/* pdt count --list: the paper's picture of proper trees as valid level-order
 * permutations (He & Little, Fig. 3–4: 4 lines, 24 permutations, 3 trees). */
#include "count_list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 5000u

bool cli_parse_pick(uint32_t **out, size_t *n, const char *text)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    uint32_t *ids = malloc(cap * sizeof *ids);
    *n = 0;
    const char *p = text;
    while (ids) {
        char *end = NULL;
        errno = 0;
        unsigned long v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
        if (!end || errno || v >= UINT32_MAX || (*end && *end != ',')) {
            fprintf(stderr, "pdt count: option --pick: '%s' is not a comma-separated list of rule numbers "
                            "(see --list-rules)\n", text);
            free(ids);
            return false;
        }
        ids[(*n)++] = (uint32_t)v;
        if (!*end) break;
        p = end + 1;
    }
    *out = ids;
    return ids != NULL;
}

/* Rules are named r1..rK in the order chosen (--pick, else all candidates). */
typedef struct printer {
    const uint32_t *chosen;
    size_t n_chosen;
    unsigned long index;
} printer;

static size_t name_of(const printer *pr, uint32_t rule)
{
    for (size_t i = 0; i < pr->n_chosen; i++)
        if (pr->chosen[i] == rule) return i + 1;
    return 0;
}

static void print_rule(const char *name, size_t index, const char *text, const uint32_t *def, size_t n_def)
{
    printf("  %s#%-4zu %s  [row%s", name, index, text, n_def == 1 ? "" : "s");
    for (size_t k = 0; k < n_def; k++) printf(" %u", def[k] + 1);
    printf("]\n");
}

static void on_candidate(void *user, size_t index, const char *text, const uint32_t *def, size_t n_def)
{
    (void)user;
    print_rule("", index, text, def, n_def);
}

static void on_chosen(void *user, size_t index, const char *text, const uint32_t *def, size_t n_def)
{
    const printer *pr = user;
    size_t name = name_of(pr, (uint32_t)index);
    char label[32];
    snprintf(label, sizeof label, "r%zu = ", name);
    if (name) print_rule(label, index, text, def, n_def);
}

static void print_tree(const printer *pr, const pdt_perm *p, int32_t q)
{
    printf("r%zu", name_of(pr, p->rules[q]));
    int32_t kids[2] = {-1, -1};
    for (uint32_t t = 0; t < p->size; t++)
        if (p->parent[t] == q) kids[p->left[t] ? 0 : 1] = (int32_t)t;
    if (kids[0] < 0 && kids[1] < 0) return;
    for (int s = 0; s < 2; s++) {
        printf(s ? ", R: " : " [L: ");
        if (kids[s] >= 0) print_tree(pr, p, kids[s]);
        else printf("leaf");
    }
    printf("]");
}

static void on_perm(void *user, const pdt_perm *p)
{
    printer *pr = user;
    printf("%4lu. ", ++pr->index);
    for (uint32_t t = 0; t < p->size; t++) printf(" r%-2zu", name_of(pr, p->rules[t]));
    if (p->valid) {
        printf("   proper: ");
        print_tree(pr, p, 0);
        printf("\n");
    } else if (p->blocker >= 0) {
        printf("   invalid: r%zu is neither left nor right of r%zu\n", name_of(pr, p->rules[p->bad]),
               name_of(pr, p->rules[p->blocker]));
    } else {
        printf("   invalid: the tree it builds has another level order\n");
    }
}

static int fail(const pdt_error *err)
{
    fprintf(stderr, "pdt count: %s\n", err->message);
    return err->status == PDT_EINVAL || err->status == PDT_ELIMIT ? 1 : 3;
}

int cli_count_list(const pdt_dataset *ds, const char *rules, const pdt_rule_params *params,
                   const uint32_t *pick, size_t n_pick, uint32_t size, bool list_rules, bool list_perms)
{
    pdt_count_report r;
    pdt_count_report_init(&r);
    pdt_error err;
    pdt_error_clear(&err);
    uint32_t *all = NULL;
    printer pr = {pick, n_pick, 0};
    int rc = 0;
    if (list_rules) printf("candidate rules of %s (#index, rule, defining rows numbered from 1):\n", rules);
    if (pdt_count_list(&r, ds, rules, params, NULL, 0, 0, 0, list_rules ? on_candidate : NULL, NULL, NULL, &err))
        rc = fail(&err);
    if (!rc && list_perms && !pick) { /* every candidate, named r1.. */
        all = malloc((r.n_rules + 1) * sizeof *all);
        for (size_t i = 0; all && i < r.n_rules; i++) all[i] = (uint32_t)i;
        pr = (printer){all, all ? r.n_rules : 0, 0};
    }
    if (!rc && list_perms) {
        mpz_t perms;
        mpz_init(perms);
        mpz_bin_uiui(perms, pr.n_chosen, size);
        for (uint32_t k = 2; k <= size; k++) mpz_mul_ui(perms, perms, k);
        bool too_many = mpz_cmp_ui(perms, MAX_LISTED) > 0;
        if (too_many)
            gmp_fprintf(stderr, "pdt count: %zu rules give %Zd %u-permutations, more than %u to list; choose a "
                                "few rules with --pick (see --list-rules)\n", pr.n_chosen, perms, size, MAX_LISTED);
        mpz_clear(perms);
        if (too_many) {
            free(all);
            pdt_count_report_clear(&r);
            return 1;
        }
        printf("rules:\n");
        if (pdt_count_list(&r, ds, rules, params, pr.chosen, pr.n_chosen, 0, 0, on_chosen, NULL, &pr, &err) ||
            pdt_count_list(&r, ds, rules, params, pr.chosen, pr.n_chosen, size, MAX_LISTED, NULL, on_perm, &pr, &err))
            rc = fail(&err);
        else
            gmp_printf("%Zd %u-permutations of %zu rules: %Zd proper trees (valid level orders), as the engine's "
                       "counting recursion finds\n", r.permutations, size, r.n_rules, r.proper);
    }
    free(all);
    pdt_count_report_clear(&r);
    return rc;
}
