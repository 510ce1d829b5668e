// SPDX-License-Identifier: GPL-2.0
/*
 * UET Packet Delivery Sublayer (UE 1.0.1 section 3.5).
 *
 * A PDC carries one initiator's requests to one target and the target's
 * acknowledgements back.  It is set up in band: the initiator picks its
 * PDCID and a random start PSN and sends SYN requests, each saying how
 * far its PSN is from the start; the target creates its side on the
 * first SYN it sees and names its own PDCID in every ACK, after which
 * the initiator sends without SYN (3.5.8.2).  The initiator closes an
 * idle PDC with a CTRL CLOSE that takes a PSN like a request, so it is
 * retransmitted until acknowledged; the target frees its side when the
 * CLOSE arrives in order, or after RUE_PDC_IDLE without traffic.
 *
 * Reliability (3.5.12): the target tracks the PSNs it has in a window of
 * RUE_PDC_WIN ahead of rx_next and acknowledges with ACK_CC, whose cack
 * PSN covers everything in order and whose 64-bit SACK bitmap names what
 * arrived after the first hole.  ACKs are coalesced: each request adds
 * max(its length, 1 KiB) and an ACK goes out at 16 KiB, on AR, on an ECN
 * mark, on anything out of order, a duplicate, a SYN or an error.  The
 * initiator retransmits a request that three later ones have overtaken
 * in the SACK (RUD) or everything from the first hole (ROD, which also
 * learns of holes from ROD_OOO NACKs), and everything unacknowledged
 * when its RTO fires; RTOs without progress are counted and the PDC
 * fails after rue.uet_retries of them.
 *
 * Tail loss (3.5.12.8): when the last requests of a burst are lost, no
 * later one arrives to open a SACK hole and nothing is NACKed, so only
 * the RTO would resend them.  A PDC with requests in flight and nothing
 * sent or acknowledged for a probe timeout (TAIL_LOSS_TIME, or two RTTs
 * if longer) sends a CTRL PROBE; the target answers at once with an
 * ACK_CC (P set) whose SACK covers the tail, and every request the
 * answer shows missing that was sent before the probe is sent again.
 * MAX_TAIL_LOSS_RETX probes without progress, then the RTO's turn.
 *
 * Locking: an initiator PDC's state is its QP's req.lock; a target PDC's
 * is pdc->lock, taken before the target QP's resp.lock.  PDCs are found
 * by local PDCID under RCU and freed after a grace period.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <rdma/rue-abi.h>

#include "pdc.h"
#include "uet.h"
#include "uet_stats.h"
#include "cc/cc.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/stats.h"
#include "net/xmit.h"

static unsigned int uet_retries = 7;
module_param(uet_retries, uint, 0644);
MODULE_PARM_DESC(uet_retries, "UET: RTOs without progress before a PDC fails (default 7)");

static unsigned int uet_rto_ms = 4;
module_param(uet_rto_ms, uint, 0644);
MODULE_PARM_DESC(uet_rto_ms, "UET: initial retransmission timeout in ms (default 4)");

static unsigned int uet_max_target_pdcs = 4096;
module_param(uet_max_target_pdcs, uint, 0644);
MODULE_PARM_DESC(uet_max_target_pdcs, "UET: target PDCs a device keeps at most; more SYNs are refused (default 4096)");

static unsigned int uet_idle_ms = 1000;
module_param(uet_idle_ms, uint, 0644);
MODULE_PARM_DESC(uet_idle_ms, "UET: an initiator closes a PDC idle this long (default 1000)");

static unsigned int uet_tlp_us = 1000;
module_param(uet_tlp_us, uint, 0644);
MODULE_PARM_DESC(uet_tlp_us, "UET: tail-loss probe timeout floor in us, 0: no probes (default 1000)");

#define RUE_PDC_IDLE		(5 * HZ)	/* target side without traffic */
#define RUE_PDC_RTO_MAX_MS	1000
#define RUE_ACK_TRIGGER		16384		/* ACK_GEN_TRIGGER */
#define RUE_ACK_MIN_ADD		1024		/* ACK_GEN_MIN_PKT_ADD */
#define RUE_DUP_THRESH		3
#define RUE_TLP_MAX		5		/* MAX_TAIL_LOSS_RETX */

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

static void rue_pdc_put(struct rue_pdc *pdc)
{
	if (refcount_dec_and_test(&pdc->ref))
		call_rcu(&pdc->rcu, rue_pdc_free_rcu);
}

static struct rue_pdc *rue_pdc_alloc(struct rue_dev *rdev, u8 role, u8 mode,
				     u32 job, const struct rue_av *av)
{
	struct rue_pdc *pdc;
	int tries;

	pdc = kzalloc(sizeof(*pdc), GFP_ATOMIC);
	if (!pdc)
		return NULL;
	if (dst_cache_init(&pdc->dst_cache, GFP_ATOMIC))
		goto err_free;
	pdc->ses = rdev->uet.up->pdc_open(role == RUE_PDC_TARGET);
	if (!pdc->ses)
		goto err_dst;
	pdc->rdev = rdev;
	refcount_set(&pdc->ref, 1);
	spin_lock_init(&pdc->lock);
	pdc->role = role;
	pdc->mode = mode;
	pdc->job = job;
	pdc->av = *av;
	pdc->last_rx = jiffies;

	/* a random PDCID (3.5.8.2), 0 is never one */
	for (tries = 0; tries < 16; tries++) {
		u16 id = get_random_u16();

		if (!id)
			continue;
		/* reserved now, published by rue_pdc_publish() when set up */
		if (!xa_insert_bh(&rdev->uet.pdcs, id, NULL, GFP_ATOMIC)) {
			pdc->lid = id;
			atomic_inc(&rdev->uet.nr_alloc);
			pr_debug("PDC %u created\n", id);
			return pdc;
		}
	}
	rdev->uet.up->pdc_close(pdc->ses);
err_dst:
	dst_cache_destroy(&pdc->dst_cache);
err_free:
	kfree(pdc);
	return NULL;
}

/* Publish last: the receive path finds the PDC from here on. */
static void rue_pdc_publish(struct rue_pdc *pdc)
{
	/* into the reserved slot: allocates nothing, cannot fail */
	xa_store_bh(&pdc->rdev->uet.pdcs, pdc->lid, pdc, GFP_ATOMIC);
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_OPENED);
}

/* Unpublish: no new lookups; the caller's reference is dropped later. */
static void rue_pdc_unpublish(struct rue_pdc *pdc)
{
	xa_erase_bh(&pdc->rdev->uet.pdcs, pdc->lid);
}

