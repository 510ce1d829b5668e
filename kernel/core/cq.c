// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues.
 *
 * A CQ is a ring of struct rue_cqe.  The kernel is its only producer; the
 * consumer is librue (user CQs, polling the mapped ring without system
 * calls) or the kernel's poll_cq (kernel CQs).  Notification requests are
 * a word in the ring header that the consumer sets and the producer
 * clears when it fires the completion event, so arming a user CQ costs
 * no system call either.
 *
 * Ordering against a consumer that arms and then polls again: the
 * producer publishes prod (release), issues a full barrier and reads the
 * notify word; the consumer writes the word (sequentially consistent) and
 * then reads prod.  Either the producer sees the request, or the consumer
 * sees the new completion.
 */
#include <linux/log2.h>
#include <rdma/uverbs_ioctl.h>

#include "caps.h"
#include "compat.h"
#include "cq.h"
#include "verbs.h"

/*
 * Producers run with bottom halves disabled (under a QP lock taken with
 * spin_lock_bh()).  A kernel CQ may also be polled from any context, hard
 * interrupts included, so its lock saves interrupts; a user CQ is only
 * touched by producers and, for resize, by process context with bottom
 * halves off, so a plain spinlock does.
 */
static void rue_cq_lock(struct rue_cq *cq, unsigned long *flags)
	__acquires(&cq->lock)
{
	if (cq->user)
		spin_lock(&cq->lock);
	else
		spin_lock_irqsave(&cq->lock, *flags);
}

static void rue_cq_unlock(struct rue_cq *cq, unsigned long flags)
	__releases(&cq->lock)
{
	if (cq->user)
		spin_unlock(&cq->lock);
	else
		spin_unlock_irqrestore(&cq->lock, flags);
}

/*
 * Whether the event due for a completion waits (moderation); cq->lock
 * held.  Solicited and error completions never wait.
 */
