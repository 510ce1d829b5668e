// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions.
 *
 * Keys: lkey == rkey == index << 8 | tag.  The index finds the MR in the
 * device's xarray (RCU, so the receive path looks keys up without locks);
 * the 8-bit tag starts random, and fast registration sets it from the
 * key the consumer chose (ib_update_fast_reg_key), so a stale key stops
 * matching.
 *
 * Memory is reached page by page: a user MR keeps the pages ib_umem
 * pinned, a fast-registration MR the addresses map_mr_sg gave it (kernel
 * addresses: rue has no DMA device, see ib_uses_virt_dma()), a DMA MR
 * takes kernel addresses as they come.  Every access goes through
 * rue_mr_page(), which bounds-checks against the region.
 */
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/sock.h>
#include <rdma/rue-abi.h>

#include "caps.h"
#include "device.h"
#include "mr.h"
#include "mw.h"

static void rue_mr_release(struct work_struct *work)
{
	struct rue_mr *mr = container_of(work, struct rue_mr, release_work);

	if (mr->umem)
		ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kvfree(mr->addrs);
	if (mr->parent)
		rue_mr_put(mr->parent);
	/*
	 * Only what was published said "created" (index 0: a registration
	 * that failed before); the rkey, as a memory window's lkey is 0.
	 */
	if (mr->index)
		pr_debug("MR %#x destroyed\n", mr->ibmr.rkey);
	kfree_rcu(mr, rcu);
}

/*
 * Where releases that cannot run in place go.  The module's own, so that
 * unloading waits for every one of them (rue_mr_exit()): one queued on a
 * system workqueue could run after the module's code is gone.
 */
static struct workqueue_struct *rue_mr_wq;

/* The last reference can drop in softirq: unpinning sleeps, so defer. */
void rue_mr_put(struct rue_mr *mr)
{
	if (refcount_dec_and_test(&mr->refcnt))
		queue_work(rue_mr_wq, &mr->release_work);
}

bool rue_mr_in_range(const struct rue_mr *mr, u64 iova, u64 len)
{
	return iova >= mr->iova && len <= mr->length &&
	       iova - mr->iova <= mr->length - len;
}

/**
 * rue_mr_get() - look up and check a memory key
 * @rdev: the device
 * @key: an lkey or rkey
 * @remote: @key is an rkey from the wire
 * @pd: the PD the accessing QP belongs to
 * @access: IB_ACCESS_* rights the access needs (0 for local reads)
 * @err: why the lookup failed
 *
 * Return: the MR with a reference, or NULL.
 */
struct rue_mr *rue_mr_get(struct rue_dev *rdev, u32 key, bool remote,
			  struct ib_pd *pd, int access, enum rue_mr_err *err)
{
	struct rue_mr *mr;

	rcu_read_lock();
	mr = xa_load(&rdev->mrs, key >> 8);
	if (mr && !refcount_inc_not_zero(&mr->refcnt))
		mr = NULL;
	rcu_read_unlock();
	if (!mr) {
		*err = RUE_MR_EKEY;
		return NULL;
	}

	/* pairs with rue_mr_reg_frwr() publishing the new layout */
	if (smp_load_acquire(&mr->state) != RUE_MR_VALID ||
	    (remote ? mr->ibmr.rkey : mr->ibmr.lkey) != key) {
		*err = RUE_MR_EKEY;
		goto err_put;
	}
	if (mr->ibmr.pd != pd) {
		*err = RUE_MR_EPD;
		goto err_put;
	}
	if ((mr->access & access) != access) {
		*err = RUE_MR_EACCESS;
		goto err_put;
	}
	*err = RUE_MR_OK;
	return mr;

err_put:
	rue_mr_put(mr);
	return NULL;
}

/**
 * rue_mr_get_remote() - look up an rkey from the wire for a QP
 * @qp: the QP the request came to
 * @rkey: the key
 * @access: IB_ACCESS_REMOTE_* rights the request needs
 * @err: why the lookup failed
 *
 * rue_mr_get() for a remote key, and a type 2 memory window only for the
 * QP it is bound to (IBTA 10.6.7.2.2: a type 2B window is associated
 * with one QP).  An MR restricted to a UET job (ruedv_reg_mr()) serves
 * only that job's UET requests (uet/ses_tgt.c): a RoCE request, which
 * has no job, reaches neither it nor a window over it, though its 32-bit
 * key is the lower half of the MR's 64-bit UET key.
 */
