/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory regions: user MRs, DMA MRs and fast-registration MRs.
 */
#ifndef _RUE_MR_H
#define _RUE_MR_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

struct rue_dev;

enum rue_mr_type {
	RUE_MR_USER,		/* pinned user pages */
	RUE_MR_DMA,		/* all kernel memory, iova = kernel address */
	RUE_MR_FRWR,		/* pages given by map_mr_sg, set by REG_MR */
	RUE_MR_WINDOW,		/* a memory window onto @parent (mw.c) */
};

enum rue_mr_state {
	RUE_MR_FREE,		/* FRWR before REG_MR or after invalidation */
	RUE_MR_VALID,
};

struct rue_mr {
	struct ib_mr ibmr;
	struct rue_dev *rdev;
	u32 index;			/* in rdev->mrs: key >> 8 */
	enum rue_mr_type type;
	u8 state;			/* enum rue_mr_state; READ_ONCE */
	int access;			/* IB_ACCESS_* */
	u32 key_hi;			/* UET: upper half of the 64-bit key */
	bool job_only;			/* UET: only requests of @job */
	u32 job;
	u64 iova;
	u64 length;
	unsigned int page_shift;
	u32 offset;			/* USER: iova's offset in pages[0] */
	u32 npages;
	u32 max_pages;			/* FRWR: capacity of addrs */
	struct page **pages;		/* USER */
	u64 *addrs;			/* FRWR: kernel addresses of pages */
	struct ib_umem *umem;

	/*
	 * WINDOW (mw.c): one binding of a memory window, never changed
	 * once published; a new binding is a new object at the same index.
	 */
	struct rue_mr *parent;		/* the MR it is bound to, referenced */
	u32 mw_qpn;			/* type 2: the only QP that may use it */
	u8 mw_type;			/* IB_MW_TYPE_1 or _2 */
	bool mw_counted;		/* in parent->mw_bound; xarray lock */
	atomic_t mw_bound;		/* windows bound to this MR */

	/*
	 * One reference is the MR's registration, dropped by dereg; every
	 * lookup takes another for as long as it touches the memory.  The
	 * pages stay pinned until the last one goes, so deregistering an
	 * MR that a WQE in flight still uses is safe.
	 */
	refcount_t refcnt;
	struct work_struct release_work;
	struct rcu_head rcu;		/* lookups are RCU: free after a grace period */
};

static inline struct rue_mr *to_rue_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct rue_mr, ibmr);
}

/* Why a lookup failed; callers map it to a completion status or NAK. */
enum rue_mr_err {
	RUE_MR_OK,
	RUE_MR_EKEY,		/* no MR with this key, or not valid */
	RUE_MR_EPD,		/* another PD */
	RUE_MR_EACCESS,		/* access right missing */
	RUE_MR_ERANGE,		/* outside the region */
};

struct rue_mr * __must_check rue_mr_get(struct rue_dev *rdev, u32 key,
					bool remote, struct ib_pd *pd,
					int access, enum rue_mr_err *err);
struct rue_mr * __must_check rue_mr_get_remote(struct ib_qp *qp, u32 rkey,
					       int access,
					       enum rue_mr_err *err);
void rue_mr_put(struct rue_mr *mr);
bool rue_mr_in_range(const struct rue_mr *mr, u64 iova, u64 len);
bool rue_mr_still(const struct rue_mr *mr, u32 key);

int rue_mr_copy_from_skb(struct rue_mr *mr, u64 iova,
			 const struct sk_buff *skb, int offset, u32 len);
int rue_mr_copy_to_buf(struct rue_mr *mr, u64 iova, void *buf, u32 len);
int rue_mr_copy_from_buf(struct rue_mr *mr, u64 iova, const void *buf,
			 u32 len);
int rue_mr_add_frags(struct rue_mr *mr, u64 iova, u32 len,
		     struct sk_buff *skb);
bool rue_mr_can_frag(const struct rue_mr *mr);
struct page *rue_mr_page(const struct rue_mr *mr, u64 iova, unsigned int *off,
			 unsigned int *avail);

int rue_mr_reg_frwr(struct rue_mr *mr, struct ib_pd *pd, u32 key, int access);
int rue_mr_invalidate(struct ib_qp *qp, u32 key, bool remote);

struct rue_mr *rue_mr_alloc(enum rue_mr_type type, gfp_t gfp);
int rue_mr_publish(struct rue_dev *rdev, struct rue_mr *mr, struct ib_pd *pd,
		   u8 state);

void rue_mr_set_ops(struct ib_device *ibdev);
int rue_mr_selftest(void);
int rue_mr_init(void);
void rue_mr_exit(void);

#endif /* _RUE_MR_H */
