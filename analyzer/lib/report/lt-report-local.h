/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-report-local.h - building the report model from a finished replay,
 * and the writers' shared helpers.
 */
#ifndef LT_REPORT_LOCAL_H
#define LT_REPORT_LOCAL_H

#include "latencytop.h"
#include "lt-replay.h"

/*
 * Name of a kernel address (or of a user frame, as its input encoded it)
 * for display; must stay valid as long as the report.
 */
typedef const char *(*lt_symbol_fn)(void *ctx, uint64_t addr);

/* Everything the report points into lives here and dies with it. */
struct lt_report_priv {
	struct lt_report pub;
	struct lt_replay replay;
	bool have_replay;
	void **allocs;
	size_t nr_allocs, cap_allocs;
	void (*release)(void *ctx);	/* frees what the analysis kept alive */
	void *release_ctx;
};

/*
 * The columns a terminal gives the UTF-8 character at *@s (not at its
 * end), moving *@s past it: 2 for an East Asian wide one or an emoji, 0
 * for a combining mark, else 1 (a byte that does not decode too, on its
 * own).  Text output pads and cuts names by it.
 */
int lt_text_cols(const char **s);
/* The length of the UTF-8 character of 2-4 bytes at @s (RFC 3629), or 0. */
size_t lt_utf8_len(const char *s);
/* The columns of @s, a character at a time. */
size_t lt_text_width(const char *s);

/*
 * How many bytes at @s (not at its end) text output shows as one '?': 1
 * for a C0 control or DEL, 2 for a C1 control in UTF-8 (U+0080-U+009F:
 * terminals take U+009B as CSI), 0 for anything else.
 */
static inline size_t lt_control_len(const char *s)
{
	unsigned char c = (unsigned char)s[0], n = (unsigned char)s[1];

	if (c < 0x20 || c == 0x7f)
		return 1;
	return c == 0xc2 && n >= 0x80 && n <= 0x9f ? 2 : 0;
}

/*
 * What text output shows for the character at *@s ('?' for a control);
 * *@s moves past it.
 */
static inline char lt_shown(const char **s)
{
	size_t n = lt_control_len(*s);
	char c = n ? '?' : **s;

	*s += n ? n : 1;
	return c;
}

/*
 * @s as text output shows it (lt_shown()), into @dst of @size > 0 bytes,
 * cut to fit; @dst may be @s itself (the copy is never ahead).
 */
static inline char *lt_shown_copy(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	while (*s && n + 1 < size)
		dst[n++] = lt_shown(&s);
	dst[n] = '\0';
	return dst;
}

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

/* A row of waits, and of their stacks, in one format: the writers table's. */
typedef int (*lt_waits_row_fn)(struct lt_waits_writer *ww, const struct lt_wait *w);
typedef int (*lt_waits_stack_fn)(struct lt_waits_writer *ww,
				 const struct lt_wait_stack *st);
int lt_waits_csv_row(struct lt_waits_writer *ww, const struct lt_wait *w);
int lt_waits_jsonl_row(struct lt_waits_writer *ww, const struct lt_wait *w);
int lt_waits_csv_stack(struct lt_waits_writer *ww, const struct lt_wait_stack *st);
int lt_waits_jsonl_stack(struct lt_waits_writer *ww, const struct lt_wait_stack *st);
/* The writers table's functions for waits in @format: 0, or -1 if none. */
int lt_writer_waits_fns(enum lt_format format, lt_waits_row_fn *row,
			lt_waits_stack_fn *stack);

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

/* "84.2": @percent as "%.1f" writes it, faster (the Percent column). */
char *lt_format_percent(char *buf, size_t len, double percent);

int lt_report_write_text(const struct lt_report *r, FILE *out);
/*
 * The lines text output has under a process's (or thread's) title: how
 * its blocked time was explained (@c; NULL: not said), what it asked
 * for and was not charged (@u), its stops not charged (@st; NULL: none),
 * @indent columns in.  0, or -1 (a write error).
 */
int lt_report_text_task_head(const struct lt_report *r,
			     const struct lt_report_coverage *c,
			     const struct lt_report_uncharged *u,
			     const struct lt_report_stopped *st, int indent,
			     FILE *out);
int lt_report_write_json(const struct lt_report *r, FILE *out);
int lt_report_write_csv(const struct lt_report *r, FILE *out);
/* @s as one CSV field, RFC 4180: quoted only when it must be. */
void lt_csv_str(FILE *out, const char *s);
int lt_report_write_folded(const struct lt_report *r, FILE *out);
/* lt_report_write_html() of the whole range, for the writers table. */
int lt_report_write_html_table(const struct lt_report *r, FILE *out);
int lt_diff_write_text(const struct lt_diff *d, FILE *out);
/* @s as a JSON string: quoted, escaped, valid UTF-8. */
void lt_report_json_str(FILE *out, const char *s);
/* The same, safe inside an HTML <script> element: no '<', '>', '&'. */
void lt_report_json_script_str(FILE *out, const char *s);
int lt_diff_write_json(const struct lt_diff *d, FILE *out);

#endif /* LT_REPORT_LOCAL_H */