/* The PDC dies: SES forgets it, under the lock its state lives under. */
static void rue_pdc_ses_close(struct rue_pdc *pdc)
{
	pdc->rdev->uet.up->pdc_close(pdc->ses);
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

/* ------------------------------------------------------------------ */
/* Sending PDS headers                                                 */

static __be16 rue_pdc_sport(const struct rue_pdc *pdc, u32 psn)
{
	u32 n = pdc->qp ? max_t(u32, pdc->qp->uet.pds.entropy, 1) : 1;
	u32 h;

	/* RUD sprays over n source ports; ROD keeps one path (3.5.2). */
	if (pdc->mode == RUE_UET_MODE_ROD)
		n = 1;
	h = jhash_2words(pdc->lid, psn % n, 0x5eed);
	return cpu_to_be16(0xc000 | (h & 0x3fff));
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
static void rue_pds_xmit(struct rue_pdc *pdc, struct sk_buff *skb, u32 psn,
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

static void rue_pds_cb_set(struct sk_buff *skb, struct rue_pdc *pdc, u32 psn)
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
	rue_pds_cb_set(skb, pdc, psn);
	__skb_queue_tail(q, skb);
}

/* A packet rue_pds_cb_set() prepared; bottom halves disabled. */
static void rue_pds_send_one(struct sk_buff *skb)
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

	h->clear_psn_offset = 0;
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

/* The CLOSE control packet of a closing initiator PDC. */
static struct sk_buff *rue_pds_close_pkt(struct rue_pdc *pdc, u32 psn,
					 bool retx)
{
	struct rue_pds_ctrl *c;
	struct sk_buff *skb;
	u8 flags = RUE_PDS_CTRL_AR | (retx ? RUE_PDS_CTRL_RETX : 0);

	skb = rue_xmit_alloc(pdc->rdev, sizeof(*c), GFP_ATOMIC);
	if (!skb)
		return NULL;
	c = skb_put_zero(skb, sizeof(*c));
	if (pdc->mode == RUE_UET_MODE_ROD)
		flags |= RUE_PDS_CTRL_ISROD;
	c->prologue = rue_pds_prologue(RUE_PDS_CTRL, RUE_PDS_CTL_CLOSE, flags);
	c->psn = cpu_to_be32(psn);
	c->spdcid = cpu_to_be16(pdc->lid);
	c->dpdcid = cpu_to_be16(pdc->rid);
	return skb;
}

/*
 * The PROBE of an initiator PDC (3.5.12.8): no PSN of its own; it names
 * the newest PSN sent and asks for the SACK of the last 64 (or from the
 * oldest unacknowledged, if fewer), where a lost tail lies.
 */
static struct sk_buff *rue_pds_probe_pkt(struct rue_pdc *pdc)
{
	u32 newest = pdc->next_psn - 1;
	u32 base = (s32)(newest - pdc->una_psn) < 64 ? pdc->una_psn :
						      newest - 63;
	struct rue_pds_ctrl *c;
	struct sk_buff *skb;
	u8 flags = 0;

	skb = rue_xmit_alloc(pdc->rdev, sizeof(*c), GFP_ATOMIC);
	if (!skb)
		return NULL;
	c = skb_put_zero(skb, sizeof(*c));
	if (pdc->mode == RUE_UET_MODE_ROD)
		flags |= RUE_PDS_CTRL_ISROD;
	c->prologue = rue_pds_prologue(RUE_PDS_CTRL, RUE_PDS_CTL_PROBE, flags);
	c->probe_opaque = cpu_to_be16(++pdc->tlp_opaque);
	c->psn = cpu_to_be32(newest);
	c->spdcid = cpu_to_be16(pdc->lid);
	c->dpdcid = cpu_to_be16(pdc->rid);
	c->payload = cpu_to_be32(base);
	pdc->tlp_psn = newest;
	return skb;
}

/* ------------------------------------------------------------------ */
/* Initiator                                                           */

static void rue_pds_rto(struct timer_list *t);
static enum hrtimer_restart rue_pds_tlp(struct hrtimer *t);

static u32 rue_pdc_hash(const struct rue_av *av)
{
	return jhash(&av->daddr, sizeof(av->daddr), av->network_type);
}

/**
 * rue_pds_qp_init() - PDS's part of a new UET QP
 * @pq: it (qp->uet.pds)
 * @job: the QP's job, which its PDCs carry
 * @mode: RUE_UET_MODE_RUD or _ROD
 * @entropy: RUD: how many UDP source ports its requests spread over
 */
void rue_pds_qp_init(struct rue_pds_qp *pq, u32 job, u8 mode, u8 entropy)
{
	pq->job = job;
	pq->mode = mode;
	pq->entropy = entropy;
	hash_init(pq->pdcs);
}

/**
 * rue_pdc_find() - the initiator PDC of @qp towards @av, created if needed
 * @qp: a UET QP, req.lock held
 * @av: the peer
 * @mss: the payload of a full packet, for congestion control
 *
 * Return: the PDC, or NULL when none can be made now (retry later).
 */
struct rue_pdc *rue_pdc_find(struct rue_qp *qp, const struct rue_av *av,
			     u32 mss)
{
	u32 h = rue_pdc_hash(av);
	struct rue_pdc *pdc;

	lockdep_assert_held(&qp->req.lock);
	hash_for_each_possible(qp->uet.pds.pdcs, pdc, qp_node, h)
		if (ipv6_addr_equal(&pdc->av.daddr, &av->daddr) &&
		    pdc->av.network_type == av->network_type && !pdc->closing)
			return pdc;

	pdc = rue_pdc_alloc(qp->rdev, RUE_PDC_INITIATOR, qp->uet.pds.mode,
			    qp->uet.pds.job, av);
	if (!pdc)
		return NULL;
	pdc->qp = qp;
	pdc->syn = true;
	pdc->start_psn = get_random_u32();
	pdc->next_psn = pdc->start_psn;
	pdc->una_psn = pdc->start_psn;
	pdc->sack_high = pdc->start_psn - 1;
	pdc->rto_us = uet_rto_ms * USEC_PER_MSEC;
	rue_nscc_cfg_default(&pdc->cc_cfg, mss);
	rue_nscc_init(&pdc->cc, &pdc->cc_cfg);
	timer_setup(&pdc->rto, rue_pds_rto, 0);
	hrtimer_init(&pdc->tlp, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	pdc->tlp.function = rue_pds_tlp;
	hash_add(qp->uet.pds.pdcs, &pdc->qp_node, h);
	qp->uet.pds.nr_pdcs++;
	rue_pdc_publish(pdc);
	return pdc;
}

/*
 * Room for one more request of @len bytes: within the PSN window and the
 * congestion window (which always lets one request go).
 */
bool rue_pdc_room(const struct rue_pdc *pdc, u32 len)
{
	return pdc->next_psn - pdc->una_psn < RUE_PDC_WIN &&
	       (!pdc->inflight ||
		pdc->inflight + len <= rue_nscc_cwnd(&pdc->cc));
}

/* Three quarters of a window in flight: time to ask for an ACK. */
bool rue_pdc_filling(const struct rue_pdc *pdc)
{
	return pdc->next_psn - pdc->una_psn >= RUE_PDC_WIN * 3 / 4 ||
	       pdc->inflight >= rue_nscc_cwnd(&pdc->cc) / 4 * 3;
}

/* A pending timer holds a reference on the PDC. */
static void rue_pdc_arm_in(struct rue_pdc *pdc, unsigned long delay)
{
	if (!mod_timer(&pdc->rto, jiffies + delay))
		refcount_inc(&pdc->ref);
}

/* The probe timeout: TAIL_LOSS_TIME, two RTTs if longer, backed off. */
static u64 rue_pdc_pto_ns(const struct rue_pdc *pdc)
{
	u64 us = max(READ_ONCE(uet_tlp_us), 2 * pdc->srtt_us);

	return (us << min_t(u8, pdc->tlp_count, RUE_TLP_MAX)) * NSEC_PER_USEC;
}

/* As for the RTO, a pending probe timer holds a reference on the PDC. */
static void rue_pdc_tlp_arm(struct rue_pdc *pdc, u64 ns)
{
	if (!hrtimer_is_queued(&pdc->tlp))
		refcount_inc(&pdc->ref);
	hrtimer_start(&pdc->tlp, ns_to_ktime(ns), HRTIMER_MODE_REL_SOFT);
}

/*
 * Something was sent or acknowledged at @now: a probe is due a PTO later.
 * The timer is started once and moved on lazily by rue_pds_tlp(), not
 * per packet.
 */
static void rue_pdc_tlp_kick(struct rue_pdc *pdc, u64 now)
{
	pdc->last_act_ns = now;
	if (READ_ONCE(uet_tlp_us) && !hrtimer_is_queued(&pdc->tlp))
		rue_pdc_tlp_arm(pdc, rue_pdc_pto_ns(pdc));
}

static void rue_pdc_arm(struct rue_pdc *pdc)
{
	u32 us = min_t(u32, pdc->rto_us << min_t(u32, pdc->retries, 10),
		       RUE_PDC_RTO_MAX_MS * USEC_PER_MSEC);

	rue_pdc_arm_in(pdc, usecs_to_jiffies(us));
}

/*
 * RTT of a request sent once (Karn: never of a resend), and the RTO from
 * it as TCP computes one (RFC 6298), never below rue.uet_rto_ms: softirq
 * and timer granularity in a busy guest say more than the RTT.
 */
static u32 rue_pdc_rtt(struct rue_pdc *pdc, const struct rue_pds_tx *tx)
{
	u64 d = ktime_get_ns() - tx->sent_ns;
	u32 us = min_t(u64, div_u64(d, NSEC_PER_USEC), U32_MAX / 8);
	u32 err;

	if (!pdc->srtt_us) {
		pdc->srtt_us = us;
		pdc->rttvar_us = us / 2;
	} else {
		err = us > pdc->srtt_us ? us - pdc->srtt_us : pdc->srtt_us - us;
		pdc->rttvar_us = (3 * pdc->rttvar_us + err) / 4;
		pdc->srtt_us = (7 * pdc->srtt_us + us) / 8;
	}
	pdc->rto_us = max(pdc->srtt_us + 4 * pdc->rttvar_us,
			  uet_rto_ms * USEC_PER_MSEC);
	return max(us, 1U);
}

/* What NSCC did, counted. */
static void rue_pdc_cc(struct rue_pdc *pdc, unsigned int ev)
{
	if (ev & RUE_NSCC_EV_INCREASE)
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_CWND_INCREASES);
	if (ev & (RUE_NSCC_EV_DECREASE | RUE_NSCC_EV_QUICK_ADAPT))
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_CWND_DECREASES);
}

static void rue_pdc_disarm(struct rue_pdc *pdc)
{
	if (del_timer(&pdc->rto))
		rue_pdc_put(pdc);
	/* a running callback drops its own reference, finding pdc->dead */
	if (hrtimer_try_to_cancel(&pdc->tlp) == 1)
		rue_pdc_put(pdc);
}

/**
 * rue_pdc_take_psn() - account a new request
 * @pdc: initiator PDC, req.lock held
 * @charge: bytes it counts in flight
 * @psn: set to the PSN the request takes
 *
 * Return: the request's entry, for SES to fill.
 */
struct rue_pds_tx *rue_pdc_take_psn(struct rue_pdc *pdc, u32 charge,
				    u32 *psn)
{
	struct rue_pds_tx *tx = &pdc->win[pdc->next_psn % RUE_PDC_WIN];
	bool idle = pdc->una_psn == pdc->next_psn;

	*psn = pdc->next_psn;
	memset(tx, 0, sizeof(*tx));
	tx->state = RUE_PDS_TX_SENT;
	tx->charge = charge;
	pdc->inflight += charge;
	tx->sent = 1;
	tx->epoch = pdc->epoch;
	tx->sent_ns = ktime_get_ns();
	pdc->next_psn++;
	/* from the idle timer to the RTO */
	if (idle)
		rue_pdc_arm(pdc);
	rue_pdc_tlp_kick(pdc, tx->sent_ns);
	return tx;
}

/* Remove an initiator PDC from its QP; req.lock held. */
static void rue_pdc_ini_drop(struct rue_pdc *pdc)
{
	if (pdc->dead)
		return;
	pdc->dead = true;
	rue_uet_stat_inc(pdc->rdev, pdc->failed || pdc->una_psn != pdc->next_psn ?
			 RUE_USTAT_PDC_FAILED : RUE_USTAT_PDC_CLOSED);
	hash_del(&pdc->qp_node);
	pdc->qp->uet.pds.nr_pdcs--;
	rue_pdc_ses_close(pdc);
	/* a running timer finds no QP (RCU: see rue_ses_qp_destroy()) */
	WRITE_ONCE(pdc->qp, NULL);
	rue_pdc_unpublish(pdc);
	rue_pdc_disarm(pdc);
	rue_pdc_put(pdc);
}

/**
 * rue_pds_qp_drop() - forget every initiator PDC of a QP
 * @qp: a UET QP, req.lock held
 */
void rue_pds_qp_drop(struct rue_qp *qp)
{
	struct hlist_node *tmp;
	struct rue_pdc *pdc;
	int bkt;

	lockdep_assert_held(&qp->req.lock);
	hash_for_each_safe(qp->uet.pds.pdcs, bkt, tmp, pdc, qp_node)
		rue_pdc_ini_drop(pdc);
}

/* Fail every request of @pdc and forget it: the target is unreachable. */
static void rue_pdc_fail(struct rue_pdc *pdc, u8 status)
{
	struct rue_qp *qp = pdc->qp;
	u32 psn;

	pdc->failed = true;
	for (psn = pdc->una_psn; psn != pdc->next_psn; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

		if (tx->state == RUE_PDS_TX_SENT && !tx->close)
			pdc->rdev->uet.up->done(qp, tx, status);
		if (tx->state == RUE_PDS_TX_SENT)
			pdc->inflight -= tx->charge;
		tx->state = RUE_PDS_TX_FREE;
	}
	pdc->una_psn = pdc->next_psn;
	rue_pdc_ini_drop(pdc);
}

/* Resend what is marked for it, oldest first; req.lock held. */
static int rue_pdc_resend(struct rue_pdc *pdc, struct sk_buff_head *out,
			  int budget)
{
	u8 why;
	u32 psn;
	int n = 0;

	for (psn = pdc->una_psn; psn != pdc->next_psn && pdc->nr_retx &&
	     n < budget; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];
		struct sk_buff *skb;

		if (!tx->retx)
			continue;
		why = tx->retx;
		tx->retx = 0;
		pdc->nr_retx--;
		if (tx->state != RUE_PDS_TX_SENT)
			continue;
		if (tx->close)
			skb = rue_pds_close_pkt(pdc, psn, true);
		else
			skb = pdc->rdev->uet.up->rebuild(pdc->qp, pdc, tx, psn);
		if (!skb)
			continue;	/* the RTO tries again */
		tx->sent++;
		tx->epoch = pdc->epoch;
		tx->sent_ns = ktime_get_ns();
		rue_pdc_tlp_kick(pdc, tx->sent_ns);
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RETRANSMITS);
		rue_uet_stat_inc(pdc->rdev, why == RUE_RETX_RTO ?
				 RUE_USTAT_RTO_RETRANSMITS :
				 why == RUE_RETX_TLP ? RUE_USTAT_TLP_RETRANSMITS :
				 RUE_USTAT_FAST_RETRANSMITS);
		rue_pds_queue(out, skb, pdc, psn);
		n++;
	}
	return n;
}

