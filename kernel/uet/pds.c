// SPDX-License-Identifier: GPL-2.0
/*
 * UET Packet Delivery Sublayer (UE 1.0.1 section 3.5): the PDC object
 * and what the PDS files share.
 *
 * A PDC carries one initiator's requests to one target and the target's
 * acknowledgements back.  It is set up in band: the initiator picks its
 * PDCID and a random start PSN and sends SYN requests, each saying how
 * far its PSN is from the start; the target creates its side on the
 * first SYN it sees and names its own PDCID in every ACK, after which
 * the initiator sends without SYN (3.5.8.2).  The initiator closes an
 * idle PDC with a CTRL CLOSE; the target frees its side when the CLOSE
 * arrives in order, or after a while without traffic.
 *
 * Files: pds.c (this one: PDC objects, lookup and publishing, sending
 * PDS packets, the receive dispatch, listing, a device's PDS), pds_ini.c
 * (initiator: window, resends, RTO, tail-loss probes, CLOSE), pds_ack.c
 * (what an initiator learns from ACKs and NACKs), pds_tgt.c (target:
 * SYN, delivery once, ACKs and NACKs, the reaper).
 *
 * The layer above.  PDS hands SES requests, responses and the end of
 * PDCs through struct rue_pds_upcalls only, which SES registers with
 * rue_pds_dev_init(); SES calls PDS through pds.h and pds_ini.h.  A PDC
 * is opaque outside the PDS files (pdc.h).
 *
 * Locking: an initiator PDC's state is its QP's req.lock; a target PDC's
 * is pdc->lock, taken before the target QP's resp.lock.  PDCs are found
 * by local PDCID under RCU and freed after a grace period.  Packets are
 * built under those locks and sent once they are dropped
 * (rue_pds_prepare(), rue_pds_send_one()).
 */
#include <linux/ipv6.h>
#include <linux/random.h>
#include <net/inet_ecn.h>
#include <rdma/rue-abi.h>

#include "pdc.h"
#include "pds_ack.h"
#include "pds_reap.h"
#include "pds_tgt.h"
#include "uet.h"
#include "uet_stats.h"
#include "cc/cc.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/stats.h"
#include "net/xmit.h"

/* the tracepoints' one definition; no header after it */
#define CREATE_TRACE_POINTS
#include "uet_trace.h"

static void rue_pdc_free_rcu(struct rcu_head *rcu)
{
	struct rue_pdc *pdc = container_of(rcu, struct rue_pdc, rcu);

	/* the leak oracle of the tests, with "created" */
	pr_debug("PDC %u freed\n", pdc->lid);
	dst_cache_destroy(&pdc->dst_cache);
	if (atomic_dec_and_test(&pdc->rdev->uet.nr_alloc))
		wake_up_var(&pdc->rdev->uet.nr_alloc);
	kfree(pdc);
}

/* The last reference frees the PDC a grace period later (RCU lookups). */
void rue_pdc_put(struct rue_pdc *pdc)
{
	if (refcount_dec_and_test(&pdc->ref))
		call_rcu(&pdc->rcu, rue_pdc_free_rcu);
}

/**
 * rue_pdc_cc() - what NSCC did to an initiator PDC's window, counted
 *	and traced
 * @pdc: the PDC, under its QP's req.lock
 * @why: what NSCC was told
 * @ev: what it did, RUE_NSCC_EV_* bits
 */
void rue_pdc_cc(struct rue_pdc *pdc, enum rue_pdc_cc_why why, unsigned int ev)
{
	if (ev & RUE_NSCC_EV_INCREASE)
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_CWND_INCREASES);
	if (ev & (RUE_NSCC_EV_DECREASE | RUE_NSCC_EV_QUICK_ADAPT))
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_CWND_DECREASES);
	trace_rue_uet_cc(pdc, why, ev);
}

/**
 * rue_pdc_lost() - an initiator PDC lost packets: NSCC's loss response
 * @pdc: the PDC, under its QP's req.lock
 * @why: how the loss was found (not RUE_CC_ACK)
 */
