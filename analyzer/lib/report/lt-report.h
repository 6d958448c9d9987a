/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-report.h - the report model as the rooms above see it: built from a
 * finished replay (the analysis), read and merged (saved reports), and
 * what the writers take from it besides the public struct lt_report.
 */
#ifndef LT_REPORT_H
#define LT_REPORT_H

#include "latencytop.h"
#include "lt-replay.h"
#include "lt-text.h"

/*
 * Name of a kernel address (or of a user frame, as its input encoded it)
 * for display; must stay valid as long as the report.
 */
typedef const char *(*lt_symbol_fn)(void *ctx, uint64_t addr);
/*
 * Where a user frame, as its input encoded it, is: *@binary (an index of
 * lt_report.binaries plus one, 0: none) and *@offset in that file.
 */
typedef void (*lt_place_fn)(void *ctx, uint64_t frame, uint32_t *binary,
			    uint64_t *offset);

/* Everything the report points into lives here and dies with it. */
struct lt_report_priv {
	struct lt_report pub;
	struct lt_replay replay;
	bool have_replay;
	void **allocs;
	size_t nr_allocs, cap_allocs;
	void (*release)(void *ctx);	/* frees what the analysis kept alive */
	void *release_ctx;
	/* where user frames are (with the symbol functions' context); NULL: not known */
	lt_place_fn user_place;
};

static inline struct lt_report_priv *lt_report_priv(const struct lt_report *r)
{
	return (struct lt_report_priv *)r;
}

/* What the file was; reports built by hand may not say: trace.dat's. */
static inline const char *lt_report_format(const struct lt_report *r)
{
	return r->format ? r->format : "trace-cmd";
}

/*
 * The trace's id: @r->id, or made as lt_analyze() makes it (for a report
 * saved before schema 1.1, or built by hand) into @buf of @size >= 17.
 */
#define LT_REPORT_ID_LEN 17

/* FNV-1a over @s and its NUL ("a","bc" hashes apart from "ab","c"). */
#define LT_FNV1A_BASIS 0xcbf29ce484222325ULL
static inline uint64_t lt_fnv1a_str(uint64_t h, const char *s)
{
	for (;; s++) {
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
		if (!*s)
			return h;
	}
}

const char *lt_report_id_of(const struct lt_report *r, char *buf, size_t size);

/* calloc that the report frees; NULL on ENOMEM. */
void *lt_report_alloc(struct lt_report_priv *priv, size_t n, size_t size);
const char *lt_report_strdup(struct lt_report_priv *priv, const char *s);

/* Build every view (whole range and windows) from priv->replay. */
int lt_report_build(struct lt_report_priv *priv, lt_symbol_fn sym,
		    lt_symbol_fn user_sym, void *sym_ctx, struct lt_error *err);
/*
 * ... or from @rp, a replay that is not the report's (live mode's, which
 * goes on): its rows as they stand; names stay in @rp's strings.
 */
int lt_report_build_from(struct lt_report_priv *priv,
			 const struct lt_replay *rp, lt_symbol_fn sym,
			 lt_symbol_fn user_sym, void *sym_ctx,
			 struct lt_error *err);

/*
 * Whether each task of @rp passes @f (lt_task_filter: --pid, --tid,
 * --comm), an array to free(); NULL on ENOMEM.
 */
bool *lt_report_select_tasks(const struct lt_replay *rp,
			     const struct lt_task_filter *f);

/*
 * The waits of a replay (lt_options.waits), kept in a temporary file while
 * it runs (its notes: lt_waits_spill_note() is an lt_note_fn), handed over
 * with their final causes once it is finished (those of the tasks
 * opts->tasks selects), then the stacks they name, symbolised with @sym.  new: NULL with @err; emit: 0, or -1 with @err.
 */
struct lt_waits_spill;
struct lt_waits_spill *lt_waits_spill_new(struct lt_error *err);
int lt_waits_spill_note(void *spill, const struct lt_wait_note *n);
int lt_waits_spill_emit(struct lt_waits_spill *s, const struct lt_replay *rp,
			const char *trace_id, lt_symbol_fn sym, void *sym_ctx,
			const struct lt_options *opts, struct lt_error *err);
void lt_waits_spill_free(struct lt_waits_spill *s);
/*
 * Each wait kept in @s, with its final cause, to @fn (those of the tasks
 * @tasks selects), as lt_waits_spill_emit() hands them to opts->waits;
 * again from the first on each call.  0, or -1 with @err.
 */
int lt_waits_spill_each(struct lt_waits_spill *s, const struct lt_replay *rp,
			const char *trace_id, const struct lt_task_filter *tasks,
			lt_wait_fn fn, void *ctx, struct lt_error *err);
/*
 * The timeline of @priv's report, made once it is built
 * (report-timeline.c): its busiest threads' waits, from @s.  0, or -1
 * with @err.
 */
int lt_timeline_build(struct lt_report_priv *priv, struct lt_waits_spill *s,
		      struct lt_error *err);
/*
 * Whether keeping the waits aside failed (a full disk): then @err says
 * so, naming the trace @path and the temporary file's directory.
 */
bool lt_waits_spill_failed(const struct lt_waits_spill *s, const char *path,
			   struct lt_error *err);

