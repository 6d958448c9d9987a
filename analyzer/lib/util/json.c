// SPDX-License-Identifier: LGPL-2.1
/*
 * json.c - the JSON reader (lt-json.h).  Recursive descent over the
 * whole text; RFC 8259, with strings decoded to UTF-8.  An array left as
 * text (lazy) is checked by the same grammar with nothing built, and its
 * elements found again by their brackets and quotes alone.  An object
 * that names a member twice is refused where it is built: RFC 8259 leaves
 * it to the reader, and readers differ (jq and Python keep the last, a
 * first-match lookup the first), so such a text means two things.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "lt-bigmem.h"
#include "lt-json.h"
#include "lt-map.h"
#include "lt-text.h"

#define MAX_DEPTH	64	/* a report nests 7 deep */

/*
 * An object's members are checked for a name seen before in it: by a
 * walk over the ones before while they are few (a report's rows have
 * 16), by a hash set of them past that.
 */
#define KEYS_WALKED	16
#define KEY_SHOWN	48	/* bytes of a member name an error quotes */

/*
 * Values and their text come from blocks that are freed together: a
 * malloc() each cost twice the memory for small values (its header, its
 * 32-byte minimum), and hostile text is mostly small values.
 */
#define BLOCK_MIN	(64u << 10)
#define BLOCK_MAX	(1u << 20)
/* AddressSanitizer checks the bounds of what malloc() gave: one each */
#ifdef LT_ASAN
#define SHARED_BLOCKS	0
#else
#define SHARED_BLOCKS	1
#endif

struct block {
	struct block *next;
	size_t used, size;
	char data[];
};

/* What lt_json_parse() returns is the root of one of these. */
struct doc {
	struct block *blocks;
	struct lt_json root;
};

struct parser {
	const char *p, *start, *end;
	char *msg;
	size_t msg_len;
	size_t values, max_values;
	bool failed;
	enum lt_json_fail why;
	struct block *blocks;	/* the newest first */
	const char *doc;	/* where lines count from */
	size_t doc_len;
	size_t built, max_built;	/* values of this parse */
	const char *const *lazy;	/* members left as text */
	uint64_t seed;		/* of the key sets' hash: not to be guessed */
};

/* An object's member names, when it has more than KEYS_WALKED. */
struct keyset {
	const char **slots;		/* NULL: empty */
	size_t cap;			/* a power of two, or 0 */
	size_t len;
};

