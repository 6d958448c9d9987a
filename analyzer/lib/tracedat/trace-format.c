// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-format.c - header_page and event format texts, and field access.
 *
 * We only need the layout part of a format file: "name:", "ID:", the
 * "field:" lines and the raw "print fmt:" text.  The print format is never
 * evaluated (untrusted code, in effect); fields are read by offset and
 * size, bounds-checked against each record.
 *
 * A format text that cannot be used (no name or ID, a field line that does
 * not parse) is skipped with a warning rather than failing the file, as
 * libtraceevent does: the analyzer then reports the event as missing.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat-local.h"

/* ---- one "field:" line ---------------------------------------------- */

struct field_line {
	const char *decl;	/* "unsigned long caller[8]" */
	size_t decl_len;
	long long offset, size, sign;
	bool has_offset, has_size, has_sign;
};

static const char *skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* "key:number;" items after the declaration. */
static bool parse_num(const char *s, const char *end, long long *v)
{
	bool neg = false;
	long long n = 0;

	s = skip_ws(s, end);
	if (s < end && *s == '-') {
		neg = true;
		s++;
	}
	if (s >= end || !isdigit((unsigned char)*s))
		return false;
	while (s < end && isdigit((unsigned char)*s)) {
		if (n > (1LL << 40))
			return false;
		n = n * 10 + (*s++ - '0');
	}
	*v = neg ? -n : n;
	return true;
}

static bool all_digits(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* @line is one line without its newline.  Returns false if not a field. */
static bool parse_field_line(const char *line, const char *end,
			     struct field_line *fl)
{
	const char *s = skip_ws(line, end), *semi, *key, *colon;

	memset(fl, 0, sizeof(*fl));
	if (end - s < 6 || memcmp(s, "field", 5))
		return false;
	s += 5;
	/* Very old kernels wrote "field special:" for some fields. */
	if (end - s >= 8 && !memcmp(s, " special", 8))
		s += 8;
	if (s >= end || *s != ':')
		return false;
	s = skip_ws(s + 1, end);
	semi = memchr(s, ';', end - s);
	if (!semi)
		return false;
	fl->decl = s;
	fl->decl_len = semi - s;
	while (fl->decl_len && isspace((unsigned char)s[fl->decl_len - 1]))
		fl->decl_len--;

	for (s = semi + 1; s < end; s = semi + 1) {
		key = skip_ws(s, end);
		semi = memchr(key, ';', end - key);
		if (!semi)
			semi = end;
		colon = memchr(key, ':', semi - key);
		if (!colon)
			continue;
		if (colon - key == 6 && !memcmp(key, "offset", 6))
			fl->has_offset = parse_num(colon + 1, semi, &fl->offset);
		else if (colon - key == 4 && !memcmp(key, "size", 4))
			fl->has_size = parse_num(colon + 1, semi, &fl->size);
		else if (colon - key == 6 && !memcmp(key, "signed", 6))
			fl->has_sign = parse_num(colon + 1, semi, &fl->sign);
	}
	return fl->has_offset && fl->has_size;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * Split "type name[N]" into type, name and the array part.  Returns false
 * if there is no name.  @count is -1 without brackets, 0 for "[]" or a
 * non-numeric length (e.g. "[TASK_COMM_LEN]").
 */
static bool split_decl(const char *d, size_t len, const char **type,
		       size_t *type_len, const char **name, size_t *name_len,
		       long long *count)
{
	const char *end = d + len, *open, *n;
	long long c;

	*count = -1;
	if (len && end[-1] == ']') {
		open = end - 1;
		while (open > d && *open != '[')
			open--;
		if (*open != '[')
			return false;
		*count = parse_num(open + 1, end - 1, &c) && c >= 0 ? c : 0;
		end = open;
	}
	while (end > d && isspace((unsigned char)end[-1]))
		end--;
	n = end;
	while (n > d && is_ident(n[-1]))
		n--;
	if (n == end)
		return false;
	*name = n;
	*name_len = end - n;
	while (n > d && isspace((unsigned char)n[-1]))
		n--;
	*type = d;
	*type_len = n - d;
	return true;
}

static bool word_is(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(s, w, len);
}

/* Strip qualifiers and "[]" to get the element type. */
static void base_type(const char *type, size_t len, const char **b,
		      size_t *blen)
{
	static const char *const prefix[] = {
		"__data_loc ", "__rel_loc ", "const ", "volatile ",
	};
	unsigned int i;
	bool again = true;

	while (again) {
		again = false;
		for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
			size_t pl = strlen(prefix[i]);

			if (len >= pl && !memcmp(type, prefix[i], pl)) {
				type += pl;
				len -= pl;
				again = true;
			}
		}
		while (len && isspace((unsigned char)*type)) {
			type++;
			len--;
		}
	}
	while (len && (type[len - 1] == ']' || type[len - 1] == '[' ||
		       isspace((unsigned char)type[len - 1])))
		len--;
	*b = type;
	*blen = len;
}

/* Size of one element of @type, 0 when the name does not tell. */
static uint32_t type_size(const char *type, size_t len, int klong)
{
	static const struct {
		const char *name;
		int size;	/* 0: kernel long */
	} types[] = {
		{ "char", 1 }, { "signed char", 1 }, { "unsigned char", 1 },
		{ "u8", 1 }, { "s8", 1 }, { "__u8", 1 }, { "__s8", 1 },
		{ "bool", 1 }, { "_Bool", 1 },
		{ "short", 2 }, { "unsigned short", 2 }, { "short int", 2 },
		{ "u16", 2 }, { "s16", 2 }, { "__u16", 2 }, { "__s16", 2 },
		{ "int", 4 }, { "unsigned int", 4 }, { "unsigned", 4 },
		{ "u32", 4 }, { "s32", 4 }, { "__u32", 4 }, { "__s32", 4 },
		{ "pid_t", 4 },
		{ "long", 0 }, { "unsigned long", 0 }, { "long int", 0 },
		{ "unsigned long int", 0 },
		{ "long long", 8 }, { "unsigned long long", 8 },
		{ "u64", 8 }, { "s64", 8 }, { "__u64", 8 }, { "__s64", 8 },
	};
	const char *b;
	size_t blen, i;

	base_type(type, len, &b, &blen);
	if (memchr(b, '*', blen))
		return klong;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (word_is(b, blen, types[i].name))
			return types[i].size ? types[i].size : klong;
	}
	return 0;
}

