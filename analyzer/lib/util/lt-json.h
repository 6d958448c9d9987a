/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-json.h - a small JSON reader for saved reports: the text parsed
 * into a tree of values, with limits (depth, size) that hostile input
 * cannot get past, and an error that says where.  A large array can be
 * left as text and parsed an element at a time (lt_json_parse_with()),
 * so that a tree never holds more than one element of it.
 */
#ifndef LT_JSON_H
#define LT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum lt_json_type {
	LT_JSON_NULL,
	LT_JSON_BOOL,
	LT_JSON_NUMBER,
	LT_JSON_STRING,
	LT_JSON_ARRAY,
	LT_JSON_OBJECT,
	LT_JSON_TEXT,		/* an array checked but not parsed: its text */
};

struct lt_json {
	enum lt_json_type type;
	bool boolean;
	bool is_u64;		/* a number that is a whole 0..2^64-1: u64 exact */
	uint64_t u64;
	double num;
	/* by type: a string's, or an array's or object's (read type first) */
	union {
		char *str;	/* NUL-terminated; one holding NULs is shorter
				   than str_len says.  LT_JSON_TEXT: the
				   array's text, in the text parsed, not
				   NUL-terminated */
		struct lt_json *child;	/* first element or member */
	};
	union {
		size_t str_len;
		size_t nr;		/* elements or members */
	};
	char *key;		/* as a member of an object */
	struct lt_json *next;	/* the next of its parent's */
};

/*
 * Values in one text at most: one every 6 bytes of it, at least
 * LT_JSON_MIN_VALUES, at most LT_JSON_MAX_VALUES.  Each takes 56 bytes
 * parsed, and its member name and text theirs (the smallest, "":0, 64
 * with alignment), so hostile text gets ~64 MB, or ~11x its size past
 * 6 MB, and 0.8 GB at most; a report latency-analyze wrote has a value
 * every ~16 bytes.  While an object of more than 16 members is read, a
 * set of their names finds one named twice: 21 bytes a member at most
 * (the 12 million in one object, 0.2 GB more while it is read).
 */
#define LT_JSON_MIN_VALUES	1000000
#define LT_JSON_MAX_VALUES	12000000
#define LT_JSON_BYTES_PER_VALUE	6

enum lt_json_fail {
	LT_JSON_SYNTAX,		/* not JSON */
	LT_JSON_LIMIT,		/* more values than it reads */
	LT_JSON_DUPLICATE,	/* an object names a member twice */
	LT_JSON_NOMEM,
};

/*
 * Parse @len bytes of @text: the root value, or NULL with @msg (of
 * @msg_len bytes) saying what is wrong and at which line and column, and
 * @why (if not NULL) which kind of failure it is.  An object that names
 * a member twice is refused (LT_JSON_DUPLICATE, the name and its byte
 * offset in @msg): readers differ on which of the two counts.
 */
struct lt_json *lt_json_parse(const char *text, size_t len, char *msg,
			      size_t msg_len, enum lt_json_fail *why);
void lt_json_free(struct lt_json *v);

/*
 * lt_json_parse(), with arrays left as text.  @lazy (NULL-terminated)
 * names members whose value, when an array, is checked as JSON but not
 * built: an LT_JSON_TEXT, one value, whose elements lt_json_next() hands
 * out to be parsed one at a time, with the same @how.  @doc is the whole
 * text @text is a piece of (lines and columns count from it, and its
 * length sets how many values its pieces may build: one every
 * LT_JSON_BYTES_PER_VALUE bytes, at least LT_JSON_MIN_VALUES, in all);
 * *@values counts those built so far.  One parse builds at most
 * LT_JSON_MAX_VALUES.
 */
struct lt_json_how {
	const char *const *lazy;
	const char *doc;
	size_t doc_len;
	size_t *values;
};
struct lt_json *lt_json_parse_with(const char *text, size_t len,
				   const struct lt_json_how *how, char *msg,
				   size_t msg_len, enum lt_json_fail *why);
/*
 * The elements of @v (LT_JSON_TEXT) in turn: from *@pos (0 at first),
 * the next one's text in *@elem and *@len, and true; false past the last.
 */
bool lt_json_next(const struct lt_json *v, size_t *pos, const char **elem,
		  size_t *len);
/* How many elements @v (LT_JSON_TEXT) has. */
size_t lt_json_count(const struct lt_json *v);

/* The member @key of object @obj, or NULL. */
const struct lt_json *lt_json_get(const struct lt_json *obj, const char *key);

#endif /* LT_JSON_H */