static void __attribute__((format(printf, 2, 3)))
fail(struct parser *ps, const char *fmt, ...)
{
	size_t line = 1, col = 1, n;
	const char *c;
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = true;
	for (c = ps->doc; c < ps->p && c < ps->end; c++) {
		if (*c == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	n = (size_t)snprintf(ps->msg, ps->msg_len, "line %zu, column %zu: ",
			     line, col);
	if (n < ps->msg_len) {
		va_start(ap, fmt);
		vsnprintf(ps->msg + n, ps->msg_len - n, fmt, ap);
		va_end(ap);
	}
}

static void free_blocks(struct block *b)
{
	struct block *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

void lt_json_free(struct lt_json *v)
{
	struct doc *d;

	if (!v)
		return;
	d = (struct doc *)((char *)v - offsetof(struct doc, root));
	free_blocks(d->blocks);
	free(d);
}

/* @n bytes aligned to @align, from the newest block or a new one. */
static void *alloc(struct parser *ps, size_t n, size_t align)
{
	struct block *b = ps->blocks;
	size_t off = b ? (b->used + align - 1) & ~(align - 1) : 0, size;

	if (SHARED_BLOCKS == 0 || !b || off > b->size || b->size - off < n) {
		/* doubling up to BLOCK_MAX; a long string gets its own */
		size = b ? sizeof(*b) + b->size : BLOCK_MIN / 2;
		size = size < BLOCK_MAX / 2 ? size * 2 : BLOCK_MAX;
		if (size - sizeof(*b) < n || SHARED_BLOCKS == 0)
			size = sizeof(*b) + n;
		b = malloc(size);
		if (!b) {
			if (!ps->failed)
				ps->why = LT_JSON_NOMEM;
			fail(ps, "out of memory");
			return NULL;
		}
		b->next = ps->blocks;
		b->used = 0;
		b->size = size - sizeof(*b);
		ps->blocks = b;
		off = 0;
	}
	b->used = off + n;
	return b->data + off;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

static int hex4(struct parser *ps, unsigned int *out)
{
	unsigned int v = 0, i;

	if (ps->end - ps->p < 4) {
		fail(ps, "a \\u escape cut short");
		return -1;
	}
	for (i = 0; i < 4; i++) {
		char c = ps->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else {
			fail(ps, "'%c' in a \\u escape", c);
			return -1;
		}
	}
	ps->p += 4;
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned int cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * At the opening quote: the decoded text in a new buffer, or NULL.  With
 * @check, only checked: nothing is kept, and NULL is the text's end (or
 * a failure).
 */
static char *string_as(struct parser *ps, size_t *len, bool check)
{
	const char *s = ++ps->p;
	char *out = NULL, *o, scratch[4];
	unsigned int cp, lo;

	/* decoded, it is never longer than as written */
	while (ps->p < ps->end && *ps->p != '"')
		ps->p += *ps->p == '\\' && ps->p + 1 < ps->end ? 2 : 1;
	if (ps->p >= ps->end) {
		fail(ps, "a string without its closing quote");
		return NULL;
	}
	if (check) {
		o = scratch;
	} else {
		out = o = alloc(ps, (size_t)(ps->p - s) + 1, 1);
		if (!out)
			return NULL;
	}
	for (ps->p = s; *ps->p != '"';) {
		unsigned char c = (unsigned char)*ps->p++;

		if (c < 0x20) {
			ps->p--;
			fail(ps, "a control character in a string");
			goto bad;
		}
		if (c != '\\') {
			if (!check)
				*o++ = (char)c;
			continue;
		}
		if (check)	/* each decodes to at most 4: the scratch's */
			o = scratch;
		switch (*ps->p++) {
		case '"':	*o++ = '"'; break;
		case '\\':	*o++ = '\\'; break;
		case '/':	*o++ = '/'; break;
		case 'b':	*o++ = '\b'; break;
		case 'f':	*o++ = '\f'; break;
		case 'n':	*o++ = '\n'; break;
		case 'r':	*o++ = '\r'; break;
		case 't':	*o++ = '\t'; break;
		case 'u':
			if (hex4(ps, &cp) < 0)
				goto bad;
			/* a surrogate pair is one character; a lone half, U+FFFD */
			if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 &&
			    ps->p[0] == '\\' && ps->p[1] == 'u') {
				const char *back = ps->p;

				ps->p += 2;
				if (hex4(ps, &lo) < 0)
					goto bad;
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					ps->p = back;
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			/* "\uXXXX" is 6 bytes written, at most 3 decoded;
			 * a pair is 12 written, 4 decoded */
			o += put_utf8(o, cp);
			break;
		default:
			ps->p--;
			fail(ps, "an unknown escape in a string");
			goto bad;
		}
	}
	ps->p++;	/* the closing quote */
	if (!out)
		return NULL;
	*o++ = '\0';
	/* escapes decode shorter: give back what the text did not need */
	ps->blocks->used -= (size_t)(ps->p - 1 - s) + 1 - (size_t)(o - out);
	*len = (size_t)(o - out) - 1;
	return out;
bad:
	return NULL;
}

static void number(struct parser *ps, struct lt_json *v)
{
	const char *s = ps->p;
	char buf[64];
	bool whole = true;
	size_t n;

	if (ps->p < ps->end && *ps->p == '-') {
		ps->p++;
		whole = false;
	}
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
		fail(ps, "a number without digits");
		return;
	}
	if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9') {
		fail(ps, "a number with a leading zero");
		return;
	}
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '.') {
		whole = false;
		if (++ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
			fail(ps, "no digits after a decimal point");
			return;
		}
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		whole = false;
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9') {
			fail(ps, "no digits in an exponent");
			return;
		}
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	n = (size_t)(ps->p - s);
	if (n >= sizeof(buf)) {
		fail(ps, "a number of %zu characters", n);
		return;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	v->type = LT_JSON_NUMBER;
	v->num = strtod(buf, NULL);
	/* nanoseconds need all 64 bits: whole numbers are read exactly */
	if (whole && (n < 20 || (n == 20 && strcmp(buf, "18446744073709551615") <= 0))) {
		v->is_u64 = true;
		v->u64 = strtoull(buf, NULL, 10);
	}
}

/*
 * The key sets' seed, made when the first object large enough for one
 * is met: most parses (a lazy array's elements) never need it.  Without
 * the kernel's randomness, what differs from run to run.
 */
static void seed(struct parser *ps)
{
	if (getrandom(&ps->seed, sizeof(ps->seed), GRND_NONBLOCK) != sizeof(ps->seed))
		ps->seed = lt_hash64((uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
				     (uint64_t)(uintptr_t)ps);
	ps->seed |= 1;	/* never 0 again: 0 is "not made yet" */
}

/*
 * A member name's hash, seeded per parse: names chosen to collide in a
 * table of known hash would make the set a list and the check quadratic.
 */
static uint64_t key_hash(const struct parser *ps, const char *key)
{
	uint64_t h = ps->seed, w;
	size_t n = strlen(key), i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, key + i, 8);
		h = lt_hash64(h ^ w);
	}
	w = 0;
	memcpy(&w, key + i, n - i);
	return lt_hash64(h ^ w ^ (uint64_t)n << 56);
}

/* Add @key to @set: false when it is there already (or on failure). */
static bool keyset_add(struct parser *ps, struct keyset *set, const char *key)
{
	size_t i, mask;

	/* at most 3/4 full: 8 to 21 bytes a name (lt-json.h) */
	if (set->len + 1 > set->cap / 4 * 3) {
		struct keyset grown = { NULL, set->cap ? set->cap * 2 : 64, 0 };

		grown.slots = calloc(grown.cap, sizeof(*grown.slots));
		if (!grown.slots) {
			if (!ps->failed)
				ps->why = LT_JSON_NOMEM;
			fail(ps, "out of memory");
			return false;
		}
		for (i = 0; i < set->cap; i++)
			if (set->slots[i])
				keyset_add(ps, &grown, set->slots[i]);
		free(set->slots);
		*set = grown;
	}
	mask = set->cap - 1;
	for (i = key_hash(ps, key) & mask; set->slots[i]; i = (i + 1) & mask)
		if (!strcmp(set->slots[i], key))
			return false;
	set->slots[i] = key;
	set->len++;
	return true;
}

/*
 * The name @key of a member of object @v, begun at @at: false, and the
 * parse failed, when @v has a member of that name already (the members
 * before it are v->child's, and @set's past KEYS_WALKED of them).  A
 * name with a NUL in it (\u0000) compares up to the NUL, as a report's
 * reader would find it.
 */
static bool key_is_new(struct parser *ps, const struct lt_json *v,
		       struct keyset *set, const char *key, const char *at)
{
	char shown[KEY_SHOWN + 1];
	const struct lt_json *c;
	bool is_new = true;

	if (v->nr < KEYS_WALKED) {
		for (c = v->child; c && is_new; c = c->next)
			is_new = strcmp(c->key, key) != 0;
	} else {
		if (!ps->seed)
			seed(ps);
		if (!set->cap)
			for (c = v->child; c && !ps->failed; c = c->next)
				keyset_add(ps, set, c->key);
		if (!ps->failed)
			is_new = keyset_add(ps, set, key);
	}
	if (ps->failed)
		return false;
	if (is_new)
		return true;
	ps->why = LT_JSON_DUPLICATE;
	ps->p = at;
	lt_shown_copy(shown, sizeof(shown), key);
	fail(ps, "the member \"%s%s\" a second time in one object, at byte %zu: "
	     "readers differ on which one counts", shown,
	     strlen(key) >= KEY_SHOWN ? "..." : "",
	     (size_t)(at - ps->doc));
	return false;
}

static struct lt_json *value(struct parser *ps, int depth, bool build);

/* What a value checked but not built returns: never read. */
static const struct lt_json checked;

static bool is_lazy(const struct parser *ps, const char *key)
{
	const char *const *l;

	for (l = ps->lazy; l && *l; l++)
		if (!strcmp(*l, key))
			return true;
	return false;
}

/*
 * The value of member @key, at its first byte: built, or, named lazy and
 * an array, checked and kept as its text.
 */
static struct lt_json *member(struct parser *ps, const char *key, int depth)
{
	const char *start = ps->p;
	struct lt_json *v;

	if (!ps->lazy || *ps->p != '[' || !is_lazy(ps, key))
		return value(ps, depth + 1, true);
	if (!value(ps, depth + 1, false))
		return NULL;
	/* one value, built, whatever it holds */
	if (++ps->built > ps->max_built || ++ps->values > ps->max_values) {
		ps->p = start;
		return value(ps, depth + 1, true);	/* fails, saying so */
	}
	v = alloc(ps, sizeof(*v), _Alignof(struct lt_json));
	if (!v)
		return NULL;
	memset(v, 0, sizeof(*v));
	v->type = LT_JSON_TEXT;
	v->str = (char *)start;
	v->str_len = (size_t)(ps->p - start);
	return v;
}

/*
 * Elements of an array or members of an object, after its bracket; with
 * @build, made @v's children.
 */
static void items(struct parser *ps, struct lt_json *v, char close, int depth,
		  bool build)
{
	struct lt_json **tail = &v->child, *c;
	struct keyset set = { NULL, 0, 0 };
	const char *key_at = NULL;
	char *key = NULL;
	size_t key_len;

	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return;
	}
	for (;;) {
		skip_ws(ps);
		if (close == '}') {
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "a member name should be a string");
				goto out;
			}
			key_at = ps->p;
			key = string_as(ps, &key_len, !build);
			if (ps->failed)
				goto out;
			/* an element of an array left as text: checked when built */
			if (build && !key_is_new(ps, v, &set, key, key_at))
				goto out;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "':' should follow a member name");
				goto out;
			}
			ps->p++;
			skip_ws(ps);
		}
		c = build && key ? member(ps, key, depth) :
		    value(ps, depth + 1, build);
		if (!c)
			goto out;
		if (build) {
			c->key = key;
			*tail = c;
			tail = &c->next;
			v->nr++;
		}
		key = NULL;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			goto out;
		}
		fail(ps, "',' or '%c' expected", close);
		goto out;
	}
