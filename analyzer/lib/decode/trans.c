// SPDX-License-Identifier: LGPL-2.1
/*
 * trans.c - translation tables (lt-trans.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lt-trans.h"

#define MAX_TABLE_BYTES	(16u << 20)	/* far above any real table */
#define MAX_LINE	4096

int lt_trans_init(struct lt_trans *tr)
{
	memset(tr, 0, sizeof(*tr));
	lt_map_init(&tr->funcs);
	lt_map_init(&tr->skip);
	return lt_strtab_init(&tr->strs);
}

void lt_trans_free(struct lt_trans *tr)
{
	lt_map_free(&tr->funcs);
	lt_map_free(&tr->skip);
	lt_strtab_free(&tr->strs);
	free(tr->entries);
	memset(tr, 0, sizeof(*tr));
}

static int table_error(struct lt_error *err, const char *name,
		       unsigned int line, const char *what)
{
	lt_error_set(err, LT_E_TABLE, "%s:%u: %s", name, line, what);
	return -1;
}

static int nomem(struct lt_error *err)
{
	lt_error_set(err, LT_E_NOMEM, "out of memory loading translations");
	return -1;
}

static int add_entry(struct lt_trans *tr, const char *func, size_t flen,
		     unsigned int prio, const char *text, size_t tlen,
		     struct lt_error *err)
{
	uint32_t fid = lt_strtab_intern(&tr->strs, func, flen);
	uint32_t tid = lt_strtab_intern(&tr->strs, text, tlen);
	uint32_t *slot;
	int added;

	if (fid == UINT32_MAX || tid == UINT32_MAX)
		return nomem(err);
	slot = lt_map_put(&tr->funcs, fid, 0, tr->nr_entries, &added);
	if (!slot)
		return nomem(err);
	if (added) {
		if (tr->nr_entries == tr->cap_entries) {
			uint32_t ncap = tr->cap_entries ? tr->cap_entries * 2 : 256;
			struct lt_trans_entry *e = realloc(tr->entries,
							   ncap * sizeof(*e));

			if (!e) {
				lt_map_del(&tr->funcs, fid, 0);
				return nomem(err);
			}
			tr->entries = e;
			tr->cap_entries = ncap;
		}
		tr->nr_entries++;
	}
	/* a later table overrides an earlier one */
	tr->entries[*slot].priority = prio;
	tr->entries[*slot].text = tid;
	return 0;
}

/*
 * Calls @fn for each non-comment line, trimmed; stops on its error.  A
 * table saved by an editor elsewhere may start with a UTF-8 byte order
 * mark and end its lines in CR LF or a lone CR.
 */
