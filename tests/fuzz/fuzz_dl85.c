/* Fuzz target: the DL8.5 / MurTree loader (pdt_dataset_read_dl85).  A small
 * dataset is then fitted with binary and axis rules of depth 2, which must
 * reach the same optimum, and with axis rules of size 1. */
#include "harness.h"

#define SMALL_ROWS 12
#define SMALL_DIMS 6

int pdt_fuzz_dl85(const uint8_t *data, size_t size)
{
    static const char name[] = "fuzz.txt";
    if (size > PDT_FUZZ_MAX_DL85) return 0;
    pdt_dataset *ds = (pdt_dataset *)&ds; /* not NULL: the loader must reset it */
    pdt_error err;
    pdt_error_clear(&err);
    pdt_status st = pdt_dataset_read_dl85(&ds, (const char *)data, size, name, &err);
    if (st != PDT_OK) {
        pdt_fuzz_check_rejected(st, &err, name, (const char *)data, size);
        PDT_FUZZ_CHECK(ds == NULL, "a rejected file left a dataset behind");
        return 0;
    }
    pdt_fuzz_dataset_accessors(ds);
    PDT_FUZZ_CHECK(pdt_dataset_has_labels(ds) && pdt_dataset_is_binary(ds),
                   "a DL8.5 dataset without labels or with non-binary features");
    if (pdt_dataset_rows(ds) <= SMALL_ROWS && pdt_dataset_dims(ds) <= SMALL_DIMS) {
        pdt_fuzz_same_optimum(ds, 2);
        pdt_fuzz_fit(NULL, ds, "axis", 1, PDT_UNLIMITED, NULL);
    }
    pdt_dataset_free(&ds);
    return 0;
}

#ifdef PDT_FUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pdt_fuzz_dl85(data, size); }
#endif