out:
	free(set.slots);
}

/* A value: built (@build), or checked and passed over. */
static struct lt_json *value(struct parser *ps, int depth, bool build)
{
	struct lt_json *v = NULL, scratch, *w = &scratch;
	size_t len;

	if (depth >= MAX_DEPTH) {
		fail(ps, "nested more than %d deep", MAX_DEPTH);
		return NULL;
	}
	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "the text ends where a value should be");
		return NULL;
	}
	if (!build) {
		/* checked only: in @scratch */
	} else if (++ps->values > ps->max_values) {
		if (!ps->failed)
			ps->why = LT_JSON_LIMIT;
		fail(ps, "more than %zu values in %zu bytes: more than is read",
		     ps->max_values, ps->doc_len);
		return NULL;
	} else if (++ps->built > ps->max_built) {
		if (!ps->failed)
			ps->why = LT_JSON_LIMIT;
		fail(ps, "more than %zu values in one part: more than is read "
		     "at once", ps->max_built);
		return NULL;
	} else {
		v = w = alloc(ps, sizeof(*v), _Alignof(struct lt_json));
		if (!v)
			return NULL;
	}
	memset(w, 0, sizeof(*w));
	switch (*ps->p) {
	case '{':
	case '[':
		w->type = *ps->p == '{' ? LT_JSON_OBJECT : LT_JSON_ARRAY;
		ps->p++;
		items(ps, w, w->type == LT_JSON_OBJECT ? '}' : ']', depth, build);
		break;
	case '"':
		w->type = LT_JSON_STRING;
		w->str = string_as(ps, build ? &w->str_len : &len, !build);
		break;
	case 't':
	case 'f':
		w->type = LT_JSON_BOOL;
		w->boolean = *ps->p == 't';
		if (!literal(ps, w->boolean ? "true" : "false"))
			fail(ps, "an unknown word");
		break;
	case 'n':
		if (!literal(ps, "null"))
			fail(ps, "an unknown word");
		break;
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			number(ps, w);
		else if ((unsigned char)*ps->p >= 0x20 && (unsigned char)*ps->p < 0x7f)
			fail(ps, "'%c' where a value should be", *ps->p);
		else
			fail(ps, "byte 0x%02x where a value should be",
			     (unsigned char)*ps->p);
		break;
	}
	if (ps->failed)
		return NULL;
	return build ? v : (struct lt_json *)&checked;
}