/* ---- header_page ----------------------------------------------------- */

int lt_trace_parse_header_page(struct lt_trace *t, struct lt_error *err,
			       const char *text, size_t len, int file_long)
{
	const char *s = text, *end = text + len, *eol, *type, *name;
	size_t tlen, nlen;
	long long count;
	struct field_line fl;
	long long ts_size = -1, commit_off = -1, commit_size = -1;
	long long data_off = -1;

	if (!len)
		return lt_trace_fail(t, err, LT_E_VERSION,
				     "header_page is empty (ring buffer of Linux before 2.6.31); not supported");
	for (; s < end; s = eol + 1) {
		eol = memchr(s, '\n', end - s);
		if (!eol)
			eol = end;
		if (!parse_field_line(s, eol, &fl) ||
		    !split_decl(fl.decl, fl.decl_len, &type, &tlen, &name,
				&nlen, &count))
			continue;
		if (word_is(name, nlen, "timestamp")) {
			ts_size = fl.size;
		} else if (word_is(name, nlen, "commit")) {
			commit_off = fl.offset;
			commit_size = fl.size;
		} else if (word_is(name, nlen, "data")) {
			data_off = fl.offset;
		}
	}
	if (ts_size != -1 && ts_size != 8)
		return lt_trace_fail(t, err, LT_E_CORRUPT,
				     "header_page: timestamp of %lld bytes, expected 8",
				     ts_size);
	if (commit_size == -1) {
		commit_size = file_long;
		commit_off = 8;
	}
	if (commit_off != 8 || (commit_size != 4 && commit_size != 8))
		return lt_trace_fail(t, err, LT_E_CORRUPT,
				     "header_page: commit at offset %lld size %lld, expected 8 and 4|8",
				     commit_off, commit_size);
	if (data_off == -1)
		data_off = 8 + commit_size;
	/* The page decoder, like kbuffer, relies on data following commit. */
	if (data_off != 8 + commit_size)
		return lt_trace_fail(t, err, LT_E_CORRUPT,
				     "header_page: data at offset %lld, expected %lld",
				     data_off, 8 + commit_size);
	t->commit_size = commit_size;
	t->data_off = data_off;
	return 0;
}

