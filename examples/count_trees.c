/* Example: counting proper decision trees, and seeing which permutations of
 * rules are trees (He & Little §3.1: proper trees are exactly the valid
 * level-order permutations of their rules).
 *
 *   example_count_trees [four_lines.csv]
 *
 * With the four lines of examples/data/four_lines.csv (candidates 2, 52, 90
 * and 108 of the hyperplane family) this is the paper's figure: 4! = 24
 * permutations, 3 proper trees. */
#include <pdt.h>
#include <stdio.h>

typedef struct tally {
    unsigned valid, invalid;
} tally;

/* Called for every permutation: print the valid ones as a parent list. */
static void on_permutation(void *user, const pdt_perm *p)
{
    tally *t = user;
    if (!p->valid) {
        t->invalid++;
        return;
    }
    t->valid++;
    printf("proper tree %u:", t->valid);
    for (uint32_t k = 0; k < p->size; k++) {
        printf("  %s", p->text[k]);
        if (p->parent[k] >= 0) printf(" (%s child of rule %d)", p->left[k] ? "left" : "right", p->parent[k] + 1);
        else printf(" (root)");
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "examples/data/four_lines.csv";
    pdt_error err;
    pdt_error_clear(&err);
    pdt_dataset *ds = NULL;
    if (pdt_dataset_load_csv(&ds, path, NULL, &err)) goto fail;

    /* All proper trees with exactly 2 branch nodes among every hyperplane
     * candidate, by the engine's counting recursion (+ and × over GMP). */
    pdt_count_report r;
    pdt_count_report_init(&r);
    if (pdt_count(&r, ds, "hyperplane", NULL, 2, 0, &err)) goto fail;
    gmp_printf("%zu candidate lines: %Zd proper trees of 2 rules among %Zd 2-permutations\n", r.n_rules,
               r.proper, r.permutations);

    /* The paper's four lines: every permutation, decoded. */
    const uint32_t four[] = {2, 52, 90, 108};
    tally t = {0, 0};
    if (pdt_count_list(&r, ds, "hyperplane", NULL, four, 4, 4, 1000, NULL, on_permutation, &t, &err)) goto fail;
    printf("%u permutations of 4 lines: %u proper trees, %u invalid\n", t.valid + t.invalid, t.valid, t.invalid);
    pdt_count_report_clear(&r);
    pdt_dataset_free(&ds);
    return t.valid == 3 && t.invalid == 21 ? 0 : 1;

fail:
    fprintf(stderr, "example_count_trees: %s\n", err.message);
    return 2;
}