static int for_each_line(const char *name, const char *buf, size_t len,
			 int (*fn)(void *ctx, const char *line, size_t n,
				   unsigned int lineno, struct lt_error *err),
			 void *ctx, struct lt_error *err)
{
	const char *p = buf, *end = buf + len;
	unsigned int lineno = 0;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end) {
		const char *e = p, *nl;
		size_t n;

		while (e < end && *e != '\n' && *e != '\r')
			e++;
		nl = e < end ? e : NULL;
		/* CR LF is one line end */
		if (nl && *nl == '\r' && nl + 1 < end && nl[1] == '\n')
			nl++;
		lineno++;
		if (memchr(p, '\0', e - p))
			return table_error(err, name, lineno, "contains a NUL byte");
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		n = e - p;
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (n > MAX_LINE)
			return table_error(err, name, lineno, "line too long");
		if (n && p[0] != '#' && fn(ctx, p, n, lineno, err) < 0)
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

struct load_ctx {
	struct lt_trans *tr;
	const char *name;
};

static int trans_line(void *vctx, const char *line, size_t n,
		      unsigned int lineno, struct lt_error *err)
{
	struct load_ctx *ctx = vctx;
	const char *p = line, *end = line + n, *func, *text;
	unsigned long prio = 0;
	size_t flen;

	if (!isdigit((unsigned char)*p))
		return table_error(err, ctx->name, lineno,
				   "expected \"priority<TAB>function<TAB>text\", "
				   "priority is not a number");
	while (p < end && isdigit((unsigned char)*p)) {
		prio = prio * 10 + (unsigned long)(*p++ - '0');
		if (prio > 1000000)
			return table_error(err, ctx->name, lineno,
					   "priority is out of range");
	}
	if (p == end || (*p != '\t' && *p != ' '))
		return table_error(err, ctx->name, lineno,
				   "expected a tab after the priority");
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	func = p;
	while (p < end && *p != '\t' && *p != ' ')
		p++;
	flen = p - func;
	if (!flen)
		return table_error(err, ctx->name, lineno, "missing function name");
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	text = p;
	/* blanks run together: "5<TAB><TAB>text" reads text as the function */
	if (text == end) {
		char what[128];

		snprintf(what, sizeof(what),
			 "missing text after the function name '%.*s'",
			 (int)(flen < 64 ? flen : 64), func);
		return table_error(err, ctx->name, lineno, what);
	}
	return add_entry(ctx->tr, func, flen, (unsigned int)prio, text,
			 (size_t)(end - text), err);
}

static int skip_line(void *vctx, const char *line, size_t n,
		     unsigned int lineno, struct lt_error *err)
{
	struct load_ctx *ctx = vctx;
	uint32_t id, *slot;
	size_t i;
	int added;

	for (i = 0; i < n; i++)
		if (isspace((unsigned char)line[i]))
			return table_error(err, ctx->name, lineno,
					   "expected one function name per line");
	id = lt_strtab_intern(&ctx->tr->strs, line, n);
	if (id == UINT32_MAX)
		return nomem(err);
	slot = lt_map_put(&ctx->tr->skip, id, 0, 1, &added);
	return slot ? 0 : nomem(err);
}

int lt_trans_load_buffer(struct lt_trans *tr, const char *name,
			 const char *buf, size_t len, struct lt_error *err)
{
	struct load_ctx ctx = { tr, name };

	if (for_each_line(name, buf, len, trans_line, &ctx, err) < 0)
		return -1;
	tr->nr_tables++;
	return 0;
}

int lt_trans_load_skip_buffer(struct lt_trans *tr, const char *name,
			      const char *buf, size_t len, struct lt_error *err)
{
	struct load_ctx ctx = { tr, name };

	return for_each_line(name, buf, len, skip_line, &ctx, err);
}

int lt_trans_load_file(struct lt_trans *tr, const char *path,
		       struct lt_error *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len;
	FILE *f;
	int ret = -1;

	f = fopen(path, "r");
	if (!f) {
		lt_error_set(err, LT_E_IO,
			     "%s: cannot open translation table: %s", path,
			     strerror(errno));
		return -1;
	}
	/* a directory cannot be read, as a missing file cannot: exit 2 */
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		lt_error_set(err, LT_E_IO,
			     "%s: translation table: not a regular file", path);
		goto out;
	}
	if ((uint64_t)st.st_size > MAX_TABLE_BYTES) {
		lt_error_set(err, LT_E_TABLE, "%s: larger than %u bytes", path,
			     MAX_TABLE_BYTES);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		nomem(err);
		goto out;
	}
	len = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		lt_error_set(err, LT_E_IO, "%s: read error", path);
		goto out;
	}
	ret = lt_trans_load_buffer(tr, path, buf, len, err);
out:
	free(buf);
	fclose(f);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.trans file of @dir, in name order; a missing dir is fine. */
static int load_dir(struct lt_trans *tr, const char *dir, struct lt_error *err)
{
	char **names = NULL, path[4096];
	size_t nr = 0, cap = 0, i;
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n < 7 || strcmp(de->d_name + n - 6, ".trans") ||
		    de->d_name[0] == '.')
			continue;
		if (nr == cap) {
			char **p = realloc(names, (cap = cap ? cap * 2 : 8) * sizeof(*p));

			if (!p) {
				ret = nomem(err);
				goto out;
			}
			names = p;
		}
		names[nr] = strdup(de->d_name);
		if (!names[nr]) {
			ret = nomem(err);
			goto out;
		}
		nr++;
	}
	qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		ret = lt_trans_load_file(tr, path, err);
	}
out:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

const char *lt_builtin_trans_text(size_t *len)
{
	*len = lt_builtin_trans_len;
	return lt_builtin_trans;
}