/* ---- event formats --------------------------------------------------- */

static const char *line_value(const char *s, const char *eol,
			      const char *key, const char **vend)
{
	size_t kl = strlen(key);

	if ((size_t)(eol - s) < kl || memcmp(s, key, kl))
		return NULL;
	s = skip_ws(s + kl, eol);
	*vend = eol;
	while (*vend > s && isspace((unsigned char)(*vend)[-1]))
		(*vend)--;
	return s;
}

static char *pool_add(char **pool, const char *s, size_t len)
{
	char *p = *pool;

	memcpy(p, s, len);
	p[len] = '\0';
	*pool += len + 1;
	return p;
}

void lt_trace_free_event_type(struct lt_event_type *type)
{
	if (!type)
		return;
	free(type->fields);
	free(type->pool);
	free(type);
}

struct lt_event_type *lt_trace_parse_event_format(const char *system,
						  const char *text, size_t len,
						  int kernel_long, const char **why)
{
	const char *s, *end = text + len, *eol, *v, *vend, *name = NULL;
	size_t name_len = 0, sys_len;
	struct lt_event_type *et;
	long long id = -1;
	char *head;

	*why = NULL;
	/* name and ID come first; the fields wait until asked for */
	for (s = text; s < end && (!name || id == -1); s = eol + 1) {
		eol = memchr(s, '\n', end - s);
		if (!eol)
			eol = end;
		if ((v = line_value(s, eol, "name:", &vend))) {
			name = v;
			name_len = vend - v;
		} else if ((v = line_value(s, eol, "ID:", &vend))) {
			/* the whole value: "2X1" is damage, not 2 */
			if (!parse_num(v, vend, &id))
				id = -2;
			else if (!all_digits(v + (*v == '-'), vend))
				id = -3;
		} else if (line_value(s, eol, "print fmt:", &vend)) {
			break;
		}
	}
	if (!name || !name_len) {
		*why = "no name";
		return NULL;
	}
	if (name_len > 255 || memchr(name, 0, name_len)) {
		*why = "bad name";
		return NULL;
	}
	if (id == -3) {
		*why = "an ID that is not a number";
		return NULL;
	}
	if (id < 0 || id > 65535) {
		*why = "no usable ID";
		return NULL;
	}

	sys_len = strlen(system);
	/* one allocation: a file holds thousands of these */
	et = calloc(1, sizeof(*et) + sys_len + 1 + name_len + 1);
	if (!et)
		return NULL;
	et->text = text;
	et->len = len;
	et->kernel_long = kernel_long;
	head = (char *)(et + 1);
	et->id = id;
	et->system = pool_add(&head, system, sys_len);
	et->name = pool_add(&head, name, name_len);
	return et;
}

/*
 * The print fmt and fields of @et, from its text, on first use.  A format
 * that cannot be parsed (too many fields, or no memory) is left with none,
 * which its users report as the fields they need missing.
 */