/*
 * The order of a tree's nodes (and ran_instead's) in a report: by ns,
 * descending, then by what, comm and tid; the same in every report, so
 * a merge writes what one analysis of all the waits would.
 */
int lt_report_chain_cmp(const struct lt_report_chain *a,
			const struct lt_report_chain *b);

/* lt_report_read_json() on @len bytes in memory (@path names them). */
int lt_report_parse_json(const char *text, size_t len, const char *path,
			 struct lt_report **out, struct lt_error *err);

/*
 * lt_report_merge(), with the warning about reports without histograms
 * only if @warn (a diff normalises one report with it: nothing merges).
 */
int lt_report_merge_as(const struct lt_report *const *in,
		       const char *const *names, size_t nr, bool warn,
		       struct lt_report **out, struct lt_error *err);

/* ---- the row-field table (report-fields.c) ------------------------------ */

/*
 * Each scalar statistic of a struct lt_report_row in one row of
 * lt_row_fields[], as perf's sort_entry gives each column its name,
 * compare and print in one row: the JSON writer and reader, CSV, merge,
 * diff and --fail-on all take their fields from it, so that a new
 * statistic is a member of the struct and a row of the table.  What only
 * shows some of them (the text, HTML and diff text tables, the viewer)
 * names them, and report.c computes them from the waits.
 */

/* What the member is, from its C type (the table's ROW() finds it). */
enum lt_rf_type {
	LT_RF_U64,		/* uint64_t: %PRIu64 */
	LT_RF_INT,		/* int: %d */
	LT_RF_DOUBLE,		/* double: %.3f */
};

/* What it counts: the units --fail-on takes for it. */
enum lt_rf_unit {
	LT_RF_WAITS,		/* a number of waits: no unit */
	LT_RF_NS,		/* nanoseconds, a length or a timestamp: ns, us, ms, s */
	LT_RF_TASK,		/* a task id */
	LT_RF_POINTS,		/* percent: in percentage points, no unit */
};

/* How the rows of one cause merge into one (report-merge.c). */
enum lt_rf_merge {
	LT_RF_SUM,		/* added up, saturating */
	LT_RF_MAX,		/* the greatest: the longest wait */
	LT_RF_OF_MAX,		/* the longest wait's: of equal ones, the
				   least of these, in the table's order */
	LT_RF_AVG,		/* total_ns / count, made again */
	LT_RF_QUANTILE,		/* at .q of the row's histogram, made again */
	LT_RF_SHARE,		/* percent of the table's total, made again
				   by whatever makes the table (a reader too) */
};

/* Where CSV puts it: its columns are only ever added at the end. */
enum lt_rf_csv {
	LT_RF_CSV_ROW,		/* with the row's, after kind, in table order */
	LT_RF_CSV_END,		/* after kernel_thread: a column added since */
};

struct lt_row_field {
	const char *key;	/* a row's JSON key and CSV column: the member's name */
	enum lt_rf_csv csv;
	enum lt_rf_type type;
	size_t offset;		/* in struct lt_report_row */
	enum lt_rf_unit unit;
	enum lt_rf_merge merge;
	double q;		/* LT_RF_QUANTILE: which, 0.5 the median */
	bool nullable;		/* null (CSV: empty) when the row has no
				   percentiles (lt_report_row.no_percentiles) */
	const char *figure;	/* its name to diff and --fail-on; NULL: not compared */
	const char *diff_key;	/* a diff side's JSON key (with a figure) */
	bool change;		/* in a diff's "change": after - before, and
				   relative to before (but a percent) */
};

/* In the order of a JSON row's members. */
extern const struct lt_row_field lt_row_fields[];
extern const size_t lt_nr_row_fields;

#define lt_for_each_row_field(f) \
	for ((f) = lt_row_fields; (f) < lt_row_fields + lt_nr_row_fields; (f)++)

/* The field @f of @row, by its type. */
static inline const void *lt_row_field_ptr(const struct lt_row_field *f,
					   const struct lt_report_row *row)
{
	return (const char *)row + f->offset;
}
uint64_t lt_row_field_u64(const struct lt_row_field *f,
			  const struct lt_report_row *row);
void lt_row_field_set_u64(const struct lt_row_field *f,
			  struct lt_report_row *row, uint64_t v);
/* As a number (--fail-on's figures). */
double lt_row_field_value(const struct lt_row_field *f,
			  const struct lt_report_row *row);
/* <0, 0, >0 as @a's field is less than, equal to, greater than @b's. */
int lt_row_field_cmp(const struct lt_row_field *f, const struct lt_report_row *a,
		     const struct lt_report_row *b);
void lt_row_field_copy(const struct lt_row_field *f, struct lt_report_row *dst,
		       const struct lt_report_row *src);
/* Its value as JSON and CSV write it (never null: see .nullable). */
void lt_row_field_put(FILE *out, const struct lt_row_field *f,
		      const struct lt_report_row *row);
/* The field whose figure is the @len bytes at @name; NULL: none. */
const struct lt_row_field *lt_row_field_by_figure(const char *name, size_t len);
/* "count, total, ... or share": the figures, in order, into @buf. */
char *lt_row_field_figures(char *buf, size_t size);

#endif /* LT_REPORT_H */
