// SPDX-License-Identifier: LGPL-2.1
/*
 * pb.c - protocol buffers' wire format, written (lt-pb.h).
 *
 * https://protobuf.dev/programming-guides/encoding/: a field is a key
 * (its number << 3 | its wire type) and a value; wire type 0 is a
 * varint (7 bits a byte, least significant first, the top bit set on
 * all bytes but the last), 2 a length (a varint) and that many bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "lt-pb.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

void lt_pb_init(struct lt_pb *pb)
{
	memset(pb, 0, sizeof(*pb));
}

void lt_pb_free(struct lt_pb *pb)
{
	free(pb->buf);
	lt_pb_init(pb);
}

static unsigned int varint_len(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Room for @n more bytes: false when there is none to be had. */
static bool reserve(struct lt_pb *pb, size_t n)
{
	size_t cap;
	uint8_t *b;

	if (pb->failed)
		return false;
	if (pb->cap - pb->len >= n)
		return true;
	cap = pb->cap ? pb->cap : 256;
	while (cap - pb->len < n) {
		if (cap > SIZE_MAX / 2) {
			pb->failed = true;
			return false;
		}
		cap *= 2;
	}
	b = realloc(pb->buf, cap);
	if (!b) {
		pb->failed = true;
		return false;
	}
	pb->buf = b;
	pb->cap = cap;
	return true;
}

/* @v at @p, which has room: the bytes written. */
static unsigned int put_varint(uint8_t *p, uint64_t v)
{
	unsigned int n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static void varint(struct lt_pb *pb, uint64_t v)
{
	if (reserve(pb, 10))
		pb->len += put_varint(pb->buf + pb->len, v);
}

void lt_pb_uint(struct lt_pb *pb, unsigned int field, uint64_t v)
{
	varint(pb, (uint64_t)field << 3 | WIRE_VARINT);
	varint(pb, v);
}

void lt_pb_bytes(struct lt_pb *pb, unsigned int field, const void *data,
		 size_t len)
{
	varint(pb, (uint64_t)field << 3 | WIRE_LEN);
	varint(pb, len);
	if (len && reserve(pb, len)) {
		memcpy(pb->buf + pb->len, data, len);
		pb->len += len;
	}
}

void lt_pb_packed(struct lt_pb *pb, unsigned int field, const uint64_t *v,
		  size_t n)
{
	size_t i, len = 0;

	if (!n)
		return;		/* an empty repeated field is no field */
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	varint(pb, (uint64_t)field << 3 | WIRE_LEN);
	varint(pb, len);
	if (!reserve(pb, len))
		return;
	for (i = 0; i < n; i++)
		pb->len += put_varint(pb->buf + pb->len, v[i]);
}

size_t lt_pb_open(struct lt_pb *pb, unsigned int field)
{
	varint(pb, (uint64_t)field << 3 | WIRE_LEN);
	return pb->len;
}

void lt_pb_close(struct lt_pb *pb, size_t mark)
{
	size_t body;
	unsigned int n;

	if (pb->failed || mark > pb->len)
		return;
	body = pb->len - mark;
	n = varint_len(body);
	if (!reserve(pb, n))
		return;
	memmove(pb->buf + mark + n, pb->buf + mark, body);
	put_varint(pb->buf + mark, body);
	pb->len += n;
}