static void type_parse(const struct lt_event_type *cet)
{
	/* types are allocated writable: only the accessors' view is const */
	struct lt_event_type *et = (struct lt_event_type *)cet;
	const char *text, *end;
	const char *s, *eol, *v, *vend, *fmt = NULL, *type, *fname;
	size_t fmt_len = 0, tlen, nlen;
	unsigned int nr_lines = 0, n = 0, i, last = 0;
	int kernel_long = et->kernel_long;
	const char *system = et->system;
	struct field_line fl;
	uint64_t last_end = 0;
	long long count;
	char *pool;

	/* once parsed, the text is gone (NULL): not even its end is taken */
	if (et->parsed)
		return;
	et->parsed = true;
	text = et->text;
	end = text + et->len;
	et->print_fmt = "";
	/* Pass 1: print fmt, and how many field lines. */
	for (s = text; s < end; s = eol + 1) {
		eol = memchr(s, '\n', end - s);
		if (!eol)
			eol = end;
		if ((v = line_value(s, eol, "print fmt:", &vend))) {
			/* The rest of the text, which may span lines. */
			fmt = v;
			fmt_len = end - v;
			while (fmt_len && isspace((unsigned char)fmt[fmt_len - 1]))
				fmt_len--;
			break;
		} else if (parse_field_line(s, eol, &fl)) {
			nr_lines++;
		}
	}
	if (nr_lines > LT_MAX_FIELDS) {
		lt_warning("event %s:%s: more than %u fields, none used",
			   system, et->name, LT_MAX_FIELDS);
		goto done;
	}
	et->fields = calloc(nr_lines ? nr_lines : 1, sizeof(*et->fields));
	/* Every string is a distinct piece of the text, plus its NUL. */
	et->pool = malloc(et->len + 2 * nr_lines + 4);
	if (!et->fields || !et->pool) {
		lt_warning("event %s:%s: out of memory reading its format",
			   system, et->name);
		goto done;
	}
	pool = et->pool;
	et->print_fmt = pool_add(&pool, fmt ? fmt : "", fmt ? fmt_len : 0);

	/* Pass 2: the fields. */
	for (s = text; s < end && n < nr_lines; s = eol + 1) {
		struct ev_field *f = &et->fields[n];
		const char *bt;
		size_t btlen;
		uint32_t esize;

		eol = memchr(s, '\n', end - s);
		if (!eol)
			eol = end;
		if (fmt && s >= fmt)
			break;
		if (!parse_field_line(s, eol, &fl))
			continue;
		if (!split_decl(fl.decl, fl.decl_len, &type, &tlen, &fname,
				&nlen, &count) || nlen > 255 || !tlen ||
		    fl.offset < 0 || fl.size < 0 ||
		    fl.offset + fl.size > LT_MAX_PAGE_SIZE) {
			lt_warning("event %s:%s: field \"%.*s\" not usable, skipped",
				   system, et->name,
				   (int)(fl.decl_len > 80 ? 80 : fl.decl_len),
				   fl.decl);
			continue;
		}
		f->type = pool_add(&pool, type, tlen);
		f->name = pool_add(&pool, fname, nlen);
		f->f.offset = fl.offset;
		f->f.size = fl.size;
		f->f.elem_size = fl.size;
		f->f.flags = fl.has_sign && fl.sign ? LT_FIELD_SIGNED : 0;
		base_type(type, tlen, &bt, &btlen);
		esize = type_size(type, tlen, kernel_long);
		if (tlen >= 10 && !memcmp(type, "__data_loc", 10)) {
			f->f.flags |= LT_FIELD_DYNAMIC;
			f->f.elem_size = esize ? esize : 1;
		} else if (tlen >= 9 && !memcmp(type, "__rel_loc", 9)) {
			f->f.flags |= LT_FIELD_DYNAMIC | LT_FIELD_RELLOC;
			f->f.elem_size = esize ? esize : 1;
		} else if (count >= 0) {
			f->f.flags |= LT_FIELD_ARRAY;
			if (count > 0 && fl.size % count == 0 && fl.size)
				f->f.elem_size = fl.size / count;
			else
				f->f.elem_size = esize ? esize : 1;
		}
		if ((f->f.flags & (LT_FIELD_ARRAY | LT_FIELD_DYNAMIC)) &&
		    word_is(bt, btlen, "char"))
			f->f.flags |= LT_FIELD_STRING;
		if (f->f.offset + f->f.size >= last_end) {
			last_end = f->f.offset + f->f.size;
			last = n;
		}
		n++;
	}
	et->nr_fields = n;
	/* The last field's array may run on to the record's end. */
	if (n)
		et->fields[last].f.flags |= LT_FIELD_LAST;
	for (i = 0; i < n; i++) {
		if (et->fields[i].f.elem_size == 0)
			et->fields[i].f.elem_size = 1;
	}
done:
	et->text = NULL;
}

