/* Row access for plugins' hot paths. */
#include "dataset_impl.h"
#include "pdt_plugin.h"

const double *pdt_dataset_row(const pdt_dataset *ds, size_t i) { return ds->x + i * ds->d; }

mpq_srcptr pdt_dataset_row_exact(const pdt_dataset *ds, size_t i)
{
    return ds->q && i < ds->n ? ds->q[i * ds->d] : NULL;
}