static bool rue_cq_hold_event(struct rue_cq *cq)
{
	if (cq->mod_count <= 1)
		return false;
	if (++cq->mod_held >= cq->mod_count) {
		cq->mod_held = 0;
		hrtimer_try_to_cancel(&cq->mod_timer);
		return false;
	}
	if (cq->mod_held == 1 && cq->mod_period)
		hrtimer_start(&cq->mod_timer,
			      ns_to_ktime((u64)cq->mod_period * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_SOFT);
	return true;
}

/* The period ran out: the event of the completions held is due now. */
static enum hrtimer_restart rue_cq_mod_expired(struct hrtimer *timer)
{
	struct rue_cq *cq = container_of(timer, struct rue_cq, mod_timer);
	u32 clear = RUE_CQ_F_NOTIFY_NEXT | RUE_CQ_F_NOTIFY_SOLICITED;
	unsigned long irqflags = 0;
	bool notify = false;
	u32 flags;

	rue_cq_lock(cq, &irqflags);
	flags = READ_ONCE(cq->ring.hdr->flags);
	if (cq->mod_held && (flags & RUE_CQ_F_NOTIFY_NEXT))
		notify = cmpxchg(&cq->ring.hdr->flags, flags,
				 flags & ~clear) == flags;
	cq->mod_held = 0;
	rue_cq_unlock(cq, irqflags);
	if (notify)
		rue_cq_notify(cq);
	return HRTIMER_NORESTART;
}

/**
 * rue_cq_post() - add a completion
 * @cq: the CQ
 * @cqe: the completion
 * @solicited: the completion satisfies a solicited-only notification
 * @notify: set when a requested completion event is now due
 *
 * Callable from any context but hard interrupt, with QP locks held.  The
 * completion event itself is fired by rue_cq_notify(), which the caller
 * runs once it holds no lock, because a consumer's handler may post work
 * requests or poll.
 *
 * Return: 0, or -ENOSPC when the CQ overflowed; the caller then moves the
 * QP to the error state (IBTA 10.8.3.2).  -ENOBUFS: the CQ was full and
 * ignores overruns (IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN), the completion
 * is lost, nothing else happens.
 */
int rue_cq_post(struct rue_cq *cq, const struct rue_cqe *cqe, bool solicited,
		bool *notify)
{
	struct rue_ring_hdr *hdr = cq->ring.hdr;
	unsigned long irqflags = 0;
	struct rue_cqe *slot;
	u32 cons, flags;
	bool urgent;

	rue_cq_lock(cq, &irqflags);
	cons = cq->user ? READ_ONCE(hdr->cons) : cq->cons;
	/* A user consumer index we cannot believe counts as full. */
	if (cq->overflowed || cq->prod - cons >= cq->ring.nslots) {
		bool first = !cq->overflowed;

		/* its consumer vouched for its pace: the CQE is dropped */
		if (cq->ignore_overrun) {
			rue_cq_unlock(cq, irqflags);
			return -ENOBUFS;
		}

		cq->overflowed = true;
		WRITE_ONCE(hdr->flags, READ_ONCE(hdr->flags) | RUE_CQ_F_OVERFLOW);
		rue_cq_unlock(cq, irqflags);
		if (first && cq->ibcq.event_handler) {
			struct ib_event ev = {
				.device = cq->ibcq.device,
				.element.cq = &cq->ibcq,
				.event = IB_EVENT_CQ_ERR,
			};

			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		}
		return -ENOSPC;
	}

	slot = rue_ring_slot(&cq->ring, cq->prod);
	memcpy(slot, cqe, sizeof(*cqe));
	if (cq->timestamps)
		slot->timestamp = ktime_get_ns();
	cq->prod++;
	/*
	 * The CQE before the index; the index before reading the notify
	 * word (pairs with the consumer arming, then polling again).
	 */
	smp_store_release(&hdr->prod, cq->prod);
	/* prod before flags: see the comment at the top of the file */
	smp_mb();
	flags = READ_ONCE(hdr->flags);
	urgent = solicited || cqe->status != IB_WC_SUCCESS;
	if (((flags & RUE_CQ_F_NOTIFY_NEXT) ||
	     ((flags & RUE_CQ_F_NOTIFY_SOLICITED) && urgent)) &&
	    (urgent || !rue_cq_hold_event(cq))) {
		u32 clear = RUE_CQ_F_NOTIFY_NEXT | RUE_CQ_F_NOTIFY_SOLICITED;

		if (cmpxchg(&hdr->flags, flags, flags & ~clear) == flags)
			*notify = true;
		cq->mod_held = 0;
	}
	rue_cq_unlock(cq, irqflags);
	return 0;
}

/* Fire the completion event rue_cq_post() found due.  No locks held. */
void rue_cq_notify(struct rue_cq *cq)
{
	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static_assert(sizeof(struct rue_cqe) == 64);
static_assert(RUE_RING_DATA_OFFSET + (size_t)RUE_MAX_CQE * sizeof(struct rue_cqe) <=
	      RUE_RING_MAX_BYTES);

static u32 rue_cq_slots(int cqe)
{
	return roundup_pow_of_two(max(cqe, 1));
}

static int rue_cq_setup_user(struct rue_cq *cq, struct ib_udata *udata,
			     struct rue_ring *ring, bool resize)
{
	struct rue_ucontext *uc =
		rdma_udata_to_drv_context(udata, struct rue_ucontext, ibuc);
	u64 offset;
	int err;

	err = rue_ring_map_user(ring, &uc->ibuc, &offset);
	if (err)
		return err;

	if (resize) {
		struct rue_resize_cq_resp resp = {
			.ring_offset = offset,
			.ring_size = ring->size,
			.num_slots = ring->nslots,
		};

		err = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
	} else {
		struct rue_create_cq_resp resp = {
			.ring_offset = offset,
			.ring_size = ring->size,
			.num_slots = ring->nslots,
			.cqe_size = sizeof(struct rue_cqe),
		};

		err = ib_copy_to_udata(udata, &resp,
				       min(sizeof(resp), udata->outlen));
	}
	return err;
}

static int rue_check_cq_cmd(struct ib_udata *udata)
{
	struct rue_create_cq_cmd cmd = {};
	int err;

	if (!udata->inlen)
		return 0;
	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd), udata->inlen - sizeof(cmd)))
		return -EOPNOTSUPP;
	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
	return cmd.comp_mask ? -EOPNOTSUPP : 0;
}

#ifdef RUE_CREATE_CQ_ATTRS
static int rue_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			 struct uverbs_attr_bundle *attrs)
{
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
#else
static int rue_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			 struct ib_udata *udata)
{
#endif
	struct rue_cq *cq = to_rue_cq(ibcq);
	int err;

	/* libibverbs asks for timestamps when the CQ reads them */
	if (attr->flags & ~(IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION |
			    IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN))
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > RUE_MAX_CQE)
		return -EINVAL;
	if (udata) {
		err = rue_check_cq_cmd(udata);
		if (err)
			return err;
	}

	spin_lock_init(&cq->lock);
	cq->user = !!udata;
	cq->timestamps = udata &&
		(attr->flags & IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION);
	cq->ignore_overrun = attr->flags & IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN;
	hrtimer_init(&cq->mod_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	cq->mod_timer.function = rue_cq_mod_expired;
	err = rue_ring_alloc(&cq->ring, rue_cq_slots(attr->cqe),
			     sizeof(struct rue_cqe));
	if (err)
		return err;

	if (udata) {
		err = rue_cq_setup_user(cq, udata, &cq->ring, false);
		if (err) {
			rue_ring_free(&cq->ring);
			return err;
		}
	}
	ibcq->cqe = cq->ring.nslots;
	return 0;
}

static int rue_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct rue_cq *cq = to_rue_cq(ibcq);

	/* no QP posts here any more; the timer is the last user */
	hrtimer_cancel(&cq->mod_timer);
	rue_ring_free(&cq->ring);
	return 0;
}

/*
 * Event moderation: the event of an armed CQ waits for @count
 * completions, or @period microseconds after the first; a solicited or
 * error completion does not wait.  @count 0 or 1 turns it off.
 */