/**
 * rue_pds_qp_resend() - the resends a QP's PDCs have marked, oldest first
 * @qp: a UET QP, req.lock held
 * @out: where they go, for rue_pds_send_queued()
 * @budget: at most this many
 *
 * Return: how many were queued.
 */
int rue_pds_qp_resend(struct rue_qp *qp, struct sk_buff_head *out, int budget)
{
	struct rue_pdc *pdc;
	int n = 0, bkt;

	hash_for_each(qp->uet.pds.pdcs, bkt, pdc, qp_node)
		if (pdc->nr_retx && n < budget)
			n += rue_pdc_resend(pdc, out, budget - n);
	return n;
}

/* Send @tx again: RUE_RETX_FAST (a NACK, a SACK hole), _RTO or _TLP. */
static void rue_pdc_mark_retx(struct rue_pdc *pdc, struct rue_pds_tx *tx,
			      u8 why)
{
	if (tx->state == RUE_PDS_TX_SENT && !tx->retx) {
		tx->retx = why;
		pdc->nr_retx++;
	}
}

/*
 * The QP of an initiator PDC, referenced; NULL once the PDC was dropped
 * from it (the QP is freed after a grace period: rue_ses_qp_destroy()).
 */
static struct rue_qp *rue_pdc_qp_get(struct rue_pdc *pdc)
{
	struct rue_qp *qp;

