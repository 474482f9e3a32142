/* Example: an optimal oblique (hyperplane) tree on 2-D data, and its picture.
 *
 *   example_hyperplane_picture [OUT.png|OUT.svg]
 *
 * Builds a small data set in memory, asks pdt for the tree with at most two
 * branch nodes whose splits are lines through data points, prints it, checks
 * the predictions, and draws the decision regions.  Everything here uses the
 * public header pdt.h only. */
#include <pdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two classes separated by a tilted band: no axis-parallel split does this. */
static const char data[] = "x,y,class\n"
                           "0.0,0.2,out\n0.5,0.1,out\n1.0,0.6,out\n1.5,0.9,out\n2.0,1.2,out\n"
                           "0.1,1.0,in\n0.6,1.4,in\n1.1,1.7,in\n1.6,2.1,in\n2.1,2.4,in\n"
                           "0.0,2.4,out\n0.4,2.8,out\n0.9,3.1,out\n1.3,3.5,out\n1.9,3.9,out\n";

int main(int argc, char **argv)
{
    const char *picture = argc > 1 ? argv[1] : "hyperplane_picture.png";
    pdt_error err;
    pdt_error_clear(&err);

    /* 1. Data: CSV text with a header; the label is the last column.  Decimals
     *    are kept exactly (0.1 is 1/10, not a binary approximation). */
    pdt_dataset *ds = NULL;
    if (pdt_dataset_read_csv(&ds, data, strlen(data), "band.csv", NULL, &err)) goto fail;

    /* 2. Options: the rule family and the size limit.  Everything else keeps
     *    its default (no depth limit, misclassifications as the objective). */
    pdt_fit_options opt;
    pdt_fit_options_init(&opt);
    opt.rules = "hyperplane";
    opt.max_size = 2;

    /* 3. Fit: the optimum over every proper tree with at most 2 branch nodes
     *    whose rules are lines through data points (docs/optimality.md). */
    pdt_model *model = NULL;
    if (pdt_fit(&model, ds, &opt, &err)) goto fail;
    if (pdt_model_write_text(model, stdout, &err)) goto fail;

    /* 4. Predict the training rows again: the model's rules are exact, so the
     *    misclassifications equal the reported objective. */
    size_t n = pdt_dataset_rows(ds), wrong = 0;
    uint32_t *pred = malloc(n * sizeof *pred);
    if (!pred || pdt_model_predict(pred, model, ds, &err)) goto fail;
    for (size_t i = 0; i < n; i++)
        wrong += strcmp(pdt_model_class_name(model, pred[i]), pdt_dataset_class_name(ds, pdt_dataset_label(ds, i))) != 0;
    printf("%zu of %zu training rows misclassified (%s)\n", wrong, n,
           pdt_model_optimal(model) ? "proven optimal" : "not proven optimal");
    free(pred);

    /* 5. The picture: regions shaded by leaf label, splits, points. */
    if (pdt_model_plot(model, ds, picture, 480, 480, &err)) goto fail;
    printf("picture written to %s\n", picture);

    pdt_model_free(&model);
    pdt_dataset_free(&ds);
    return wrong == 0 ? 0 : 1; /* the band is separable with two lines */

fail:
    fprintf(stderr, "example_hyperplane_picture: %s\n", err.message);
    return 2;
}
