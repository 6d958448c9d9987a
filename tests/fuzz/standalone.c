// SPDX-License-Identifier: GPL-2.0
/*
 * standalone.c - replay fuzz inputs without libFuzzer.
 *
 * Linked with a fuzz target instead of -fsanitize=fuzzer, it runs every
 * file named on the command line (directories: every file inside) through
 * LLVMFuzzerTestOneInput, so the committed corpora are an ordinary
 * regression test under any compiler, sanitizers or not.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILE (64u << 20)

static int run_file(const char *path)
{
	unsigned char *buf;
	struct stat st;
	size_t n;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st) < 0 || st.st_size > MAX_FILE) {
		fprintf(stderr, "%s: cannot read\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	n = buf ? fread(buf, 1, st.st_size, f) : 0;
	fclose(f);
	if (!buf || n != (size_t)st.st_size) {
		free(buf);
		fprintf(stderr, "%s: cannot read\n", path);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned int *count)
{
	struct dirent *de;
	struct stat st;
	char sub[4096];
	int ret = 0;
	DIR *d;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "%s: no such file\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (run_path(sub, count) < 0)
			ret = -1;
	}
	closedir(d);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned int count = 0;
	int i, ret = 0;

	for (i = 1; i < argc; i++)
		if (run_path(argv[i], &count) < 0)
			ret = 1;
	printf("%s: %u inputs replayed\n", argv[0], count);
	if (!count)
		ret = 1;	/* an empty corpus proves nothing */
	return ret;
}
