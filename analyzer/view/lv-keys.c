// SPDX-License-Identifier: GPL-2.0
/*
 * lv-keys.c - the request table and key names (lv-keys.h).
 */
#include <stdio.h>
#include <string.h>

#include "lv-keys.h"

static const struct lv_request_info requests[LV_REQ_NR] = {
#define LV_REQ_ROW(req, k, st, h, text_st, text_h)			\
	[LV_REQ_##req] = { #req, k, st, h, text_st, text_h },
	LV_REQUESTS(LV_REQ_ROW)
#undef LV_REQ_ROW
};

/* The keys that are not characters, by the names --keys and the help use. */
static const struct {
	const char *name;
	int key;
} names[] = {
	{ "Up", LV_KEY_UP }, { "Down", LV_KEY_DOWN }, { "Left", LV_KEY_LEFT },
	{ "Right", LV_KEY_RIGHT }, { "PgUp", LV_KEY_PGUP },
	{ "PgDn", LV_KEY_PGDN }, { "Home", LV_KEY_HOME }, { "End", LV_KEY_END },
	{ "Enter", LV_KEY_ENTER }, { "Esc", LV_KEY_ESC },
	{ "BS", LV_KEY_BACKSPACE }, { "Tab", LV_KEY_TAB },
	{ "BTab", LV_KEY_BTAB }, { "lt", '<' },
	{ "Space", ' ' },
};

#define NR_NAMES	(sizeof(names) / sizeof(names[0]))

const struct lv_request_info *lv_request_info(enum lv_request req)
{
	return req > LV_REQ_NONE && req < LV_REQ_NR ? &requests[req] : NULL;
}

enum lv_request lv_key_request(int key)
{
	int r, k;

	for (r = LV_REQ_NONE + 1; r < LV_REQ_NR; r++)
		for (k = 0; k < LV_KEYS_MAX && requests[r].keys[k]; k++)
			if (requests[r].keys[k] == key)
				return (enum lv_request)r;
	return LV_REQ_NONE;
}

const char *lv_key_name(int key, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < NR_NAMES; i++)
		if (names[i].key == key) {
			snprintf(buf, len, "%s", names[i].name);
			return buf;
		}
	if (key > LV_KEY_F0 && key <= LV_KEY_F(12)) {
		snprintf(buf, len, "F%d", key - LV_KEY_F0);
		return buf;
	}
	if (key > 0x20 && key < 0x7f)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "0x%x", (unsigned int)key);
	return buf;
}

int lv_key_by_name(const char *name, size_t len)
{
	size_t i;

	int n;

	for (i = 0; i < NR_NAMES; i++)
		if (strlen(names[i].name) == len && !strncmp(name, names[i].name, len))
			return names[i].key;
	/* F1 .. F12 */
	if (len >= 2 && len <= 3 && name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
		n = name[1] - '0';
		if (len == 3 && (name[2] < '0' || name[2] > '9'))
			return -1;
		if (len == 3)
			n = n * 10 + name[2] - '0';
		if (n <= 12)
			return LV_KEY_F(n);
	}
	return -1;
}

const char *lv_key_names(char *buf, size_t len)
{
	size_t i, used = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < NR_NAMES && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s<%s>",
					 i ? " " : "", names[i].name);
	if (used < len)
		snprintf(buf + used, len - used, " <F1>..<F12>");
	return buf;
}
