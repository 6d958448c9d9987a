/*
 * scenarios.c -- small programs that block in one known way each, to record
 * the kernel stacks the translation table (plugins/latencytop.trans) was
 * checked against.  Not part of the build; see README.md:
 *
 *   cc -O1 -o /tmp/scen tests/trans/scenarios.c -luring -lpthread -lutil
 *   tests/trans/record.sh /tmp/pipe.dat /tmp/scen pipe
 *
 * Modes: pipe pipew unix unixdg unixsend tcp tcpsend tcpaccept udp poll ppoll
 * select pselect epoll epollp condwait mutex futexpi futexwaitv nanosleep
 * pause wait4 vfork membarrier tty uring flock;  fsync|fdatasync|sync|syncfs|
 * sfr DIR;  mmapread FILE;  read FILE;  dio FILE|BLOCKDEV [THREADS];
 * inodelock FILE;  mmaplock;  spin SECONDS;  alloc MB.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sched.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/select.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pty.h>
#include <liburing.h>

static void msleep(int ms) { struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L }; nanosleep(&ts, NULL); }
static void die(const char *s) { perror(s); exit(1); }

/* run fn in child after delay: the parent blocks, child wakes it */
static int sockpair_srv(int type, int *fds) { return socketpair(AF_UNIX, type, 0, fds); }

static void tcp_pair(int type, int *a, int *b)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t l = sizeof sa;
	int s = socket(AF_INET, type, 0);
	if (bind(s, (void *)&sa, sizeof sa)) die("bind");
	getsockname(s, (void *)&sa, &l);
	if (type == SOCK_STREAM) {
		listen(s, 1);
		*b = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(*b, (void *)&sa, sizeof sa)) die("connect");
		*a = accept(s, NULL, NULL);
		close(s);
	} else {
		*a = s;
		*b = socket(AF_INET, SOCK_DGRAM, 0);
		connect(*b, (void *)&sa, sizeof sa);
	}
}