void rue_pdc_lost(struct rue_pdc *pdc, enum rue_pdc_cc_why why)
{
	rue_pdc_cc(pdc, why, rue_nscc_on_loss(&pdc->cc, &pdc->cc_cfg,
					      ktime_get_ns()));
}

/*
 * A random PDCID (3.5.8.2; 0 is never one), reserved: rue_pdc_publish()
 * stores the PDC when it is set up.  Random tries first, so that an
 * off-path sender cannot guess the next one; a device with most of its
 * 65,535 taken (more than 16 misses in a row: about one in a hundred at
 * three quarters) takes the first free one after a random point rather
 * than failing while PDCIDs are left.
 */
static int rue_pdc_reserve_id(struct rue_dev *rdev, u16 *lid)
{
	u32 id, next;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		id = get_random_u16();
		if (id && !xa_insert_bh(&rdev->uet.pdcs, id, NULL, GFP_ATOMIC)) {
			*lid = id;
			return 0;
		}
	}
	next = get_random_u16();
	if (xa_alloc_cyclic_bh(&rdev->uet.pdcs, &id, NULL,
			       XA_LIMIT(1, U16_MAX), &next, GFP_ATOMIC) < 0)
		return -ENOSPC;
	*lid = id;
	return 0;
}

/*
 * A new PDC of @role towards @av, with SES's state and a PDCID reserved
 * but not findable yet (rue_pdc_publish()); NULL when out of memory or
 * PDCIDs.  Any context: @gfp atomic, with __GFP_ACCOUNT to charge the
 * PDC to the active memory cgroup.
 */
struct rue_pdc *rue_pdc_alloc(struct rue_dev *rdev, u8 role, u8 mode, gfp_t gfp,
			      u32 job, const struct rue_av *av)
{
	struct rue_pdc *pdc;

	pdc = kzalloc(sizeof(*pdc), gfp);
	if (!pdc)
		return NULL;
	if (dst_cache_init(&pdc->dst_cache, gfp))
		goto err_free;
	pdc->ses = rdev->uet.up->pdc_open(role == RUE_PDC_TARGET, gfp);
	if (!pdc->ses)
		goto err_dst;
	pdc->rdev = rdev;
	refcount_set(&pdc->ref, 1);
	spin_lock_init(&pdc->lock);
	pdc->role = role;
	pdc->mode = mode;
	pdc->job = job;
	pdc->av = *av;
	WRITE_ONCE(pdc->last_rx, jiffies);

	if (!rue_pdc_reserve_id(rdev, &pdc->lid)) {
		atomic_inc(&rdev->uet.nr_alloc);
		pr_debug("PDC %u created\n", pdc->lid);
		return pdc;
	}
	rdev->uet.up->pdc_close(pdc->ses, role == RUE_PDC_TARGET);
err_dst:
	dst_cache_destroy(&pdc->dst_cache);
err_free:
	kfree(pdc);
	return NULL;
}

/* Publish last: the receive path finds the PDC from here on. */
void rue_pdc_publish(struct rue_pdc *pdc)
{
	/* into the reserved slot: allocates nothing, cannot fail */
	xa_store_bh(&pdc->rdev->uet.pdcs, pdc->lid, pdc, GFP_ATOMIC);
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_OPENED);
}

/* Unpublish: no new lookups; the caller's reference is dropped later. */
void rue_pdc_unpublish(struct rue_pdc *pdc)
{
	xa_erase_bh(&pdc->rdev->uet.pdcs, pdc->lid);
}

/* The PDC dies: SES forgets it, under the lock its state lives under. */
void rue_pdc_ses_close(struct rue_pdc *pdc)
{
	pdc->rdev->uet.up->pdc_close(pdc->ses, pdc->role == RUE_PDC_TARGET);
	pdc->ses = NULL;
}

/**
 * rue_pdc_ses() - SES's state of a PDC (struct rue_pds_upcalls.pdc_open)
 * @pdc: a live PDC, under the lock its state lives under
 */