	rcu_read_lock();
	qp = READ_ONCE(pdc->qp);
	if (qp && !refcount_inc_not_zero(&qp->refcnt))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

/* The end of a PDC timer: unlock, send @skb (if any), kick, put @qp. */
static void rue_pdc_timer_end(struct rue_qp *qp, struct sk_buff *skb,
			      bool kick)
	__releases(&qp->req.lock)
{
	spin_unlock_bh(&qp->req.lock);
	if (skb) {
		local_bh_disable();
		rue_pds_send_one(skb);
		local_bh_enable();
	}
	if (kick)
		rue_qp_kick(qp);
	rue_qp_put(qp);
}

/*
 * The PDC timer: with requests in flight, the RTO (send everything
 * unacknowledged again, back off); with none, the idle timer (close).
 * The pending timer held a reference on the PDC; the QP is found under
 * RCU and referenced, since the PDC may have been dropped meanwhile.
 */
static struct sk_buff *rue_pdc_close(struct rue_pdc *pdc);

static void rue_pds_rto(struct timer_list *t)
{
	struct rue_pdc *pdc = from_timer(pdc, t, rto);
	struct sk_buff *close = NULL;
	struct rue_qp *qp;
	bool kick = false;
	u32 psn;

	qp = rue_pdc_qp_get(pdc);
	if (!qp)
		goto put;

	spin_lock_bh(&qp->req.lock);
	if (pdc->dead)
		goto out;
	if (pdc->una_psn == pdc->next_psn) {
		if (!pdc->closing)
			close = rue_pdc_close(pdc);
		goto out;
	}
	rue_stat_inc(pdc->rdev, RUE_STAT_RTO_TIMEOUTS);
	if (++pdc->retries > uet_retries) {
		rue_stat_inc(pdc->rdev, RUE_STAT_RETRY_EXCEEDED);
		rue_pdc_fail(pdc, IB_WC_RETRY_EXC_ERR);
		kick = true;
		goto out;
	}
	/*
	 * ROD goes back to the oldest and sends everything again.  RUD
	 * sends the oldest only, as a probe: the ACK it draws carries a
	 * SACK, and every hole it shows is sent again once in the new
	 * epoch (rue_pdc_ini_ack()).
	 */
	pdc->epoch++;
	rue_pdc_cc(pdc, rue_nscc_on_loss(&pdc->cc, &pdc->cc_cfg,
					 ktime_get_ns()));
	if (pdc->mode == RUE_UET_MODE_ROD) {
		for (psn = pdc->una_psn; psn != pdc->next_psn; psn++)
			rue_pdc_mark_retx(pdc, &pdc->win[psn % RUE_PDC_WIN],
					  RUE_RETX_RTO);
	} else {
		rue_pdc_mark_retx(pdc, &pdc->win[pdc->una_psn % RUE_PDC_WIN],
				  RUE_RETX_RTO);
	}
	pdc->gbn_valid = false;
	rue_pdc_arm(pdc);
	kick = true;
out:
	rue_pdc_timer_end(qp, close, kick);
put:
	rue_pdc_put(pdc);
}

/*
 * The probe timer (softirq).  With requests in flight and nothing sent or
 * acknowledged for a PTO, send a PROBE; otherwise wait until a PTO after
 * the last of those.  While SYN there is no target PDCID to probe: the
 * newest request goes again instead, as TCP's loss probe does (any SYN
 * request opens the target's side, and its ACK ends SYN).  After
 * RUE_TLP_MAX probes without progress it stops until the oldest request
 * is acknowledged (rue_pdc_ini_ack()) and leaves the rest to the RTO.
 * References as in rue_pds_rto().
 */
static enum hrtimer_restart rue_pds_tlp(struct hrtimer *t)
{
	struct rue_pdc *pdc = container_of(t, struct rue_pdc, tlp);
	struct sk_buff *probe = NULL;
	bool kick = false;
	struct rue_qp *qp;
	u64 now, due;

	qp = rue_pdc_qp_get(pdc);
	if (!qp)
		goto put;

	spin_lock_bh(&qp->req.lock);
	if (pdc->dead || pdc->closing || pdc->una_psn == pdc->next_psn ||
	    !READ_ONCE(uet_tlp_us) || pdc->tlp_count >= RUE_TLP_MAX)
		goto out;
	now = ktime_get_ns();
	due = pdc->last_act_ns + rue_pdc_pto_ns(pdc);
	if (now < due) {
		rue_pdc_tlp_arm(pdc, due - now);
		goto out;
	}
	if (pdc->syn) {
		rue_pdc_mark_retx(pdc, &pdc->win[(pdc->next_psn - 1) % RUE_PDC_WIN],
				  RUE_RETX_TLP);
		kick = true;
	} else {
		probe = rue_pds_probe_pkt(pdc);
		if (!probe)
			goto out;
		rue_pds_cb_set(probe, pdc, pdc->next_psn);
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_TLP_PROBES_SENT);
		pdc->tlp_sent_ns = now;
	}
	pdc->tlp_count++;
	pdc->last_act_ns = now;
	rue_pdc_tlp_arm(pdc, rue_pdc_pto_ns(pdc));
out:
	rue_pdc_timer_end(qp, probe, kick);
put:
	rue_pdc_put(pdc);
	return HRTIMER_NORESTART;
}

/*
 * @psn arrived at the target (@status: and the target said so); a READ
 * counts as done only by its response (@answer), which carries its data:
 * passed by an ACK without it, the response was lost, so ask again.
 */
static void rue_pdc_ack_one(struct rue_pdc *pdc, u32 psn, u8 status,
			    bool answer)
{
	struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

	if (tx->state != RUE_PDS_TX_SENT)
		return;
	if (tx->read && !answer) {
		if (tx->sent == 1 || tx->epoch != pdc->epoch)
			rue_pdc_mark_retx(pdc, tx, RUE_RETX_FAST);
		return;
	}
	tx->state = RUE_PDS_TX_ACKED;
	pdc->inflight -= tx->charge;
	pdc->ack_bytes_new += tx->charge;
	/* Karn; the newest such sample waited least behind coalescing */
	if (tx->sent == 1)
		pdc->ack_rtt_us = rue_pdc_rtt(pdc, tx);
	if (tx->retx) {
		tx->retx = 0;
		pdc->nr_retx--;
	}
	if (tx->close) {
		/* the target has let go */
		pdc->closing = true;
		return;
	}
	pdc->rdev->uet.up->done(pdc->qp, tx, status);
}

static bool rue_psn_in(u32 psn, u32 lo, u32 hi)
{
	return (s32)(psn - lo) >= 0 && (s32)(hi - psn) > 0;
}

/*
 * The answer to the outstanding PROBE: a request sent before it that the
 * answer shows missing was lost.  ROD: everything after cack (the target
 * drops what follows a hole).  RUD: what the SACK covers and does not
 * have, and cack + 1; the answer says nothing of the rest.
 */
static void rue_pdc_tlp_answer(struct rue_pdc *pdc, u32 cack,
			       const struct rue_pds_ack_cc *cc)
{
	u32 base = cc ? cack + (s16)be16_to_cpu(cc->sack_psn_offset) : cack + 1;
	u32 end = pdc->tlp_psn + 1;
	bool lost = false;
	u32 psn;

	for (psn = pdc->una_psn; (s32)(end - psn) > 0; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

		if (tx->state != RUE_PDS_TX_SENT || tx->retx ||
		    tx->sent_ns >= pdc->tlp_sent_ns)
			continue;
		if (pdc->mode == RUE_UET_MODE_RUD && psn != cack + 1 &&
		    (!cc || psn - base >= 64))
			continue;
		rue_pdc_mark_retx(pdc, tx, RUE_RETX_TLP);
		lost = true;
	}
	pdc->tlp_sent_ns = 0;
	if (lost)
		rue_pdc_cc(pdc, rue_nscc_on_loss(&pdc->cc, &pdc->cc_cfg,
						 ktime_get_ns()));
}

