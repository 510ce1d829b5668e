// SPDX-License-Identifier: GPL-2.0
/*
 * UET PDS, initiator side (UE 1.0.1 section 3.5): a UET QP's PDCs, one
 * per peer address, with their windows of requests in flight, resends,
 * the RTO, tail-loss probes and CLOSE.  What ACKs and NACKs do to them
 * is pds_ack.c's.
 *
 * Window: at most RUE_PDC_WIN requests in flight, and no more bytes than
 * NSCC's congestion window (which always lets one go).  The PDC timer is
 * the RTO while requests are in flight and the idle timer otherwise: a
 * PDC idle for rue.uet_idle_ms sends a CTRL CLOSE, which takes a PSN
 * like a request and so is sent again until acknowledged.  RTOs without
 * progress back off, and fail the PDC after rue.uet_retries of them.
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
 * All of it under the QP's req.lock; a pending timer holds a reference
 * on its PDC.
 */
#include <linux/ipv6.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <rdma/rue-abi.h>

#include "pdc.h"
#include "pdc_owner.h"
#include "pds_ini.h"
#include "uet.h"
#include "uet_stats.h"
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

static unsigned int uet_idle_ms = 1000;
module_param(uet_idle_ms, uint, 0644);
MODULE_PARM_DESC(uet_idle_ms, "UET: an initiator closes a PDC idle this long (default 1000)");

static unsigned int uet_max_qp_pdcs = 1024;
module_param(uet_max_qp_pdcs, uint, 0644);
MODULE_PARM_DESC(uet_max_qp_pdcs, "UET: initiator PDCs (peers) a QP keeps at once; one more closes the one idle longest (default 1024)");

static unsigned int uet_tlp_us = 1000;
module_param(uet_tlp_us, uint, 0644);
MODULE_PARM_DESC(uet_tlp_us, "UET: tail-loss probe timeout floor in us, 0: no probes (default 1000)");

#define RUE_PDC_RTO_MAX_MS	1000
#define RUE_TLP_MAX		5		/* MAX_TAIL_LOSS_RETX */

/* ------------------------------------------------------------------ */
/* A QP's PDCs                                                         */

static void rue_pds_rto(struct timer_list *t);
static enum hrtimer_restart rue_pds_tlp(struct hrtimer *t);

static u32 rue_pdc_hash(const struct rue_av *av)
{
	return jhash(&av->daddr, sizeof(av->daddr), av->network_type);
}

/*
 * A QP that could not make a PDC - no memory in atomic context, or no
 * PDCID free on the device - may have nothing in flight whose ACK or RTO
 * would kick it, and its user nothing left to post: it is kicked again
 * after RUE_PDC_RETRY.  The pending timer holds a reference on the QP.
 * (A QP at its own or its user's bound needs none: its PDCs' traffic or
 * closing kicks it, pdc_owner.c.)
 */
#define RUE_PDC_RETRY	msecs_to_jiffies(20)

static void rue_pds_qp_retry(struct timer_list *t)
{
	struct rue_qp *qp = from_timer(qp, t, uet.pds.retry);

	rue_qp_kick(qp);
	rue_qp_put(qp);
}

/* req.lock held, the QP in RTS: rue_pds_qp_stop() cannot have run. */
static void rue_pds_qp_retry_arm(struct rue_qp *qp)
{
	rue_uet_stat_inc(qp->rdev, RUE_USTAT_PDC_ALLOC_RETRIES);
	refcount_inc(&qp->refcnt);
	if (mod_timer(&qp->uet.pds.retry, jiffies + RUE_PDC_RETRY))
		rue_qp_put(qp);		/* it was pending, referenced */
}

/**
 * rue_pds_qp_stop() - a QP being destroyed is kicked no more
 * @qp: the QP, in the error state: rue_pdc_find() no longer runs for it
 */
void rue_pds_qp_stop(struct rue_qp *qp)
{
	if (del_timer_sync(&qp->uet.pds.retry))
		rue_qp_put(qp);
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
	timer_setup(&pq->retry, rue_pds_qp_retry, 0);
}

/**
 * rue_pds_qp_account() - charge a new QP's PDCs to its creator
 * @pq: the QP's (qp->uet.pds), in the creating process
 *
 * The PDCs are made later, in the transmit engine's context, under
 * set_active_memcg(): the memory cgroup of the process that made the QP
 * pays for them, as for memory allocated in its system calls.
 */