void *rue_pdc_ses(const struct rue_pdc *pdc)
{
	return pdc->ses;
}

/*
 * The live PDC @lid names for a packet from @rx's sender, referenced: of
 * role @role, with that peer (and for a target, that initiator PDCID).
 */
struct rue_pdc *rue_pdc_lookup(struct rue_dev *rdev, u16 lid, u8 role,
			       const struct rue_uet_rx *rx)
{
	struct rue_pdc *pdc = xa_load(&rdev->uet.pdcs, lid);

	if (!pdc || pdc->role != role || pdc->dead ||
	    !ipv6_addr_equal(&pdc->av.daddr, &rx->av.daddr))
		return NULL;
	if (role == RUE_PDC_TARGET && pdc->rid != rx->spdcid)
		return NULL;
	return refcount_inc_not_zero(&pdc->ref) ? pdc : NULL;
}

/*
 * The QP of an initiator PDC, referenced; NULL once the PDC was dropped
 * from it (the QP is freed a grace period after rue_pds_qp_drop()).
 */
struct rue_qp *rue_pdc_qp_get(struct rue_pdc *pdc)
{
	struct rue_qp *qp;

	rcu_read_lock();
	qp = READ_ONCE(pdc->qp);
	if (qp && !refcount_inc_not_zero(&qp->refcnt))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

/* ------------------------------------------------------------------ */
/* Sending PDS packets                                                 */

/**
 * rue_pds_sport() - the UDP source port of a flow's path
 * @flow: what tells flows apart (a PDC's local ID, a QP's PIDonFEP)
 * @path: which of its paths
 *
 * Entropy (UE 1.0.1 3.5.2), from the dynamic port range.
 */
__be16 rue_pds_sport(u32 flow, u32 path)
{
	return cpu_to_be16(0xc000 | (jhash_2words(flow, path, 0x5eed) & 0x3fff));
}

static __be16 rue_pdc_sport(const struct rue_pdc *pdc, u32 psn)
{
	/*
	 * Sent after req.lock was dropped, so rue_pdc_ini_drop() may clear
	 * pdc->qp meanwhile: read it once.  The QP is freed a grace period
	 * after that, and bottom halves are off here.
	 */
	const struct rue_qp *qp = READ_ONCE(pdc->qp);
	u32 n = qp ? max_t(u32, qp->uet.pds.entropy, 1) : 1;

	/* RUD sprays over n source ports; ROD keeps one path (3.5.2). */
	if (pdc->mode == RUE_UET_MODE_ROD)
		n = 1;
	return rue_pds_sport(pdc->lid, psn % n);
}

/**
 * rue_pds_xmit() - send a UET packet of @pdc
 * @pdc: the PDC
 * @skb: PDS header onwards; consumed
 * @psn: its PSN (entropy)
 * @ect: data: ECN-capable transport
 *
 * Bottom halves disabled.
 */
void rue_pds_xmit(struct rue_pdc *pdc, struct sk_buff *skb, u32 psn,
		  bool ect)
{
	const struct rue_cc_cfg *cfg;
	u8 tos;

	/* DSCP, priority and ECT as the device's settings say (cc.c) */
	rcu_read_lock();
	cfg = rcu_dereference(pdc->rdev->cc);
	tos = ect ? rue_cc_data_tos(cfg, pdc->av.tclass) :
		    pdc->av.tclass & ~INET_ECN_MASK;
	skb->priority = rue_cc_prio(cfg, pdc->av.tclass);
	rcu_read_unlock();
	rue_xmit_uet(pdc->rdev, &pdc->av, &pdc->dst_cache,
		     rue_pdc_sport(pdc, psn), skb, tos);
}

/*
 * Packets are built under the lock of their PDC's state and sent after
 * it is dropped: skb->cb says where to, holding a reference on the PDC.
 */
struct rue_pds_cb {
	struct rue_pdc *pdc;		/* referenced */
	u32 psn;
};

static struct rue_pds_cb *rue_pds_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct rue_pds_cb) > sizeof(skb->cb));
	return (struct rue_pds_cb *)skb->cb;
}

