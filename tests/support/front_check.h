/* The root front a binary-backend metric fit keeps (docs/metrics.md): the whole
 * front when the fit is a depth-2 one (at most depth 2 and 3 branch nodes),
 * otherwise — the metric bound prunes every point that cannot tie or beat the
 * incumbent — exactly the points of the whole front whose metric is the best.
 * `whole` is a fit of the same data and limits with the whole front (another
 * search: the generic engine or the categorical family).  Include after cmocka. */
#ifndef PDT_TESTS_FRONT_CHECK_H
#define PDT_TESTS_FRONT_CHECK_H

#include "front.h"
#include "model_impl.h"

static inline void expect_fit_front(const pdt_model *whole, const pdt_model *fit, bool bounded)
{
    assert_true(mpq_equal(whole->objective, fit->objective));
    pdt_confusion best = {fit->confusion[0], fit->confusion[1], fit->confusion[2], fit->confusion[3]};
    uint64_t P = best.tp + best.fn, N = best.fp + best.tn;
    size_t k = 0;
    for (size_t i = 0; i < whole->front_points; i++) {
        uint32_t fp = whole->front[2 * i], fn = whole->front[2 * i + 1];
        pdt_confusion c = pdt_confusion_of(fp, fn, P, N);
        int cmp = pdt_metric_cmp(fit->metric, &c, &best);
        assert_true(cmp <= 0); /* no point of the whole front beats the fit's tree */
        if (bounded && cmp < 0) continue;
        assert_true(k < fit->front_points);
        assert_int_equal(fit->front[2 * k], fp);
        assert_int_equal(fit->front[2 * k + 1], fn);
        k++;
    }
    assert_int_equal(k, fit->front_points);
}

#endif