static int fds[2];
static void *writer_later(void *p) { msleep(30); if (write(fds[1], "x", 1) < 0) perror("w"); return NULL; }
static void later_write(void) { pthread_t t; pthread_create(&t, NULL, writer_later, NULL); pthread_detach(t); }

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static void *mutex_hog(void *p) { for (int i = 0; i < 200; i++) { pthread_mutex_lock(&mtx); usleep(200); pthread_mutex_unlock(&mtx); } return NULL; }
static char *mmregion; static size_t mmlen;
static void *mm_churn(void *p) { for (int i = 0; i < 20000; i++) { void *x = mmap(NULL, 1 << 20, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0); ((char*)x)[0] = 1; munmap(x, 1 << 20); } return NULL; }
static void *mm_fault(void *p) { long s = 0; for (size_t o = (size_t)p * 4096; o < mmlen; o += 4096 * 8) s += mmregion[o]; return (void *)s; }
static int gfd; static char *gpath;
static void *file_writer(void *p) { char buf[65536]; memset(buf, 'a', sizeof buf); for (int i = 0; i < 2000; i++) if (pwrite(gfd, buf, sizeof buf, ((long)p * 2000 + i) * 65536L % (256L<<20)) < 0) perror("pw"); return NULL; }
static void *dio_reader(void *p) { void *buf = NULL; if (posix_memalign(&buf, 4096, 65536)) return NULL; int fd = open(gpath, O_RDONLY|O_DIRECT); for (int i = 0; i < 300; i++) if (pread(fd, buf, 65536, (random() % 4000) * 65536L) < 0) { perror("pr"); break; } return NULL; }

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	char c, buf[4096];
	if (!strcmp(m, "pipe")) {               /* read on empty pipe */
		pipe(fds); later_write(); read(fds[0], &c, 1);
	} else if (!strcmp(m, "pipew")) {       /* write to full pipe */
		pipe(fds); fcntl(fds[1], F_SETPIPE_SZ, 4096);
		if (fork() == 0) { close(fds[1]); msleep(30); while (read(fds[0], buf, sizeof buf) > 0); exit(0); }
		for (int i = 0; i < 64; i++) write(fds[1], buf, sizeof buf);
		close(fds[1]); wait(NULL);
	} else if (!strcmp(m, "unix")) {
		sockpair_srv(SOCK_STREAM, fds); later_write(); read(fds[0], &c, 1);
	} else if (!strcmp(m, "unixdg")) {
		sockpair_srv(SOCK_DGRAM, fds); later_write(); recv(fds[0], &c, 1, 0);
	} else if (!strcmp(m, "unixsend")) {    /* unix stream send with full buffer */
		sockpair_srv(SOCK_STREAM, fds); int sz = 4096; setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
		if (fork() == 0) { close(fds[1]); msleep(30); while (read(fds[0], buf, sizeof buf) > 0); exit(0); }
		for (int i = 0; i < 256; i++) write(fds[1], buf, sizeof buf);
		close(fds[1]); wait(NULL);
	} else if (!strcmp(m, "tcp")) {
		int a, b; tcp_pair(SOCK_STREAM, &a, &b); fds[1] = b; later_write(); read(a, &c, 1);
	} else if (!strcmp(m, "tcpsend")) {
		int a, b, sz = 4096; tcp_pair(SOCK_STREAM, &a, &b);
		setsockopt(b, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz); setsockopt(a, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
		if (fork() == 0) { close(b); msleep(30); for (;;) { if (read(a, buf, sizeof buf) <= 0) break; usleep(100); } exit(0); }
		close(a); for (int i = 0; i < 32; i++) write(b, buf, sizeof buf);
		close(b); wait(NULL);
	} else if (!strcmp(m, "tcpaccept")) {
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) }; socklen_t l = sizeof sa;
		int s = socket(AF_INET, SOCK_STREAM, 0); bind(s, (void *)&sa, sizeof sa); getsockname(s, (void *)&sa, &l); listen(s, 1);
		if (fork() == 0) { msleep(30); int x = socket(AF_INET, SOCK_STREAM, 0); connect(x, (void *)&sa, sizeof sa); exit(0); }
		accept(s, NULL, NULL); wait(NULL);
	} else if (!strcmp(m, "udp")) {
		int a, b; tcp_pair(SOCK_DGRAM, &a, &b); fds[1] = b; later_write(); recv(a, &c, 1, 0);
	} else if (!strcmp(m, "poll")) {
		pipe(fds); later_write(); struct pollfd p = { fds[0], POLLIN }; poll(&p, 1, 1000);
	} else if (!strcmp(m, "ppoll")) {
		pipe(fds); later_write(); struct pollfd p = { fds[0], POLLIN }; struct timespec ts = { 1, 0 }; ppoll(&p, 1, &ts, NULL);
	} else if (!strcmp(m, "select")) {
		pipe(fds); later_write(); fd_set r; FD_ZERO(&r); FD_SET(fds[0], &r); struct timeval tv = { 1, 0 }; select(fds[0] + 1, &r, NULL, NULL, &tv);
	} else if (!strcmp(m, "pselect")) {
		pipe(fds); later_write(); fd_set r; FD_ZERO(&r); FD_SET(fds[0], &r); struct timespec ts = { 1, 0 }; pselect(fds[0] + 1, &r, NULL, NULL, &ts, NULL);
	} else if (!strcmp(m, "epoll")) {
		pipe(fds); int e = epoll_create1(0); struct epoll_event ev = { .events = EPOLLIN }; epoll_ctl(e, EPOLL_CTL_ADD, fds[0], &ev);
		later_write(); epoll_wait(e, &ev, 1, 1000);
	} else if (!strcmp(m, "epollp")) {
		pipe(fds); int e = epoll_create1(0); struct epoll_event ev = { .events = EPOLLIN }; epoll_ctl(e, EPOLL_CTL_ADD, fds[0], &ev);
		later_write(); epoll_pwait(e, &ev, 1, 1000, NULL);
	} else if (!strcmp(m, "condwait")) {
		pthread_mutex_lock(&mtx); struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); ts.tv_nsec += 30000000; if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
		pthread_cond_timedwait(&cv, &mtx, &ts); pthread_mutex_unlock(&mtx);
		
	} else if (!strcmp(m, "mutex")) {
		pthread_t t[4]; for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, mutex_hog, NULL); for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
	} else if (!strcmp(m, "futexpi")) {
		pthread_mutexattr_t a; pthread_mutexattr_init(&a); pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT); pthread_mutex_init(&mtx, &a);
		pthread_t t[4]; for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, mutex_hog, NULL); for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
	} else if (!strcmp(m, "futexwaitv")) {
		uint32_t f = 0; struct futex_waitv w = { .val = 0, .uaddr = (uintptr_t)&f, .flags = 0x02 | 128 };
		struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); ts.tv_nsec += 30000000; if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
		syscall(SYS_futex_waitv, &w, 1, 0, &ts, CLOCK_MONOTONIC);
	} else if (!strcmp(m, "nanosleep")) {
		struct timespec ts = { 0, 20000000 }; nanosleep(&ts, NULL); syscall(SYS_nanosleep, &ts, NULL);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	} else if (!strcmp(m, "pause")) {
		signal(SIGALRM, (void *)msleep); ualarm(30000, 0); pause();
		sigset_t s; sigemptyset(&s); ualarm(30000, 0); sigsuspend(&s);
		siginfo_t si; sigaddset(&s, SIGUSR1); struct timespec ts = { 0, 30000000 }; sigtimedwait(&s, &si, &ts);
	} else if (!strcmp(m, "wait4")) {
		if (fork() == 0) { msleep(30); exit(0); } wait4(-1, NULL, 0, NULL);
		if (fork() == 0) { msleep(30); exit(0); } siginfo_t si; waitid(P_ALL, 0, &si, WEXITED);
	} else if (!strcmp(m, "vfork")) {
		if (vfork() == 0) { execl("/bin/true", "true", NULL); _exit(1); } wait(NULL);
	} else if (!strcmp(m, "fsync") || !strcmp(m, "fdatasync") || !strcmp(m, "sync") || !strcmp(m, "syncfs") || !strcmp(m, "sfr")) {
		char p[512]; snprintf(p, sizeof p, "%s/lt-fsync.tmp", argc > 2 ? argv[2] : "/tmp");
		int fd = open(p, O_CREAT|O_RDWR|O_TRUNC, 0644); memset(buf, 'a', sizeof buf);
		for (int r = 0; r < 20; r++) {
			for (int i = 0; i < 256; i++)
				write(fd, buf, sizeof buf);
			if (!strcmp(m, "fsync")) fsync(fd); else if (!strcmp(m, "fdatasync")) fdatasync(fd);
			else if (!strcmp(m, "syncfs")) syncfs(fd); else if (!strcmp(m, "sfr")) sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER); else sync();
		}
		close(fd); unlink(p);
	} else if (!strcmp(m, "mmapread")) {      /* page faults on a cold file */
		int fd = open(argv[2], O_RDONLY); struct stat st; fstat(fd, &st); mmlen = st.st_size;
		mmregion = mmap(NULL, mmlen, PROT_READ, MAP_SHARED, fd, 0); madvise(mmregion, mmlen, MADV_RANDOM);
		pthread_t t[4]; for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, mm_fault, (void *)i); for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
	} else if (!strcmp(m, "read")) {          /* buffered read of a cold file */
		int fd = open(argv[2], O_RDONLY); while (read(fd, buf, sizeof buf) > 0);
	} else if (!strcmp(m, "mmaplock")) {
		mmlen = 64 << 20; mmregion = mmap(NULL, mmlen, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
		pthread_t t[6]; for (long i = 0; i < 3; i++) pthread_create(&t[i], NULL, mm_churn, NULL);
		for (long i = 3; i < 6; i++) pthread_create(&t[i], NULL, mm_fault, (void *)i);
		for (int i = 0; i < 6; i++) pthread_join(t[i], NULL);
	} else if (!strcmp(m, "inodelock")) {     /* many writers on one file: i_rwsem */
		gfd = open(argv[2], O_CREAT|O_RDWR, 0644);
		pthread_t t[6];
		for (long i = 0; i < 6; i++) pthread_create(&t[i], NULL, file_writer, (void *)i);
		for (int i = 0; i < 6; i++) pthread_join(t[i], NULL);
	} else if (!strcmp(m, "dio")) {           /* O_DIRECT readers: block I/O, tag waits */
		gpath = argv[2]; int n = argc > 3 ? atoi(argv[3]) : 16; pthread_t t[64];
		if (n > 64) n = 64;
		for (long i = 0; i < n; i++) pthread_create(&t[i], NULL, dio_reader, (void *)i);
		for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
	} else if (!strcmp(m, "membarrier")) {
		for (int i = 0; i < 5; i++) syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	} else if (!strcmp(m, "tty")) {
		int mfd; pid_t pid = forkpty(&mfd, NULL, NULL, NULL);
		if (pid == 0) { read(0, buf, 1); tcdrain(1); exit(0); }
		msleep(30); write(mfd, "x\n", 2); wait(NULL);
	} else if (!strcmp(m, "uring")) {
		struct io_uring r; io_uring_queue_init(8, &r, 0); pipe(fds);
		struct io_uring_sqe *s = io_uring_get_sqe(&r); io_uring_prep_read(s, fds[0], buf, 1, 0); io_uring_submit(&r);
		later_write(); struct io_uring_cqe *cqe; io_uring_wait_cqe(&r, &cqe); io_uring_cqe_seen(&r, cqe);
		struct __kernel_timespec ts = { 0, 30000000 }; io_uring_wait_cqe_timeout(&r, &cqe, &ts);
	} else if (!strcmp(m, "flock")) {
		int fd = open("/tmp/lt-flock", O_CREAT|O_RDWR, 0644); flock(fd, LOCK_EX);
		if (fork() == 0) { int f2 = open("/tmp/lt-flock", O_RDWR); flock(f2, LOCK_EX); struct flock fl = { .l_type = F_WRLCK }; fcntl(f2, F_SETLKW, &fl); exit(0); }
		msleep(30); flock(fd, LOCK_UN); struct flock fl = { .l_type = F_WRLCK }; fcntl(fd, F_SETLKW, &fl); msleep(30); fl.l_type = F_UNLCK; fcntl(fd, F_SETLK, &fl); wait(NULL);
	} else if (!strcmp(m, "spin")) {
		time_t e = time(NULL) + atoi(argv[2]); volatile long x = 0; while (time(NULL) < e) x++;
	} else if (!strcmp(m, "alloc")) {         /* touch N MB of anon memory, twice */
		size_t n = (size_t)atoi(argv[2]) << 20; char *p = mmap(NULL, n, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
		for (int r = 0; r < 2; r++) for (size_t o = 0; o < n; o += 4096) p[o] = r + 1;
	} else {
		fprintf(stderr, "unknown mode\n"); return 2;
	}
	return 0;
}
