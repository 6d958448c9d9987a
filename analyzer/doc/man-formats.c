// SPDX-License-Identifier: GPL-2.0
/*
 * man-formats - latency-analyze(1)'s list of output formats, made from
 * the library's writers table, so that the man page cannot drift from
 * what --format takes.
 *
 * usage: man-formats                    print the section (roff)
 *        man-formats --check MAN_PAGE   exit 1 if the page's copy differs
 *        man-formats --update MAN_PAGE  rewrite the page's copy
 *
 * The copy in the page lies between the BEGIN and END marker comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latencytop.h"

#define BEGIN ".\\\" BEGIN formats: made by man-formats from the writers table\n"
#define END ".\\\" END formats\n"

/* Text as roff shows it literally: '-' as "\-", '\' as "\e". */
static void roff(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\\')
			fputs("\\e", out);
		else
			fputc(*s, out);
	}
}

static void section(FILE *out)
{
	const struct lt_writer *w;
	size_t i;
	int o;

	fputs(BEGIN, out);
	fputs(".TP\n.BR \\-f \", \" \\-\\-format =\\fIFMT\\fR\n", out);
	fputs("The output, one of:\n.RS\n", out);
	for (i = 0; (w = lt_writer_at(i)); i++) {
		if (w->input != LT_WRITE_REPORT)
			continue;
		fputs(".TP\n.B ", out);
		roff(out, w->name);
		fputc('\n', out);
		/* a sentence of its own: the help's phrase, capitalised */
		if (w->summary[0] >= 'a' && w->summary[0] <= 'z')
			fputc(w->summary[0] - 'a' + 'A', out);
		else if (w->summary[0])
			fputc(w->summary[0], out);
		if (w->summary[0])
			roff(out, w->summary + 1);
		fputs(".\n", out);
		for (o = 0; o < LT_WOPT_NR; o++) {
			if (!w->ignores[o])
				continue;
			roff(out, lt_writer_opt_name(o));
			fputs(" has no effect: ", out);
			roff(out, w->ignores[o]);
			fputs(".\n", out);
		}
	}
	fputs(".RE\n", out);
	fputs(END, out);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc((size_t)n + 1)) ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "man-formats: %s: cannot read\n", path);
		exit(2);
	}
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

int main(int argc, char **argv)
{
	char *page, *made = NULL, *b, *e;
	size_t len, mlen = 0;
	FILE *mem;

	if (argc == 1) {
		section(stdout);
		return 0;
	}
	if (argc != 3 || (strcmp(argv[1], "--check") && strcmp(argv[1], "--update"))) {
		fprintf(stderr, "usage: man-formats [--check|--update MAN_PAGE]\n");
		return 2;
	}
	page = slurp(argv[2], &len);
	b = strstr(page, BEGIN);
	e = b ? strstr(b, END) : NULL;
	if (!e) {
		fprintf(stderr, "man-formats: %s: no BEGIN/END formats markers\n",
			argv[2]);
		return 2;
	}
	e += strlen(END);
	mem = open_memstream(&made, &mlen);
	if (!mem)
		return 2;
	section(mem);
	fclose(mem);
	if (!strcmp(argv[1], "--check")) {
		if ((size_t)(e - b) == mlen && !memcmp(b, made, mlen))
			return 0;
		fprintf(stderr, "man-formats: %s: its list of formats differs from "
			"the writers table; run: cmake --build BUILD --target "
			"man-formats-update\n", argv[2]);
		return 1;
	}
	mem = fopen(argv[2], "wb");
	if (!mem || fwrite(page, 1, (size_t)(b - page), mem) != (size_t)(b - page) ||
	    fwrite(made, 1, mlen, mem) != mlen ||
	    fwrite(e, 1, len - (size_t)(e - page), mem) != len - (size_t)(e - page) ||
	    fclose(mem)) {
		fprintf(stderr, "man-formats: %s: cannot write\n", argv[2]);
		return 2;
	}
	return 0;
}
