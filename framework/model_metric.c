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
