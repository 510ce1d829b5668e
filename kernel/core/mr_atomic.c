// SPDX-License-Identifier: GPL-2.0
/*
 * Atomic operations on region memory: the RoCE atomics (IBTA 9.4.5) and
 * RDMA ATOMIC WRITE (IBTA vol 1 annex A19, Memory Placement Extensions).
 * Each is one CPU instruction on the 8 bytes themselves, so it is atomic
 * with respect to every other processor using them, the process that
 * owns the memory included.
 *
 * The target's address must be 8-byte aligned both as the requester
 * names it (the iova) and in the page that backs it: an MR registered at
 * an iova not congruent with its buffer could otherwise place an aligned
 * iova on a misaligned address, which no 8-byte instruction covers
 * atomically (a split lock on x86).
 */
#include <linux/atomic.h>
#include <linux/highmem.h>
#include "mr.h"
#include "mr_atomic.h"

/* The mapped page holding 8 aligned bytes at @iova, or an -errno. */
static void *rue_mr_map8(struct rue_mr *mr, u64 iova, unsigned int *off)
{
	struct page *page;
	unsigned int n;

	if (iova & 7)
		return ERR_PTR(-EINVAL);
	page = rue_mr_page(mr, iova, off, &n);
	if (unlikely(!page || n < 8))
		return ERR_PTR(-EFAULT);
	if (*off & 7)
		return ERR_PTR(-EINVAL);
	return kmap_local_page(page);
}

/**
 * rue_mr_atomic() - compare-and-swap or fetch-and-add on region memory
 * @mr: target region, range checked, IB_ACCESS_REMOTE_ATOMIC
 * @iova: 8-byte aligned address
 * @cmp_swap: compare-and-swap, else fetch-and-add
 * @compare: value to compare
 * @swap_add: value to swap in or add
 * @orig: returns the value before the operation
 *
 * Return: 0, -EINVAL if misaligned, -EFAULT if not backed.
 */
int rue_mr_atomic(struct rue_mr *mr, u64 iova, bool cmp_swap, u64 compare,
		  u64 swap_add, u64 *orig)
{
	unsigned int off;
	atomic64_t *p;
	void *va;

	va = rue_mr_map8(mr, iova, &off);
	if (IS_ERR(va))
		return PTR_ERR(va);
	p = va + off;
	if (cmp_swap)
		*orig = atomic64_cmpxchg(p, compare, swap_add);
	else
		*orig = atomic64_fetch_add(swap_add, p);
	kunmap_local(va);
	return 0;
}

/**
 * rue_mr_atomic_write() - store 8 bytes at once (IBTA annex A19.4.2)
 * @mr: target region, range checked, IB_ACCESS_REMOTE_WRITE
 * @iova: 8-byte aligned address
 * @bytes: the request's 8 bytes of payload, in the order they came
 *
 * The bytes are stored as they are, not as a number: the requester's
 * consumer gave 8 bytes of memory (ibv_wr_atomic_write()).  A release
 * store, so that a reader who sees them also sees everything the
 * responder placed before (IBTA A19.4.2: after earlier requests).
 *
 * Return: 0, -EINVAL if misaligned, -EFAULT if not backed.
 */
int rue_mr_atomic_write(struct rue_mr *mr, u64 iova, u64 bytes)
{
	unsigned int off;
	void *va;

	va = rue_mr_map8(mr, iova, &off);
	if (IS_ERR(va))
		return PTR_ERR(va);
	/* pairs with the consumer's acquire load of the word */
	smp_store_release((u64 *)(va + off), bytes);
	kunmap_local(va);
	return 0;
}
