/* Example: using a rule family that is not part of the framework.
 *
 *   example_new_rule [OUT.svg]
 *
 * examples/plugins/circle.c defines "circle" rules (circles through three
 * data points, inside = left) with PDT_DEFINE_RULE(circle).  The build finds
 * that marker and registers the family, so it is used by name like the
 * built-in ones — alone, or mixed with axis-parallel rules in one candidate
 * list.  docs/writing-a-rule.md explains how the plugin is written. */
#include <pdt.h>
#include <stdio.h>
#include <string.h>

/* A ring of class "in" around the origin, "out" further away, and one "in"
 * point outside the ring that only a second split can catch. */
static const char data[] = "x,y,c\n"
                           "1,0,in\n0,1,in\n-1,0,in\n0,-1,in\n0.3,0.2,in\n"
                           "3,0,out\n0,3,out\n-3,0.5,out\n0,-3,out\n2,2,out\n-2,-2,out\n"
                           "5,5,in\n";

static int fit(const pdt_dataset *ds, const char *rules, const char *picture)
{
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.rules = rules;
    opt.max_size = 2;
    pdt_model *m = NULL;
    pdt_error err;
    pdt_error_clear(&err);
    if (pdt_fit(&m, ds, &opt, &err) || pdt_model_write_text(m, stdout, &err) ||
        (picture && pdt_model_plot(m, ds, picture, 400, 400, &err))) {
        fprintf(stderr, "example_new_rule: %s\n", err.message);
        pdt_model_free(&m);
        return -1;
    }
    mpq_t obj;
    mpq_init(obj);
    pdt_model_objective(obj, m);
    int errors = (int)mpz_get_si(mpq_numref(obj));
    mpq_clear(obj);
    pdt_model_free(&m);
    return errors;
}

int main(int argc, char **argv)
{
    const pdt_rule_class *circle = pdt_rule_class_find("circle");
    if (!circle) {
        fprintf(stderr, "example_new_rule: the circle plugin is not registered\n");
        return 2;
    }
    printf("rule family \"circle\": %s\n\n", pdt_rule_class_description(circle));
    pdt_dataset *ds = NULL;
    pdt_error err;
    if (pdt_dataset_read_csv(&ds, data, strlen(data), "ring.csv", NULL, &err)) {
        fprintf(stderr, "example_new_rule: %s\n", err.message);
        return 2;
    }
    int alone = fit(ds, "circle", NULL);           /* one circle, then a second one */
    printf("\n");
    int mixed = fit(ds, "axis,circle", argc > 1 ? argv[1] : NULL); /* circles and thresholds together */
    pdt_dataset_free(&ds);
    if (alone < 0 || mixed < 0) return 2;
    printf("\ncircles alone: %d errors; circles with axis rules: %d errors\n", alone, mixed);
    return mixed <= alone ? 0 : 1;
}