void rue_pds_qp_account(struct rue_pds_qp *pq)
{
	pq->memcg = get_mem_cgroup_from_mm(current->mm);
}

/* The QP is freed, its PDCs gone (rue_pds_qp_drop()). */
void rue_pds_qp_fini(struct rue_pds_qp *pq)
{
	mem_cgroup_put(pq->memcg);
	pq->memcg = NULL;
}

static struct sk_buff *rue_pdc_close(struct rue_pdc *pdc);

/*
 * A QP with rue.uet_max_qp_pdcs initiator PDCs makes room for one more
 * by closing the PDC idle longest (nothing in flight).  A PDC is about
 * 16 KB (its window of RUE_PDC_WIN requests), allocated in atomic
 * context: without a bound, one QP sending to ever new addresses held
 * them up to the device's 65,535 PDCIDs (issue 15, item 9), and many
 * QPs still may.  So PDCs are also charged to the memory cgroup of the
 * process that made the QP (rue_pds_qp_account()): a container's memory
 * limit bounds what its QPs hold (an atomic charge may pass the limit
 * for a moment; the cgroup's next allocations reclaim, or its OOM killer
 * acts, as for any GFP_ATOMIC charge).  The request waits for the CLOSE's
 * ACK, which drops the PDC and kicks the QP; with no PDC idle, for an
 * ACK that makes one so.  A PDC whose target never answered goes at
 * once.
 */
static void rue_pdc_make_room(struct rue_qp *qp, struct sk_buff_head *out)
{
	struct rue_pdc *pdc, *old = NULL;
	struct sk_buff *skb;
	int bkt;

	hash_for_each(qp->uet.pds.pdcs, bkt, pdc, qp_node) {
		if (pdc->closing)
			return;		/* room is on its way */
		if (pdc->una_psn == pdc->next_psn &&
		    (!old || pdc->last_act_ns < old->last_act_ns))
			old = pdc;
	}
	if (!old)
		return;
	rue_uet_stat_inc(qp->rdev, RUE_USTAT_PDC_RECYCLED);
	skb = rue_pdc_close(old);
	if (skb)
		__skb_queue_tail(out, skb);	/* rue_pdc_close() prepared it */
}

/**
 * rue_pdc_find() - the initiator PDC of @qp towards @av, created if needed
 * @qp: a UET QP, req.lock held
 * @av: the peer
 * @mss: the payload of a full packet, for congestion control
 * @out: where a CLOSE goes that makes room (rue_pdc_make_room())
 *
 * Return: the PDC, or NULL when none can be made now (retry later).
 */
