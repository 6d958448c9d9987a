/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-probe-key.h - latencytop events made from kprobes: their key back to
 * the reason text.
 *
 * "latency-record probes install" creates latencytop:latency_reason_set as
 * kprobe events and latency_reason_restore as kretprobe events, one probe
 * point per site of kernel/include/latencytop-sites.h.  A probe event's
 * string can only be an immediate without blanks, and it has no cookie:
 *
 *   p:latencytop/latency_reason_set __x64_sys_fsync
 *           reason=\"fsync_system_call":string maxtime_us=\0:u32
 *
 * So "reason" holds a key, the reason text with '_' for each blank, which
 * the site table maps back; and a set is paired with the innermost open
 * set of the same key on its task, the nesting order the kernel keeps.
 * The static events (patches, module) are never read this way: only an
 * event with a probe's own field (__probe_ip, __probe_func) and no cookie.
 */
#ifndef LT_PROBE_KEY_H
#define LT_PROBE_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lt-event.h"
#include "lt-trace.h"

/* Bit 63 and the key's hash: never a kernel's cookie of a static event. */
#define LT_PROBE_COOKIE_FLAG	(1ULL << 63)

/*
 * Whether @type, found as latencytop:latency_reason_set or _restore, was
 * made by a kprobe or kretprobe (a key in "reason", no cookie).
 */
bool lt_probe_event_keyed(const struct lt_event_type *type);

/*
 * Writes the key of @reason into @buf (NUL-terminated): its text with '_'
 * for each blank.  Returns the key's length, or 0 when it does not fit or
 * @reason holds a character a probe's immediate string cannot (':', '"',
 * '_', a control character) or is empty.
 */
size_t lt_probe_key_of(const char *reason, char *buf, size_t len);

/*
 * The reason text of the key @key (@len bytes, no NUL needed): the site
 * table's string, or NULL for a key that is no site's (then the key itself
 * is the best name there is).
 */
const char *lt_probe_key_reason(const char *key, size_t len);

/* The cookie that pairs the sets and restores of one key. */
uint64_t lt_probe_key_cookie(const char *key, size_t len);

/*
 * A decoded set or restore of a keyed event: its str becomes the reason
 * text and its cookie the key's.
 */
void lt_probe_key_decode(struct lt_ev *ev);

#endif /* LT_PROBE_KEY_H */
