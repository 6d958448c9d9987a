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

#endif /* LT_REPORT_H */
