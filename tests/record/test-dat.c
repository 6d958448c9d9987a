// SPDX-License-Identifier: GPL-2.0
/*
 * test-dat.c - latency-record's trace.dat writer read back by libtracecmd
 * and by latency-analyze's library, with no kernel.
 *
 * The input is what tracefs prints on a 6.18 kernel (header_page,
 * header_event, sched_wakeup's format) and ring-buffer pages built here
 * by hand, with events whose times and pids are known: CPU 0 one page,
 * CPU 1 two pages, CPU 2 none.  libtracecmd (trace-cmd's own reader, not
 * ours) must give back every event with its time, CPU and pid, the saved
 * cmdlines, the clock and the CPU stats; the analyzer must count them.
 * A write to a full device (/dev/full) must fail with one line naming it.
 *
 * usage: test-record-dat [DIR]   (writes DIR/test-dat.dat; default: $TMPDIR or /tmp)
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd/trace-cmd.h>

#include "latencytop.h"
#include "lt-test.h"
#include "ltr-dat.h"

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";

static const char wakeup_format[] =
	"name: sched_wakeup\n"
	"ID: 374\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu\n";

#define PAGE 4096
#define WAKEUP_LEN 36		/* the record: common fields + comm, pid, prio, cpu */

/* The events each CPU gets: ns since 1 s, and the woken pid. */
struct ev {
	int cpu, page;
	uint64_t ts;
	int pid;
};

static const struct ev events[] = {
	{ 0, 0, 1000000000, 101 },
	{ 0, 0, 1000000500, 102 },
	{ 0, 0, 1000002000, 103 },
	{ 1, 0, 1000000100, 201 },
	{ 1, 0, 1000001100, 202 },
	{ 1, 1, 1000005000, 203 },
};
#define NR_EVENTS (sizeof(events) / sizeof(events[0]))

/* Pages of @cpu, as the ring buffer hands them out, into @fd. */
static void write_pages(int fd, int cpu)
{
	unsigned char page[PAGE];
	int p;

	for (p = 0; p < 2; p++) {
		uint64_t commit = 0, last = 0;
		size_t i, off = 16;
		bool any = false;

		memset(page, 0, sizeof(page));
		for (i = 0; i < NR_EVENTS; i++) {
			const struct ev *e = &events[i];
			unsigned char rec[WAKEUP_LEN];
			uint16_t type = 374;
			uint32_t hdr;
			int32_t v;

			if (e->cpu != cpu || e->page != p)
				continue;
			if (!any) {
				memcpy(page, &e->ts, 8);	/* the page's time */
				last = e->ts;
				any = true;
			}
			/* type_len 9 (36 bytes), and the delta from the last event */
			hdr = (WAKEUP_LEN / 4) | (uint32_t)((e->ts - last) << 5);
			last = e->ts;
			memset(rec, 0, sizeof(rec));
			memcpy(rec, &type, 2);
			v = 1;				/* common_pid: the waker */
			memcpy(rec + 4, &v, 4);
			snprintf((char *)rec + 8, 16, "task-%d", e->pid);
			v = e->pid;
			memcpy(rec + 24, &v, 4);
			v = 120;
			memcpy(rec + 28, &v, 4);
			v = cpu;
			memcpy(rec + 32, &v, 4);
			memcpy(page + off, &hdr, 4);
			memcpy(page + off + 4, rec, WAKEUP_LEN);
			off += 4 + WAKEUP_LEN;
		}
		if (!any)
			continue;
		commit = off - 16;
		memcpy(page + 8, &commit, 8);
		if (write(fd, page, PAGE) != PAGE) {
			perror("write");
			exit(2);
		}
	}
}

static void fill_input(struct ltr_dat_input *in, struct ltr_dat_format *fmt,
		       const char *const *stats, const int *fds)
{
	memset(in, 0, sizeof(*in));
	in->page_size = PAGE;
	in->long_size = 8;
	in->header_page = header_page;
	in->header_page_len = strlen(header_page);
	in->header_event = header_event;
	in->header_event_len = strlen(header_event);
	fmt->system = "sched";
	fmt->text = wakeup_format;
	fmt->len = strlen(wakeup_format);
	in->formats = fmt;
	in->nr_formats = 1;
	in->kallsyms = "ffffffff81000000 T _stext\n";
	in->kallsyms_len = strlen(in->kallsyms);
	in->printk = "";
	in->cmdlines = "101 task-101\n201 task-201\n";
	in->cmdlines_len = strlen(in->cmdlines);
	in->uname = "Linux test 6.18.0 #1 SMP x86_64";
	in->version = "latency-record test";
	in->clock = "local";
	in->cpus = 3;
	in->cpustats = stats;
	in->cpu_fds = fds;
}