struct rue_mr *rue_mr_get_remote(struct ib_qp *qp, u32 rkey, int access,
				 enum rue_mr_err *err)
{
	const struct rue_mr *target;
	struct rue_mr *mr;

	mr = rue_mr_get(to_rue_dev(qp->device), rkey, true, qp->pd, access,
			err);
	if (!mr)
		return NULL;
	target = mr->type == RUE_MR_WINDOW ? mr->parent : mr;
	if (target->job_only ||
	    (mr->type == RUE_MR_WINDOW && mr->mw_qpn &&
	     mr->mw_qpn != qp->qp_num)) {
		*err = RUE_MR_EKEY;
		rue_mr_put(mr);
		return NULL;
	}
	return mr;
}

/**
 * rue_mr_page() - the page holding a region's byte
 * @mr: the region, referenced; the caller has checked the range
 * @iova: the byte's address
 * @off: returns its offset in the page
 * @avail: returns how many bytes of the region are contiguous there
 *
 * Return: the page, or NULL past the region's pages.
 */
struct page *rue_mr_page(const struct rue_mr *mr, u64 iova, unsigned int *off,
			 unsigned int *avail)
{
	u64 pos, left = PAGE_SIZE;
	void *va;

	switch (mr->type) {
	case RUE_MR_USER:
		pos = iova - mr->iova + mr->offset;
		if (unlikely((pos >> PAGE_SHIFT) >= mr->npages))
			return NULL;
		*off = pos & ~PAGE_MASK;
		*avail = PAGE_SIZE - *off;
		return mr->pages[pos >> PAGE_SHIFT];
	case RUE_MR_FRWR: {
		u64 psize = 1ULL << mr->page_shift;
		u64 first = mr->iova & ~(psize - 1);
		u64 idx = (iova - first) >> mr->page_shift;

		if (unlikely(idx >= mr->npages))
			return NULL;
		va = (void *)(uintptr_t)(mr->addrs[idx] + (iova & (psize - 1)));
		/* an MR page smaller than a CPU page ends before it */
		left = psize - (iova & (psize - 1));
		break;
	}
	case RUE_MR_WINDOW:
		/* a window's addresses are its MR's (not zero-based) */
		return rue_mr_page(mr->parent, iova, off, avail);
	case RUE_MR_DMA:
	default:
		va = (void *)(uintptr_t)iova;
		break;
	}
	*off = offset_in_page(va);
	*avail = min_t(u64, PAGE_SIZE - *off, left);
	return is_vmalloc_addr(va) ? vmalloc_to_page(va) : virt_to_page(va);
}

/**
 * rue_mr_copy_from_skb() - place packet payload into a region
 * @mr: destination region
 * @iova: destination address, range already checked
 * @skb: packet
 * @offset: payload offset from skb->data
 * @len: bytes
 */
int rue_mr_copy_from_skb(struct rue_mr *mr, u64 iova,
			 const struct sk_buff *skb, int offset, u32 len)
{
	unsigned int off, n;
	struct page *page;
	void *dst;
	int err;

	while (len) {
		page = rue_mr_page(mr, iova, &off, &n);
		if (unlikely(!page))
			return -EFAULT;
		n = min(n, len);
		dst = kmap_local_page(page);
		err = skb_copy_bits(skb, offset, dst + off, n);
		kunmap_local(dst);
		if (unlikely(err))
			return err;
		iova += n;
		offset += n;
		len -= n;
	}
	return 0;
}

static int rue_mr_copy(struct rue_mr *mr, u64 iova, void *buf, u32 len,
		       bool to_mr)
{
	unsigned int off, n;
	struct page *page;
	void *va;

	while (len) {
		page = rue_mr_page(mr, iova, &off, &n);
		if (unlikely(!page))
			return -EFAULT;
		n = min(n, len);
		va = kmap_local_page(page);
		if (to_mr)
			memcpy(va + off, buf, n);
		else
			memcpy(buf, va + off, n);
		kunmap_local(va);
		iova += n;
		buf += n;
		len -= n;
	}
	return 0;
}