static int rue_modify_cq(struct ib_cq *ibcq, u16 count, u16 period)
{
	struct rue_cq *cq = to_rue_cq(ibcq);
	unsigned long irqflags = 0;

	rue_cq_lock(cq, &irqflags);
	cq->mod_count = count;
	cq->mod_period = period;
	rue_cq_unlock(cq, irqflags);
	return 0;
}

/*
 * Move the unpolled completions to a ring of the new size.  A user
 * consumer switches to the new ring when this returns (librue holds its
 * CQ lock across the call, so it polls neither ring meanwhile).
 */
static int rue_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct rue_cq *cq = to_rue_cq(ibcq);
	struct rue_ring ring, old;
	unsigned long irqflags = 0;
	u32 cons, n, i;
	int err;

	if (cqe < 1 || cqe > RUE_MAX_CQE)
		return -EINVAL;
	err = rue_ring_alloc(&ring, rue_cq_slots(cqe), sizeof(struct rue_cqe));
	if (err)
		return err;

	local_bh_disable();
	rue_cq_lock(cq, &irqflags);
	cons = cq->user ? READ_ONCE(cq->ring.hdr->cons) : cq->cons;
	n = cq->prod - cons;
	if (n > cq->ring.nslots || n > ring.nslots) {
		rue_cq_unlock(cq, irqflags);
		local_bh_enable();
		rue_ring_free(&ring);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		memcpy(rue_ring_slot(&ring, i),
		       rue_ring_slot(&cq->ring, cons + i), sizeof(struct rue_cqe));
	ring.hdr->prod = n;
	ring.hdr->flags = cq->ring.hdr->flags & ~RUE_CQ_F_OVERFLOW;
	old = cq->ring;
	cq->ring = ring;
	cq->prod = n;
	cq->cons = 0;
	rue_cq_unlock(cq, irqflags);
	local_bh_enable();

	if (udata) {
		err = rue_cq_setup_user(cq, udata, &cq->ring, true);
		if (err) {
			/*
			 * Completions now live in the new ring, which user
			 * space cannot map: the CQ is lost to it.  Keep the
			 * kernel consistent and report the failure.
			 */
			rue_ring_free(&old);
			return err;
		}
	}
	rue_ring_free(&old);
	ibcq->cqe = cq->ring.nslots;
	return 0;
}

static void rue_cqe_to_wc(const struct rue_cqe *cqe, struct ib_wc *wc)
{
	struct ib_qp *qp;

	memcpy(&qp, cqe->reserved1, sizeof(qp));
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = cqe->wr_id;
	wc->status = cqe->status;
	wc->vendor_err = cqe->vendor_err;
	wc->byte_len = cqe->byte_len;
	wc->qp = qp;
	wc->src_qp = cqe->src_qp;
	wc->pkey_index = cqe->pkey_index;
	wc->sl = cqe->sl;
	wc->port_num = 1;

	switch (cqe->opcode) {
	case RUE_WC_REG_MR:
		wc->opcode = IB_WC_REG_MR;
		break;
	default:
		/* The other values are ib_wc_opcode's. */
		wc->opcode = cqe->opcode;
		break;
	}
	if (cqe->flags & RUE_CQE_F_IMM) {
		wc->ex.imm_data = (__force __be32)(u32)cqe->imm;
		wc->wc_flags |= IB_WC_WITH_IMM;
	}
	if (cqe->flags & RUE_CQE_F_INV) {
		wc->ex.invalidate_rkey = (u32)cqe->imm;
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
	}
	if (cqe->flags & RUE_CQE_F_GRH) {
		wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
		wc->network_hdr_type = (cqe->flags & RUE_CQE_F_IPV4) ?
				       RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
	}
}

static int rue_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct rue_cq *cq = to_rue_cq(ibcq);
	unsigned long irqflags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	while (n < num_entries && cq->cons != cq->prod) {
		rue_cqe_to_wc(rue_ring_slot(&cq->ring, cq->cons), &wc[n++]);
		cq->cons++;
	}
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return n;
}

static int rue_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct rue_cq *cq = to_rue_cq(ibcq);
	u32 want = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED ?
		   RUE_CQ_F_NOTIFY_SOLICITED : RUE_CQ_F_NOTIFY_NEXT;
	unsigned long irqflags = 0;
	int ret = 0;

	local_bh_disable();
	rue_cq_lock(cq, &irqflags);
	WRITE_ONCE(cq->ring.hdr->flags, READ_ONCE(cq->ring.hdr->flags) | want);
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && !cq->user &&
	    cq->cons != cq->prod)
		ret = 1;
	rue_cq_unlock(cq, irqflags);
	local_bh_enable();
	return ret;
}

static const struct ib_device_ops rue_cq_ops = {
	.create_cq = rue_create_cq,
	.destroy_cq = rue_destroy_cq,
	.modify_cq = rue_modify_cq,
	.poll_cq = rue_poll_cq,
	.req_notify_cq = rue_req_notify_cq,
	.resize_cq = rue_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, rue_cq, ibcq),
};

void rue_cq_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_cq_ops);
}
