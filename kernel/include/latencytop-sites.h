/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * latencytop-sites.h - the one table of functions that stand for a latency
 * reason on a kernel without the annotation patches.
 *
 * Three programs read it, none copies it:
 *
 *   kernel/module/latencytop_probes.c  a kretprobe per site (the module)
 *   analyzer/record/                   kprobe + kretprobe events per site
 *                                      ("latency-record probes install"),
 *                                      and docs/probe-sites.md, written
 *                                      from it by lt-sites-doc
 *   analyzer/lib/decode/probe-key.c    the key of a probe event back to
 *                                      the reason text
 *
 * The reason strings are the annotation patches' (kernel/patches), which
 * tests/kernel/check-sources.py checks.
 *
 * LT_SITES(X) calls X(group, symbol, reason, kind) once per site, in table
 * order.  symbol is a string, or LT_SYSCALL("name") for a system call,
 * which the includer defines (the entry symbol is arch specific:
 * "__x64_sys_fsync" on x86-64).  kind is one of
 *
 *   PLAIN   the function's whole run is the reason
 *   USER    a user-requested wait (select, poll, futex, sleep): waits longer
 *           than LT_SITE_USER_MAX_US are not latencies
 *   INODE   the argument is the device of the function's first argument,
 *           a struct inode * (the module only: a probe event has none)
 *
 * LT_SITE_GROUPS(X) calls X(group, in_default, what) once per group:
 * "probes=" (module) and "--groups" (latency-record) select by these
 * names; "default" is every group with in_default 1.
 *
 * The header only defines macros, and stays valid C for the kernel and for
 * user space alike.
 */
#ifndef LATENCYTOP_SITES_H
#define LATENCYTOP_SITES_H

/* Waits longer than this are user requested (select, poll, futex, sleep). */
#define LT_SITE_USER_MAX_US	5000

#define LT_SITE_GROUPS(X)						\
	X("sync",	1, "sync(2), syncfs(2), fsync(2), fdatasync(2), sync_file_range(2)") \
	X("fault",	1, "page faults")					\
	X("page",	1, "waits for a page's lock, I/O or writeback")	\
	X("writeback",	1, "dirty-page throttling")				\
	X("buffer",	1, "buffer heads: lock, I/O, synchronous reads and syncs") \
	X("block",	1, "block layer: request tags, synchronous bios")	\
	X("pipe",	1, "pipe reads and writes")				\
	X("poll",	1, "select(2), poll(2), epoll_wait(2) (user requested)") \
	X("futex",	1, "futex(2) (user requested)")			\
	X("sleep",	1, "nanosleep(2) (user requested)")			\
	X("wait",	1, "wait4(2) and friends (user requested)")		\
	X("lock",	1, "mutex and rwsem slow paths")			\
	X("jbd2",	1, "ext4's journal (symbols of the jbd2 module)")	\
	X("process",	1, "fork and exec")					\
	X("inode",	1, "inode eviction and deletes")			\
	X("atime",	0, "atime updates (every read: opt in)")

#define LT_SITES(X)							\
	X("sync", LT_SYSCALL("sync"), "sync system call", PLAIN)	\
	X("sync", LT_SYSCALL("syncfs"), "syncfs system call", PLAIN)	\
	X("sync", LT_SYSCALL("fsync"), "fsync system call", PLAIN)	\
	X("sync", LT_SYSCALL("fdatasync"), "fdatasync system call", PLAIN) \
	X("sync", LT_SYSCALL("sync_file_range"), "Syncing a file range", PLAIN) \
									\
	X("fault", "handle_mm_fault", "page fault", PLAIN)		\
									\
	X("page", "__folio_lock", "locking page", PLAIN)		\
	X("page", "__folio_lock_killable", "locking page", PLAIN)	\
	X("page", "folio_wait_bit", "Waiting for page IO/lock", PLAIN)	\
	X("page", "folio_wait_bit_killable", "Waiting for page IO/lock", PLAIN) \
	X("page", "folio_wait_writeback", "Waiting for page writeback", PLAIN) \
	X("page", "folio_wait_writeback_killable", "Waiting for page writeback", PLAIN) \
	X("writeback", "balance_dirty_pages", "Writeback throttling (dirty pages)", PLAIN) \
									\
	X("buffer", "__lock_buffer", "Locking buffer head", PLAIN)	\
	X("buffer", "__wait_on_buffer", "Waiting for buffer IO", PLAIN)	\
	X("buffer", "__bread_slow", "Synchronous bufferhead read", PLAIN) \
	X("buffer", "__sync_dirty_buffer", "syncing dirty buffer", PLAIN) \
	X("buffer", "sync_mapping_buffers", "(O)sync the buffer list", PLAIN) \
									\
	X("block", "blk_mq_get_tag", "Waiting for a block layer request", PLAIN) \
	X("block", "submit_bio_wait", "Waiting for synchronous block IO", PLAIN) \
									\
	X("pipe", "pipe_read", "reading from a pipe", PLAIN)		\
	X("pipe", "pipe_write", "writing to a pipe", PLAIN)		\
									\
	X("poll", "do_select", "Waiting for event (select)", USER)	\
	X("poll", "do_sys_poll", "Waiting for event (poll)", USER)	\
	X("poll", "do_epoll_wait", "Waiting for event (epoll)", USER)	\
	X("futex", LT_SYSCALL("futex"), "Userspace lock contention (futex)", USER) \
	X("sleep", "hrtimer_nanosleep", "Sleeping (nanosleep)", USER)	\
	X("wait", "do_wait", "Waiting for a process to die", USER)	\
									\
	X("lock", "__mutex_lock_slowpath", "mutex lock", PLAIN)		\
	X("lock", "__mutex_lock_killable_slowpath", "mutex lock", PLAIN) \
	X("lock", "__mutex_lock_interruptible_slowpath", "mutex lock", PLAIN) \
	X("lock", "rwsem_down_read_slowpath", "rwsem read lock", PLAIN)	\
	X("lock", "rwsem_down_write_slowpath", "rwsem write lock", PLAIN) \
									\
	X("jbd2", "jbd2_journal_commit_transaction", "Journal commit (jbd2)", PLAIN) \
	X("jbd2", "jbd2_log_wait_commit", "Waiting for journal commit (jbd2)", PLAIN) \
	X("jbd2", "jbd2_log_do_checkpoint", "Journal checkpoint (jbd2)", PLAIN) \
	X("jbd2", "start_this_handle", "Starting journal transaction (jbd2)", PLAIN) \
	X("jbd2", "do_get_write_access", "Journal write access (jbd2)", PLAIN) \
									\
	X("process", "copy_process", "process fork", PLAIN)		\
	X("process", "bprm_execve", "process exec", PLAIN)		\
									\
	X("inode", "evict", "Evicting inode", INODE)			\
	X("inode", "__wait_on_freeing_inode", "Waiting for file delete to complete", INODE) \
	/* touch_atime() runs on every read: not in the default set. */	\
	X("atime", "touch_atime", "updating atime", PLAIN)

#endif /* LATENCYTOP_SITES_H */
