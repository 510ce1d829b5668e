// SPDX-License-Identifier: GPL-2.0
/*
 * Memory windows (IBTA 10.6.7).
 *
 * A window gives remote access, with its own rkey, bounds and rights, to
 * part of an MR that allows binding (IB_ACCESS_MW_BIND).  Type 1 windows
 * are bound by the Bind Memory Window verb (librue posts it as a work
 * request) and stay valid until bound again; type 2B windows are bound
 * by a work request to the posting QP, only that QP may use them, and
 * they end with a local or remote invalidation.
 *
 * A binding is a struct rue_mr of type RUE_MR_WINDOW in the device's key
 * xarray, at the window's index: the receive path finds it, checks it
 * and reads memory through it as through an MR (mr.c), with no other
 * lock than the reference it takes.  So a binding never changes once
 * published: binding again publishes a new one at the same index and
 * retires the old (state FREE), whose lookups then fail while packets
 * that hold it finish as after an invalidation (rue_mr_still()).  The
 * binding holds a reference to its MR, which keeps the pages pinned for
 * as long as a packet uses them; the MR's count of bound windows is what
 * makes deregistering it fail meanwhile.
 *
 * Locking: binds run in the transmitter, invalidations in the
 * transmitter or the receive path; they, deallocation and deregistration
 * (mr.c) serialise on the xarray's lock, taken with BHs off (the xarray
 * is XA_FLAGS_LOCK_BH).
 */
#include <rdma/rue-abi.h>

#include "device.h"
#include "mr.h"
#include "mw.h"

#define RUE_MW_ACCESS	(IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_ATOMIC)
/* on the index of a type 2 binding while it lasts (XA_MARK_0 is ALLOC's) */
#define RUE_MW_MARK_QP	XA_MARK_1

static inline struct rue_mw *to_rue_mw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct rue_mw, ibmw);
}

/*
 * A binding that ends: no new lookup finds it valid.  xarray lock held,
 * @win at its index or already erased from it.
 */
static void rue_mw_retire(struct rue_mr *win)
{
	__xa_clear_mark(&win->rdev->mrs, win->index, RUE_MW_MARK_QP);
	/* ordered after the lookups that found it valid (rue_mr_still()) */
	smp_store_release(&win->state, RUE_MR_FREE);
	if (win->mw_counted) {
		atomic_dec(&win->parent->mw_bound);
		win->mw_counted = false;
	}
}

/* The binding at @key's index if it is one, else NULL.  Lock held. */
static struct rue_mr *rue_mw_find(struct rue_dev *rdev, u32 key)
{
	struct rue_mr *win = xa_load(&rdev->mrs, key >> 8);

	return win && win->type == RUE_MR_WINDOW ? win : NULL;
}

/* What the MR must allow (IBTA C10-73 to C10-75).  Lock held. */
static int rue_mw_check_mr(const struct rue_mr *mr, u64 addr, u64 len,
			   int access)
{
	if (mr->type != RUE_MR_USER || READ_ONCE(mr->state) != RUE_MR_VALID)
		return -EINVAL;
	if (!(mr->access & IB_ACCESS_MW_BIND))
		return -EACCES;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(mr->access & IB_ACCESS_LOCAL_WRITE))
		return -EACCES;
	if (!rue_mr_in_range(mr, addr, len))
		return -ERANGE;
	return 0;
}

/*
 * What the window must be: the key the consumer knows (a stale one is a
 * bind error), in the QP's PD (C10-72), and a type 2 window free and
 * given a length (o10-37.2.30, o10-37.2.40).  Lock held.
 */
static int rue_mw_check(const struct rue_mr *old, struct ib_qp *qp, u32 cur,
			u64 len)
{
	if (!old || old->ibmr.rkey != cur || old->ibmr.pd != qp->pd)
		return -EINVAL;
	if (old->mw_type == IB_MW_TYPE_2 &&
	    (READ_ONCE(old->state) != RUE_MR_FREE || !len))
		return -EINVAL;
	return 0;
}

/* The new binding, before it is published. */
static void rue_mw_fill(struct rue_mr *win, const struct rue_mr *old,
			struct ib_qp *qp, const struct rue_sqe *sqe,
			struct rue_mr *mr)
{
	win->rdev = old->rdev;
	win->index = old->index;
	win->key_hi = old->key_hi;
	win->ibmr.pd = old->ibmr.pd;
	win->ibmr.rkey = (u32)sqe->rkey;
	win->ibmr.lkey = 0;	/* never a local key: 0 names no MR */
	win->mw_type = old->mw_type;
	win->access = (int)sqe->swap;
	win->iova = sqe->remote_addr;
	win->length = sqe->compare_add;
	win->parent = mr;
	if (mr) {
		atomic_inc(&mr->mw_bound);
		win->mw_counted = true;
		win->state = RUE_MR_VALID;
	}
	if (win->mw_type == IB_MW_TYPE_2)
		win->mw_qpn = qp->qp_num;
}

/**
 * rue_mw_bind() - execute a BIND_MW work request (IBTA 10.6.7.2)
 * @qp: the QP that posted it; called from its transmitter, BHs off
 * @sqe: the work request (rue-abi.h: what each field means for a bind)
 *
 * Return: 0, or a negative errno (the work request completes with
 * IB_WC_MW_BIND_ERR).
 */
