/* pdt fit --explain: the engine's trace as indented text. */
#include "explain.h"

#include <stdarg.h>
#include <string.h>

void cli_explain_init(cli_explain *x, FILE *out, size_t n_rows, unsigned long max_lines)
{
    memset(x, 0, sizeof *x);
    x->out = out;
    x->n_rows = n_rows;
    x->max_lines = max_lines;
}

static void line(cli_explain *x, unsigned indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void line(cli_explain *x, unsigned indent, const char *fmt, ...)
{
    if (x->lines == x->max_lines)
        fprintf(x->out, "… (--explain stops after %lu lines; the search goes on: try a smaller data set "
                        "or --explain-lines)\n", x->max_lines);
    if (x->lines++ >= x->max_lines) return;
    fprintf(x->out, "%*s", (int)(2 * indent), "");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(x->out, fmt, ap);
    va_end(ap);
    fputc('\n', x->out);
}

/* "{1 4 5}" (rows numbered from 1), or "12 items" for large data. */
static const char *items(char *buf, size_t cap, const cli_explain *x, const uint64_t *set, uint32_t count)
{
    if (!set || x->n_rows > 64) {
        snprintf(buf, cap, "%u item%s", count, count == 1 ? "" : "s");
        return buf;
    }
    size_t len = (size_t)snprintf(buf, cap, "{");
    for (size_t i = 0; i < x->n_rows && len + 8 < cap; i++)
        if ((set[i / 64] >> (i % 64)) & 1) len += (size_t)snprintf(buf + len, cap - len, "%s%zu", len > 1 ? " " : "", i + 1);
    snprintf(buf + len, cap - len, "}");
    return buf;
}

/* "x ≤ 2 [row 3]": the rule and its defining points (rows from 1). */
static const char *rule_of(char *buf, size_t cap, const pdt_trace_event *ev)
{
    size_t len = (size_t)snprintf(buf, cap, "%s", ev->rule ? ev->rule : "(split)");
    for (uint32_t k = 0; k < ev->n_def && len + 12 < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%u", k ? " " : ev->n_def == 1 ? " [row " : " [rows ",
                                ev->def[k] + 1);
    if (ev->n_def && len + 2 < cap) snprintf(buf + len, cap - len, "]");
    return buf;
}

void cli_explain_finish(cli_explain *x)
{
    if (!x->skipped) return;
    line(x, 2 * x->skip_depth + 1, "(%lu candidate%s skipped: %s)", x->skipped, x->skipped == 1 ? "" : "s",
         x->skip_reason);
    x->skipped = 0;
    x->skip_reason = NULL;
}

void cli_explain_event(void *user, const pdt_trace_event *ev)
{
    cli_explain *x = user;
    char a[512], b[512], c[512], r[1024];
    const char *rule = rule_of(r, sizeof r, ev);
    unsigned d = ev->depth;
    if (ev->kind == PDT_TRACE_PRUNE && ev->routine) { /* counted, not listed */
        if (x->skipped && (x->skip_reason != ev->reason || x->skip_depth != d)) cli_explain_finish(x);
        x->skip_reason = ev->reason;
        x->skip_depth = d;
        x->skipped++;
        return;
    }
    cli_explain_finish(x);
    if (!x->started) {
        x->started = 1;
        line(x, 0, "explain: items are data rows numbered from 1; a node may use its budget of branch "
                   "nodes or stay a leaf");
    }
    switch (ev->kind) {
    case PDT_TRACE_ENTER:
        line(x, 2 * d, "node at depth %u, budget %u: %s, %u admissible rule%s", d, ev->budget,
             items(a, sizeof a, x, ev->items, ev->n_items), ev->n_rules, ev->n_rules == 1 ? "" : "s");
        break;
    case PDT_TRACE_CANDIDATE:
        line(x, 2 * d + 1, "try root %s: left %s, right %s", rule,
             items(b, sizeof b, x, ev->left_set, ev->left_items), items(c, sizeof c, x, ev->right_set, ev->right_items));
        break;
    case PDT_TRACE_PRUNE:
        line(x, 2 * d + 1, "pruned %s with budgets %u left, %u right: %s (%s)", rule, ev->left_budget,
             ev->right_budget, ev->reason ? ev->reason : "", ev->value ? ev->value : "?");
        break;
    case PDT_TRACE_IMPROVE:
        line(x, 2 * d + 1, "best so far: %s, with root %s, budgets %u left, %u right", ev->value ? ev->value : "?",
             rule, ev->left_budget, ev->right_budget);
        break;
    case PDT_TRACE_LEAVE:
        if (ev->value) line(x, 2 * d, "solved (depth %u, %s): optimum %s", d, items(a, sizeof a, x, ev->items, ev->n_items), ev->value);
        else line(x, 2 * d, "solved (depth %u, %s): %s", d, items(a, sizeof a, x, ev->items, ev->n_items),
                  ev->reason ? ev->reason : "nothing better");
        break;
    case PDT_TRACE_SHORTCUT:
        line(x, 2 * d, "node at depth %u, budget %u: %s: %s%s%s", d, ev->budget,
             items(a, sizeof a, x, ev->items, ev->n_items), ev->reason ? ev->reason : "",
             ev->value ? ", value " : "", ev->value ? ev->value : "");
        break;
    }
}