/* @skb goes out once the lock is dropped, by rue_pds_send_one(). */
void rue_pds_prepare(struct sk_buff *skb, struct rue_pdc *pdc, u32 psn)
{
	refcount_inc(&pdc->ref);
	rue_pds_cb(skb)->pdc = pdc;
	rue_pds_cb(skb)->psn = psn;
}

/**
 * rue_pds_queue() - a request packet to send once the lock is dropped
 * @q: the caller's queue, for rue_pds_send_queued()
 * @skb: PDS header onwards
 * @pdc: its PDC, under the lock its state lives under
 * @psn: its PSN
 */
void rue_pds_queue(struct sk_buff_head *q, struct sk_buff *skb,
		   struct rue_pdc *pdc, u32 psn)
{
	rue_pds_prepare(skb, pdc, psn);
	__skb_queue_tail(q, skb);
}

/* Send a packet rue_pds_prepare() set up; bottom halves disabled. */
void rue_pds_send_one(struct sk_buff *skb)
{
	struct rue_pdc *pdc = rue_pds_cb(skb)->pdc;
	u32 psn = rue_pds_cb(skb)->psn;

	memset(skb->cb, 0, sizeof(skb->cb));
	rue_pds_xmit(pdc, skb, psn, true);
	rue_pdc_put(pdc);
}

/**
 * rue_pds_send_queued() - send what rue_pds_queue() queued
 * @q: the queue, emptied; no PDC lock held
 */
void rue_pds_send_queued(struct sk_buff_head *q)
{
	struct sk_buff *skb;

	local_bh_disable();
	while ((skb = __skb_dequeue(q)))
		rue_pds_send_one(skb);
	local_bh_enable();
}

/**
 * rue_pds_ctrl_alloc() - a CTRL packet of a PDC, its header filled
 * @pdc: the PDC, under the lock its state lives under
 * @type: the CTRL type (enum rue_pds_ctl_type)
 * @flags: RETX, AR; ISROD is added for a ROD PDC
 * @c: the header, for the caller's psn, probe_opaque and payload
 *
 * Return: the packet (PDS header only), or NULL without memory.
 */
struct sk_buff *rue_pds_ctrl_alloc(struct rue_pdc *pdc, u8 type, u8 flags,
				   struct rue_pds_ctrl **c)
{
	struct sk_buff *skb;

	skb = rue_xmit_alloc(pdc->rdev, sizeof(**c), GFP_ATOMIC);
	if (!skb)
		return NULL;
	if (pdc->mode == RUE_UET_MODE_ROD)
		flags |= RUE_PDS_CTRL_ISROD;
	*c = skb_put_zero(skb, sizeof(**c));
	(*c)->prologue = rue_pds_prologue(RUE_PDS_CTRL, type, flags);
	(*c)->spdcid = cpu_to_be16(pdc->lid);
	(*c)->dpdcid = cpu_to_be16(pdc->rid);
	return skb;
}

/**
 * rue_pds_req_fill() - the PDS request header of a packet
 * @pdc: an initiator PDC, its QP's req.lock held
 * @h: where it goes
 * @psn: the packet's PSN
 * @ar: ask for an ACK now
 * @retx: a retransmission
 */