/* An ACK, ACK_CC or NACK, pulled: what an initiator PDC is told. */
struct rue_pds_ackp {
	const struct rue_pds_ack *a;		/* ACK, ACK_CC */
	const struct rue_pds_ack_cc *cc;	/* ACK_CC */
	const struct rue_pds_nack *n;		/* NACK */
	struct rue_pds_rsp r;			/* the SES response it carries */
};

static bool rue_pds_pull(struct sk_buff *skb, unsigned int len)
{
	return skb->len >= len && pskb_may_pull(skb, len);
}

/* Pull an ACK, ACK_CC or NACK and the SES response after it; false: short. */
static bool rue_pds_ack_parse(struct sk_buff *skb, u8 type,
			      struct rue_pds_ackp *p)
{
	unsigned int len = type == RUE_PDS_ACK ? sizeof(*p->a) :
			   type == RUE_PDS_ACK_CC ? sizeof(*p->cc) :
						    sizeof(*p->n);
	unsigned int ses = 0;
	u8 next;

	memset(p, 0, sizeof(*p));
	if (!rue_pds_pull(skb, len))
		return false;
	if (type == RUE_PDS_NACK) {
		p->n = (const void *)skb->data;
		return true;
	}
	next = rue_pds_next(((const struct rue_pds_ack *)skb->data)->prologue);
	if (next == RUE_PDS_NEXT_RSP)
		ses = sizeof(struct rue_ses_rsp);
	else if (next == RUE_PDS_NEXT_RSP_DATA)
		ses = sizeof(struct rue_ses_rsp_data);
	/* RSP_DATA's data follows: SES checks it against the READ */
	if (ses && !rue_pds_pull(skb, len + ses))
		return false;
	p->a = (const void *)skb->data;
	if (type == RUE_PDS_ACK_CC)
		p->cc = (const void *)skb->data;
	p->r.skb = skb;
	if (next == RUE_PDS_NEXT_RSP) {
		p->r.rsp = (const void *)(skb->data + len);
	} else if (next == RUE_PDS_NEXT_RSP_DATA) {
		p->r.rd = (const void *)(skb->data + len);
		p->r.off = len + ses;
	}
	return true;
}

/*
 * The SES response an ACK carries, for the request @psn names (none for
 * a PROBE's answer): a READ waits for its data (RSP_DATA), any request
 * for an error (RSP).  SES sees every response and says how the request
 * it answers ends.
 */
static void rue_pdc_answer(struct rue_pdc *pdc, const u32 *psn,
			   const struct rue_pds_rsp *r)
{
	struct rue_pds_tx *tx = NULL;
	u8 status;

	if (psn && rue_psn_in(*psn, pdc->una_psn, pdc->next_psn)) {
		tx = &pdc->win[*psn % RUE_PDC_WIN];
		if (tx->state != RUE_PDS_TX_SENT || (!r->rsp && !tx->read))
			tx = NULL;
	}
	status = pdc->rdev->uet.up->answer(pdc->qp, tx, r);
	if (tx)
		rue_pdc_ack_one(pdc, *psn, status, true);
}

/* What an ACK_CC's SACK bitmap says arrived. */
static void rue_pdc_ack_sack(struct rue_pdc *pdc, u32 cack,
			     const struct rue_pds_ack_cc *cc)
{
	u64 bits = be64_to_cpu(cc->sack_bitmap);
	u32 base = cack + (s16)be16_to_cpu(cc->sack_psn_offset);
	u32 psn;
	int i;

	for (i = 0; i < 64; i++) {
		psn = base + i;
		if (!(bits & BIT_ULL(i)) ||
		    !rue_psn_in(psn, pdc->una_psn, pdc->next_psn))
			continue;
		rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS, false);
		if ((s32)(psn - pdc->sack_high) > 0)
			pdc->sack_high = psn;
	}
}

/*
 * What an ACK says arrived: everything up to @cack, and what an ACK_CC's
 * SACK names; the oldest unacknowledged PSN moves past it.
 */
static void rue_pdc_ack_range(struct rue_pdc *pdc, u32 cack,
			      const struct rue_pds_ack_cc *cc)
{
	u32 psn;

	for (psn = pdc->una_psn; psn != cack + 1; psn++)
		rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS, false);
	if (cc)
		rue_pdc_ack_sack(pdc, cack, cc);
	while (pdc->una_psn != pdc->next_psn &&
	       pdc->win[pdc->una_psn % RUE_PDC_WIN].state != RUE_PDS_TX_SENT)
		pdc->una_psn++;
	if ((s32)(pdc->sack_high - pdc->una_psn) < 0)
		pdc->sack_high = pdc->una_psn - 1;
}

/* Progress (una moved from @old_una, or SYN ended): timers start over. */
static void rue_pdc_ack_timers(struct rue_pdc *pdc, u32 old_una, bool was_syn)
{
	if (pdc->una_psn != old_una) {
		pdc->retries = 0;
		pdc->tlp_count = 0;
		if (pdc->una_psn == pdc->next_psn)
			rue_pdc_arm_in(pdc, msecs_to_jiffies(uet_idle_ms));
		else
			rue_pdc_arm(pdc);
	}
	/* a probe is due a PTO from now */
	if (pdc->una_psn != pdc->next_psn && (pdc->una_psn != old_una || was_syn))
		rue_pdc_tlp_kick(pdc, ktime_get_ns());
}

/* RUD: a hole that later packets overtook by 3 is lost (3.5.12.7). */
static void rue_pdc_rud_holes(struct rue_pdc *pdc)
{
	bool lost = false;
	u32 psn;

	for (psn = pdc->una_psn;
	     (s32)(pdc->sack_high - psn) >= RUE_DUP_THRESH; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

		/*
		 * Once per RTO epoch: a resend lost again waits for the
		 * next RTO, which opens a new epoch.
		 */
		if (tx->state == RUE_PDS_TX_SENT && !tx->retx &&
		    (tx->sent == 1 || tx->epoch != pdc->epoch)) {
			rue_pdc_mark_retx(pdc, tx, RUE_RETX_FAST);
			lost = true;
		}
	}
	if (lost)
		rue_pdc_cc(pdc, rue_nscc_on_loss(&pdc->cc, &pdc->cc_cfg,
						 ktime_get_ns()));
}

/*
 * An ACK or ACK_CC for an initiator PDC; req.lock held.  In this order:
 * the SES response it carries, what arrived, the timers, a PROBE's
 * answer, congestion control, RUD's holes.
 */
