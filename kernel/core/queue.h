/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rings shared with librue (layout in uapi/rdma/rue-abi.h), or private to
 * the kernel for kernel consumers' queues.
 */
#ifndef _RUE_QUEUE_H
#define _RUE_QUEUE_H

#include <rdma/ib_verbs.h>
#include <rdma/rue-abi.h>

/*
 * A ring of up to RUE_RING_CONTIG_BYTES lives in one physically
 * contiguous allocation; a larger one (big CQs: libfabric's RDM
 * endpoints ask for hundreds of thousands of entries) in vmalloc space.
 */
#define RUE_RING_CONTIG_BYTES	(4U << 20)
#define RUE_RING_MAX_BYTES	(128U << 20)

struct rue_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	void *buf;
	size_t size;
};

struct rue_ring {
	void *buf;			/* zeroed, page-aligned */
	size_t size;			/* bytes, whole pages */
	struct rue_ring_hdr *hdr;	/* at buf */
	void *slots;			/* at buf + RUE_RING_DATA_OFFSET */
	u32 nslots;			/* power of two */
	u32 mask;
	u32 stride;			/* power of two */
	/*
	 * User rings: the mmap entry owns buf from rue_ring_map_user() on,
	 * and frees it when the last mapping goes (mmap_free), which can be
	 * after the object that used the ring is destroyed.
	 */
	struct rue_mmap_entry *entry;
};

static inline void *rue_ring_slot(const struct rue_ring *ring, u32 index)
{
	return ring->slots + (size_t)(index & ring->mask) * ring->stride;
}

int rue_ring_alloc(struct rue_ring *ring, u32 nslots, u32 stride);
int rue_ring_map_user(struct rue_ring *ring, struct ib_ucontext *uctx,
		      u64 *offset);
void rue_ring_free(struct rue_ring *ring);

int rue_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void rue_mmap_free(struct rdma_user_mmap_entry *rdma_entry);

#endif /* _RUE_QUEUE_H */
