/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * lt-pb.h - protocol buffers' wire format, written: what pprof's
 * profile.proto takes (varints, strings, packed numbers, nested
 * messages), nothing read.
 *
 * A message is bytes appended to a buffer.  A nested one is opened with
 * lt_pb_open(), which notes where its body starts, and closed with
 * lt_pb_close(), which puts the body's length (a varint, shortest form)
 * in front of it.  Running out of memory sticks (lt_pb.failed): the
 * calls after it do nothing, and the caller looks once at the end.
 */
#ifndef LT_PB_H
#define LT_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lt_pb {
	uint8_t *buf;
	size_t len, cap;
	bool failed;		/* out of memory: buf holds no message */
};

void lt_pb_init(struct lt_pb *pb);
void lt_pb_free(struct lt_pb *pb);
/* Empty it, keeping its memory. */
static inline void lt_pb_reset(struct lt_pb *pb)
{
	pb->len = 0;
}

/* Field @field as a varint: int64 (not negative), uint64, bool, enum. */
void lt_pb_uint(struct lt_pb *pb, unsigned int field, uint64_t v);
/* Field @field of @len bytes: a string, bytes. */
void lt_pb_bytes(struct lt_pb *pb, unsigned int field, const void *data,
		 size_t len);
/* A repeated varint field, packed: one field of @n varints. */
void lt_pb_packed(struct lt_pb *pb, unsigned int field, const uint64_t *v,
		  size_t n);
/* Open field @field as a nested message: the mark lt_pb_close() takes. */
size_t lt_pb_open(struct lt_pb *pb, unsigned int field);
void lt_pb_close(struct lt_pb *pb, size_t mark);

#endif /* LT_PB_H */