struct lt_json *lt_json_parse_with(const char *text, size_t len,
				   const struct lt_json_how *how, char *msg,
				   size_t msg_len, enum lt_json_fail *why)
{
	struct parser ps = { text, text, text + len, msg, msg_len, 0,
			     0, false, LT_JSON_SYNTAX, NULL, text, len, 0,
			     LT_JSON_MAX_VALUES, NULL, 0 };
	struct lt_json *v;
	struct doc *d;

	if (how && how->doc) {
		ps.doc = how->doc;
		ps.doc_len = how->doc_len;
	}
	if (how) {
		ps.lazy = how->lazy;
		ps.values = how->values ? *how->values : 0;
	}
	/* one every few bytes of the whole text, in all its parts */
	ps.max_values = ps.doc_len / LT_JSON_BYTES_PER_VALUE;
	if (ps.max_values < LT_JSON_MIN_VALUES)
		ps.max_values = LT_JSON_MIN_VALUES;
	if (!how && ps.max_values > LT_JSON_MAX_VALUES)
		ps.max_values = LT_JSON_MAX_VALUES;
	if (msg_len)
		msg[0] = '\0';
	v = value(&ps, 0, true);
	if (v) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			fail(&ps, "more text after the value");
	}
	if (how && how->values)
		*how->values = ps.values;
	if (!ps.failed) {
		/* nothing points at the root: it can move into the doc */
		d = malloc(sizeof(*d));
		if (d) {
			d->blocks = ps.blocks;
			d->root = *v;
			return &d->root;
		}
		ps.why = LT_JSON_NOMEM;
		fail(&ps, "out of memory");
	}
	free_blocks(ps.blocks);
	if (why)
		*why = ps.why;
	return NULL;
}

