/* The model as indented text, one node per line:
 *
 *   classification tree: objective 3, size 2, depth 2, optimal
 *   if petal_width ≤ 0.8:
 *       → setosa  (50 items: 50/0/0)
 *   else:
 *       ...
 *
 * A multiway node lists its ways, then what a category it never saw gets:
 *
 *   if colour = blue:
 *       ...
 *   elif colour = red:
 *       ...
 *   else (other colour):
 *       → yes  (the node's majority)
 */
#include "model_impl.h"

static void write_indent(FILE *out, unsigned level)
{
    for (unsigned k = 0; k < level; k++) fputs("    ", out);
}

static void write_leaf(const pdt_model *m, size_t i, FILE *out)
{
    const pdt_tree_node *n = &m->nodes[i];
    const uint64_t *counts = &m->counts[i * m->n_classes];
    fprintf(out, "→ %s  (%llu items: ", m->classes[n->label], (unsigned long long)n->n_items);
    for (size_t c = 0; c < m->n_classes; c++)
        fprintf(out, "%s%llu", c ? "/" : "", (unsigned long long)counts[c]);
    fputs(")\n", out);
}

static pdt_status write_node(const pdt_model *m, size_t i, unsigned level, FILE *out,
                             pdt_error *err);

static pdt_status write_ways(const pdt_model *m, size_t i, unsigned level, FILE *out, pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    pdt_status st = PDT_OK;
    for (size_t w = 0; w < n->n_ways && st == PDT_OK; w++) {
        pdt_buf text;
        pdt_buf_init(&text);
        st = pdt_model_way_text(&text, m, i, w, err);
        if (w) write_indent(out, level);
        if (st == PDT_OK) fprintf(out, "%s %s:\n", w ? "elif" : "if", text.data ? text.data : "");
        pdt_buf_clear(&text);
        if (st == PDT_OK) st = write_node(m, (size_t)m->ways[n->first_way + w].child, level + 1, out, err);
    }
    if (st != PDT_OK) return st;
    pdt_buf text;
    pdt_buf_init(&text);
    st = pdt_model_rule_text(&text, m, (size_t)n->rule, err);
    write_indent(out, level);
    if (st == PDT_OK) fprintf(out, "else (other %s):\n", text.data ? text.data : "");
    pdt_buf_clear(&text);
    write_indent(out, level + 1);
    if (st == PDT_OK) fprintf(out, "→ %s  (the node's majority)\n", m->classes[n->label]);
    return st;
}

static pdt_status write_node(const pdt_model *m, size_t i, unsigned level, FILE *out,
                             pdt_error *err)
{
    const pdt_tree_node *n = &m->nodes[i];
    write_indent(out, level);
    if (n->n_ways) return write_ways(m, i, level, out, err);
    if (n->left < 0) {
        write_leaf(m, i, out);
        return PDT_OK;
    }
    pdt_buf text;
    pdt_buf_init(&text);
    pdt_status st = pdt_model_rule_text(&text, m, (size_t)n->rule, err);
    if (st == PDT_OK) fprintf(out, "if %s:\n", text.data ? text.data : "");
    pdt_buf_clear(&text);
    if (st == PDT_OK) st = write_node(m, (size_t)n->left, level + 1, out, err);
    if (st != PDT_OK) return st;
    write_indent(out, level);
    fputs("else:\n", out);
    return write_node(m, (size_t)n->right, level + 1, out, err);
}

static void write_header(const pdt_model *m, FILE *out)
{
    pdt_buf obj;
    pdt_buf_init(&obj);
    pdt_buf_mpq_decimal(&obj, m->objective);
    const char *why = pdt_model_stopped_by(m);
    fprintf(out, "%s tree: objective %s, size %u, depth %u, %s%s%s\n",
            m->problem ? m->problem : "classification", obj.data ? obj.data : "?", m->size, m->depth,
            m->optimal ? "optimal" : "not proven optimal", why ? ": stopped by the " : "",
            why ? why : "");
    pdt_buf_clear(&obj);
    if (m->metric != PDT_METRIC_ACCURACY) {
        pdt_buf_init(&obj);
        pdt_model_metric_describe(&obj, m);
        fprintf(out, "metric: %s\n", obj.data ? obj.data : "?");
        pdt_buf_clear(&obj);
    }
    const pdt_perfect_info *p = &m->perfect;
    if (p->mode == PDT_PERFECT_NONE) return;
    bool by_depth = p->mode == PDT_PERFECT_DEPTH;
    if (!p->reached) {
        fprintf(out, "perfect tree: none within the caps reaches the floor of %llu errors\n",
                (unsigned long long)p->floor);
        return;
    }
    fprintf(out, "perfect tree (%s): %llu errors, the floor%s; depth %u %s, %u branch nodes %s\n",
            by_depth ? "least depth, then fewest branch nodes" : "fewest branch nodes, then least depth",
            (unsigned long long)p->floor, p->floor ? " (rows with equal features and different classes)" : "",
            m->depth, p->depth_proven ? "proven least" : "NOT proven least", m->size,
            p->size_proven ? "proven fewest" : "NOT proven fewest");
}

pdt_status pdt_model_write_text(const pdt_model *model, FILE *out, pdt_error *err)
{
    pdt_status st = pdt_model_check(model, err);
    if (st != PDT_OK) return st;
    write_header(model, out);
    st = write_node(model, 0, 0, out, err);
    if (st != PDT_OK) return st;
    if (ferror(out)) return pdt_error_set(err, PDT_EIO, "error writing the tree");
    return PDT_OK;
}
