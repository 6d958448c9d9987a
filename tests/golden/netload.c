// SPDX-License-Identifier: GPL-2.0
/*
 * lt-netload: socket waits for the stack-translation samples
 * (samples/local-stacks-net.dat, made by record-stacks.sh).
 *
 * All at once, each in its own named process:
 *   lt-tcpsrv    accepts on 127.0.0.1 (ephemeral port); one lt-tcpsrv child per
 *                connection: bulk connections are drained, the ping connection
 *                echoes every message
 *   lt-tcpbulk   BULK_CLIENTS clients, each sending BULK_MB MiB in 64 KiB writes
 *                (the load: full socket buffers, writers waiting for memory)
 *   lt-tcpping   PING_ROUNDS round trips of 64 bytes over TCP under that load
 *   lt-unixping / lt-unixpong
 *                UNIX_ROUNDS round trips of 1 byte over a UNIX stream socketpair
 *
 * Prints nothing unless -v.  usage: lt-netload [-v]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BULK_CLIENTS	4
#define BULK_MB		64
#define PING_ROUNDS	2000
#define UNIX_ROUNDS	5000
#define CHUNK		(64 * 1024)

static void die(const char *what)
{
	fprintf(stderr, "lt-netload: %s: %s\n", what, strerror(errno));
	_exit(1);
}

static void set_name(const char *name)
{
	if (prctl(PR_SET_NAME, name, 0, 0, 0) < 0)
		die("prctl(PR_SET_NAME)");
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		p += n;
		len -= (size_t)n;
	}
}

/* Reads exactly len bytes; returns 0 at EOF before the first byte. */
static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("read");
		if (n == 0) {
			if (got == 0)
				return 0;
			errno = EPIPE;
			die("read: short message");
		}
		got += (size_t)n;
	}
	return 1;
}

static void pingpong(int fd, int rounds, size_t size, int first)
{
	char buf[64] = { 0 };

	for (int i = 0; i < rounds; i++) {
		if (first) {
			write_all(fd, buf, size);
			if (!read_all(fd, buf, size))
				die("ping: early EOF");
		} else {
			if (!read_all(fd, buf, size))
				die("pong: early EOF");
			write_all(fd, buf, size);
		}
	}
}

static int tcp_connect(const struct sockaddr_in *addr)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		die("socket");
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0)
		die("connect");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* First byte of a connection: 'B' bulk (drain to EOF) or 'P' ping (echo). */
static void serve(int fd)
{
	static char buf[CHUNK];
	char kind;
	ssize_t n;

	if (!read_all(fd, &kind, 1))
		_exit(0);
	if (kind == 'P') {
		char msg[64];

		while (read_all(fd, msg, sizeof(msg)))
			write_all(fd, msg, sizeof(msg));
	} else {
		while ((n = read(fd, buf, sizeof(buf))) != 0) {
			if (n < 0 && errno != EINTR)
				die("read(bulk)");
		}
	}
	_exit(0);
}

static pid_t spawn(const char *name)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0)
		set_name(name);
	return pid;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	int lfd, sv[2], one = 1, status, failed = 0, verbose = argc > 1 && !strcmp(argv[1], "-v");
	pid_t server, kids[BULK_CLIENTS + 3];
	int nkids = 0;

	set_name("lt-netload");
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(lfd, 16) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0)
		die("bind/listen");

	server = spawn("lt-tcpsrv");
	if (server == 0) {
		signal(SIGCHLD, SIG_IGN);	/* connection children reap themselves */
		for (;;) {
			int cfd = accept(lfd, NULL, NULL);

			if (cfd < 0) {
				if (errno == EINTR)
					continue;
				die("accept");
			}
			if (fork() == 0) {
				close(lfd);
				serve(cfd);
			}
			close(cfd);
		}
	}
	close(lfd);

	for (int i = 0; i < BULK_CLIENTS; i++) {
		kids[nkids] = spawn("lt-tcpbulk");
		if (kids[nkids] == 0) {
			static char buf[CHUNK];
			int fd = tcp_connect(&addr);

			memset(buf, 'b', sizeof(buf));
			write_all(fd, "B", 1);
			for (int j = 0; j < BULK_MB * 1024 * 1024 / CHUNK; j++)
				write_all(fd, buf, sizeof(buf));
			close(fd);
			_exit(0);
		}
		nkids++;
	}

	kids[nkids] = spawn("lt-tcpping");
	if (kids[nkids] == 0) {
		int fd = tcp_connect(&addr);

		write_all(fd, "P", 1);
		pingpong(fd, PING_ROUNDS, 64, 1);
		close(fd);
		_exit(0);
	}
	nkids++;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		die("socketpair");
	kids[nkids] = spawn("lt-unixpong");
	if (kids[nkids] == 0) {
		close(sv[0]);
		pingpong(sv[1], UNIX_ROUNDS, 1, 0);
		_exit(0);
	}
	nkids++;
	kids[nkids] = spawn("lt-unixping");
	if (kids[nkids] == 0) {
		close(sv[1]);
		pingpong(sv[0], UNIX_ROUNDS, 1, 1);
		_exit(0);
	}
	nkids++;
	close(sv[0]);
	close(sv[1]);

	for (int i = 0; i < nkids; i++) {
		if (waitpid(kids[i], &status, 0) < 0)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
		if (verbose)
			printf("child %d status 0x%x\n", (int)kids[i], status);
	}
	kill(server, SIGTERM);
	waitpid(server, &status, 0);
	return failed;
}