static void rue_pdc_ini_ack(struct rue_pdc *pdc, const struct rue_pds_ackp *p)
{
	const struct rue_pds_ack *a = p->a;
	u32 cack = be32_to_cpu(a->cack_psn);
	u32 ack_psn = cack + (s16)be16_to_cpu(a->ack_psn_offset);
	/* P: ack_psn_offset is the PROBE's probe_opaque, no PSN */
	bool probe = rue_pds_flags(a->prologue) & RUE_PDS_ACK_P;
	bool ecn = a->prologue & cpu_to_be16(RUE_PDS_ACK_M);
	bool was_syn = pdc->syn;
	u32 old_una = pdc->una_psn;

	/* everything up to cack arrived; nothing beyond next_psn exists */
	if (!rue_psn_in(cack, pdc->una_psn - 1, pdc->next_psn)) {
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	if (pdc->syn) {
		pdc->rid = be16_to_cpu(a->spdcid);
		pdc->syn = false;
	}
	pdc->ack_bytes_new = 0;
	pdc->ack_rtt_us = 0;
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_ACKS_RCVD);
	if (p->cc && p->cc->sack_bitmap)
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_SACKS_RCVD);
	/* the response first: the cumulative part would ask again */
	if (p->r.rsp || p->r.rd)
		rue_pdc_answer(pdc, probe ? NULL : &ack_psn, &p->r);
	rue_pdc_ack_range(pdc, cack, p->cc);
	rue_pdc_ack_timers(pdc, old_una, was_syn);
	if (probe && pdc->tlp_sent_ns &&
	    be16_to_cpu(a->ack_psn_offset) == pdc->tlp_opaque)
		rue_pdc_tlp_answer(pdc, cack, p->cc);

	if (ecn)
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_ECN_ECHO);
	rue_pdc_cc(pdc, rue_nscc_on_ack(&pdc->cc, &pdc->cc_cfg,
					pdc->ack_bytes_new, pdc->ack_rtt_us,
					ecn, ktime_get_ns()));
	if (pdc->mode == RUE_UET_MODE_RUD)
		rue_pdc_rud_holes(pdc);
}

/* A NACK for an initiator PDC; req.lock held. */
static void rue_pdc_ini_nack(struct rue_pdc *pdc, const struct rue_pds_nack *n)
{
	u32 psn = be32_to_cpu(n->nack_psn);
	u32 p;

	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_NACKS_RCVD);
	if (!rue_psn_in(psn, pdc->una_psn, pdc->next_psn))
		return;
	switch (n->nack_code) {
	case RUE_NACK_ROD_OOO:
		/*
		 * Go back to the hole: the target drops what follows it.  Once
		 * per hole: the NACKs of the packets already behind it name
		 * the same PSN (a lost resend is the RTO's).
		 */
		if (pdc->gbn_valid && pdc->gbn_psn == psn)
			break;
		pdc->gbn_valid = true;
		pdc->gbn_psn = psn;
		rue_pdc_cc(pdc, rue_nscc_on_loss(&pdc->cc, &pdc->cc_cfg,
						 ktime_get_ns()));
		for (p = psn; p != pdc->next_psn; p++)
			rue_pdc_mark_retx(pdc, &pdc->win[p % RUE_PDC_WIN],
					  RUE_RETX_FAST);
		break;
	case RUE_NACK_NO_SES_MSG_AVAIL:
		/* no receive buffer yet: the RTO sends it again */
		break;
	case RUE_NACK_INV_DPDCID:
		if (pdc->closing) {
			/* the target closed already; our CLOSE's ACK got lost */
			rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS, true);
			break;
		}
		fallthrough;
	default:
		rue_pdc_fail(pdc, IB_WC_REM_ABORT_ERR);
		break;
	}
}

/*
 * Start closing an idle initiator PDC (req.lock held, nothing in
 * flight): the CLOSE packet to send, or NULL.
 */
static struct sk_buff *rue_pdc_close(struct rue_pdc *pdc)
{
	struct rue_pds_tx *tx;
	struct sk_buff *skb;
	u32 psn;

	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_IDLE_CLOSED);
	if (pdc->syn) {
		/* the target never answered: it has nothing to free */
		rue_pdc_ini_drop(pdc);
		return NULL;
	}
	skb = rue_pds_close_pkt(pdc, pdc->next_psn, false);
	if (!skb)
		return NULL;
	rue_pds_cb_set(skb, pdc, pdc->next_psn);
	tx = rue_pdc_take_psn(pdc, 0, &psn);
	tx->close = true;
	pdc->closing = true;
	return skb;
}

/* ------------------------------------------------------------------ */
/* Target                                                              */

static u32 rue_tgt_hash(const struct in6_addr *saddr, u16 spdcid)
{
	return jhash_2words(spdcid, jhash(saddr, sizeof(*saddr), 0), 0);
}

static void rue_pdc_tgt_free(struct rue_pdc *pdc)
{
	struct rue_uet_dev *u = &pdc->rdev->uet;

	spin_lock_bh(&u->lock);
	if (!hash_hashed(&pdc->tgt_node)) {
		spin_unlock_bh(&u->lock);
		return;
	}
	hash_del(&pdc->tgt_node);
	u->nr_tgt--;
	spin_unlock_bh(&u->lock);
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_CLOSED);
	rue_pdc_unpublish(pdc);
	spin_lock_bh(&pdc->lock);
	pdc->dead = true;
	rue_pdc_ses_close(pdc);
	spin_unlock_bh(&pdc->lock);
	rue_pdc_put(pdc);
}

/* The target PDC a SYN request opens, or the one it opened before. */
static struct rue_pdc *rue_pdc_tgt_syn(struct rue_dev *rdev,
				       const struct rue_uet_rx *rx,
				       u32 psn, u16 psn_off, u8 mode, u32 job)
{
	struct rue_uet_dev *u = &rdev->uet;
	u32 h = rue_tgt_hash(&rx->av.daddr, rx->spdcid);
	struct rue_pdc *pdc;

	spin_lock_bh(&u->lock);
	hash_for_each_possible(u->tgt, pdc, tgt_node, h)
		if (pdc->rid == rx->spdcid &&
		    ipv6_addr_equal(&pdc->av.daddr, &rx->av.daddr)) {
			refcount_inc(&pdc->ref);
			goto out;
		}
	/* anyone can send SYNs: state for them is bounded */
	if (u->nr_tgt >= READ_ONCE(uet_max_target_pdcs)) {
		pdc = NULL;
		goto out;
	}
	pdc = rue_pdc_alloc(rdev, RUE_PDC_TARGET, mode, job, &rx->av);
	if (pdc) {
		u->nr_tgt++;
		pdc->rid = rx->spdcid;
		pdc->rx_next = psn - psn_off;
		hash_add(u->tgt, &pdc->tgt_node, h);
		refcount_inc(&pdc->ref);
		rue_pdc_publish(pdc);
	}
out:
	spin_unlock_bh(&u->lock);
	return pdc;
}

/* Bit i: PSN @base + i arrived; pdc->lock held. */
static u64 rue_pdc_tgt_sack(const struct rue_pdc *pdc, u32 base)
{
	u64 bits = 0;
	int i;

	for (i = 0; i < 64; i++) {
		s32 d = base + i - pdc->rx_next;

		if (d < 0 || (d < RUE_PDC_WIN &&
			      test_bit((base + i) % RUE_PDC_WIN, pdc->rx_bits)))
			bits |= BIT_ULL(i);
	}
	return bits;
}

/*
 * Send an ACK_CC for a target PDC, with an SES response @rsp, or for a
 * READ request @read the response with its data, or the answer to a
 * PROBE @probe; pdc->lock held.
 */
