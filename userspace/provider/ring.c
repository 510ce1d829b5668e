// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Mapping the kernel's rings.  Indices are free-running 32-bit counters;
 * each side writes only its own with release semantics and reads the
 * other's with acquire semantics (rue-abi.h).
 */
#include <errno.h>
#include <sys/mman.h>

#include "rue.h"

int rue_uring_map(struct rue_uring *r, int fd, uint64_t offset, size_t len,
		  uint32_t nslots, uint32_t stride)
{
	void *map;

	if (!nslots || (nslots & (nslots - 1)) || !stride ||
	    (stride & (stride - 1)) ||
	    RUE_RING_DATA_OFFSET + (uint64_t)nslots * stride > len) {
		errno = EPROTO;
		return -1;
	}
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	if (map == MAP_FAILED)
		return -1;
	r->map = map;
	r->map_len = len;
	r->hdr = map;
	r->slots = (uint8_t *)map + RUE_RING_DATA_OFFSET;
	r->nslots = nslots;
	r->mask = nslots - 1;
	r->stride = stride;
	r->idx = 0;
	return 0;
}

void rue_uring_unmap(struct rue_uring *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	r->map = NULL;
}
