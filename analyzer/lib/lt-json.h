/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-json.h - a small JSON reader for saved reports: the whole text
 * parsed into a tree of values, with limits (depth, size) that hostile
 * input cannot get past, and an error that says where.
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
};

struct lt_json {
	enum lt_json_type type;
	bool boolean;
	bool is_u64;		/* a number that is a whole 0..2^64-1: u64 exact */
	uint64_t u64;
	double num;
	char *str;		/* a string's text (NUL-terminated; one holding
				   NULs is shorter than str_len says) */
	size_t str_len;
	char *key;		/* as a member of an object */
	struct lt_json *child;	/* first element or member */
	struct lt_json *next;	/* the next of its parent's */
	size_t nr;		/* elements or members */
};

/* Values in one text at most: ~100 bytes each. */
#define LT_JSON_MAX_VALUES	2000000

/*
 * Parse @len bytes of @text: the root value, or NULL with @msg (of
 * @msg_len bytes) saying what is wrong and at which line and column.
 */
struct lt_json *lt_json_parse(const char *text, size_t len, char *msg,
			      size_t msg_len);
void lt_json_free(struct lt_json *v);

/* The member @key of object @obj, or NULL. */
const struct lt_json *lt_json_get(const struct lt_json *obj, const char *key);

#endif /* LT_JSON_H */
