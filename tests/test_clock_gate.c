/* When searches read the clock (framework/clock_gate.h): at the first
 * subproblem, then about every PDT_GATE_NS of the search's time — every
 * subproblem when each takes longer, at most PDT_GATE_MOST apart, the gap at
 * most doubling from one reading to the next. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "clock_gate.h"

static struct timespec now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

/* Subproblems that cost nothing: the gap doubles up to its cap, never more. */
static void test_gate_cheap(void **state)
{
    (void)state;
    pdt_gate g;
    pdt_gate_start(&g, 7, now());
    assert_false(pdt_gate_due(&g, 6));
    assert_true(pdt_gate_due(&g, 7)); /* the first subproblem reads the clock */
    uint64_t count = 7, gap = 0, readings = 0;
    bool capped = false;
    for (int k = 0; k < 10000 && !capped; k++) {
        while (!pdt_gate_due(&g, count)) count++;
        struct timespec t;
        uint64_t since;
        const uint64_t before = g.last_count;
        pdt_gate_read(&g, count, &t, &since);
        readings++;
        assert_int_equal(since, count - before);
        const uint64_t next = g.next - count;
        assert_true(next >= 1 && next <= PDT_GATE_MOST);
        if (gap) assert_true(next <= 2 * gap);
        gap = next;
        capped = gap == PDT_GATE_MOST;
    }
    /* (a reading late by a preemption halves the gap again: the cap is reached, later) */
    assert_true(capped);
    assert_true(readings >= 11); /* 1, 2, 4, ... 1024 */
}

/* Subproblems of 3 ms each (longer when the machine is loaded, never
 * shorter): the clock is read at every one. */
static void test_gate_slow(void **state)
{
    (void)state;
    pdt_gate g;
    pdt_gate_start(&g, 0, now());
    uint64_t count = 0;
    for (int k = 0; k < 8; k++) {
        struct timespec pause = {0, 3000000};
        nanosleep(&pause, NULL);
        count++;
        assert_true(pdt_gate_due(&g, count));
        struct timespec t;
        pdt_gate_read(&g, count, &t, NULL);
        assert_int_equal(g.next, count + 1);
    }
}

static void test_time_reached(void **state)
{
    (void)state;
    struct timespec d = {10, 500};
    assert_false(pdt_time_reached((struct timespec){10, 499}, d));
    assert_true(pdt_time_reached((struct timespec){10, 500}, d));
    assert_true(pdt_time_reached((struct timespec){11, 0}, d));
    assert_false(pdt_time_reached((struct timespec){9, 999999999}, d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gate_cheap),
        cmocka_unit_test(test_gate_slow),
        cmocka_unit_test(test_time_reached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
