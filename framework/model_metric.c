/* A metric fit's model members (issue 10): the metric, the positive class and
 * the confusion counts of the chosen tree. */
#include <string.h>

#include "front.h"
#include "model_impl.h"

bool pdt_model_metric(const pdt_model *model, pdt_metric *metric, uint32_t *positive,
                      uint64_t confusion[4], int *mcc_sign)
{
    bool is = model->metric != PDT_METRIC_ACCURACY;
    if (metric) *metric = model->metric;
    if (positive) *positive = is ? model->positive : 0;
    if (confusion) {
        if (is) memcpy(confusion, model->confusion, sizeof model->confusion);
        else memset(confusion, 0, 4 * sizeof *confusion);
    }
    if (mcc_sign) *mcc_sign = is ? model->mcc_sign : 0;
    return is;
}

void pdt_model_metric_describe(pdt_buf *b, const pdt_model *m)
{
    pdt_confusion c = {m->confusion[0], m->confusion[1], m->confusion[2], m->confusion[3]};
    pdt_buf_printf(b, "%s ", pdt_metric_name(m->metric));
    if (m->metric == PDT_METRIC_MCC) {
        pdt_metric_decimal(b, m->metric, &c, 10);
        pdt_buf_puts(b, " (mcc² ");
        pdt_buf_mpq(b, m->objective);
        pdt_buf_printf(b, ", sign %s)", m->mcc_sign < 0 ? "-" : m->mcc_sign > 0 ? "+" : "0");
    } else if (m->metric == PDT_METRIC_FM) {
        pdt_metric_decimal(b, m->metric, &c, 10);
        pdt_buf_puts(b, " (fm² ");
        pdt_buf_mpq(b, m->objective);
        pdt_buf_puts(b, ")");
    } else {
        pdt_buf_mpq(b, m->objective);
        pdt_buf_puts(b, " ≈ ");
        pdt_metric_decimal(b, m->metric, &c, 10);
    }
    pdt_buf_printf(b, "; positive class %s: TP %llu, FP %llu, FN %llu, TN %llu",
                   m->classes && m->positive < m->n_classes ? m->classes[m->positive] : "?",
                   (unsigned long long)c.tp, (unsigned long long)c.fp, (unsigned long long)c.fn,
                   (unsigned long long)c.tn);
    if (m->front_points) pdt_buf_printf(b, "; Pareto front of (FP, FN): %zu points", m->front_points);
}

char *pdt_model_metric_summary(const pdt_model *model)
{
    if (model->metric == PDT_METRIC_ACCURACY) return NULL;
    pdt_buf b;
    pdt_buf_init(&b);
    pdt_model_metric_describe(&b, model);
    char *s = b.failed || !b.data ? NULL : strdup(b.data);
    pdt_buf_clear(&b);
    return s;
}
