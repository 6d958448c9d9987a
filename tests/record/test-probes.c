// SPDX-License-Identifier: GPL-2.0
/*
 * test-probes.c - the probe events' keys and definitions, with no kernel.
 *
 * Table-driven: each case a reason or key and what must come of it.
 *   - every site's reason makes a key a kprobe's immediate string can
 *     hold (no blank, ':', '"'), which maps back to the very reason text;
 *   - keys of strings that could not round-trip are refused;
 *   - set and restore of one key share a cookie with bit 63 set, keys of
 *     different reasons do not;
 *   - the lines written to dynamic_events, character for character, as
 *     Documentation/trace/kprobetrace.rst wants them (and as checked on
 *     Debian's 6.1 under qemu by tests/kernel/run-probes-test.sh);
 *   - maxactive sizing and --groups selection.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lt-probe-key.h"
#include "lt-test.h"
#include "ltr.h"

static const struct {
	const char *reason, *key;	/* key NULL: refused */
} key_cases[] = {
	{ "fsync system call", "fsync_system_call" },
	{ "(O)sync the buffer list", "(O)sync_the_buffer_list" },
	{ "Waiting for page IO/lock", "Waiting_for_page_IO/lock" },
	{ "Waiting for event (poll)", "Waiting_for_event_(poll)" },
	{ "x", "x" },
	{ "", NULL },
	{ "a:b", NULL },		/* the kernel splits "name=value:type" at ':' */
	{ "say \"hi\"", NULL },		/* '"' ends the immediate string */
	{ "already_keyed", NULL },	/* '_' would not map back to itself */
	{ "tab\there", NULL },
	{ "back\\slash", NULL },
};

static const struct {
	const char *key, *reason;	/* reason NULL: no site's key */
} map_cases[] = {
	{ "fsync_system_call", "fsync system call" },
	{ "Sleeping_(nanosleep)", "Sleeping (nanosleep)" },
	{ "Userspace_lock_contention_(futex)", "Userspace lock contention (futex)" },
	{ "updating_atime", "updating atime" },
	{ "fsync_system_cal", NULL },		/* a prefix is no key */
	{ "fsync_system_call_", NULL },
	{ "fsync system call", "fsync system call" },	/* blanks are fine too */
	{ "no_such_reason", NULL },
	{ "", NULL },
};

static void test_keys(void)
{
	char buf[128];
	size_t i, n;

	for (i = 0; i < sizeof(key_cases) / sizeof(key_cases[0]); i++) {
		n = lt_probe_key_of(key_cases[i].reason, buf, sizeof(buf));
		if (key_cases[i].key)
			CHECK_MSG(n == strlen(key_cases[i].key) && !strcmp(buf, key_cases[i].key),
				  "key of \"%s\": \"%s\" (%zu), want \"%s\"",
				  key_cases[i].reason, n ? buf : "", n, key_cases[i].key);
		else
			CHECK_MSG(n == 0, "\"%s\" made a key \"%s\"", key_cases[i].reason, buf);
	}
	/* too small a buffer is refused, not cut */
	CHECK_MSG(lt_probe_key_of("fsync system call", buf, 5) == 0, "cut key %s", buf);
	for (i = 0; i < sizeof(map_cases) / sizeof(map_cases[0]); i++) {
		const char *r = lt_probe_key_reason(map_cases[i].key,
						    strlen(map_cases[i].key));

		if (map_cases[i].reason)
			CHECK_MSG(r && !strcmp(r, map_cases[i].reason), "\"%s\" -> \"%s\"",
				  map_cases[i].key, r ? r : "(none)");
		else
			CHECK_MSG(!r, "\"%s\" -> \"%s\", want none", map_cases[i].key, r);
	}
}

static void test_sites(void)
{
	struct ltr_probe_site *sites;
	struct ltr_probes *p;
	struct lt_error err;
	size_t i, j, n;

	if (ltr_probes_table(&p, &err)) {
		CHECK_MSG(0, "%s", err.msg);
		return;
	}
	n = ltr_probes_sites(p, &sites);
	CHECK_MSG(n >= 40, "only %zu sites", n);
	for (i = 0; i < n; i++) {
		const struct ltr_probe_site *s = &sites[i];
		const char *back = lt_probe_key_reason(s->key, strlen(s->key));
		struct lt_ev ev;

		CHECK_MSG(back && !strcmp(back, s->reason), "%s: key %s maps to %s",
			  s->symbol, s->key, back ? back : "(none)");
		CHECK_MSG(!strpbrk(s->key, " \t:\""), "%s: key \"%s\"", s->symbol, s->key);
		/* a decoded set and restore of the key: the reason, one cookie */
		memset(&ev, 0, sizeof(ev));
		ev.str = s->key;
		ev.str_len = (uint16_t)strlen(s->key);
		lt_probe_key_decode(&ev);
		CHECK_MSG(!strcmp(ev.str, s->reason) && ev.str_len == strlen(s->reason),
			  "%s decoded as %.*s", s->key, ev.str_len, ev.str);
		CHECK_MSG(ev.cookie == lt_probe_key_cookie(s->key, strlen(s->key)) &&
			  (ev.cookie & LT_PROBE_COOKIE_FLAG), "%s: cookie %" PRIx64,
			  s->key, ev.cookie);
		for (j = 0; j < i; j++) {
			bool same = !strcmp(sites[j].reason, s->reason);

			CHECK_MSG(same == (lt_probe_key_cookie(sites[j].key, strlen(sites[j].key)) ==
					   lt_probe_key_cookie(s->key, strlen(s->key))),
				  "%s and %s: cookies %s", sites[j].symbol, s->symbol,
				  same ? "differ" : "collide");
			CHECK_MSG(strcmp(sites[j].symbol, s->symbol), "%s twice", s->symbol);
		}
		CHECK_MSG(s->maxtime_us == 0 || s->maxtime_us == 5000, "%s: maxtime %u",
			  s->symbol, s->maxtime_us);
	}
	ltr_probes_free(p);
}

