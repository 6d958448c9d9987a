// SPDX-License-Identifier: LGPL-2.1
/*
 * probe-key.c - keys of kprobe-made latencytop events (lt-probe-key.h).
 */
#include <string.h>

#include "latencytop-sites.h"
#include "lt-probe-key.h"

/* Only the reason text matters here, not the symbol. */
#define LT_SYSCALL(name) name
#define LT_KEY_REASON(group, symbol, reason, kind) reason,
static const char *const site_reasons[] = { LT_SITES(LT_KEY_REASON) };
#undef LT_KEY_REASON
#undef LT_SYSCALL

#define NR_SITES (sizeof(site_reasons) / sizeof(site_reasons[0]))

bool lt_probe_event_keyed(const struct lt_event_type *type)
{
	struct lt_field f;

	if (!lt_event_type_field(type, "cookie", &f))
		return false;
	return !lt_event_type_field(type, "__probe_ip", &f) ||
	       !lt_event_type_field(type, "__probe_func", &f);
}

size_t lt_probe_key_of(const char *reason, char *buf, size_t len)
{
	size_t i;

	for (i = 0; reason[i]; i++) {
		unsigned char c = (unsigned char)reason[i];

		if (i + 1 >= len || c < 0x20 || c == 0x7f || c == ':' ||
		    c == '"' || c == '_' || c == '\\')
			return 0;
		buf[i] = c == ' ' ? '_' : (char)c;
	}
	if (!i || i >= len)
		return 0;
	buf[i] = '\0';
	return i;
}

/* Whether @key (@len bytes) is @reason with '_' for its blanks. */
static bool key_is(const char *key, size_t len, const char *reason)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char r = reason[i];

		if (!r || (key[i] != r && !(key[i] == '_' && r == ' ')))
			return false;
	}
	return reason[len] == '\0';
}

const char *lt_probe_key_reason(const char *key, size_t len)
{
	size_t i;

	if (!len)
		return NULL;
	for (i = 0; i < NR_SITES; i++)
		if (site_reasons[i][0] == key[0] && key_is(key, len, site_reasons[i]))
			return site_reasons[i];
	return NULL;
}

uint64_t lt_probe_key_cookie(const char *key, size_t len)
{
	/* FNV-1a: stable across runs and machines, no table needed */
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 0x100000001b3ULL;
	}
	return h | LT_PROBE_COOKIE_FLAG;
}

void lt_probe_key_decode(struct lt_ev *ev)
{
	const char *reason;

	ev->cookie = lt_probe_key_cookie(ev->str, ev->str_len);
	if (!ev->str_len)
		return;
	reason = lt_probe_key_reason(ev->str, ev->str_len);
	if (reason) {
		ev->str = reason;
		ev->str_len = (uint16_t)strlen(reason);
	}
}
