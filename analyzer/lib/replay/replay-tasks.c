// SPDX-License-Identifier: LGPL-2.1
/*
 * replay-tasks.c - the replay's tasks: pid to task (with pid reuse),
 * names, and which of them are kernel threads.
 */
#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

/* ---- tasks ---------------------------------------------------------- */

/* lt_rp_set_comm() of a name that is new, or not given whole. */
void lt_rp_set_comm_slow(struct lt_task *t, const char *s, size_t len)
{
	size_t n = len < LT_COMM_LEN - 1 ? len : LT_COMM_LEN - 1;
	const char *nul;

	if (!s || !n)
		return;
	nul = memchr(s, '\0', n);
	if (nul)
		n = nul - s;
	if (!n)
		return;
	memcpy(t->comm, s, n);
	memset(t->comm + n, 0, LT_COMM_LEN - n);
}

uint32_t lt_rp_task_new(struct lt_replay *rp, int pid, uint32_t flags)
{
	struct lt_task *t;

	if (GROW(rp, rp->tasks, rp->nr_tasks, rp->cap_tasks, MAX_TASKS,
		 "tasks") < 0)
		return LT_NO_TASK;
	/* a reused pid now names the new task */
	if (lt_pidtab_set(&rp->pids, pid, rp->nr_tasks) < 0)
		return lt_rp_oom(rp, "tasks"), LT_NO_TASK;
	t = &rp->tasks[rp->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->leader = rp->nr_tasks;
	t->parent = LT_NO_TASK;
	t->flags = flags;
	t->last_cpu = -1;
	t->chain_run_cpu = -1;
	t->first_row = UINT32_MAX;
	t->row_cache[0].row = t->row_cache[1].row = UINT32_MAX;
	/* pid 2 is kthreadd on every Linux: the parent of all kernel threads */
	if (pid == 2)
		t->flags |= LT_TASK_KTHREAD;
	return rp->nr_tasks++;
}

/*
 * The task a pid names now; tasks first seen mid-life start uncertain,
 * unless the running system can say whose thread they are.
 */
uint32_t lt_rp_task_get(struct lt_replay *rp, int pid)
{
	uint32_t ti = lt_pidtab_get(&rp->pids, pid), li;
	bool kthread = false;
	int tgid = 0;

	if (ti != LT_PIDTAB_NONE)
		return ti;
	ti = lt_rp_task_new(rp, pid, LT_TASK_UNCERTAIN);
	if (ti == LT_NO_TASK || !rp->opts.task_info || pid <= 0)
		return ti;
	rp->opts.task_info(rp->opts.task_info_ctx, pid, &tgid, &kthread);
	if (kthread)
		rp->tasks[ti].flags |= LT_TASK_KTHREAD;
	if (tgid > 0 && tgid != pid) {
		/* the leader is asked of its own (it leads itself) */
		li = lt_rp_task_get(rp, tgid);
		if (li != LT_NO_TASK)
			rp->tasks[ti].leader = rp->tasks[li].leader;
	}
	return ti;
}

const char *lt_replay_task_cgroup(const struct lt_replay *rp, uint32_t task)
{
	uint32_t id = rp->tasks[task].cgroup;

	return id ? lt_strtab_get(&rp->strs, id) : NULL;
}

const char *lt_replay_task_comm(const struct lt_replay *rp, uint32_t task)
{
	const struct lt_task *t = &rp->tasks[task];
	const char *name = NULL;

	if (t->comm[0])
		return t->comm;
	/* never named by an event: fall back to the saved cmdlines */
	if (rp->opts.cmdline && t->pid > 0)
		name = rp->opts.cmdline(rp->opts.cmdline_ctx, t->pid);
	return name && name[0] ? name : "<...>";
}

/*
 * Names the kernel gives its own threads.  Only a fallback: fork events
 * from kthreadd and kthread() in a stack are certain; many traces have
 * neither.
 */
static bool kthread_comm(const char *comm)
{
	static const char *const prefixes[] = {
		"kworker/", "ksoftirqd/", "migration/", "rcu_", "rcuc/",
		"rcub/", "rcuog/", "rcuop/", "rcuos/", "cpuhp/", "watchdog/",
		"idle_inject/", "irq/", "jbd2/", "scsi_eh_", "scsi_tmf_",
		"nvme-", "xfsaild/", "xfs-", "btrfs-", "kswapd", "kcompactd",
		"napi/", "kthrotld", "pr/", "psimon", "kdmflush",
		"dmcrypt_write", "ext4-rsv-conver", "kpktgend_", "mmcqd/",
		"brcmf_wdog/", "kdamond.", "card0-", "card1-", "card2-",
		"card3-",
	};
	static const char *const names[] = {
		"kthreadd", "khugepaged", "oom_reaper", "kblockd",
		"kintegrityd", "writeback", "kdevtmpfs", "kauditd", "ksmd",
		"khungtaskd", "md", "zswap-shrink", "kstrp", "ipv6_addrconf",
		"mm_percpu_wq", "netns", "inet_frag_wq", "khvcd", "hwrng",
		"kaluad", "blkcg_punt_bio", "tpm_dev_wq", "ata_sff",
		"edac-poller", "devfreq_wq", "watchdogd", "kmpath_rdacd",
		"kmpathd", "ttm_swap", "cfg80211", "pool_workqueue_release",
		"kvfree_rcu_reclaim", "kcryptd", "kthrotld", "charger_manager",
		"spi0", "mmc_complete", "vmstat", "bioset", "crypto",
		"ext4lazyinit", "ksgxd", "kpsmoused",
		"irq_work", "rcu_tasks_kthre", "nfsd", "lockd",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(comm, prefixes[i], strlen(prefixes[i])))
			return true;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(comm, names[i]))
			return true;
	return false;
}

bool lt_replay_task_is_kthread(const struct lt_replay *rp, uint32_t task)
{
	const struct lt_task *t = &rp->tasks[task];
	unsigned int hops;

	if (kthread_comm(t->comm))
		return true;

	/* a descendant of kthreadd is a kernel thread */
	for (hops = 0; hops < 64; hops++) {
		if (t->flags & LT_TASK_KTHREAD)
			return true;
		if (t->parent == LT_NO_TASK)
			return false;
		t = &rp->tasks[t->parent];
	}
	return false;
}