/* The length of the "name:" of a format @text, 0 if none fit to print. */
static int format_name(const char *text, size_t len, const char **name)
{
	const char *end = text + len, *eol, *v, *vend;
	int i;

	for (; text < end; text = eol + 1) {
		eol = memchr(text, '\n', end - text);
		if (!eol)
			eol = end;
		v = line_value(text, eol, "name:", &vend);
		if (!v)
			continue;
		if (vend - v > 64)
			return 0;
		for (i = 0; i < vend - v; i++)
			if (!isgraph((unsigned char)v[i]))
				return 0;
		*name = v;
		return i;
	}
	return 0;
}

/*
 * Format @text said unusable (@why): named if it can be, since its
 * records will be unknown events, and kept among the first skipped.
 */
static void skip_format(struct lt_trace *t, const char *system,
			const char *text, size_t len, const char *why)
{
	const char *name;
	int n = format_name(text, len, &name);

	if (!n) {
		lt_warning("%s: an event format of system %s has %s, skipped",
			   t->path, system, why);
		return;
	}
	lt_warning("%s: the format of %s:%.*s has %s, skipped", t->path,
		   system, n, name, why);
	if (t->nr_skipped < sizeof(t->skipped) / sizeof(t->skipped[0])) {
		snprintf(t->skipped[t->nr_skipped].system,
			 sizeof(t->skipped[0].system), "%s", system);
		snprintf(t->skipped[t->nr_skipped].name,
			 sizeof(t->skipped[0].name), "%.*s", n, name);
		t->skipped[t->nr_skipped++].why = why;
	}
}

int lt_trace_add_event_format(struct lt_trace *t, struct lt_error *err,
			      const char *system, const char *text, const char *kept,
			      size_t len)
{
	struct lt_event_type *et, **types;
	const char *why;

	if (t->nr_types >= LT_MAX_EVENT_TYPES)
		return lt_trace_fail(t, err, LT_E_LIMIT,
				     "more than %u event formats",
				     LT_MAX_EVENT_TYPES);
	et = lt_trace_parse_event_format(system, text, len,
					 t->commit_size ? t->commit_size : 8, &why);
	if (!et) {
		if (!why)
			return lt_trace_fail(t, err, LT_E_NOMEM,
					     "event formats: out of memory");
		skip_format(t, system, text, len, why);
		return 0;
	}
	et->text = kept;
	if (!(t->nr_types & (t->nr_types + 1)) || !t->types) {
		/* grow at 0, 1, 3, 7, ...: powers of two */
		types = realloc(t->types, (t->nr_types + 1) * 2 * sizeof(*types));
		if (!types) {
			lt_trace_free_event_type(et);
			return lt_trace_fail(t, err, LT_E_NOMEM,
					     "event formats: out of memory");
		}
		t->types = types;
	}
	t->types[t->nr_types++] = et;
	return 0;
}

int lt_trace_finish_event_formats(struct lt_trace *t, struct lt_error *err)
{
	unsigned int i, max_id = 0;
	struct lt_field f;

	t->type_field_off = 0;
	t->type_field_size = 2;
	for (i = 0; i < t->nr_types; i++) {
		if (lt_event_type_field(t->types[i], "common_type", &f) == 0 &&
		    (f.size == 1 || f.size == 2 || f.size == 4)) {
			t->type_field_off = f.offset;
			t->type_field_size = f.size;
			break;
		}
	}
	for (i = 0; i < t->nr_types; i++) {
		if (t->types[i]->id > max_id)
			max_id = t->types[i]->id;
	}
	t->by_id_len = t->nr_types ? max_id + 1 : 0;
	t->by_id = calloc(t->by_id_len ? t->by_id_len : 1, sizeof(*t->by_id));
	if (!t->by_id)
		return lt_trace_fail(t, err, LT_E_NOMEM,
				     "event formats: out of memory");
	for (i = 0; i < t->nr_types; i++) {
		struct lt_event_type *et = t->types[i];

		if (t->by_id[et->id]) {
			lt_warning("%s: event ID %u is used by %s:%s and %s:%s; the first wins",
				   t->path, et->id, t->by_id[et->id]->system,
				   t->by_id[et->id]->name, et->system, et->name);
			continue;
		}
		t->by_id[et->id] = et;
	}
	return 0;
}