int rue_mw_bind(struct ib_qp *qp, const struct rue_sqe *sqe)
{
	struct rue_dev *rdev = to_rue_dev(qp->device);
	u32 cur = (u32)sqe->imm, key = (u32)sqe->rkey;
	u64 len = sqe->compare_add;
	struct rue_mr *old, *win, *mr = NULL;
	enum rue_mr_err merr;
	int err;

	if ((key >> 8) != (cur >> 8) || (sqe->swap & ~(u64)RUE_MW_ACCESS))
		return -EINVAL;
	if (len) {
		mr = rue_mr_get(rdev, sqe->ah, false, qp->pd, 0, &merr);
		if (!mr)
			return -EINVAL;
	}
	win = rue_mr_alloc(RUE_MR_WINDOW, GFP_ATOMIC);
	if (!win) {
		err = -ENOMEM;
		goto err_put;
	}

	xa_lock_bh(&rdev->mrs);
	old = rue_mw_find(rdev, cur);
	err = rue_mw_check(old, qp, cur, len);
	if (!err && mr)
		err = rue_mw_check_mr(mr, sqe->remote_addr, len,
				      (int)sqe->swap);
	if (err) {
		xa_unlock_bh(&rdev->mrs);
		kfree(win);
		goto err_put;
	}
	rue_mw_retire(old);
	rue_mw_fill(win, old, qp, sqe, mr);
	/* replaces an entry: nothing to allocate, so it cannot fail */
	__xa_store(&rdev->mrs, win->index, win, GFP_ATOMIC);
	if (win->mw_qpn && win->mw_counted)
		__xa_set_mark(&rdev->mrs, win->index, RUE_MW_MARK_QP);
	xa_unlock_bh(&rdev->mrs);
	pr_debug("MR %#x created (window)\n", key);
	/* the xarray's reference to the old binding; @mr's is @win's now */
	rue_mr_put(old);
	return 0;

err_put:
	if (mr)
		rue_mr_put(mr);
	return err;
}

/**
 * rue_mw_invalidate() - LOCAL_INV or SEND_WITH_INV of a window's rkey
 * @qp: the QP that executes it
 * @rkey: the key
 * @remote: from the wire: only the QP the window is bound to may
 *
 * Only type 2 windows can be invalidated (IBTA C10-71 keeps type 1
 * windows to the bind verb).
 *
 * Return: 0, -ENOENT when @rkey names no window (it may name an MR),
 * -EINVAL when the window may not be invalidated so.
 */
int rue_mw_invalidate(struct ib_qp *qp, u32 rkey, bool remote)
{
	struct rue_dev *rdev = to_rue_dev(qp->device);
	struct rue_mr *win;
	int err = 0;

	xa_lock_bh(&rdev->mrs);
	win = rue_mw_find(rdev, rkey);
	if (!win)
		err = -ENOENT;
	else if (win->ibmr.rkey != rkey || win->state != RUE_MR_VALID ||
		 win->mw_type != IB_MW_TYPE_2 || win->ibmr.pd != qp->pd ||
		 (remote && win->mw_qpn != qp->qp_num))
		err = -EINVAL;
	else
		rue_mw_retire(win);
	xa_unlock_bh(&rdev->mrs);
	return err;
}

/**
 * rue_mw_qp_gone() - a destroyed QP's type 2 windows end
 * @qp: the QP, whose transmitter has stopped (no bind is under way)
 *
 * A type 2 window serves only its QP, and no later QP may take over its
 * number's windows: they are unbound, and their MRs free to deregister.
 * The walk visits only the indexes of type 2 bindings (RUE_MW_MARK_QP).
 */
void rue_mw_qp_gone(struct ib_qp *qp)
{
	struct rue_dev *rdev = to_rue_dev(qp->device);
	struct rue_mr *win;
	unsigned long i;

	xa_lock_bh(&rdev->mrs);
	xa_for_each_marked(&rdev->mrs, i, win, RUE_MW_MARK_QP) {
		if (win->mw_qpn == qp->qp_num)
			rue_mw_retire(win);
	}
	xa_unlock_bh(&rdev->mrs);
}

/* A window starts with no binding, at an index of its own. */
static int rue_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct rue_mw *mw = to_rue_mw(ibmw);
	struct rue_mr *win;
	int err;

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	win = rue_mr_alloc(RUE_MR_WINDOW, GFP_KERNEL);
	if (!win)
		return -ENOMEM;
	win->mw_type = ibmw->type;
	err = rue_mr_publish(to_rue_dev(ibmw->device), win, ibmw->pd,
			     RUE_MR_FREE);
	if (err) {
		kfree(win);
		return err;
	}
	WRITE_ONCE(win->ibmr.lkey, 0);
	mw->index = win->index;
	ibmw->rkey = win->ibmr.rkey;
	return 0;
}

static int rue_dealloc_mw(struct ib_mw *ibmw)
{
	struct rue_dev *rdev = to_rue_dev(ibmw->device);
	struct rue_mw *mw = to_rue_mw(ibmw);
	struct rue_mr *win;

	xa_lock_bh(&rdev->mrs);
	win = __xa_erase(&rdev->mrs, mw->index);
	if (win)
		rue_mw_retire(win);
	xa_unlock_bh(&rdev->mrs);
	if (win)
		rue_mr_put(win);
	return 0;
}

static const struct ib_device_ops rue_mw_ops = {
	.alloc_mw = rue_alloc_mw,
	.dealloc_mw = rue_dealloc_mw,
	INIT_RDMA_OBJ_SIZE(ib_mw, rue_mw, ibmw),
};

void rue_mw_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_mw_ops);
}
