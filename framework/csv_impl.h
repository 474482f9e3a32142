/* The CSV loader's internals: a lexer giving records of fields with the line
 * and byte column where each starts, and the loader state shared by the files
 * that check and store cells. */
#ifndef PDT_CSV_IMPL_H
#define PDT_CSV_IMPL_H

#include "dataset_impl.h"

typedef struct csv_field {
    const char *text; /* contents, not NUL terminated: quotes removed, or blanks trimmed */
    size_t len;
    size_t line, col; /* 1-based; col counts bytes from the line start (after a BOM) */
    bool quoted;
    size_t offset;    /* internal: where text starts in the input or the record buffer */
} csv_field;

typedef struct csv_record {
    csv_field *fields;
    size_t n, cap;
    size_t end_line, end_col; /* the position just past the record's last byte */
} csv_record;

typedef struct csv_lexer {
    const char *name; /* for messages */
    const char *text;
    size_t len, pos, start; /* start: after the byte-order mark */
    char sep;
    size_t line, line_start;
    char *buf;        /* unquoted contents of the current record */
    size_t buf_len, buf_cap;
} csv_lexer;

/* Skips a UTF-8 byte-order mark; sep 0 picks the separator from the first
 * line (',' ';' or tab), ' ' makes runs of blanks separate fields. */
void csv_lexer_init(csv_lexer *lx, const char *text, size_t len, const char *name, char sep);
void csv_lexer_clear(csv_lexer *lx);
/* Back to the first record. */
void csv_lexer_rewind(csv_lexer *lx);
void csv_record_init(csv_record *rec);
void csv_record_clear(csv_record *rec);
/* Reads the next record, skipping blank lines; *more is false at the end. */
pdt_status csv_read_record(csv_record *rec, bool *more, csv_lexer *lx, pdt_error *err);

/* ------------------------------------------------------------ loader */

typedef enum {
    CSV_FEATURE, /* a numeric feature */
    CSV_LABEL,
    CSV_WEIGHT,
    CSV_SKIP,    /* named in the skip option */
    CSV_DROPPED  /* non-numeric, dropped by skip_nonnumeric */
} csv_role;

typedef struct csv_position {
    size_t line, col; /* 0 when nothing was seen */
} csv_position;

typedef struct csv_column {
    char *name;
    csv_role role;
    bool exact;     /* some cell is not an integer below 2^53 in magnitude */
    size_t feature; /* index among the kept features */
    size_t dropped_line, dropped_col; /* CSV_DROPPED: the first non-number */
    /* categorical columns (a feature column holding text, or forced) */
    bool categorical, forced;
    csv_position text, fraction, missing; /* first text cell, non-integer number, missing cell */
    char *text_seen, *fraction_seen;      /* their contents, for messages */
    pdt_label_table categories;           /* second pass: names by raw id */
} csv_column;

typedef struct csv_loader {
    const char *name; /* file name for messages */
    pdt_csv_options opt;
    csv_lexer lx;
    csv_record rec;
    csv_column *cols;
    size_t n_cols, header_line;
    bool has_header;
    size_t label, weight; /* column indices, SIZE_MAX when absent */
    size_t n_rows, d;     /* rows kept, features */
    size_t n_records;     /* data records read (kept and dropped) */
    uint8_t *drop;        /* n_records flags: left out for a missing value */
    size_t drop_cap;
    bool exact;           /* the dataset keeps rationals */
    mpq_t scratch;
    pdt_label_table labels;
    pdt_dataset *ds;      /* built by the second pass */
} csv_loader;

/* Roles of the columns from the options (csv_roles.c). */
pdt_status csv_assign_roles(csv_loader *L, pdt_error *err);
/* The current record has one field per column (csv_cells.c). */
pdt_status csv_check_width(const csv_loader *L, pdt_error *err);
/* First pass: checks a cell; may mark its column exact, categorical or
 * dropped, or the record dropped (*drop_row, --missing drop). */
pdt_status csv_scan_cell(csv_loader *L, csv_column *col, const csv_field *f, bool *drop_row,
                         pdt_error *err);
/* After the first pass: a column's cells agree with what it became. */
pdt_status csv_check_column(const csv_loader *L, const csv_column *col, pdt_error *err);
/* After the second pass: category codes in code order for column col. */
pdt_status csv_finish_categories(csv_loader *L, csv_column *col, pdt_error *err);
/* Second pass: stores a checked cell of row i. */
pdt_status csv_fill_cell(csv_loader *L, size_t i, csv_column *col, const csv_field *f,
                         pdt_error *err);

#endif