static void read_back(const char *path)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	struct tep_handle *tep;
	struct tep_record *rec;
	struct tep_event *ev;
	struct tep_format_field *pid_field;
	size_t seen = 0, i;
	int cpu;

	CHECK_MSG(h != NULL, "libtracecmd cannot open %s", path);
	if (!h)
		return;
	tep = tracecmd_get_tep(h);
	ev = tep_find_event_by_name(tep, "sched", "sched_wakeup");
	CHECK_MSG(ev != NULL, "no sched_wakeup format in the file");
	if (!ev) {
		tracecmd_close(h);
		return;
	}
	pid_field = tep_find_field(ev, "pid");
	CHECK_MSG(tep_get_cpus(tep) == 3, "%d CPUs, want 3", tep_get_cpus(tep));
	CHECK_MSG(!strcmp(tep_data_comm_from_pid(tep, 201), "task-201"),
		  "saved cmdline of 201: %s", tep_data_comm_from_pid(tep, 201));
	for (cpu = 0; cpu < 3; cpu++) {
		while ((rec = tracecmd_read_data(h, cpu)) != NULL) {
			unsigned long long pid = 0;

			tep_read_number_field(pid_field, rec->data, &pid);
			for (i = 0; i < NR_EVENTS; i++)
				if (events[i].pid == (int)pid)
					break;
			CHECK_MSG(i < NR_EVENTS, "an event of pid %llu nobody wrote", pid);
			if (i < NR_EVENTS) {
				CHECK_MSG(events[i].cpu == cpu && rec->cpu == cpu,
					  "pid %llu on CPU %d, want %d", pid, cpu,
					  events[i].cpu);
				CHECK_MSG(rec->ts == events[i].ts,
					  "pid %llu at %llu, want %" PRIu64, pid,
					  rec->ts, events[i].ts);
			}
			seen++;
			tracecmd_free_record(rec);
		}
	}
	CHECK_MSG(seen == NR_EVENTS, "libtracecmd read %zu events, want %zu", seen,
		  NR_EVENTS);
	tracecmd_close(h);
}

static void analyze_back(const char *path)
{
	struct lt_options opts;
	struct lt_report *rep;
	struct lt_error err;

	lt_options_init(&opts);
	if (lt_analyze(path, &opts, &rep, &err) < 0) {
		/* no sched_switch in this trace: the analyzer says so, after reading it */
		CHECK_MSG(err.code == LT_E_NO_EVENTS, "latency-analyze: %s", err.msg);
		return;
	}
	CHECK_MSG(rep->events == NR_EVENTS, "latency-analyze read %" PRIu64 " events",
		  rep->events);
	CHECK_MSG(rep->cpus == 3, "latency-analyze: %d CPUs", rep->cpus);
	CHECK_MSG(rep->file_version == 6, "version %d", rep->file_version);
	CHECK_MSG(rep->clock && !strcmp(rep->clock, "local"), "clock %s",
		  rep->clock ? rep->clock : "(none)");
	lt_report_free(rep);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	static const char *const stats[3] = {
		"CPU: 0\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
		"oldest event ts: 1.000000\nnow ts: 2.000000\ndropped events: 0\nread events: 3\n",
		"CPU: 1\nentries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
		"oldest event ts: 1.000000\nnow ts: 2.000000\ndropped events: 0\nread events: 3\n",
		NULL,
	};
	struct ltr_dat_format fmt;
	struct ltr_dat_input in;
	struct lt_error err;
	char path[4096], cpu_path[4096];
	int fds[3], out, cpu;

	for (cpu = 0; cpu < 3; cpu++) {
		snprintf(cpu_path, sizeof(cpu_path), "%s/test-dat.cpu%d", dir, cpu);
		fds[cpu] = open(cpu_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fds[cpu] < 0) {
			fprintf(stderr, "test-dat: %s: %s\n", cpu_path, strerror(errno));
			return 2;
		}
		unlink(cpu_path);
		write_pages(fds[cpu], cpu);
	}
	fill_input(&in, &fmt, stats, fds);

	snprintf(path, sizeof(path), "%s/test-dat.dat", dir);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		fprintf(stderr, "test-dat: %s: %s\n", path, strerror(errno));
		return 2;
	}
	CHECK_MSG(ltr_dat_write(out, path, &in, &err) == 0, "%s", err.msg);
	close(out);
	read_back(path);
	analyze_back(path);

	/* a full disk: one line naming the file, LT_E_OUTPUT */
	out = open("/dev/full", O_WRONLY);
	if (out >= 0) {
		int r = ltr_dat_write(out, "/dev/full", &in, &err);

		CHECK_MSG(r < 0 && err.code == LT_E_OUTPUT && strstr(err.msg, "/dev/full") &&
			  strstr(err.msg, "No space left") && !strchr(err.msg, '\n'),
			  "writing to /dev/full: %d, \"%s\"", r, r ? err.msg : "");
		close(out);
	}
	/* inconsistent input: refused, not written */
	in.page_size = 3000;
	CHECK_MSG(ltr_dat_write(1, "stdout", &in, &err) < 0 && err.code == LT_E_USAGE,
		  "a page size of 3000 was accepted");

	if (!lt_test_failures)
		printf("test-dat: %s written and read back: %zu events, 3 CPUs\n", path,
		       NR_EVENTS);
	return lt_test_done("record/dat");
}