void lt_trace_free_event_formats(struct lt_trace *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_types; i++)
		lt_trace_free_event_type(t->types[i]);
	free(t->types);
	free(t->by_id);
	lt_trace_section_buf_free(t->format_bufs[0]);
	lt_trace_section_buf_free(t->format_bufs[1]);
	t->types = NULL;
	t->by_id = NULL;
	t->format_bufs[0] = t->format_bufs[1] = NULL;
	t->nr_types = 0;
}

/* ---- lookups --------------------------------------------------------- */

const struct lt_event_type *lt_trace_find_event(const struct lt_trace *t,
						const char *system,
						const char *name)
{
	unsigned int i;

	/* a first byte apart saves a call: 15 lookups of ~1,500 at start */
	for (i = 0; i < t->nr_types; i++) {
		const struct lt_event_type *et = t->types[i];

		if (et->name[0] == name[0] && !strcmp(et->name, name) &&
		    (!system || !strcmp(et->system, system)))
			return et;
	}
	return NULL;
}

const char *lt_trace_skipped_format(const struct lt_trace *t,
				    const char *system, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nr_skipped; i++)
		if (!strcmp(t->skipped[i].system, system) &&
		    !strcmp(t->skipped[i].name, name))
			return t->skipped[i].why;
	return NULL;
}

const struct lt_event_type *lt_trace_event_by_id(const struct lt_trace *t,
						 uint16_t id)
{
	return id < t->by_id_len ? t->by_id[id] : NULL;
}

unsigned int lt_trace_event_id_limit(const struct lt_trace *t)
{
	return t->by_id_len;
}

const char *lt_event_type_system(const struct lt_event_type *type)
{
	return type->system;
}

const char *lt_event_type_name(const struct lt_event_type *type)
{
	return type->name;
}

uint16_t lt_event_type_id(const struct lt_event_type *type)
{
	return type->id;
}

const char *lt_event_type_print_fmt(const struct lt_event_type *type)
{
	type_parse(type);
	return type->print_fmt;
}

int lt_event_type_field(const struct lt_event_type *type, const char *name,
			struct lt_field *out)
{
	unsigned int i;

	type_parse(type);
	for (i = 0; i < type->nr_fields; i++) {
		if (!strcmp(type->fields[i].name, name)) {
			*out = type->fields[i].f;
			return 0;
		}
	}
	memset(out, 0, sizeof(*out));
	return -1;
}

unsigned int lt_event_type_nr_fields(const struct lt_event_type *type)
{
	type_parse(type);
	return type->nr_fields;
}

const char *lt_event_type_field_at(const struct lt_event_type *type,
				   unsigned int i, struct lt_field *out,
				   const char **ctype)
{
	type_parse(type);
	if (i >= type->nr_fields)
		return NULL;
	if (out)
		*out = type->fields[i].f;
	if (ctype)
		*ctype = type->fields[i].type;
	return type->fields[i].name;
}

/* ---- field access ---------------------------------------------------- */

static inline bool read_scalar(const struct lt_trace *t,
			       const unsigned char *p, uint32_t size,
			       uint64_t *val)
{
	switch (size) {
	case 1:
		*val = *p;
		return true;
	case 2:
		*val = get16(p, t->swap);
		return true;
	case 4:
		*val = get32(p, t->swap);
		return true;
	case 8:
		*val = get64(p, t->swap);
		return true;
	}
	return false;
}

/* Where a dynamic field's data is; false when it is outside the record. */
static bool dyn_area(const struct lt_trace *t, const struct lt_field *f,
		     const struct lt_record *rec, uint32_t *off,
		     uint32_t *len)
{
	uint32_t loc;

	if (f->size != 4 || (uint64_t)f->offset + 4 > rec->size)
		return false;
	loc = get32(rec->data + f->offset, t->swap);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & LT_FIELD_RELLOC)
		*off += f->offset + f->size;
	return (uint64_t)*off + *len <= rec->size;
}

int lt_field_u64(const struct lt_trace *t, const struct lt_field *f,
		 const struct lt_record *rec, uint64_t *val)
{
	uint32_t size = f->flags & LT_FIELD_ARRAY ? f->elem_size : f->size;

	if (rec->data && (uint64_t)f->offset + size <= rec->size &&
	    read_scalar(t, rec->data + f->offset, size, val))
		return 0;
	*val = 0;
	return -1;
}