void rue_pds_req_fill(const struct rue_pdc *pdc, struct rue_pds_req *h,
		      u32 psn, bool ar, bool retx)
{
	u8 type = pdc->mode == RUE_UET_MODE_ROD ? RUE_PDS_ROD_REQ :
						  RUE_PDS_RUD_REQ;
	u8 flags = (ar ? RUE_PDS_REQ_AR : 0) | (retx ? RUE_PDS_REQ_RETX : 0);

	/*
	 * CLEAR_PSN = psn + clear_psn_offset (3.5.11.4.4): every answer up
	 * to it is in, so a target that keeps answers may free them.  Never
	 * positive; una_psn - 1 at most RUE_PDC_WIN behind any PSN sent.
	 */
	h->clear_psn_offset = cpu_to_be16((u16)(pdc->una_psn - 1 - psn));
	h->psn = cpu_to_be32(psn);
	h->spdcid = cpu_to_be16(pdc->lid);
	if (pdc->syn) {
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_SYN_SENT);
		flags |= RUE_PDS_REQ_SYN;
		/* pdc_info 0; psn - start < RUE_PDC_WIN until the first ACK */
		h->dpdcid = cpu_to_be16((psn - pdc->start_psn) &
					RUE_PDS_SYN_PSN_OFFSET);
	} else {
		h->dpdcid = cpu_to_be16(pdc->rid);
	}
	h->prologue = rue_pds_prologue(type, RUE_PDS_NEXT_REQ_STD, flags);
}

/* ------------------------------------------------------------------ */
/* Receive, listing                                                    */

/* @len bytes of the packet in its head, if it has them. */
bool rue_pds_pull(struct sk_buff *skb, unsigned int len)
{
	return skb->len >= len && pskb_may_pull(skb, len);
}

/*
 * A small or medium SES request header @p (next_hdr @next) as the
 * standard one it abbreviates (UE 1.0.1 3.4.2): bytes 2-3 are its
 * request_length, not a message_id; the medium's first word is
 * header_data with HD, else buffer_offset; the small one has neither
 * initiator nor memory key.  What it lacks stays zero, but for the
 * missing buffer_offset: that means the target buffer's start, which
 * rx->at_start says (rue's MRs are addressed from their iova).
 */
static void rue_pds_ses_widen(struct rue_ses_std *s, const void *p, u8 next)
{
	const struct rue_ses_medium *m = p;
	const struct rue_ses_small *sm = p;	/* the medium's first 20 */

	memset(s, 0, sizeof(*s));
	s->opcode = m->opcode;
	s->flags = m->flags;
	s->ri_job = m->ri_job;
	s->pid_on_fep = m->pid_on_fep;
	s->resource_index = m->resource_index;
	s->request_length = cpu_to_be32(be16_to_cpu(m->request_length) &
					RUE_SES_PAYLEN_MASK);
	if (next == RUE_PDS_NEXT_REQ_SMALL) {
		s->buffer_offset = sm->buffer_offset;
		return;
	}
	if (m->flags & RUE_SES_F_HD)
		s->header_data = m->data_or_offset;
	else
		s->buffer_offset = m->data_or_offset;
	s->initiator = m->initiator;
	s->memory_key = m->memory_key;
}

/**
 * rue_pds_pull_ses() - pull a request's SES header, whichever of three
 * @rx: the request, data at the PDS header
 * @hlen: the PDS header's length
 * @next: its next_hdr
 *
 * Points rx->ses at a standard header: the packet's own, or for the
 * small and medium ones (a message in one packet, without message_id)
 * their widened copy in rx->ses_buf; rx->ses_kind says which it was.
 * Sets the payload's offset and length.
 *
 * Return: false when @next names no request header or the packet is
 * shorter than the one it names.
 */
bool rue_pds_pull_ses(struct rue_uet_rx *rx, unsigned int hlen, u8 next)
{
	unsigned int len;

	switch (next) {
	case RUE_PDS_NEXT_REQ_STD:
		len = sizeof(struct rue_ses_std);
		break;
	case RUE_PDS_NEXT_REQ_MEDIUM:
		len = sizeof(struct rue_ses_medium);
		break;
	case RUE_PDS_NEXT_REQ_SMALL:
		len = sizeof(struct rue_ses_small);
		break;
	default:
		return false;
	}
	if (!rue_pds_pull(rx->skb, hlen + len))
		return false;
	rx->ses_kind = next;
	rx->at_start = false;
	rx->pay_off = hlen + len;
	rx->paylen = rx->skb->len - rx->pay_off;
	if (next == RUE_PDS_NEXT_REQ_STD) {
		rx->ses = (const void *)(rx->skb->data + hlen);
	} else {
		rue_pds_ses_widen(&rx->ses_buf, rx->skb->data + hlen, next);
		rx->ses = &rx->ses_buf;
		rx->at_start = next == RUE_PDS_NEXT_REQ_MEDIUM &&
			       (rx->ses_buf.flags & RUE_SES_F_HD);
	}
	return true;
}