static void rue_pdc_tgt_ack(struct rue_pdc *pdc, u32 psn, bool ecn,
			    bool retx, const struct rue_ses_rsp *rsp,
			    const struct rue_uet_rx *read,
			    const struct rue_pds_ctrl *probe)
{
	struct rue_pds_ack_cc *cc;
	struct sk_buff *skb;
	u32 cack = pdc->rx_next - 1;
	/* the SACK: from cack + 2 (cack + 1 is a hole, or next) */
	u32 base = cack + 2;
	u32 extra = sizeof(*rsp);
	u16 off = psn - cack;
	u8 flags = 0, next;
	u64 state;

	if (read)
		extra = sizeof(struct rue_ses_rsp_data) +
			min_t(u32, be32_to_cpu(read->ses->request_length),
			      RUE_SES_PAYLEN_MASK);
	skb = rue_xmit_alloc(pdc->rdev, sizeof(*cc) + extra, GFP_ATOMIC);
	if (!skb)
		return;
	cc = skb_put_zero(skb, sizeof(*cc));
	if (ecn)
		flags |= RUE_PDS_ACK_M;
	if (retx)
		flags |= RUE_PDS_ACK_RETX;
	if (probe) {
		/* the base it asks for, if its bitmap can say anything */
		u32 want = be32_to_cpu(probe->payload);
		s32 d = want - cack;

		if (d > -RUE_PDC_WIN && d < RUE_PDC_WIN)
			base = want;
		flags |= RUE_PDS_ACK_P;
		off = be16_to_cpu(probe->probe_opaque);
	}
	next = rsp ? RUE_PDS_NEXT_RSP : RUE_PDS_NEXT_NONE;
	cc->ack.ack_psn_offset = cpu_to_be16(off);
	cc->ack.cack_psn = cpu_to_be32(cack);
	cc->ack.spdcid = cpu_to_be16(pdc->lid);
	cc->ack.dpdcid = cpu_to_be16(pdc->rid);
	cc->sack_psn_offset = cpu_to_be16((u16)(base - cack));
	cc->sack_bitmap = cpu_to_be64(rue_pdc_tgt_sack(pdc, base));
	cc->mpr = 8;
	state = ((u64)(pdc->rcvd_bytes & RUE_NSCC_RCVD_BYTES_MASK) <<
		 RUE_NSCC_RCVD_BYTES_SHIFT) | (pdc->ooo & 0xffff);
	cc->cc_state = cpu_to_be64(state);
	if (read)
		next = pdc->rdev->uet.up->read(pdc->rdev, pdc->job, read, skb);
	else if (rsp)
		skb_put_data(skb, rsp, sizeof(*rsp));
	cc->ack.prologue = rue_pds_prologue(RUE_PDS_ACK_CC, next, flags);
	pdc->ack_bytes = 0;
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_ACKS_SENT);
	if (next == RUE_PDS_NEXT_RSP)
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_SES_ERRORS_SENT);
	rue_pds_xmit(pdc, skb, psn, false);
}

static void rue_pds_nack_send(struct rue_dev *rdev, const struct rue_uet_rx *rx,
			      struct rue_pdc *pdc, u32 psn, u8 code)
{
	struct rue_pds_nack *n;
	struct sk_buff *skb;

	rue_stat_inc(rdev, RUE_STAT_UET_NACKS_SENT);
	skb = rue_xmit_alloc(rdev, sizeof(*n), GFP_ATOMIC);
	if (!skb)
		return;
	n = skb_put_zero(skb, sizeof(*n));
	n->prologue = rue_pds_prologue(RUE_PDS_NACK, 0, 0);
	n->nack_code = code;
	n->nack_psn = cpu_to_be32(psn);
	n->spdcid = cpu_to_be16(pdc ? pdc->lid : 0);
	n->dpdcid = cpu_to_be16(rx->spdcid);
	/* no PDC to carry it: answer along the request's own path */
	rue_xmit_uet(rdev, &rx->av, NULL, rx->sport, skb, rx->av.tclass);
}

/*
 * Whether a request or CLOSE @d past rx_next is new and within what a
 * target takes.  If not it was dealt with: a duplicate is acknowledged
 * again (a READ's data sent again), anything else dropped or NACKed.
 */
static bool rue_pdc_tgt_admit(struct rue_pdc *pdc, const struct rue_uet_rx *rx,
			      u32 psn, s32 d, const struct rue_uet_rx *read)
{
	if (d < 0 || (d < RUE_PDC_WIN &&
		      test_bit(psn % RUE_PDC_WIN, pdc->rx_bits))) {
		/* a duplicate: delivered once already, say so again */
		rue_stat_inc(pdc->rdev, RUE_STAT_RX_DUP_REQUESTS);
		rue_pdc_tgt_ack(pdc, psn, rx->ce, true, NULL, read, NULL);
		return false;
	}
	if (d >= RUE_PDC_WIN) {
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
				  RUE_NACK_PSN_OOR_WINDOW);
		return false;
	}
	if (pdc->mode == RUE_UET_MODE_ROD && d > 0) {
		/*
		 * ROD delivers in order only: drop, and name the hole once
		 * (3.5.11); if the resend is lost too, the RTO resends.
		 */
		rue_stat_inc(pdc->rdev, RUE_STAT_RX_DROP_SEQ);
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_ROD_OOO_DROPS);
		if (!pdc->nak_valid || pdc->nak_psn != pdc->rx_next) {
			pdc->nak_valid = true;
			pdc->nak_psn = pdc->rx_next;
			rue_pds_nack_send(pdc->rdev, rx, pdc, pdc->rx_next,
					  RUE_NACK_ROD_OOO);
		}
		return false;
	}
	return true;
}

/*
 * @psn (@d past rx_next, @paylen bytes) arrived: rx_next moves past what
 * is in order, and ACK coalescing counts it.  Whether an ACK is due now.
 */
static bool rue_pdc_tgt_track(struct rue_pdc *pdc, u32 psn, s32 d, u32 paylen)
{
	bool ack = false;

	__set_bit(psn % RUE_PDC_WIN, pdc->rx_bits);
	pdc->rcvd_bytes += paylen;
	if (d > 0) {
		pdc->ooo++;
		ack = true;
	}
	while (test_bit(pdc->rx_next % RUE_PDC_WIN, pdc->rx_bits)) {
		__clear_bit(pdc->rx_next % RUE_PDC_WIN, pdc->rx_bits);
		pdc->rx_next++;
	}
	pdc->ack_bytes += max_t(u32, paylen, RUE_ACK_MIN_ADD);
	return ack || pdc->ack_bytes >= RUE_ACK_TRIGGER;
}

/*
 * A request or CLOSE for a target PDC: track its PSN, deliver it once,
 * acknowledge.  pdc->lock held.
 */
static void rue_pdc_tgt_rcv(struct rue_pdc *pdc, struct rue_uet_rx *rx,
			    u32 psn, u8 flags, bool close)
{
	s32 d = psn - pdc->rx_next;
	const struct rue_ses_rsp *rsp = NULL;
	const struct rue_uet_rx *read = NULL;
	struct rue_ses_rsp r;
	bool ack = flags & (RUE_PDS_REQ_AR | RUE_PDS_REQ_SYN);
	int ret;

	/* a READ is answered, with its data, every time it comes */
	if (!close && (rx->ses->opcode & 0x3f) == RUE_SES_READ)
		read = rx;
	pdc->last_rx = jiffies;
	if (!rue_pdc_tgt_admit(pdc, rx, psn, d, read))
		return;
	if (close) {
		if (d > 0)
			return;	/* requests before it are missing */
	} else if (read) {
		ack = true;	/* the response is the ACK */
	} else {
		ret = pdc->rdev->uet.up->deliver(pdc->rdev, pdc->job, pdc->ses,
						 rx, &r);
		if (ret < 0) {
			rue_uet_stat_inc(pdc->rdev, RUE_USTAT_RNR_NACKS);
			rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
					  RUE_NACK_NO_SES_MSG_AVAIL);
			return;
		}
		if (ret != RUE_SES_RC_OK) {
			rsp = &r;
			ack = true;
		}
	}
	if (rue_pdc_tgt_track(pdc, psn, d, rx->paylen))
		ack = true;
	if (ack || rx->ce || close)
		rue_pdc_tgt_ack(pdc, psn, rx->ce, false, rsp, read, NULL);
}