static int64_t sign_extend(uint64_t v, uint32_t size)
{
	unsigned int shift = 64 - size * 8;

	return size >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

int lt_field_s64(const struct lt_trace *t, const struct lt_field *f,
		 const struct lt_record *rec, int64_t *val)
{
	uint32_t size = f->flags & LT_FIELD_ARRAY ? f->elem_size : f->size;
	uint64_t v;

	if (lt_field_u64(t, f, rec, &v)) {
		*val = 0;
		return -1;
	}
	*val = sign_extend(v, size);
	return 0;
}

uint32_t lt_field_array_len(const struct lt_trace *t,
			    const struct lt_field *f,
			    const struct lt_record *rec)
{
	uint32_t off, len, es = f->elem_size ? f->elem_size : 1;
	uint64_t avail;

	if (!rec->data)
		return 0;
	if (f->flags & LT_FIELD_DYNAMIC)
		return dyn_area(t, f, rec, &off, &len) ? len / es : 0;
	if (!(f->flags & LT_FIELD_ARRAY) || f->offset >= rec->size)
		return 0;
	avail = rec->size - f->offset;
	/* Only the last field may run on past its declared size. */
	if (!(f->flags & LT_FIELD_LAST) && avail > f->size)
		avail = f->size;
	return avail / es;
}

/* Where an array field's elements are: the offset and how many. */
static bool array_area(const struct lt_trace *t, const struct lt_field *f,
		       const struct lt_record *rec, uint32_t *off,
		       uint32_t *nr)
{
	uint32_t len;

	if (!rec->data || !f->elem_size)
		return false;
	if (f->flags & LT_FIELD_DYNAMIC) {
		if (!dyn_area(t, f, rec, off, &len))
			return false;
		*nr = len / f->elem_size;
		return true;
	}
	*off = f->offset;
	*nr = lt_field_array_len(t, f, rec);
	return true;
}

int lt_field_elem_u64(const struct lt_trace *t, const struct lt_field *f,
		      const struct lt_record *rec, uint32_t i, uint64_t *val)
{
	uint32_t off, nr;

	if (array_area(t, f, rec, &off, &nr) && i < nr &&
	    read_scalar(t, rec->data + off + (uint64_t)i * f->elem_size,
			f->elem_size, val))
		return 0;
	*val = 0;
	return -1;
}

uint32_t lt_field_elems_u64(const struct lt_trace *t, const struct lt_field *f,
			    const struct lt_record *rec, uint64_t *out,
			    uint32_t max)
{
	uint32_t off, nr, i, es = f->elem_size;
	const unsigned char *p;

	if (!array_area(t, f, rec, &off, &nr))
		return 0;
	if (nr > max)
		nr = max;
	p = rec->data + off;
	/* the common case, a stack of native longs, as one copy */
	if (es == 8 && !t->swap) {
		memcpy(out, p, (size_t)nr * 8);
		return nr;
	}
	for (i = 0; i < nr; i++, p += es)
		if (!read_scalar(t, p, es, &out[i]))
			break;
	return i;
}

int lt_field_str(const struct lt_trace *t, const struct lt_field *f,
		 const struct lt_record *rec, const char **str, size_t *len)
{
	const char *p;
	uint32_t off, n;

	*str = "";
	*len = 0;
	if (!rec->data)
		return -1;
	if (f->flags & LT_FIELD_DYNAMIC) {
		if (!dyn_area(t, f, rec, &off, &n))
			return -1;
	} else if (f->flags & LT_FIELD_ARRAY) {
		if (f->offset > rec->size)
			return -1;
		off = f->offset;
		n = f->size;
		/* "char buf[]" of size 0 (ftrace print) runs to the end. */
		if ((f->flags & LT_FIELD_LAST) && n == 0)
			n = rec->size - off;
		if ((uint64_t)off + n > rec->size)
			return -1;
	} else {
		return -1;
	}
	p = (const char *)rec->data + off;
	*str = p;
	*len = strnlen(p, n);
	return 0;
}
