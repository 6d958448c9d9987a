// SPDX-License-Identifier: GPL-2.0
/*
 * latencytop_probes - latency reason events for kernels without the
 * LatencyTOP annotation patches.
 *
 * A kretprobe on each function of a table emits latencytop:latency_reason_set
 * when the function is entered and latencytop:latency_reason_restore when it
 * returns, both in the context of the task that called it, with the reason
 * string the annotation patches use at the same site.  The cookie of a pair
 * is the address of its kretprobe instance, which is unique while the call
 * is in progress.
 *
 * Where the patches annotate part of a function (the slow path of a lock, a
 * wait loop), the probe covers the whole function, and a function that is
 * inlined or renamed in the running kernel cannot be probed: it is skipped
 * with a message, and the others are still registered.
 *
 * The "probes" parameter selects groups of probes by name ("sync,pipe"),
 * "default" or "all"; see lt_groups[] and the README.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

/* The event header is shared with the patches: kernel/include/trace/events. */
#define CREATE_TRACE_POINTS
#define TRACE_INCLUDE_PATH .
#include "latencytop.h"
#include "latencytop-sites.h"

/* Waits longer than this are user requested (select, poll, futex). */
#define LT_USER_MAX_US	LT_SITE_USER_MAX_US

#if defined(CONFIG_X86_64)
#define LT_SYSCALL(name)	"__x64_sys_" name
#elif defined(CONFIG_ARM64)
#define LT_SYSCALL(name)	"__arm64_sys_" name
#elif defined(CONFIG_RISCV)
#define LT_SYSCALL(name)	"__riscv_sys_" name
#elif defined(CONFIG_S390)
#define LT_SYSCALL(name)	"__s390x_sys_" name
#else
#define LT_SYSCALL(name)	"sys_" name
#endif

static char *probes = "default";
module_param(probes, charp, 0444);
MODULE_PARM_DESC(probes,
		 "comma separated probe groups, \"default\" or \"all\" (default: default)");

static int maxactive = 64;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive,
		 "tasks that can be inside one probed function at once (default: 64)");

/* Optional argument of a reason, read from the probed function's arguments. */
typedef const char *(*lt_argument_fn)(struct pt_regs *regs);

#ifdef CONFIG_HAVE_REGS_AND_STACK_ACCESS_API
/* evict(struct inode *) and friends: the device, as the patch passes it. */
static const char *lt_inode_sb_id(struct pt_regs *regs)
{
	struct inode *inode = (struct inode *)regs_get_kernel_argument(regs, 0);

	return inode && inode->i_sb ? inode->i_sb->s_id : "";
}
#else
#define lt_inode_sb_id NULL
#endif

struct lt_probe {
	const char *group;
	const char *symbol;
	const char *reason;
	u32 maxtime_us;
	lt_argument_fn argument;
	struct kretprobe krp;
	bool registered;
};

#define LT_PROBE_PLAIN(_group, _symbol, _reason)			\
	{ .group = _group, .symbol = _symbol, .reason = _reason },
#define LT_PROBE_USER(_group, _symbol, _reason)				\
	{ .group = _group, .symbol = _symbol, .reason = _reason,	\
	  .maxtime_us = LT_USER_MAX_US },
#define LT_PROBE_INODE(_group, _symbol, _reason)			\
	{ .group = _group, .symbol = _symbol, .reason = _reason,	\
	  .argument = lt_inode_sb_id },
#define LT_PROBE(_group, _symbol, _reason, _kind)			\
	LT_PROBE_##_kind(_group, _symbol, _reason)

/*
 * The sites and their reasons (the annotation patches' strings) come from
 * kernel/include/latencytop-sites.h, which latency-record's probe events
 * and the documentation are made from too.
 */
static struct lt_probe lt_probes[] = {
	LT_SITES(LT_PROBE)
};

/* Groups left out of "default". */
#define LT_OPT_IN(_group, _in_default, _what)	(_in_default) ? NULL : _group,
static const char *const lt_opt_in_groups[] = { LT_SITE_GROUPS(LT_OPT_IN) };

