// SPDX-License-Identifier: GPL-2.0
/*
 * test-pb - the protocol buffers writer (lt-pb.h) against the encoding
 * guide's own examples (https://protobuf.dev/programming-guides/encoding/)
 * and nested lengths that take one, two and three bytes.
 */
#include <stdlib.h>

#include "lt-pb.h"
#include "lt-test.h"

static void check_bytes(const struct lt_pb *pb, const uint8_t *want,
			size_t len)
{
	size_t i;

	CHECK(!pb->failed);
	CHECK_U64(pb->len, len);
	for (i = 0; i < len && i < pb->len; i++)
		if (pb->buf[i] != want[i]) {
			fprintf(stderr, "[%s] byte %zu: %02x, want %02x\n",
				lt_test_case, i, pb->buf[i], want[i]);
			lt_test_failures++;
			return;
		}
}

static void test_guide(void)
{
	static const uint8_t varint[] = { 0x08, 0x96, 0x01 };
	static const uint8_t string[] = { 0x12, 0x07, 't', 'e', 's', 't',
					  'i', 'n', 'g' };
	static const uint8_t packed[] = { 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e,
					  0xa7, 0x05 };
	static const uint8_t nested[] = { 0x1a, 0x03, 0x08, 0x96, 0x01 };
	static const uint8_t big[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint64_t v[] = { 3, 270, 86942 };
	struct lt_pb pb;
	size_t m;

	lt_pb_init(&pb);
	lt_test_case = "varint 150";
	lt_pb_uint(&pb, 1, 150);
	check_bytes(&pb, varint, sizeof(varint));

	lt_test_case = "string";
	lt_pb_reset(&pb);
	lt_pb_bytes(&pb, 2, "testing", 7);
	check_bytes(&pb, string, sizeof(string));

	lt_test_case = "packed";
	lt_pb_reset(&pb);
	lt_pb_packed(&pb, 4, v, 3);
	check_bytes(&pb, packed, sizeof(packed));

	lt_test_case = "packed, empty: no field";
	lt_pb_reset(&pb);
	lt_pb_packed(&pb, 4, v, 0);
	CHECK_U64(pb.len, 0);

	lt_test_case = "nested";
	lt_pb_reset(&pb);
	m = lt_pb_open(&pb, 3);
	lt_pb_uint(&pb, 1, 150);
	lt_pb_close(&pb, m);
	check_bytes(&pb, nested, sizeof(nested));

	lt_test_case = "2^64 - 1";
	lt_pb_reset(&pb);
	lt_pb_uint(&pb, 1, UINT64_MAX);
	check_bytes(&pb, big, sizeof(big));
	lt_pb_free(&pb);
}

/*
 * A bytes field of @d bytes in a message in a message, between two
 * fields: each length in front of its body in as few bytes as it takes
 * (@inner, @outer: the lengths as they must read), the body moved whole.
 */
static void test_lengths(size_t d, const uint8_t *inner, size_t ni,
			 const uint8_t *outer, size_t no)
{
	struct lt_pb pb;
	uint8_t *body = malloc(d);
	size_t m1, m2, i, at;

	CHECK(body != NULL);
	if (!body)
		return;
	for (i = 0; i < d; i++)
		body[i] = (uint8_t)(i * 7);
	lt_pb_init(&pb);
	lt_pb_uint(&pb, 1, 1);
	m1 = lt_pb_open(&pb, 2);
	m2 = lt_pb_open(&pb, 5);
	lt_pb_bytes(&pb, 6, body, d);
	lt_pb_close(&pb, m2);
	lt_pb_close(&pb, m1);
	lt_pb_uint(&pb, 7, 0);
	CHECK(!pb.failed);
	/* 08 01 | 12 OUTER | 2a INNER | 32 D body | 38 00 */
	CHECK_U64(pb.buf[0], 0x08);
	CHECK_U64(pb.buf[1], 0x01);
	CHECK_U64(pb.buf[2], 0x12);
	for (i = 0; i < no; i++)
		CHECK_U64(pb.buf[3 + i], outer[i]);
	at = 3 + no;
	CHECK_U64(pb.buf[at++], 0x2a);
	for (i = 0; i < ni; i++)
		CHECK_U64(pb.buf[at++], inner[i]);
	CHECK_U64(pb.buf[at++], 0x32);
	at += d < 128 ? 1 : d < 16384 ? 2 : 3;
	CHECK(!memcmp(pb.buf + at, body, d));
	CHECK_U64(pb.len, at + d + 2);
	CHECK_U64(pb.buf[at + d], 0x38);
	CHECK_U64(pb.buf[at + d + 1], 0x00);
	free(body);
	lt_pb_free(&pb);
}

int main(void)
{
	static const uint8_t l5[] = { 0x05 }, l7[] = { 0x07 };
	static const uint8_t l200[] = { 0xc8, 0x01 }, l203[] = { 0xcb, 0x01 };
	static const uint8_t l70000[] = { 0xf0, 0xa2, 0x04 };
	static const uint8_t l70004[] = { 0xf4, 0xa2, 0x04 };

	test_guide();
	/* inner: 32, the length of the bytes, the bytes; outer: 2a, ... */
	lt_test_case = "lengths of 1 byte";
	test_lengths(3, l5, 1, l7, 1);
	lt_test_case = "lengths of 2 bytes";
	test_lengths(197, l200, 2, l203, 2);
	lt_test_case = "lengths of 3 bytes";
	test_lengths(69996, l70000, 3, l70004, 3);
	return lt_test_done("util/pb");
}
