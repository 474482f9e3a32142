/* The solved matrix chain as text and as a Graphviz drawing. */
#include <stdlib.h>
#include <string.h>

#include "matrix_chain.h"
#include "pdt_render.h"

/* "A3" or "A2..A5" */
static void span_text(pdt_buf *b, const pdt_chain_node *x)
{
    if (x->lo == x->hi) pdt_buf_printf(b, "A%u", x->lo + 1);
    else pdt_buf_printf(b, "A%u..A%u", x->lo + 1, x->hi + 1);
}

static void mpz_text(pdt_buf *b, mpz_srcptr z)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_z(q, z);
    pdt_buf_mpq(b, q);
    mpq_clear(q);
}

typedef struct chain_view {
    const pdt_chain_node *nodes;
    size_t n_nodes;
    const pdt_chain *chain;
} chain_view;

static pdt_status view_open(chain_view *v, const pdt_chain *chain, pdt_error *err)
{
    v->nodes = pdt_chain_tree(chain, &v->n_nodes);
    v->chain = chain;
    if (!v->nodes || !v->n_nodes) return pdt_error_set(err, PDT_EINTERNAL, "matrix chain: not solved");
    return PDT_OK;
}

/* Dimensions of the product and, for a branch, what its last multiplication costs. */
static void node_text(pdt_buf *b, const chain_view *v, size_t i, const char *sep)
{
    const pdt_chain_node *x = &v->nodes[i];
    const pdt_chain *c = v->chain;
    span_text(b, x);
    pdt_buf_puts(b, sep);
    mpz_text(b, pdt_chain_dim(c, x->lo));
    pdt_buf_puts(b, "×");
    mpz_text(b, pdt_chain_dim(c, x->hi + 1));
    if (x->left < 0) return;
    uint32_t k = v->nodes[x->left].hi;
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, pdt_chain_dim(c, x->lo), pdt_chain_dim(c, k + 1));
    mpz_mul(t, t, pdt_chain_dim(c, x->hi + 1));
    pdt_buf_puts(b, sep);
    pdt_buf_puts(b, "+");
    mpz_text(b, t);
    mpz_clear(t);
}

static void write_node(FILE *out, const chain_view *v, size_t i, int indent)
{
    pdt_buf b;
    pdt_buf_init(&b);
    node_text(&b, v, i, "  ");
    fprintf(out, "%*s%s\n", 4 * indent, "", b.data ? b.data : "");
    pdt_buf_clear(&b);
    if (v->nodes[i].left < 0) return;
    write_node(out, v, (size_t)v->nodes[i].left, indent + 1);
    write_node(out, v, (size_t)v->nodes[i].right, indent + 1);
}

pdt_status pdt_chain_write_text(const pdt_chain *chain, FILE *out, pdt_error *err)
{
    chain_view v;
    pdt_status st = view_open(&v, chain, err);
    if (st) return st;
    write_node(out, &v, 0, 0);
    return ferror(out) ? pdt_error_set(err, PDT_EIO, "cannot write the tree") : PDT_OK;
}

pdt_status pdt_chain_render(const pdt_chain *chain, const char *path, const char *format,
                            pdt_error *err)
{
    chain_view v;
    pdt_status st = view_open(&v, chain, err);
    if (st) return st;
    pdt_draw_node *dn = calloc(v.n_nodes, sizeof *dn);
    pdt_buf *labels = calloc(v.n_nodes, sizeof *labels);
    if (!dn || !labels) st = pdt_error_set(err, PDT_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < v.n_nodes; i++) {
        pdt_buf_init(&labels[i]);
        node_text(&labels[i], &v, i, "\n");
        dn[i] = (pdt_draw_node){v.nodes[i].left, v.nodes[i].right, labels[i].data,
                                v.nodes[i].left < 0 ? "#ffffb3" : NULL, false};
    }
    if (!st) {
        mpz_t cost;
        mpz_init(cost);
        pdt_chain_cost(cost, chain);
        pdt_buf title;
        pdt_buf_init(&title);
        pdt_buf_printf(&title, "%s\n", pdt_chain_order(chain));
        mpz_text(&title, cost);
        pdt_buf_printf(&title, " scalar multiplications%s", pdt_chain_optimal(chain) ? " (optimal)" : "");
        pdt_draw_tree t = {title.data, dn, v.n_nodes, NULL, NULL, NULL, 0};
        st = pdt_draw_tree_render(&t, path, format, err);
        pdt_buf_clear(&title);
        mpz_clear(cost);
    }
    for (size_t i = 0; labels && i < v.n_nodes; i++) pdt_buf_clear(&labels[i]);
    free(labels);
    free(dn);
    return st;
}
