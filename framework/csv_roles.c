/* Which CSV column is the label, the weight, skipped or a feature. */
#include <string.h>

#include "csv_impl.h"

/* "a, b, c", cut short with ", ..." when long. */
static void list_columns(char *out, size_t size, const csv_loader *L)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t c = 0; c < L->n_cols; c++) {
        const char *sep = c ? ", " : "";
        size_t need = strlen(sep) + strlen(L->cols[c].name);
        if (used + need + 6 >= size) {
            snprintf(out + used, size - used, "%s...", sep);
            return;
        }
        used += (size_t)snprintf(out + used, size - used, "%s%s", sep, L->cols[c].name);
    }
}

static pdt_status find_column(size_t *column, const csv_loader *L, const char *name, pdt_error *err)
{
    for (size_t c = 0; c < L->n_cols; c++)
        if (strcmp(L->cols[c].name, name) == 0) {
            *column = c;
            return PDT_OK;
        }
    char columns[600];
    list_columns(columns, sizeof columns, L);
    return pdt_error_set(err, PDT_EINVAL, "%s:%zu: no column named \"%s\" (columns: %s)", L->name,
                         L->header_line, name, columns);
}

static const char *role_name(csv_role role)
{
    switch (role) {
    case CSV_LABEL: return "the label";
    case CSV_WEIGHT: return "the weight";
    case CSV_SKIP: return "skipped";
    default: return "a feature";
    }
}

/* Gives column `name` the role, unless another option already claimed it. */
static pdt_status claim(size_t *column, csv_loader *L, const char *name, csv_role role,
                        pdt_error *err)
{
    pdt_status st = find_column(column, L, name, err);
    if (st != PDT_OK) return st;
    csv_column *col = &L->cols[*column];
    if (col->role != CSV_FEATURE && col->role != role)
        return pdt_error_set(err, PDT_EINVAL, "%s:%zu: column \"%s\" cannot be both %s and %s",
                             L->name, L->header_line, name, role_name(col->role), role_name(role));
    col->role = role;
    return PDT_OK;
}

pdt_status csv_assign_roles(csv_loader *L, pdt_error *err)
{
    const pdt_csv_options *opt = &L->opt;
    if (opt->no_label && opt->label)
        return pdt_error_set(err, PDT_EINVAL,
                             "%s: a label column (\"%s\") and no label both requested", L->name,
                             opt->label);
    pdt_status st = PDT_OK;
    if (opt->label) {
        st = claim(&L->label, L, opt->label, CSV_LABEL, err);
    } else if (!opt->no_label) {
        L->label = L->n_cols - 1;
        L->cols[L->label].role = CSV_LABEL;
    }
    if (st == PDT_OK && opt->weight) st = claim(&L->weight, L, opt->weight, CSV_WEIGHT, err);
    for (size_t k = 0; k < opt->n_skip && st == PDT_OK; k++) {
        size_t column;
        st = claim(&column, L, opt->skip[k], CSV_SKIP, err);
    }
    for (size_t k = 0; k < opt->n_categorical && st == PDT_OK; k++) {
        size_t column;
        st = claim(&column, L, opt->categorical[k], CSV_FEATURE, err);
        if (st == PDT_OK) L->cols[column].forced = true;
    }
    return st;
}