/*
 * A UUD request: no PDC, no PSN, nothing to acknowledge.  Its SES header
 * is pulled here, as for RUD and ROD (rue_pds_tgt_rcv_req()); SES takes
 * the message or drops it.
 */
static void rue_pds_uud_rcv(struct rue_dev *rdev, struct rue_uet_rx *rx)
{
	const struct rue_pds_uud *h = (const void *)rx->skb->data;

	if (!rue_pds_pull_ses(rx, sizeof(*h), rue_pds_next(h->prologue))) {
		rue_uet_stat_inc(rdev, RUE_USTAT_UUD_DROPPED);
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	rdev->uet.up->uud(rdev, rx);
}

/**
 * rue_pds_rcv() - a UET packet for @rdev
 * @rdev: the device
 * @rx: addresses filled, skb data at the PDS header
 *
 * Bottom halves disabled, under rcu_read_lock().
 */
void rue_pds_rcv(struct rue_dev *rdev, struct rue_uet_rx *rx)
{
	const struct rue_pds_req *h;
	u8 type;

	if (!rue_pds_pull(rx->skb, sizeof(__be16) * 2 + sizeof(__be32) +
				   sizeof(__be16) * 2)) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	h = (const void *)rx->skb->data;
	rx->spdcid = be16_to_cpu(h->spdcid);
	type = rue_pds_type(h->prologue);
	switch (type) {
	case RUE_PDS_RUD_REQ:
	case RUE_PDS_ROD_REQ:
		rue_pds_tgt_rcv_req(rdev, rx);
		break;
	case RUE_PDS_UUD_REQ:
		rue_pds_uud_rcv(rdev, rx);
		break;
	case RUE_PDS_CTRL:
		/* the CTRL types a target sends an initiator */
		if (rue_pds_next(h->prologue) == RUE_PDS_CTL_CLOSE_REQ ||
		    rue_pds_next(h->prologue) == RUE_PDS_CTL_CLEAR_REQ)
			rue_pds_ack_rcv(rdev, rx, type);
		else
			rue_pds_tgt_rcv_ctrl(rdev, rx);
		break;
	case RUE_PDS_ACK:
	case RUE_PDS_ACK_CC:
	case RUE_PDS_NACK:
		rue_pds_ack_rcv(rdev, rx, type);
		break;
	default:
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		break;
	}
}

/* A consistent copy of @pdc: under the lock its state lives under. */
static void rue_pdc_info(struct rue_pdc *pdc, struct rue_pdc_info *i)
{
	struct rue_qp *qp = NULL;

	memset(i, 0, sizeof(*i));
	if (pdc->role == RUE_PDC_INITIATOR) {
		qp = rue_pdc_qp_get(pdc);
		if (!qp)
			return;
		spin_lock_bh(&qp->req.lock);
	} else {
		spin_lock_bh(&pdc->lock);
	}
	i->lid = pdc->lid;
	i->rid = pdc->rid;
	i->role = pdc->role;
	i->mode = pdc->mode;
	i->syn = pdc->syn;
	i->closing = pdc->closing;
	i->job = pdc->job;
	i->network_type = pdc->av.network_type;
	i->peer = pdc->av.daddr;
	if (qp) {
		i->qpn = qp->ibqp.qp_num;
		i->next_psn = pdc->next_psn;
		i->una_psn = pdc->una_psn;
		i->srtt_us = pdc->srtt_us;
		i->rto_us = pdc->rto_us;
		i->retries = pdc->retries;
		i->cwnd = rue_nscc_cwnd(&pdc->cc);
		spin_unlock_bh(&qp->req.lock);
		rue_qp_put(qp);
	} else {
		i->rx_next = pdc->rx_next;
		spin_unlock_bh(&pdc->lock);
	}
}

/**
 * rue_pds_for_each() - report every live PDC of a device
 * @rdev: the device
 * @cursor: in: the local PDCID to start at; out: where to go on
 * @fn: called with a copy of each, in PDCID order, from process context;
 *	a nonzero return stops the walk (a full netlink message)
 * @arg: for @fn
 *
 * Return: what @fn returned last, 0 at the end.
 */
int rue_pds_for_each(struct rue_dev *rdev, unsigned long *cursor,
		     rue_pdc_iter_fn fn, void *arg)
{
	struct rue_pdc_info info;
	struct rue_pdc *pdc;
	int ret;

	for (;;) {
		rcu_read_lock();
		pdc = xa_find(&rdev->uet.pdcs, cursor, U16_MAX, XA_PRESENT);
		if (pdc && !refcount_inc_not_zero(&pdc->ref))
			pdc = ERR_PTR(-EAGAIN);
		rcu_read_unlock();
		if (!pdc)
			return 0;
		if (IS_ERR(pdc)) {
			(*cursor)++;
			continue;
		}
		rue_pdc_info(pdc, &info);
		rue_pdc_put(pdc);
		if (info.lid) {
			ret = fn(&info, arg);
			if (ret)
				return ret;
		}
		(*cursor)++;
	}
}

/**
 * rue_pds_tgt_qp_gone() - SES forgets what target PDCs hold for a QP
 * @rdev: the device
 * @qp: a UET QP being destroyed, no longer findable
 */
void rue_pds_tgt_qp_gone(struct rue_dev *rdev, struct rue_qp *qp)
{
	struct rue_uet_dev *u = &rdev->uet;
	struct rue_pdc *pdc;
	unsigned long id;

	rcu_read_lock();
	xa_for_each(&u->pdcs, id, pdc) {
		if (pdc->role != RUE_PDC_TARGET)
			continue;
		spin_lock_bh(&pdc->lock);
		if (!pdc->dead)
			u->up->qp_gone(pdc->ses, qp);
		spin_unlock_bh(&pdc->lock);
	}
	rcu_read_unlock();
}

/* ------------------------------------------------------------------ */
/* A device's PDS                                                      */

/**
 * rue_pds_dev_init() - a device's PDS, before any QP
 * @rdev: the device
 * @up: the layer above: what PDS delivers to
 *
 * Return: 0.
 */
int rue_pds_dev_init(struct rue_dev *rdev, const struct rue_pds_upcalls *up)
{
	struct rue_uet_dev *u = &rdev->uet;

	rue_uet_check_sizes();
	u->up = up;
	spin_lock_init(&u->lock);
	xa_init_flags(&u->pdcs, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	hash_init(u->tgt);
	INIT_LIST_HEAD(&u->unproven);
	u->src_seed = get_random_u32();
	memset(u->nr_src, 0, sizeof(u->nr_src));
	atomic_set(&u->nr_alloc, 0);
	mutex_init(&u->owner_lock);
	hash_init(u->owners);
	rue_pds_reaper_start(rdev);
	return 0;
}

/* After every QP is gone: free the target PDCs left. */
void rue_pds_dev_free(struct rue_dev *rdev)
{
	struct rue_uet_dev *u = &rdev->uet;

	rue_pds_reaper_stop(rdev);
	/*
	 * Every PDC must be freed before the module can go: the last
	 * references may be held by timers still pending (a probe timer
	 * whose cancel raced with its callback), then call_rcu frees.
	 */
	if (!wait_var_event_timeout(&u->nr_alloc, !atomic_read(&u->nr_alloc),
				    10 * HZ))
		WARN(1, "rue: %d UET PDCs not freed\n", atomic_read(&u->nr_alloc));
	rcu_barrier();
	WARN_ON(!xa_empty(&u->pdcs));
	xa_destroy(&u->pdcs);
	WARN_ON(!hash_empty(u->owners));
	mutex_destroy(&u->owner_lock);
}