int lt_trans_load_defaults(struct lt_trans *tr, struct lt_error *err)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char dir[4096];

	if (lt_trans_load_skip_buffer(tr, "built-in latencytop.skip",
				      lt_builtin_skip, lt_builtin_skip_len, err) < 0 ||
	    lt_trans_load_buffer(tr, "built-in latencytop.trans",
				 lt_builtin_trans, lt_builtin_trans_len, err) < 0)
		return -1;
	if (load_dir(tr, "/etc/latencytop", err) < 0)
		return -1;
	if (xdg && *xdg)
		snprintf(dir, sizeof(dir), "%s/latencytop", xdg);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.config/latencytop", home);
	else
		return 0;
	return load_dir(tr, dir, err);
}

const char *lt_trans_lookup(const struct lt_trans *tr, const char *func,
			    unsigned int *priority)
{
	uint32_t id = lt_strtab_find(&tr->strs, func, strlen(func));
	const uint32_t *slot;

	if (id == UINT32_MAX)
		return NULL;
	slot = lt_map_get(&tr->funcs, id, 0);
	if (!slot)
		return NULL;
	if (priority)
		*priority = tr->entries[*slot].priority;
	return lt_strtab_get(&tr->strs, tr->entries[*slot].text);
}

bool lt_trans_skipped(const struct lt_trans *tr, const char *func)
{
	uint32_t id = lt_strtab_find(&tr->strs, func, strlen(func));

	return id != UINT32_MAX && lt_map_get(&tr->skip, id, 0);
}

/*
 * Stack frames carry compiler clone suffixes (do_pselect.constprop.0) and
 * arch syscall prefixes (__arm64_sys_fsync); tables use plain x86-64
 * kallsyms names.  Returns the entry text for the frame, or NULL.
 */
static const char *lookup_frame(const struct lt_trans *tr, const char *func,
				unsigned int *prio)
{
	const char *dot = strchr(func, '.'), *sys;
	char buf[256];
	const char *text;
	size_t n;

	text = lt_trans_lookup(tr, func, prio);
	if (text)
		return text;
	n = dot ? (size_t)(dot - func) : strlen(func);
	if (n >= sizeof(buf))
		return NULL;
	memcpy(buf, func, n);
	buf[n] = '\0';
	if (dot && (text = lt_trans_lookup(tr, buf, prio)))
		return text;
	/* __<arch>_sys_X -> __x64_sys_X */
	sys = strstr(buf, "_sys_");
	if (buf[0] == '_' && buf[1] == '_' && sys && sys > buf + 2 &&
	    strncmp(buf, "__x64_sys_", 10) && strncmp(buf, "__do_sys_", 9) &&
	    strncmp(buf, "__se_sys_", 9)) {
		char x64[300];

		snprintf(x64, sizeof(x64), "__x64%s", sys);
		return lt_trans_lookup(tr, x64, prio);
	}
	return NULL;
}

static bool skipped_frame(const struct lt_trans *tr, const char *func)
{
	const char *dot = strchr(func, '.');
	char buf[256];
	size_t n;

	if (lt_trans_skipped(tr, func))
		return true;
	if (!dot || (n = (size_t)(dot - func)) >= sizeof(buf))
		return false;
	memcpy(buf, func, n);
	buf[n] = '\0';
	return lt_trans_skipped(tr, buf);
}

const char *lt_trans_explain(const struct lt_trans *tr,
			     const char *const *funcs, unsigned int nr,
			     enum lt_cause_kind *kind, char *buf, size_t len)
{
	const char *best = NULL, *text, *blocker = NULL;
	unsigned int best_prio = 0, prio, i, first = 0;

	/* what the tracer and the scheduler core add on top is not the cause */
	for (i = 0; i < nr; i++)
		if (!strcmp(funcs[i], "__schedule")) {
			first = i + 1;
			break;
		}
	for (i = first; i < nr; i++) {
		text = lookup_frame(tr, funcs[i], &prio);
		/* innermost first: ">=" lets the outer frame win a tie */
		if (text && (!best || prio >= best_prio)) {
			best = text;
			best_prio = prio;
		}
		if (!blocker && !skipped_frame(tr, funcs[i]))
			blocker = funcs[i];
	}
	if (best) {
		*kind = LT_CAUSE_TRANSLATED;
		return best;
	}
	*kind = LT_CAUSE_FUNCTION;
	snprintf(buf, len, "[%s]", blocker ? blocker :
		 nr ? funcs[first < nr ? first : 0] : "?");
	return buf;
}
