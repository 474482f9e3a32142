/* Root loops handed out in chunks (framework/parallel.c, pdt_work_next):
 * every position exactly once, in chunks no larger than the loop's, the
 * last ones smaller; on one thread and on several at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "pdt_parallel.h"

/* One thread takes every chunk: positions covered once each, increasing
 * (decreasing with last_first), every chunk at most `chunk` long and, once
 * fewer than four chunks' worth are left, at most a quarter of what is left
 * (at least one); the last chunk is a single position when n > 0. */
static void check_serial(uint64_t n, uint64_t chunk, bool last_first)
{
    if (last_first) setenv("PDT_WORK_LAST_FIRST", "1", 1);
    else unsetenv("PDT_WORK_LAST_FIRST");
    pdt_work w;
    pdt_work_begin(&w, NULL, n, chunk);
    unsetenv("PDT_WORK_LAST_FIRST");
    uint8_t *seen = calloc(n + 1, 1);
    assert_non_null(seen);
    uint64_t lo, hi, taken = 0, last_size = 0, expect_next = last_first ? n : 0;
    while (pdt_work_next(&w, &lo, &hi)) {
        assert_true(lo < hi);
        assert_true(hi <= n);
        const uint64_t size = hi - lo, left = n - taken, quarter = left / 4 ? left / 4 : 1;
        assert_true(size <= (chunk ? chunk : 1));
        if (left < 4 * (chunk ? chunk : 1)) assert_true(size <= quarter);
        if (last_first) assert_int_equal(hi, expect_next), expect_next = lo;
        else assert_int_equal(lo, expect_next), expect_next = hi;
        for (uint64_t p = lo; p < hi; p++) assert_int_equal(seen[p]++, 0);
        taken += size;
        last_size = size;
    }
    assert_int_equal(taken, n);
    if (n) assert_int_equal(last_size, 1);
    free(seen);
}

static void test_every_position_once_in_order(void **state)
{
    (void)state;
    const uint64_t ns[] = {0, 1, 2, 3, 7, 12, 13, 74, 100, 1000};
    const uint64_t chunks[] = {0, 1, 2, 3, 5, 64};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        for (size_t j = 0; j < sizeof chunks / sizeof *chunks; j++)
            for (int lf = 0; lf < 2; lf++) check_serial(ns[i], chunks[j], lf);
}

/* Four threads taking chunks at once: each position exactly once. */
static void test_threads_share_the_positions(void **state)
{
    (void)state;
    enum { N = 20000 };
    _Atomic uint8_t *seen = calloc(N, sizeof *seen);
    assert_non_null(seen);
    for (uint64_t chunk = 1; chunk <= 7; chunk += 3) {
        for (size_t p = 0; p < N; p++) atomic_store(&seen[p], 0);
        pdt_work w;
        pdt_work_begin(&w, NULL, N, chunk);
        _Atomic uint64_t taken = 0;
#pragma omp parallel num_threads(4)
        {
            uint64_t lo, hi;
            while (pdt_work_next(&w, &lo, &hi)) {
                for (uint64_t p = lo; p < hi; p++) atomic_fetch_add(&seen[p], 1);
                atomic_fetch_add(&taken, hi - lo);
            }
        }
        assert_int_equal(atomic_load(&taken), N);
        for (size_t p = 0; p < N; p++) assert_int_equal(atomic_load(&seen[p]), 1);
    }
    free((void *)seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_position_once_in_order),
        cmocka_unit_test(test_threads_share_the_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