int rue_mr_copy_to_buf(struct rue_mr *mr, u64 iova, void *buf, u32 len)
{
	return rue_mr_copy(mr, iova, buf, len, false);
}

int rue_mr_copy_from_buf(struct rue_mr *mr, u64 iova, const void *buf,
			 u32 len)
{
	return rue_mr_copy(mr, iova, (void *)buf, len, true);
}

/*
 * Zero-copy transmit hands pages to the network stack, which may hold
 * them after the work request completed (a retransmitted duplicate still
 * in a queue).  That is safe for pinned user pages and for ordinary
 * kernel pages we take a reference on; DMA MRs may point into slab or
 * vmalloc memory, so they are always copied.
 */
bool rue_mr_can_frag(const struct rue_mr *mr)
{
	if (mr->type == RUE_MR_WINDOW)
		mr = mr->parent;
	return mr->type != RUE_MR_DMA;
}

/**
 * rue_mr_add_frags() - append region memory to an skb as page fragments
 * @mr: source region (rue_mr_can_frag()), range already checked
 * @iova: source address
 * @len: bytes
 * @skb: the packet; its fragments take page references
 *
 * Return: 0, or -EMSGSIZE when the skb has no room for more fragments or
 * a page cannot be lent (then the caller copies instead); the skb may
 * have been partly extended and must be discarded.
 */