struct rue_pdc *rue_pdc_find(struct rue_qp *qp, const struct rue_av *av,
			     u32 mss, struct sk_buff_head *out)
{
	u32 h = rue_pdc_hash(av);
	u32 limit = max(READ_ONCE(uet_max_qp_pdcs), 1U);
	struct mem_cgroup *memcg;
	struct rue_pdc *pdc;

	lockdep_assert_held(&qp->req.lock);
	hash_for_each_possible(qp->uet.pds.pdcs, pdc, qp_node, h)
		if (ipv6_addr_equal(&pdc->av.daddr, &av->daddr) &&
		    pdc->av.network_type == av->network_type &&
		    !pdc->closing && !(pdc->close_asked &&
				       pdc->mode == RUE_UET_MODE_RUD))
			return pdc;

	if (qp->uet.pds.nr_pdcs >= limit) {
		rue_pdc_make_room(qp, out);
		if (qp->uet.pds.nr_pdcs >= limit)
			return NULL;
	}
	if (!rue_pdc_owner_charge(qp))
		return NULL;
	memcg = set_active_memcg(qp->uet.pds.memcg);
	pdc = rue_pdc_alloc(qp->rdev, RUE_PDC_INITIATOR, qp->uet.pds.mode,
			    GFP_ATOMIC | __GFP_ACCOUNT, qp->uet.pds.job, av);
	set_active_memcg(memcg);
	if (!pdc) {
		rue_pdc_owner_uncharge(qp);
		rue_pds_qp_retry_arm(qp);
		return NULL;
	}
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

/* ------------------------------------------------------------------ */
/* Timers, RTT                                                         */

/* A pending timer holds a reference on the PDC. */
static void rue_pdc_arm_in(struct rue_pdc *pdc, unsigned long delay)
{
	if (!mod_timer(&pdc->rto, jiffies + delay))
		refcount_inc(&pdc->ref);
}

/*
 * The probe timeout: TAIL_LOSS_TIME, two RTTs if longer, backed off, and
 * never past half the RTO: a probe exists to draw an ACK before the RTO
 * fires (RFC 8985 7.2 keeps the PTO within the RTO), and a few inflated
 * RTT samples in a busy guest would otherwise back it off beyond it.
 */
static u64 rue_pdc_pto_ns(const struct rue_pdc *pdc)
{
	u64 us = max(READ_ONCE(uet_tlp_us), 2 * pdc->srtt_us);

	us <<= min_t(u8, pdc->tlp_count, RUE_TLP_MAX);
	return min_t(u64, us, max(pdc->rto_us / 2, 1U)) * NSEC_PER_USEC;
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
void rue_pdc_tlp_kick(struct rue_pdc *pdc, u64 now)
{
	pdc->last_act_ns = now;
	if (READ_ONCE(uet_tlp_us) && !hrtimer_is_queued(&pdc->tlp))
		rue_pdc_tlp_arm(pdc, rue_pdc_pto_ns(pdc));
}

/* The RTO, doubled per RTO without progress, at most RUE_PDC_RTO_MAX_MS. */
void rue_pdc_arm(struct rue_pdc *pdc)
{
	u32 us = min_t(u32, pdc->rto_us << min_t(u32, pdc->retries, 10),
		       RUE_PDC_RTO_MAX_MS * USEC_PER_MSEC);

	rue_pdc_arm_in(pdc, usecs_to_jiffies(us));
}

/*
 * Nothing in flight: the PDC timer closes the PDC if it stays idle, at
 * once if its target asked for that.
 */
void rue_pdc_arm_idle(struct rue_pdc *pdc)
{
	rue_pdc_arm_in(pdc, pdc->close_asked ? 0 :
			    msecs_to_jiffies(uet_idle_ms));
}

/**
 * rue_pdc_close_ask() - the target asks to close an initiator PDC
 * @pdc: the PDC, qp->req.lock held
 *
 * A CTRL CLOSE_REQ, or an ACK whose REQ field says close (UE 1.0.1
 * 3.5.8: the target may ask, the initiator closes).  The PDC closes as
 * soon as nothing is in flight, not after rue.uet_idle_ms.  A RUD PDC
 * takes no new message meanwhile (rue_pdc_find() opens another to the
 * peer); a ROD PDC keeps taking them, since messages on a second PDC
 * could overtake its own, and closes at its first idle moment.
 */
void rue_pdc_close_ask(struct rue_pdc *pdc)
{
	if (pdc->close_asked || pdc->closing || pdc->syn)
		return;
	pdc->close_asked = true;
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_CLOSE_ASKED);
	if (pdc->una_psn == pdc->next_psn)
		rue_pdc_arm_idle(pdc);
}

/*
 * RTT of a request sent once (Karn: never of a resend), and the RTO from
 * it as TCP computes one (RFC 6298), never below rue.uet_rto_ms: softirq
 * and timer granularity in a busy guest say more than the RTT.
 */
u32 rue_pdc_rtt(struct rue_pdc *pdc, const struct rue_pds_tx *tx)
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

static void rue_pdc_disarm(struct rue_pdc *pdc)
{
	if (del_timer(&pdc->rto))
		rue_pdc_put(pdc);
	/* a running callback drops its own reference, finding pdc->dead */
	if (hrtimer_try_to_cancel(&pdc->tlp) == 1)
		rue_pdc_put(pdc);
}

/* ------------------------------------------------------------------ */
/* Requests: taking PSNs, resending, failing                           */

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
void rue_pdc_ini_drop(struct rue_pdc *pdc)
{
	if (pdc->dead)
		return;
	pdc->dead = true;
	rue_uet_stat_inc(pdc->rdev, pdc->failed || pdc->una_psn != pdc->next_psn ?
			 RUE_USTAT_PDC_FAILED : RUE_USTAT_PDC_CLOSED);
	hash_del(&pdc->qp_node);
	pdc->qp->uet.pds.nr_pdcs--;
	rue_pdc_owner_uncharge(pdc->qp);
	rue_pdc_ses_close(pdc);
	/* a running timer finds no QP (the QP is freed a grace period later) */
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
void rue_pdc_fail(struct rue_pdc *pdc, u8 status)
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

/* The CLOSE control packet of a closing initiator PDC. */
static struct sk_buff *rue_pds_close_pkt(struct rue_pdc *pdc, u32 psn,
					 bool retx)
{
	struct rue_pds_ctrl *c;
	struct sk_buff *skb;
	u8 flags = RUE_PDS_CTRL_AR | (retx ? RUE_PDS_CTRL_RETX : 0);

	skb = rue_pds_ctrl_alloc(pdc, RUE_PDS_CTL_CLOSE, flags, &c);
	if (skb)
		c->psn = cpu_to_be32(psn);
	return skb;
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

/* ------------------------------------------------------------------ */
/* CLOSE, and the PDC timers                                           */

/*
 * Start closing an idle initiator PDC (req.lock held, nothing in
 * flight): the CLOSE packet to send, prepared (rue_pds_prepare()), or
 * NULL.
 */
static struct sk_buff *rue_pdc_close(struct rue_pdc *pdc)
{
	struct rue_pds_tx *tx;
	struct sk_buff *skb;
	u32 psn;

	if (pdc->syn) {
		/* the target never answered: it has nothing to free */
		rue_pdc_ini_drop(pdc);
		return NULL;
	}
	skb = rue_pds_close_pkt(pdc, pdc->next_psn, false);
	if (!skb)
		return NULL;
	rue_pds_prepare(skb, pdc, pdc->next_psn);
	tx = rue_pdc_take_psn(pdc, 0, &psn);
	tx->close = true;
	pdc->closing = true;
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

	skb = rue_pds_ctrl_alloc(pdc, RUE_PDS_CTL_PROBE, 0, &c);
	if (!skb)
		return NULL;
	c->probe_opaque = cpu_to_be16(++pdc->tlp_opaque);
	c->psn = cpu_to_be32(newest);
	c->payload = cpu_to_be32(base);
	pdc->tlp_psn = newest;
	return skb;
}

/**
 * rue_pds_clear_pkt() - the CLEAR an initiator PDC's target asked for
 * @pdc: the PDC, qp->req.lock held
 *
 * Asked by a CTRL CLEAR_REQ or an ACK whose REQ field says clear (UE
 * 1.0.1 3.5.16): a target may keep answers (a READ's data) until the
 * initiator says it has them.  CLEAR takes no PSN and asks for no ACK;
 * its payload is the CLEAR_PSN, the newest PSN with every answer up to
 * it in (una_psn - 1: a READ stays unacknowledged until its data
 * comes), as each request's clear_psn_offset says too.  One per asking:
 * a lost one is made good by the next request or the next asking.
 *
 * Return: the packet, prepared (rue_pds_send_one() once the lock is
 * dropped), or NULL (the target's PDCID not known yet, or no memory).
 */
struct sk_buff *rue_pds_clear_pkt(struct rue_pdc *pdc)
{
	struct rue_pds_ctrl *c;
	struct sk_buff *skb;

	if (pdc->syn)
		return NULL;
	skb = rue_pds_ctrl_alloc(pdc, RUE_PDS_CTL_CLEAR, 0, &c);
	if (!skb)
		return NULL;
	c->payload = cpu_to_be32(pdc->una_psn - 1);
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_CLEARS_SENT);
	rue_pds_prepare(skb, pdc, pdc->una_psn);
	return skb;
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
		if (!pdc->closing) {
			if (!pdc->close_asked)
				rue_uet_stat_inc(pdc->rdev,
						 RUE_USTAT_PDC_IDLE_CLOSED);
			close = rue_pdc_close(pdc);
		}
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
	/* the first RTO of an episode may prove spurious (pds_ack.c) */
	if (!pdc->rto_undo) {
		pdc->rto_undo = true;
		pdc->rto_undo_cwnd = rue_nscc_cwnd(&pdc->cc);
		pdc->rto_ns = ktime_get_ns();
	}
	rue_pdc_lost(pdc, RUE_CC_RTO);
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
		rue_pds_prepare(probe, pdc, pdc->next_psn);
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
