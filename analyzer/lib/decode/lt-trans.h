/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-trans.h - LatencyTOP translation tables: kernel functions to causes.
 *
 * Format (latencytop.trans, LatencyTOP 0.5's own): one
 * "priority<TAB>function<TAB>text" per line, '#' comments.  For a stack,
 * the frame with the highest priority wins; on a tie the outer frame wins.
 * No match: "[innermost function that is not a scheduler frame]".
 */
#ifndef LT_TRANS_H
#define LT_TRANS_H

#include <stdbool.h>
#include <stddef.h>

#include "latencytop.h"
#include "lt-map.h"
#include "lt-strtab.h"

struct lt_trans_entry {
	unsigned int priority;
	uint32_t text;		/* strtab id */
};

struct lt_trans {
	struct lt_strtab strs;
	struct lt_map funcs;	/* function name id -> entry index */
	struct lt_trans_entry *entries;
	uint32_t nr_entries, cap_entries;
	struct lt_map skip;	/* function name id -> 1 */
	unsigned int nr_tables;
};

int lt_trans_init(struct lt_trans *tr);
void lt_trans_free(struct lt_trans *tr);

/* Merge a table; later entries for the same function replace earlier ones. */
int lt_trans_load_buffer(struct lt_trans *tr, const char *name,
			 const char *buf, size_t len, struct lt_error *err);
int lt_trans_load_file(struct lt_trans *tr, const char *path,
		       struct lt_error *err);
/* Frames to look past when naming the blocking function: one name per line. */
int lt_trans_load_skip_buffer(struct lt_trans *tr, const char *name,
			      const char *buf, size_t len, struct lt_error *err);
/*
 * The built-in tables, then every .trans file of /etc/latencytop, then
 * of $XDG_CONFIG_HOME/latencytop (default ~/.config).
 */
int lt_trans_load_defaults(struct lt_trans *tr, struct lt_error *err);

/* Translation of one function, or NULL. */
const char *lt_trans_lookup(const struct lt_trans *tr, const char *func,
			    unsigned int *priority);
bool lt_trans_skipped(const struct lt_trans *tr, const char *func);

/*
 * Explain a symbolised stack (innermost first).  Sets *kind to
 * LT_CAUSE_TRANSLATED or LT_CAUSE_FUNCTION; the text is either the
 * table's (stable) or written into @buf.
 */
const char *lt_trans_explain(const struct lt_trans *tr,
			     const char *const *funcs, unsigned int nr,
			     enum lt_cause_kind *kind, char *buf, size_t len);

/* Compiled-in tables (generated from plugins/ at build time). */
extern const char lt_builtin_trans[];
extern const size_t lt_builtin_trans_len;
extern const char lt_builtin_skip[];
extern const size_t lt_builtin_skip_len;

#endif /* LT_TRANS_H */