int rue_mr_add_frags(struct rue_mr *mr, u64 iova, u32 len, struct sk_buff *skb)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	unsigned int off, n;
	struct page *page;

	while (len) {
		page = rue_mr_page(mr, iova, &off, &n);
		if (unlikely(!page))
			return -EFAULT;
		n = min(n, len);
		if (shinfo->nr_frags >= MAX_SKB_FRAGS || !sendpage_ok(page))
			return -EMSGSIZE;
		get_page(page);
		skb_fill_page_desc(skb, shinfo->nr_frags, page, off, n);
		skb->len += n;
		skb->data_len += n;
		skb->truesize += n;
		iova += n;
		len -= n;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */

struct rue_mr *rue_mr_alloc(enum rue_mr_type type, gfp_t gfp)
{
	struct rue_mr *mr;

	mr = kzalloc(sizeof(*mr), gfp);
	if (!mr)
		return NULL;
	mr->type = type;
	refcount_set(&mr->refcnt, 1);
	INIT_WORK(&mr->release_work, rue_mr_release);
	return mr;
}

/*
 * Reserve an index, then publish the MR last, once it is fully set up:
 * the receive path may look it up the moment it is in the xarray.  The
 * xarray's lock is taken with BHs off: memory windows are bound from the
 * transmitter (mw.c).
 */
int rue_mr_publish(struct rue_dev *rdev, struct rue_mr *mr,
		   struct ib_pd *pd, u8 state)
{
	u32 key;
	int err;

	err = xa_alloc_cyclic_bh(&rdev->mrs, &mr->index, XA_ZERO_ENTRY,
				 XA_LIMIT(1, RUE_MAX_MR), &rdev->mr_next,
				 GFP_KERNEL);
	if (err < 0)
		return err;
	mr->rdev = rdev;
	/* 32 random bits a UET peer must know besides the rkey (ses.c) */
	mr->key_hi = get_random_u32();
	key = mr->index << 8 | (get_random_u32() & 0xff);
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->ibmr.pd = pd;
	mr->state = state;
	xa_store_bh(&rdev->mrs, mr->index, mr, GFP_KERNEL);
	pr_debug("MR %#x created\n", key);
	return 0;
}

static struct ib_mr *rue_get_dma_mr(struct ib_pd *pd, int access)
{
	struct rue_mr *mr;
	int err;

	mr = rue_mr_alloc(RUE_MR_DMA, GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->access = access;
	mr->iova = 0;
	mr->length = U64_MAX;
	err = rue_mr_publish(to_rue_dev(pd->device), mr, pd, RUE_MR_VALID);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

static int rue_mr_collect_pages(struct rue_mr *mr)
{
	struct sg_page_iter iter;
	u32 i = 0;

	mr->npages = ib_umem_num_pages(mr->umem);
	mr->pages = kvcalloc(mr->npages, sizeof(*mr->pages), GFP_KERNEL);
	if (!mr->pages)
		return -ENOMEM;
	for_each_sgtable_page(&mr->umem->sgt_append.sgt, &iter, 0) {
		if (WARN_ON_ONCE(i >= mr->npages))
			return -EFAULT;
		mr->pages[i++] = sg_page_iter_page(&iter);
	}
	mr->npages = i;
	return 0;
}

static int rue_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);

/*
 * A user MR over @length bytes at @start, published: what reg_user_mr
 * and rereg_user_mr build.  @job: UET job only MR, or U32_MAX.
 */
static struct rue_mr *rue_mr_new_user(struct ib_pd *pd, u64 start, u64 length,
				      u64 iova, int access, u32 job)
{
	struct rue_mr *mr;
	int err;

	if (access & ~(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		       IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC |
		       IB_ACCESS_MW_BIND | IB_ACCESS_RELAXED_ORDERING))
		return ERR_PTR(-EOPNOTSUPP);
	if (!length || length > RUE_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);

	mr = rue_mr_alloc(RUE_MR_USER, GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		mr->umem = NULL;
		goto err_free;
	}
	err = rue_mr_collect_pages(mr);
	if (err)
		goto err_free;
	mr->offset = ib_umem_offset(mr->umem);
	mr->access = access;
	mr->iova = iova;
	mr->length = length;
	mr->page_shift = PAGE_SHIFT;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	if (job != U32_MAX) {
		mr->job_only = true;
		mr->job = job;
	}

	/* publishes a valid MR: the key's upper half is set before */
	err = rue_mr_publish(to_rue_dev(pd->device), mr, pd, RUE_MR_VALID);
	if (err)
		goto err_free;
	return mr;

err_free:
	rue_mr_release(&mr->release_work);
	return ERR_PTR(err);
}

/* The 64-bit key to the creator; on failure the MR is taken down. */
static struct ib_mr *rue_mr_user_resp(struct rue_mr *mr, struct ib_udata *udata)
{
	struct rue_reg_mr_resp resp = {
		.comp_mask = RUE_REG_MR_RESP_KEY64,
		.key64 = (u64)mr->key_hi << 32 | mr->ibmr.rkey,
	};
	int err;

	if (!udata || !udata->outlen)
		return &mr->ibmr;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err) {
		/* published: take it down as dereg would */
		rue_dereg_mr(&mr->ibmr, NULL);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

static struct ib_mr *rue_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				     u64 iova, int access,
				     struct ib_udata *udata)
{
	struct rue_reg_mr_cmd cmd = {};
	struct rue_mr *mr;
	int err;

	if (udata && udata->inlen) {
		if (udata->inlen > sizeof(cmd) &&
		    !ib_is_udata_cleared(udata, sizeof(cmd),
					 udata->inlen - sizeof(cmd)))
			return ERR_PTR(-EOPNOTSUPP);
		err = ib_copy_from_udata(&cmd, udata,
					 min(sizeof(cmd), udata->inlen));
		if (err)
			return ERR_PTR(err);
		if (cmd.comp_mask & ~(u64)RUE_REG_MR_CMD_JOB)
			return ERR_PTR(-EOPNOTSUPP);
		if ((cmd.comp_mask & RUE_REG_MR_CMD_JOB) &&
		    cmd.job_id > 0xffffff)
			return ERR_PTR(-EINVAL);
	}
	mr = rue_mr_new_user(pd, start, length, iova, access,
			     (cmd.comp_mask & RUE_REG_MR_CMD_JOB) ?
			     cmd.job_id : U32_MAX);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	return rue_mr_user_resp(mr, udata);
}

/*
 * Reregistration (the IBTA's Reregister Memory Region) builds a new
 * MR from the old one's translation, access and PD, each replaced where
 * @flags says, with new keys; the core then deregisters the old MR in
 * its place, so what is in flight on it ends as after any
 * deregistration.  A UET job MR stays one.
 */
static struct ib_mr *rue_rereg_user_mr(struct ib_mr *ibmr, int flags,
				       u64 start, u64 length, u64 iova,
				       int access, struct ib_pd *pd,
				       struct ib_udata *udata)
{
	struct rue_mr *old = to_rue_mr(ibmr);
	struct rue_mr *mr;

	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return ERR_PTR(-EOPNOTSUPP);
	if (old->type != RUE_MR_USER || !old->umem)
		return ERR_PTR(-EINVAL);
	/* the core deregisters the old MR, which bound windows forbid */
	if (atomic_read(&old->mw_bound))
		return ERR_PTR(-EBUSY);
	if (!(flags & IB_MR_REREG_TRANS)) {
		start = old->umem->address;
		length = old->length;
		iova = old->iova;
	}
	if (!(flags & IB_MR_REREG_ACCESS))
		access = old->access;
	if (!(flags & IB_MR_REREG_PD))
		pd = ibmr->pd;
	mr = rue_mr_new_user(pd, start, length, iova, access,
			     old->job_only ? old->job : U32_MAX);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	return rue_mr_user_resp(mr, udata);
}

static struct ib_mr *rue_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
				  u32 max_num_sg)
{
	struct rue_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > RUE_MAX_FRWR_PAGES)
		return ERR_PTR(-EINVAL);

	mr = rue_mr_alloc(RUE_MR_FRWR, GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->addrs = kvcalloc(max_num_sg, sizeof(*mr->addrs), GFP_KERNEL);
	if (!mr->addrs) {
		kfree(mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->max_pages = max_num_sg;
	err = rue_mr_publish(to_rue_dev(pd->device), mr, pd, RUE_MR_FREE);
	if (err) {
		rue_mr_release(&mr->release_work);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

static int rue_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct rue_mr *mr = to_rue_mr(ibmr);

	if (mr->npages >= mr->max_pages)
		return -ENOMEM;
	mr->addrs[mr->npages++] = addr;
	return 0;
}

static int rue_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
			 int sg_nents, unsigned int *sg_offset)
{
	struct rue_mr *mr = to_rue_mr(ibmr);

	mr->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, rue_set_page);
}

/**
 * rue_mr_reg_frwr() - execute a REG_MR work request (IBTA 10.7.2.2)
 * @mr: a fast-registration MR with pages mapped by map_mr_sg
 * @pd: the posting QP's PD
 * @key: the new key; its index part must be the MR's
 * @access: IB_ACCESS_* for the registration
 */
int rue_mr_reg_frwr(struct rue_mr *mr, struct ib_pd *pd, u32 key, int access)
{
	if (mr->type != RUE_MR_FRWR || mr->ibmr.pd != pd ||
	    (key >> 8) != mr->index || !mr->ibmr.page_size ||
	    !is_power_of_2(mr->ibmr.page_size))
		return -EINVAL;
	if (READ_ONCE(mr->state) == RUE_MR_VALID)
		return -EBUSY;
	mr->access = access;
	mr->iova = mr->ibmr.iova;
	mr->length = mr->ibmr.length;
	mr->page_shift = ilog2(mr->ibmr.page_size);
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	/* Publish the new layout before the receive path may use it. */
	smp_store_release(&mr->state, RUE_MR_VALID);
	return 0;
}

/**
 * rue_mr_invalidate() - LOCAL_INV, or SEND_WITH_INV from the wire
 * @qp: the QP that executes it
 * @key: the key to invalidate
 * @remote: the key came in a packet (it must be an rkey of a
 *	fast-registration MR or a type 2 memory window the remote could
 *	access)
 */
int rue_mr_invalidate(struct ib_qp *qp, u32 key, bool remote)
{
	enum rue_mr_err err;
	struct rue_mr *mr;
	int ret;

	ret = rue_mw_invalidate(qp, key, remote);
	if (ret != -ENOENT)
		return ret;
	mr = rue_mr_get(to_rue_dev(qp->device), key, remote, qp->pd, 0, &err);
	if (!mr)
		return -EINVAL;
	if (mr->type != RUE_MR_FRWR) {
		rue_mr_put(mr);
		return -EINVAL;
	}
	/* ordered after the lookups that validated the key */
	smp_store_release(&mr->state, RUE_MR_FREE);
	rue_mr_put(mr);
	return 0;
}

/**
 * rue_mr_still() - whether a region a message holds is still the one it
 * started on
 * @mr: the region, referenced since the message's first packet
 * @key: the key the message named
 *
 * A reference keeps the memory, not the right to reach it: a consumer
 * may invalidate, deregister or register the MR again (with a new key)
 * while a multi-packet WRITE or a READ response is under way, and then
 * reuse its pages.  Each packet asks this before it touches the memory.
 */
bool rue_mr_still(const struct rue_mr *mr, u32 key)
{
	/* pairs with rue_mr_reg_frwr() publishing the new layout */
	return smp_load_acquire(&mr->state) == RUE_MR_VALID &&
	       READ_ONCE(mr->ibmr.rkey) == key;
}

/* IBTA 10.6.7.2: an MR with memory windows bound to it stays. */
static int rue_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct rue_mr *mr = to_rue_mr(ibmr);

	/* under the lock a bind checks the MR's state under (mw.c) */
	xa_lock_bh(&mr->rdev->mrs);
	if (atomic_read(&mr->mw_bound)) {
		xa_unlock_bh(&mr->rdev->mrs);
		return -EBUSY;
	}
	__xa_erase(&mr->rdev->mrs, mr->index);
	WRITE_ONCE(mr->state, RUE_MR_FREE);
	xa_unlock_bh(&mr->rdev->mrs);
	rue_mr_put(mr);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Self-test                                                           */

/*
 * A fast-registration MR with pages smaller than the CPU's (a consumer's
 * map_mr_sg() may pick any power of two): two 512-byte MR pages at
 * unrelated places in two CPU pages.  A copy across the MR page boundary
 * must continue at the second one, not run on in the first.
 */
static int rue_mr_test_small_pages(void)
{
	const u32 psize = 512, len = 2 * psize;
	u8 *buf, *p0, *p1;
	struct rue_mr mr = {
		.type = RUE_MR_FRWR,
		.page_shift = ilog2(psize),
		.iova = 0x10000,
		.length = len,
		.npages = 2,
	};
	u64 addrs[2];
	int err = -ENOMEM;
	u32 i;

	buf = kmalloc(len, GFP_KERNEL);
	p0 = (u8 *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	p1 = (u8 *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	if (!buf || !p0 || !p1)
		goto out;
	for (i = 0; i < len; i++)
		buf[i] = i % 251 + 1;
	addrs[0] = (uintptr_t)p0;
	addrs[1] = (uintptr_t)p1 + 3 * psize;
	mr.addrs = addrs;
	err = rue_mr_copy_from_buf(&mr, mr.iova, buf, len);
	if (!err && (memcmp(p0, buf, psize) || p0[psize] ||
		     memcmp(p1 + 3 * psize, buf + psize, psize)))
		err = -ENOTRECOVERABLE;
out:
	free_page((unsigned long)p1);
	free_page((unsigned long)p0);
	kfree(buf);
	return err;
}

int rue_mr_init(void)
{
	rue_mr_wq = alloc_workqueue("rue_mr", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return rue_mr_wq ? 0 : -ENOMEM;
}

/* After every device is gone: wait for the last releases. */
void rue_mr_exit(void)
{
	destroy_workqueue(rue_mr_wq);
}

/**
 * rue_mr_selftest() - how regions are walked, at module load
 *
 * Return: 0, -ENOMEM, or -ENOTRECOVERABLE when a walk is wrong.
 */
int rue_mr_selftest(void)
{
	int err = rue_mr_test_small_pages();

	if (err)
		pr_err("memory region self-test failed: %d\n", err);
	return err;
}

static const struct ib_device_ops rue_mr_ops = {
	.alloc_mr = rue_alloc_mr,
	.dereg_mr = rue_dereg_mr,
	.get_dma_mr = rue_get_dma_mr,
	.map_mr_sg = rue_map_mr_sg,
	.reg_user_mr = rue_reg_user_mr,
	.rereg_user_mr = rue_rereg_user_mr,
};

void rue_mr_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_mr_ops);
}