static bool lt_group_selected(const char *group, const char *list)
{
	size_t len = strlen(group);
	const char *p = list;
	int i;

	if (!strcmp(list, "all"))
		return true;
	while (*p) {
		const char *end = strchrnul(p, ',');

		if (end - p == 7 && !strncmp(p, "default", 7)) {
			bool opt_in = false;

			for (i = 0; i < ARRAY_SIZE(lt_opt_in_groups); i++)
				if (lt_opt_in_groups[i] &&
				    !strcmp(group, lt_opt_in_groups[i]))
					opt_in = true;
			if (!opt_in)
				return true;
		}
		if (end - p == len && !strncmp(p, group, len))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static struct lt_probe *lt_probe_of(struct kretprobe_instance *ri)
{
	return container_of(get_kretprobe(ri), struct lt_probe, krp);
}

static int lt_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct lt_probe *p = lt_probe_of(ri);
	const char *argument = p->argument ? p->argument(regs) : "";

	trace_latency_reason_set(p->reason, argument, p->maxtime_us,
				 (unsigned long)ri);
	return 0;
}
NOKPROBE_SYMBOL(lt_entry);

static int lt_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	trace_latency_reason_restore(lt_probe_of(ri)->reason,
				     (unsigned long)ri);
	return 0;
}
NOKPROBE_SYMBOL(lt_return);

static void lt_find_builtin_event(struct tracepoint *tp, void *found)
{
	if (!strcmp(tp->name, "latency_reason_set"))
		*(bool *)found = true;
}

static void lt_unregister(void)
{
	struct kretprobe **rps;
	int i, n = 0;

	rps = kcalloc(ARRAY_SIZE(lt_probes), sizeof(*rps), GFP_KERNEL);
	for (i = 0; i < ARRAY_SIZE(lt_probes); i++) {
		if (!lt_probes[i].registered)
			continue;
		if (rps)
			rps[n++] = &lt_probes[i].krp;
		else
			unregister_kretprobe(&lt_probes[i].krp);
	}
	/* One RCU grace period for all of them instead of one per probe. */
	if (rps)
		unregister_kretprobes(rps, n);
	kfree(rps);

	for (i = 0; i < ARRAY_SIZE(lt_probes); i++) {
		struct lt_probe *p = &lt_probes[i];

		if (!p->registered)
			continue;
		p->registered = false;
		if (p->krp.nmissed)
			pr_info("%s: %d calls missed (raise maxactive)\n",
				p->symbol, p->krp.nmissed);
	}
}

static int __init lt_init(void)
{
	bool builtin = false;
	int i, ret, nr = 0;

	/* A patched kernel has the events already; do not shadow them. */
	for_each_kernel_tracepoint(lt_find_builtin_event, &builtin);
	if (builtin) {
		pr_err("this kernel has the latencytop events built in\n");
		return -EEXIST;
	}

	for (i = 0; i < ARRAY_SIZE(lt_probes); i++) {
		struct lt_probe *p = &lt_probes[i];

		if (!lt_group_selected(p->group, probes))
			continue;
		p->krp.kp.symbol_name = p->symbol;
		p->krp.entry_handler = lt_entry;
		p->krp.handler = lt_return;
		p->krp.maxactive = maxactive;
		ret = register_kretprobe(&p->krp);
		if (ret) {
			pr_info("%s (%s): not probed (%d)\n",
				p->symbol, p->group, ret);
			memset(&p->krp, 0, sizeof(p->krp));
			continue;
		}
		p->registered = true;
		nr++;
	}
	if (!nr) {
		pr_err("no function could be probed for probes=%s\n", probes);
		return -ENOENT;
	}
	pr_info("%d functions probed (probes=%s)\n", nr, probes);
	return 0;
}

/*
 * Unregistering waits for a grace period, after which no handler of ours
 * runs any more.  A task still sleeping inside a probed function then
 * returns through the kretprobe trampoline without calling lt_return(), so
 * its latency_reason_set has no restore: stop recording before unloading.
 */
static void __exit lt_exit(void)
{
	lt_unregister();
}

module_init(lt_init);
module_exit(lt_exit);

MODULE_DESCRIPTION("LatencyTOP latency reason trace events from kretprobes");
MODULE_LICENSE("GPL");
