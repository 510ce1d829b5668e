// SPDX-License-Identifier: GPL-2.0
/*
 * Scatter/gather lists.  Every SGE here already passed its lkey check and
 * holds a reference on its MR (struct rue_ksge), so these helpers only
 * walk: from a byte offset in the message to the SGE and the address in
 * it, through rue_mr_*(), which never step outside the region.
 */
#include <linux/slab.h>
#include <linux/sort.h>

#include "mr.h"
#include "qp.h"
#include "sgl.h"

/* Find the SGE holding message byte @off; *skip is the offset in it. */
static u32 rue_sgl_seek(const struct rue_ksge *sg, u32 nsge, u32 off, u32 *skip)
{
	u32 i;

	for (i = 0; i < nsge && off >= sg[i].length; i++)
		off -= sg[i].length;
	*skip = off;
	return i;
}

/* Payload can go out as page fragments: big enough, and lendable memory. */
bool rue_sgl_can_lend(const struct rue_ksge *sg, u32 nsge, u32 off, u32 len)
{
	u32 i, skip;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); i < nsge && len; i++) {
		if (!rue_mr_can_frag(sg[i].mr))
			return false;
		len -= min(len, sg[i].length - skip);
		skip = 0;
	}
	return true;
}

/**
 * rue_sgl_to_skb() - append message bytes [off, off + len) to a packet
 * @sg: the message's SGEs
 * @nsge: how many
 * @off: message offset
 * @len: bytes
 * @skb: the packet; copies go to its tail room, lent pages to fragments
 * @lend: lend pages (rue_sgl_can_lend() said so) instead of copying
 */
int rue_sgl_to_skb(const struct rue_ksge *sg, u32 nsge, u32 off, u32 len,
		   struct sk_buff *skb, bool lend)
{
	u32 i, skip, n;
	int err;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); len; i++, skip = 0) {
		if (unlikely(i >= nsge))
			return -EINVAL;
		n = min(len, sg[i].length - skip);
		if (lend)
			err = rue_mr_add_frags(sg[i].mr, sg[i].addr + skip, n, skb);
		else
			err = rue_mr_copy_to_buf(sg[i].mr, sg[i].addr + skip,
						 skb_put(skb, n), n);
		if (unlikely(err))
			return err;
		len -= n;
	}
	return 0;
}

/* Place packet bytes at message offset @off of a receive or read buffer. */
int rue_sgl_from_skb(const struct rue_ksge *sg, u32 nsge, u32 off,
		     const struct sk_buff *skb, int skb_off, u32 len)
{
	u32 i, skip, n;
	int err;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); len; i++, skip = 0) {
		if (unlikely(i >= nsge))
			return -EINVAL;
		n = min(len, sg[i].length - skip);
		err = rue_mr_copy_from_skb(sg[i].mr, sg[i].addr + skip, skb,
					   skb_off, n);
		if (unlikely(err))
			return err;
		skb_off += n;
		len -= n;
	}
	return 0;
}

int rue_sgl_from_buf(const struct rue_ksge *sg, u32 nsge, u32 off,
		     const void *buf, u32 len)
{
	u32 i, skip, n;
	int err;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); len; i++, skip = 0) {
		if (unlikely(i >= nsge))
			return -EINVAL;
		n = min(len, sg[i].length - skip);
		err = rue_mr_copy_from_buf(sg[i].mr, sg[i].addr + skip, buf, n);
		if (unlikely(err))
			return err;
		buf += n;
		len -= n;
	}
	return 0;
}

/* A run of memory: its first byte (page frame and offset) and length. */
struct rue_sgl_run {
	u64 at;
	u64 len;
};

/* Most runs rue_sgl_disjoint() compares: one page of them. */
#define RUE_SGL_RUNS	(PAGE_SIZE / sizeof(struct rue_sgl_run))

static int rue_sgl_run_cmp(const void *a, const void *b)
{
	const struct rue_sgl_run *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Append the runs of memory behind @s to @run[*n]; false when full. */
static bool rue_sgl_runs(const struct rue_ksge *s, struct rue_sgl_run *run,
			 u32 *n)
{
	unsigned int off, avail;
	u64 addr = s->addr, at;
	u32 len = s->length;
	struct page *page;

	while (len) {
		page = rue_mr_page(s->mr, addr, &off, &avail);
		if (!page)
			return false;
		avail = min(avail, len);
		at = PFN_PHYS(page_to_pfn(page)) + off;
		if (*n && run[*n - 1].at + run[*n - 1].len == at) {
			run[*n - 1].len += avail;
		} else {
			if (*n == RUE_SGL_RUNS)
				return false;
			run[(*n)++] = (struct rue_sgl_run){ at, avail };
		}
		addr += avail;
		len -= avail;
	}
	return true;
}

/**
 * rue_sgl_disjoint() - whether no byte of memory is named by two SGEs
 * @sg: the SGEs, referenced
 * @nsge: how many
 * @gfp: for a page of scratch
 *
 * Packets placed in order leave a byte that two SGEs name holding the
 * later SGE's data, as any RC responder's would; placed out of order
 * (READ responses placed early, rc_comp.c) it holds whichever packet
 * came last.  So out-of-order placement needs SGEs naming distinct
 * bytes, compared by the pages behind them: two MRs, or a window and
 * its MR, can map the same memory at different addresses.  A single SGE
 * counts as distinct: a region whose own pages repeat is its owner's
 * doing, and checking one would cost a 1 MiB READ 256 page lookups.
 *
 * Return: true if no two SGEs share a byte; false if two do, or when it
 * cannot be told cheaply (more than RUE_SGL_RUNS runs, no memory).
 */
bool rue_sgl_disjoint(const struct rue_ksge *sg, u32 nsge, gfp_t gfp)
{
	struct rue_sgl_run *run;
	bool ok = false;
	u32 i, n = 0;

	if (nsge <= 1)
		return true;
	run = kmalloc_array(RUE_SGL_RUNS, sizeof(*run), gfp | __GFP_NOWARN);
	if (!run)
		return false;
	for (i = 0; i < nsge; i++)
		if (!rue_sgl_runs(&sg[i], run, &n))
			goto out;
	sort(run, n, sizeof(*run), rue_sgl_run_cmp, NULL);
	for (i = 1; i < n; i++)
		if (run[i - 1].at + run[i - 1].len > run[i].at)
			goto out;
	ok = true;
out:
	kfree(run);
	return ok;
}

/* Drop the MR references of an SGE list. */
void rue_sgl_put(struct rue_ksge *sg, u32 nsge)
{
	u32 i;

	for (i = 0; i < nsge; i++) {
		if (sg[i].mr) {
			rue_mr_put(sg[i].mr);
			sg[i].mr = NULL;
		}
	}
}