struct lt_json *lt_json_parse(const char *text, size_t len, char *msg,
			      size_t msg_len, enum lt_json_fail *why)
{
	return lt_json_parse_with(text, len, NULL, msg, msg_len, why);
}

/* Past the value at @p (checked already), up to @end. */
static const char *past_value(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		switch (*p) {
		case '"':
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			break;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (!depth)
				return p;
			depth--;
			break;
		case ',':
			if (!depth)
				return p;
			break;
		default:
			break;
		}
	}
	return end;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool lt_json_next(const struct lt_json *v, size_t *pos, const char **elem,
		  size_t *len)
{
	const char *s = v->str, *end = v->str + v->str_len, *p, *e;

	if (v->type != LT_JSON_TEXT)
		return false;
	p = s + (*pos ? *pos : 1);	/* past '[', or the ',' before */
	while (p < end && is_ws(*p))
		p++;
	if (p >= end || *p == ']')
		return false;
	e = past_value(p, end);
	*pos = (size_t)(e - s) + (e < end && *e == ',');
	*elem = p;
	while (e > p && is_ws(e[-1]))
		e--;
	*len = (size_t)(e - p);
	return true;
}

size_t lt_json_count(const struct lt_json *v)
{
	const char *elem;
	size_t pos = 0, len, n = 0;

	while (lt_json_next(v, &pos, &elem, &len))
		n++;
	return n;
}

const struct lt_json *lt_json_get(const struct lt_json *obj, const char *key)
{
	const struct lt_json *c;

	if (!obj || obj->type != LT_JSON_OBJECT)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}