/* Close target PDCs that have been idle for RUE_PDC_IDLE. */
static void rue_pds_reap(struct work_struct *work)
{
	struct rue_uet_dev *u = container_of(to_delayed_work(work),
					     struct rue_uet_dev, reaper);
	struct rue_pdc *pdc, *next;
	struct hlist_node *tmp;
	LIST_HEAD(idle);
	int bkt;

	/* out of the table under its lock: rue_pdc_tgt_free() then backs off */
	spin_lock_bh(&u->lock);
	hash_for_each_safe(u->tgt, bkt, tmp, pdc, tgt_node)
		if (time_after(jiffies, READ_ONCE(pdc->last_rx) + RUE_PDC_IDLE)) {
			hash_del(&pdc->tgt_node);
			u->nr_tgt--;
			list_add(&pdc->gc_node, &idle);
		}
	spin_unlock_bh(&u->lock);
	list_for_each_entry_safe(pdc, next, &idle, gc_node) {
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_IDLE_CLOSED);
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_CLOSED);
		rue_pdc_unpublish(pdc);
		spin_lock_bh(&pdc->lock);
		pdc->dead = true;
		rue_pdc_ses_close(pdc);
		spin_unlock_bh(&pdc->lock);
		rue_pdc_put(pdc);	/* the table's */
	}
	schedule_delayed_work(&u->reaper, RUE_PDC_IDLE);
}

/**
 * rue_pds_tgt_qp_gone() - forget partly received messages of a QP
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
/* Receive                                                             */

static struct rue_pdc *rue_pdc_lookup(struct rue_dev *rdev, u16 lid, u8 role,
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

static void rue_pds_rcv_req(struct rue_dev *rdev, struct rue_uet_rx *rx)
{
	const struct rue_pds_req *h = (const void *)rx->skb->data;
	u8 type = rue_pds_type(h->prologue);
	u8 flags = rue_pds_flags(h->prologue);
	u8 mode = type == RUE_PDS_ROD_REQ ? RUE_UET_MODE_ROD : RUE_UET_MODE_RUD;
	u32 psn = be32_to_cpu(h->psn);
	struct rue_pdc *pdc;

	if (rue_pds_next(h->prologue) != RUE_PDS_NEXT_REQ_STD ||
	    !rue_pds_pull(rx->skb, sizeof(*h) + sizeof(struct rue_ses_std))) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	/* the pull may have moved the data */
	h = (const void *)rx->skb->data;
	rx->ses = (const void *)(rx->skb->data + sizeof(*h));
	rx->pay_off = sizeof(*h) + sizeof(struct rue_ses_std);
	rx->paylen = rx->skb->len - rx->pay_off;

	if (flags & RUE_PDS_REQ_SYN)
		pdc = rue_pdc_tgt_syn(rdev, rx, psn,
				      be16_to_cpu(h->dpdcid) & RUE_PDS_SYN_PSN_OFFSET,
				      mode, be32_to_cpu(rx->ses->ri_job) &
					    RUE_SES_JOB_MASK);
	else
		pdc = rue_pdc_lookup(rdev, be16_to_cpu(h->dpdcid),
				     RUE_PDC_TARGET, rx);
	if (!pdc) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(rdev, rx, NULL, psn,
				  flags & RUE_PDS_REQ_SYN ? RUE_NACK_NO_PDC_AVAIL :
							    RUE_NACK_INV_DPDCID);
		return;
	}
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
	} else if (pdc->mode != mode) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(rdev, rx, pdc, psn,
				  RUE_NACK_PDC_MODE_MISMATCH);
	} else {
		rue_pdc_tgt_rcv(pdc, rx, psn, flags, false);
	}
	spin_unlock_bh(&pdc->lock);
	rue_pdc_put(pdc);
}

static void rue_pds_rcv_ctrl(struct rue_dev *rdev, struct rue_uet_rx *rx)
{
	const struct rue_pds_ctrl *c;
	struct rue_pdc *pdc;
	bool closed = false;
	u8 type;
	u32 psn;

	if (!rue_pds_pull(rx->skb, sizeof(*c))) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	c = (const void *)rx->skb->data;
	psn = be32_to_cpu(c->psn);
	type = rue_pds_next(c->prologue);
	if (type != RUE_PDS_CTL_CLOSE && type != RUE_PDS_CTL_PROBE) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	pdc = rue_pdc_lookup(rdev, be16_to_cpu(c->dpdcid), RUE_PDC_TARGET, rx);
	if (!pdc) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(rdev, rx, NULL, psn, RUE_NACK_INV_DPDCID);
		return;
	}
	rx->paylen = 0;
	spin_lock_bh(&pdc->lock);
	if (pdc->dead) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
	} else if (type == RUE_PDS_CTL_PROBE) {
		/* no PSN: answered at once, whatever it names */
		pdc->last_rx = jiffies;
		rue_uet_stat_inc(rdev, RUE_USTAT_TLP_PROBES_RCVD);
		rue_pdc_tgt_ack(pdc, psn, rx->ce, false, NULL, NULL, c);
	} else {
		rue_pdc_tgt_rcv(pdc, rx, psn, rue_pds_flags(c->prologue), true);
		closed = !pdc->dead && pdc->rx_next == psn + 1;
	}
	spin_unlock_bh(&pdc->lock);
	if (closed)
		rue_pdc_tgt_free(pdc);
	rue_pdc_put(pdc);
}

/* ACK, ACK_CC, NACK: for one of our initiator PDCs. */
static void rue_pds_rcv_ini(struct rue_dev *rdev, struct rue_uet_rx *rx, u8 type)
{
	struct rue_pds_ackp p;
	struct rue_pdc *pdc;
	struct rue_qp *qp;
	u16 lid;

	if (!rue_pds_ack_parse(rx->skb, type, &p))
		goto bad;
	lid = be16_to_cpu(p.n ? p.n->dpdcid : p.a->dpdcid);
	pdc = rue_pdc_lookup(rdev, lid, RUE_PDC_INITIATOR, rx);
	if (!pdc)
		goto bad;
	qp = rue_pdc_qp_get(pdc);
	if (!qp) {
		rue_pdc_put(pdc);
		goto bad;
	}
	spin_lock_bh(&qp->req.lock);
	if (!pdc->dead) {
		if (p.n)
			rue_pdc_ini_nack(pdc, p.n);
		else
			rue_pdc_ini_ack(pdc, &p);
		if (pdc->closing && pdc->una_psn == pdc->next_psn)
			rue_pdc_ini_drop(pdc);
	}
	spin_unlock_bh(&qp->req.lock);
	rue_pdc_put(pdc);
	rue_qp_kick(qp);
	rue_qp_put(qp);
	return;
bad:
	rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
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
		rue_pds_rcv_req(rdev, rx);
		break;
	case RUE_PDS_CTRL:
		rue_pds_rcv_ctrl(rdev, rx);
		break;
	case RUE_PDS_ACK:
	case RUE_PDS_ACK_CC:
	case RUE_PDS_NACK:
		rue_pds_rcv_ini(rdev, rx, type);
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

/* ------------------------------------------------------------------ */
/* Device                                                              */

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
	xa_init_flags(&u->pdcs, XA_FLAGS_LOCK_BH);
	hash_init(u->tgt);
	atomic_set(&u->nr_alloc, 0);
	INIT_DELAYED_WORK(&u->reaper, rue_pds_reap);
	schedule_delayed_work(&u->reaper, RUE_PDC_IDLE);
	return 0;
}

/* After every QP is gone: free the target PDCs left. */
void rue_pds_dev_free(struct rue_dev *rdev)
{
	struct rue_uet_dev *u = &rdev->uet;
	struct hlist_node *tmp;
	struct rue_pdc *pdc;
	int bkt;

	cancel_delayed_work_sync(&u->reaper);
	hash_for_each_safe(u->tgt, bkt, tmp, pdc, tgt_node) {
		hash_del(&pdc->tgt_node);
		u->nr_tgt--;
		rue_uet_stat_inc(rdev, RUE_USTAT_PDC_CLOSED);
		rue_pdc_unpublish(pdc);
		spin_lock_bh(&pdc->lock);
		pdc->dead = true;
		rue_pdc_ses_close(pdc);
		spin_unlock_bh(&pdc->lock);
		rue_pdc_put(pdc);
	}
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
}
