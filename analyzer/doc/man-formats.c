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
 * The copies in the page lie between BEGIN and END marker comments: the
 * report's formats under OPTIONS, the diff's under the diff subcommand.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latencytop.h"

/* One list per input of the writers: its markers. */
static const struct {
	unsigned int inputs;	/* a bit per enum lt_writer_input */
	const char *begin, *end;
} lists[] = {
	{ 1u << LT_WRITE_REPORT | 1u << LT_WRITE_WAITS,
	  ".\\\" BEGIN formats: made by man-formats from the writers table\n",
	  ".\\\" END formats\n" },
	{ 1u << LT_WRITE_DIFF,
	  ".\\\" BEGIN diff formats: made by man-formats from the writers table\n",
	  ".\\\" END diff formats\n" },
};

#define NR_LISTS (sizeof(lists) / sizeof(lists[0]))

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

static void section(FILE *out, size_t l)
{
	const struct lt_writer *w;
	size_t i;
	int o;

	fputs(lists[l].begin, out);
	fputs(".TP\n.BR \\-f \", \" \\-\\-format =\\fIFMT\\fR\n", out);
	fputs("The output, one of:\n.RS\n", out);
	for (i = 0; (w = lt_writer_at(i)); i++) {
		if (!(lists[l].inputs & (1u << w->input)))
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
	fputs(lists[l].end, out);
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

/* @page with list @l made again: 0, or -1 when its markers are missing. */
static int remake(const char *path, char **page, size_t *len, size_t l,
		  bool *same)
{
	char *made = NULL, *b, *e, *np;
	size_t mlen = 0, head, tail;
	FILE *mem;

	b = strstr(*page, lists[l].begin);
	e = b ? strstr(b, lists[l].end) : NULL;
	if (!e) {
		fprintf(stderr, "man-formats: %s: no BEGIN/END markers of its "
			"list of %s formats\n", path,
			lists[l].inputs & (1u << LT_WRITE_DIFF) ? "diff" : "report");
		return -1;
	}
	e += strlen(lists[l].end);
	mem = open_memstream(&made, &mlen);
	if (!mem)
		return -1;
	section(mem, l);
	fclose(mem);
	*same &= (size_t)(e - b) == mlen && !memcmp(b, made, mlen);
	head = (size_t)(b - *page);
	tail = *len - (size_t)(e - *page);
	np = malloc(head + mlen + tail + 1);
	if (!np) {
		free(made);
		return -1;
	}
	memcpy(np, *page, head);
	memcpy(np + head, made, mlen);
	memcpy(np + head + mlen, e, tail + 1);
	free(made);
	free(*page);
	*page = np;
	*len = head + mlen + tail;
	return 0;
}

int main(int argc, char **argv)
{
	bool same = true;
	char *page;
	size_t len, l;
	int ret = 2;
	FILE *f;

	if (argc == 1) {
		for (l = 0; l < NR_LISTS; l++)
			section(stdout, l);
		return 0;
	}
	if (argc != 3 || (strcmp(argv[1], "--check") && strcmp(argv[1], "--update"))) {
		fprintf(stderr, "usage: man-formats [--check|--update MAN_PAGE]\n");
		return 2;
	}
	page = slurp(argv[2], &len);
	for (l = 0; l < NR_LISTS; l++)
		if (remake(argv[2], &page, &len, l, &same) < 0)
			goto out;
	if (!strcmp(argv[1], "--check")) {
		ret = same ? 0 : 1;
		if (!same)
			fprintf(stderr, "man-formats: %s: its list of formats "
				"differs from the writers table; run: cmake --build "
				"BUILD --target man-formats-update\n", argv[2]);
		goto out;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(page, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "man-formats: %s: cannot write\n", argv[2]);
		goto out;
	}
	ret = 0;
out:
	free(page);
	return ret;
}