static void test_lines(void)
{
	static const struct {
		const char *group, *symbol, *reason;
		uint32_t maxtime_us;
		unsigned int maxactive;
		const char *set, *restore;
	} cases[] = {
		{ "sync", "__x64_sys_fsync", "fsync system call", 0, 128,
		  "p:latencytop/latency_reason_set __x64_sys_fsync reason=\\\"fsync_system_call\":string maxtime_us=\\0:u32",
		  "r128:latencytop/latency_reason_restore __x64_sys_fsync reason=\\\"fsync_system_call\":string" },
		{ "poll", "do_sys_poll", "Waiting for event (poll)", 5000, 0,
		  "p:latencytop/latency_reason_set do_sys_poll reason=\\\"Waiting_for_event_(poll)\":string maxtime_us=\\5000:u32",
		  "r:latencytop/latency_reason_restore do_sys_poll reason=\\\"Waiting_for_event_(poll)\":string" },
	};
	char set[512], restore[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ltr_probe_site s;

		memset(&s, 0, sizeof(s));
		s.group = cases[i].group;
		s.symbol = cases[i].symbol;
		s.reason = cases[i].reason;
		s.maxtime_us = cases[i].maxtime_us;
		lt_probe_key_of(s.reason, s.key, sizeof(s.key));
		CHECK_MSG(ltr_probe_lines(&s, cases[i].maxactive, set, sizeof(set),
					  restore, sizeof(restore)) == 0, "lines of %s",
			  s.symbol);
		CHECK_MSG(!strcmp(set, cases[i].set), "set line\n  %s\nwant\n  %s", set,
			  cases[i].set);
		CHECK_MSG(!strcmp(restore, cases[i].restore), "restore line\n  %s\nwant\n  %s",
			  restore, cases[i].restore);
		CHECK_MSG(ltr_probe_lines(&s, 64, set, 20, restore, sizeof(restore)) < 0,
			  "a cut line was accepted");
	}
}

static void test_sizing_and_groups(void)
{
	static const struct {
		const char *group;
		unsigned int threads, want;
	} sizes[] = {
		{ "poll", 0, 128 }, { "poll", 300, 600 }, { "futex", 5000, 4096 },
		{ "pipe", 64, 128 }, { "fault", 1000, 2000 },
		{ "sync", 0, 64 }, { "sync", 300, 150 }, { "jbd2", 10000, 1024 },
	};
	static const struct {
		const char *group, *list;
		int want;
	} sel[] = {
		{ "sync", "default", 1 }, { "atime", "default", 0 },
		{ "atime", "all", 1 }, { "atime", "sync,atime", 1 },
		{ "pipe", "sync,atime", 0 }, { "sync", "sync", 1 },
		{ "sync", "nosuch", -1 }, { "sync", "sync,", 1 }, { "sync", "", -1 },
		{ "sync", "syn", -1 },
	};
	struct ltr_probe_site s;
	struct lt_error err;
	size_t i;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		s.group = sizes[i].group;
		CHECK_MSG(ltr_probe_maxactive(&s, sizes[i].threads) == sizes[i].want,
			  "maxactive of %s with %u tasks: %u, want %u", s.group,
			  sizes[i].threads, ltr_probe_maxactive(&s, sizes[i].threads),
			  sizes[i].want);
	}
	for (i = 0; i < sizeof(sel) / sizeof(sel[0]); i++) {
		int r = ltr_probes_selected(sel[i].group, sel[i].list, &err);

		CHECK_MSG(r == sel[i].want, "%s in \"%s\": %d, want %d", sel[i].group,
			  sel[i].list, r, sel[i].want);
		if (r < 0)
			CHECK_MSG(err.code == LT_E_USAGE && !strchr(err.msg, '\n'),
				  "error \"%s\"", err.msg);
	}
}

int main(void)
{
	test_keys();
	test_sites();
	test_lines();
	test_sizing_and_groups();
	return lt_test_done("record/probes");
}
