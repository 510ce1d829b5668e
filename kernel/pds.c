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

#include "cc.h"
#include "device.h"
#include "pds.h"
#include "qp.h"
#include "ses.h"
#include "stats.h"
#include "uet.h"
#include "xmit.h"

static unsigned int uet_retries = 7;
module_param(uet_retries, uint, 0644);
MODULE_PARM_DESC(uet_retries, "UET: RTOs without progress before a PDC fails (default 7)");

static unsigned int uet_rto_ms = 4;
module_param(uet_rto_ms, uint, 0644);
MODULE_PARM_DESC(uet_rto_ms, "UET: initial retransmission timeout in ms (default 4)");

static unsigned int uet_idle_ms = 1000;
module_param(uet_idle_ms, uint, 0644);
MODULE_PARM_DESC(uet_idle_ms, "UET: an initiator closes a PDC idle this long (default 1000)");

#define RUE_PDC_IDLE		(5 * HZ)	/* target side without traffic */
#define RUE_PDC_RTO_MAX_MS	1000
#define RUE_ACK_TRIGGER		16384		/* ACK_GEN_TRIGGER */
#define RUE_ACK_MIN_ADD		1024		/* ACK_GEN_MIN_PKT_ADD */
#define RUE_DUP_THRESH		3

static void rue_pdc_free_rcu(struct rcu_head *rcu)
{
	struct rue_pdc *pdc = container_of(rcu, struct rue_pdc, rcu);

	/* the leak oracle of the tests, with "created" */
	pr_debug("PDC %u freed\n", pdc->lid);
	dst_cache_destroy(&pdc->dst_cache);
	kfree(pdc);
}

void rue_pdc_put(struct rue_pdc *pdc)
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
	if (dst_cache_init(&pdc->dst_cache, GFP_ATOMIC)) {
		kfree(pdc);
		return NULL;
	}
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
			pr_debug("PDC %u created\n", id);
			return pdc;
		}
	}
	dst_cache_destroy(&pdc->dst_cache);
	kfree(pdc);
	return NULL;
}

/* Publish last: the receive path finds the PDC from here on. */
static void rue_pdc_publish(struct rue_pdc *pdc)
{
	/* into the reserved slot: allocates nothing, cannot fail */
	xa_store_bh(&pdc->rdev->uet.pdcs, pdc->lid, pdc, GFP_ATOMIC);
}

/* Unpublish: no new lookups; the caller's reference is dropped later. */
static void rue_pdc_unpublish(struct rue_pdc *pdc)
{
	xa_erase_bh(&pdc->rdev->uet.pdcs, pdc->lid);
}

/* ------------------------------------------------------------------ */
/* Sending PDS headers                                                 */

static __be16 rue_pdc_sport(const struct rue_pdc *pdc, u32 psn)
{
	u32 n = pdc->qp ? max_t(u32, pdc->qp->uet.entropy, 1) : 1;
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
void rue_pds_xmit(struct rue_pdc *pdc, struct sk_buff *skb, u32 psn, bool ect)
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

/* ------------------------------------------------------------------ */
/* Initiator                                                           */

static u32 rue_pdc_hash(const struct rue_av *av)
{
	return jhash(&av->daddr, sizeof(av->daddr), av->network_type);
}

/**
 * rue_pdc_find() - the initiator PDC of @qp towards @av, created if needed
 * @qp: a UET QP, req.lock held
 * @av: the peer
 *
 * Return: the PDC, or NULL when none can be made now (retry later).
 */
struct rue_pdc *rue_pdc_find(struct rue_qp *qp, const struct rue_av *av)
{
	u32 h = rue_pdc_hash(av);
	struct rue_pdc *pdc;

	lockdep_assert_held(&qp->req.lock);
	hash_for_each_possible(qp->uet.pdcs, pdc, qp_node, h)
		if (ipv6_addr_equal(&pdc->av.daddr, &av->daddr) &&
		    pdc->av.network_type == av->network_type && !pdc->closing)
			return pdc;

	pdc = rue_pdc_alloc(qp->rdev, RUE_PDC_INITIATOR, qp->uet.mode,
			    qp->uet.job, av);
	if (!pdc)
		return NULL;
	pdc->qp = qp;
	pdc->syn = true;
	pdc->start_psn = get_random_u32();
	pdc->next_psn = pdc->start_psn;
	pdc->una_psn = pdc->start_psn;
	pdc->sack_high = pdc->start_psn - 1;
	pdc->rto_us = uet_rto_ms * USEC_PER_MSEC;
	timer_setup(&pdc->rto, rue_pds_rto, 0);
	hash_add(qp->uet.pdcs, &pdc->qp_node, h);
	qp->uet.nr_pdcs++;
	rue_pdc_publish(pdc);
	return pdc;
}

/* Packets in flight; room for @n more? */
bool rue_pdc_room(const struct rue_pdc *pdc, u32 n)
{
	return pdc->next_psn - pdc->una_psn + n <= RUE_PDC_WIN;
}

/* A pending timer holds a reference on the PDC. */
static void rue_pdc_arm_in(struct rue_pdc *pdc, unsigned long delay)
{
	if (!mod_timer(&pdc->rto, jiffies + delay))
		refcount_inc(&pdc->ref);
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
static void rue_pdc_rtt(struct rue_pdc *pdc, const struct rue_pds_tx *tx)
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
}

static void rue_pdc_disarm(struct rue_pdc *pdc)
{
	if (del_timer(&pdc->rto))
		rue_pdc_put(pdc);
}

/**
 * rue_pdc_take_psn() - account a new request
 * @pdc: initiator PDC, req.lock held
 *
 * Return: the entry for the PSN the request takes (pdc->next_psn - 1).
 */
struct rue_pds_tx *rue_pdc_take_psn(struct rue_pdc *pdc)
{
	struct rue_pds_tx *tx = &pdc->win[pdc->next_psn % RUE_PDC_WIN];
	bool idle = pdc->una_psn == pdc->next_psn;

	memset(tx, 0, sizeof(*tx));
	tx->state = RUE_PDS_TX_SENT;
	tx->sent = 1;
	tx->epoch = pdc->epoch;
	tx->sent_ns = ktime_get_ns();
	pdc->next_psn++;
	/* from the idle timer to the RTO */
	if (idle)
		rue_pdc_arm(pdc);
	return tx;
}

/* Fail every request of @pdc and forget it: the target is unreachable. */
static void rue_pdc_fail(struct rue_pdc *pdc, u8 status)
{
	struct rue_qp *qp = pdc->qp;
	u32 psn;

	for (psn = pdc->una_psn; psn != pdc->next_psn; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

		if (tx->state == RUE_PDS_TX_SENT && tx->len != U16_MAX)
			rue_ses_tx_done(qp, tx, status);
		tx->state = RUE_PDS_TX_FREE;
	}
	pdc->una_psn = pdc->next_psn;
	rue_pdc_ini_drop(pdc);
}

/**
 * rue_pdc_ini_drop() - remove an initiator PDC from its QP
 * @pdc: the PDC, req.lock held
 */
void rue_pdc_ini_drop(struct rue_pdc *pdc)
{
	if (pdc->dead)
		return;
	pdc->dead = true;
	hash_del(&pdc->qp_node);
	pdc->qp->uet.nr_pdcs--;
	/* a running timer finds no QP (RCU: see rue_ses_qp_destroy()) */
	WRITE_ONCE(pdc->qp, NULL);
	rue_pdc_unpublish(pdc);
	rue_pdc_disarm(pdc);
	rue_pdc_put(pdc);
}

/* Resend what is marked for it, oldest first; req.lock held. */
int rue_pdc_resend(struct rue_pdc *pdc, struct sk_buff_head *out, int budget)
{
	u32 psn;
	int n = 0;

	for (psn = pdc->una_psn; psn != pdc->next_psn && pdc->nr_retx &&
	     n < budget; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];
		struct sk_buff *skb;

		if (!tx->retx)
			continue;
		tx->retx = 0;
		pdc->nr_retx--;
		if (tx->state != RUE_PDS_TX_SENT)
			continue;
		if (tx->len == U16_MAX)
			skb = rue_pds_close_pkt(pdc, psn, true);
		else
			skb = rue_ses_build(pdc->qp, pdc, tx, psn, true, true);
		if (!skb)
			continue;	/* the RTO tries again */
		tx->sent++;
		tx->epoch = pdc->epoch;
		tx->sent_ns = ktime_get_ns();
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RETRANSMITS);
		rue_ses_queue(skb, pdc, psn);
		__skb_queue_tail(out, skb);
		n++;
	}
	return n;
}

static void rue_pdc_mark_retx(struct rue_pdc *pdc, struct rue_pds_tx *tx)
{
	if (tx->state == RUE_PDS_TX_SENT && !tx->retx) {
		tx->retx = 1;
		pdc->nr_retx++;
	}
}

/*
 * The PDC timer: with requests in flight, the RTO (send everything
 * unacknowledged again, back off); with none, the idle timer (close).
 * The pending timer held a reference on the PDC; the QP is found under
 * RCU and referenced, since the PDC may have been dropped meanwhile.
 */
void rue_pds_rto(struct timer_list *t)
{
	struct rue_pdc *pdc = from_timer(pdc, t, rto);
	struct sk_buff *close = NULL;
	struct rue_qp *qp;
	bool kick = false;
	u32 psn;

	rcu_read_lock();
	qp = READ_ONCE(pdc->qp);
	if (qp && !refcount_inc_not_zero(&qp->refcnt))
		qp = NULL;
	rcu_read_unlock();
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
	if (pdc->mode == RUE_UET_MODE_ROD) {
		for (psn = pdc->una_psn; psn != pdc->next_psn; psn++)
			rue_pdc_mark_retx(pdc, &pdc->win[psn % RUE_PDC_WIN]);
	} else {
		rue_pdc_mark_retx(pdc, &pdc->win[pdc->una_psn % RUE_PDC_WIN]);
	}
	pdc->gbn_valid = false;
	rue_pdc_arm(pdc);
	kick = true;
out:
	spin_unlock_bh(&qp->req.lock);
	if (close) {
		local_bh_disable();
		rue_ses_send_one(close);
		local_bh_enable();
	}
	if (kick)
		rue_qp_kick(qp);
	rue_qp_put(qp);
put:
	rue_pdc_put(pdc);
}

static void rue_pdc_ack_one(struct rue_pdc *pdc, u32 psn, u8 status)
{
	struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

	if (tx->state != RUE_PDS_TX_SENT)
		return;
	tx->state = RUE_PDS_TX_ACKED;
	if (tx->sent == 1)
		rue_pdc_rtt(pdc, tx);
	if (tx->retx) {
		tx->retx = 0;
		pdc->nr_retx--;
	}
	if (tx->len == U16_MAX) {
		/* the CLOSE: the target has let go */
		pdc->closing = true;
		return;
	}
	rue_ses_tx_done(pdc->qp, tx, status);
}

static bool rue_psn_in(u32 psn, u32 lo, u32 hi)
{
	return (s32)(psn - lo) >= 0 && (s32)(hi - psn) > 0;
}

static u8 rue_ses_rc_to_wc(u8 rc)
{
	switch (rc) {
	case RUE_SES_RC_OK:
		return IB_WC_SUCCESS;
	case RUE_SES_RC_BAD_PID:
	case RUE_SES_RC_BAD_INDEX:
	case RUE_SES_RC_UNSUPPORTED_OP:
		return IB_WC_REM_INV_REQ_ERR;
	case RUE_SES_RC_TOO_LONG:
		return IB_WC_REM_INV_REQ_ERR;
	default:
		return IB_WC_REM_ACCESS_ERR;
	}
}

/* An ACK or ACK_CC for an initiator PDC; req.lock held. */
static void rue_pdc_ini_ack(struct rue_pdc *pdc, const struct rue_pds_ack *a,
			    const struct rue_pds_ack_cc *cc,
			    const struct rue_ses_rsp *rsp)
{
	u32 cack = be32_to_cpu(a->cack_psn);
	u32 ack_psn = cack + (s16)be16_to_cpu(a->ack_psn_offset);
	u32 old_una = pdc->una_psn;
	u32 psn;

	/* everything up to cack arrived; nothing beyond next_psn exists */
	if (!rue_psn_in(cack, pdc->una_psn - 1, pdc->next_psn)) {
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	if (pdc->syn) {
		pdc->rid = be16_to_cpu(a->spdcid);
		pdc->syn = false;
	}
	if (rsp && rue_psn_in(ack_psn, pdc->una_psn, pdc->next_psn))
		rue_pdc_ack_one(pdc, ack_psn, rue_ses_rc_to_wc(rsp->rc & 0x3f));

	for (psn = pdc->una_psn; psn != cack + 1; psn++)
		rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS);
	if (cc) {
		u64 bits = be64_to_cpu(cc->sack_bitmap);
		u32 base = cack + (s16)be16_to_cpu(cc->sack_psn_offset);
		int i;

		for (i = 0; i < 64; i++) {
			psn = base + i;
			if (!(bits & BIT_ULL(i)) ||
			    !rue_psn_in(psn, pdc->una_psn, pdc->next_psn))
				continue;
			rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS);
			if ((s32)(psn - pdc->sack_high) > 0)
				pdc->sack_high = psn;
		}
	}
	while (pdc->una_psn != pdc->next_psn &&
	       pdc->win[pdc->una_psn % RUE_PDC_WIN].state != RUE_PDS_TX_SENT)
		pdc->una_psn++;
	if ((s32)(pdc->sack_high - pdc->una_psn) < 0)
		pdc->sack_high = pdc->una_psn - 1;

	if (pdc->una_psn != old_una) {
		pdc->retries = 0;
		if (pdc->una_psn == pdc->next_psn)
			rue_pdc_arm_in(pdc, msecs_to_jiffies(uet_idle_ms));
		else
			rue_pdc_arm(pdc);
	}

	/* RUD: a hole that later packets overtook by 3 is lost (3.5.12.7) */
	if (pdc->mode == RUE_UET_MODE_RUD &&
	    (s32)(pdc->sack_high - pdc->una_psn) >= RUE_DUP_THRESH) {
		for (psn = pdc->una_psn;
		     (s32)(pdc->sack_high - psn) >= RUE_DUP_THRESH; psn++) {
			struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

			/*
			 * Once per RTO epoch: a resend lost again waits for
			 * the next RTO, which opens a new epoch.
			 */
			if (tx->state == RUE_PDS_TX_SENT &&
			    (tx->sent == 1 || tx->epoch != pdc->epoch))
				rue_pdc_mark_retx(pdc, tx);
		}
	}
	if (a->prologue & cpu_to_be16(RUE_PDS_ACK_M))
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_ECN_ECHO);
}

/* A NACK for an initiator PDC; req.lock held. */
static void rue_pdc_ini_nack(struct rue_pdc *pdc, const struct rue_pds_nack *n)
{
	u32 psn = be32_to_cpu(n->nack_psn);
	u32 p;

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
		for (p = psn; p != pdc->next_psn; p++)
			rue_pdc_mark_retx(pdc, &pdc->win[p % RUE_PDC_WIN]);
		break;
	case RUE_NACK_NO_SES_MSG_AVAIL:
		/* no receive buffer yet: the RTO sends it again */
		break;
	case RUE_NACK_INV_DPDCID:
		if (pdc->closing) {
			/* the target closed already; our CLOSE's ACK got lost */
			rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS);
			break;
		}
		fallthrough;
	default:
		rue_pdc_fail(pdc, IB_WC_REM_ABORT_ERR);
		break;
	}
}

/**
 * rue_pdc_close() - start closing an idle initiator PDC
 * @pdc: the PDC, req.lock held, nothing in flight
 *
 * Return: the CLOSE packet to send, or NULL.
 */
struct sk_buff *rue_pdc_close(struct rue_pdc *pdc)
{
	struct rue_pds_tx *tx;
	struct sk_buff *skb;

	if (pdc->syn) {
		/* the target never answered: it has nothing to free */
		rue_pdc_ini_drop(pdc);
		return NULL;
	}
	skb = rue_pds_close_pkt(pdc, pdc->next_psn, false);
	if (!skb)
		return NULL;
	rue_ses_queue(skb, pdc, pdc->next_psn);
	tx = rue_pdc_take_psn(pdc);
	tx->len = U16_MAX;		/* marks the CLOSE */
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
	spin_unlock_bh(&u->lock);
	rue_pdc_unpublish(pdc);
	spin_lock_bh(&pdc->lock);
	pdc->dead = true;
	rue_ses_rmsg_drop_all(pdc, NULL);
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
	pdc = rue_pdc_alloc(rdev, RUE_PDC_TARGET, mode, job, &rx->av);
	if (pdc) {
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

/* Send an ACK_CC for a target PDC; pdc->lock held. */
static void rue_pdc_tgt_ack(struct rue_pdc *pdc, u32 psn, bool ecn,
			    bool retx, const struct rue_ses_rsp *rsp)
{
	struct rue_pds_ack_cc *cc;
	struct sk_buff *skb;
	u32 cack = pdc->rx_next - 1;
	u64 bits = 0, state;
	u8 flags = 0;
	int i;

	skb = rue_xmit_alloc(pdc->rdev, sizeof(*cc) + sizeof(*rsp), GFP_ATOMIC);
	if (!skb)
		return;
	cc = skb_put_zero(skb, sizeof(*cc));
	if (ecn)
		flags |= RUE_PDS_ACK_M;
	if (retx)
		flags |= RUE_PDS_ACK_RETX;
	cc->ack.prologue = rue_pds_prologue(RUE_PDS_ACK_CC,
					    rsp ? RUE_PDS_NEXT_RSP :
						  RUE_PDS_NEXT_NONE, flags);
	cc->ack.ack_psn_offset = cpu_to_be16((u16)(psn - cack));
	cc->ack.cack_psn = cpu_to_be32(cack);
	cc->ack.spdcid = cpu_to_be16(pdc->lid);
	cc->ack.dpdcid = cpu_to_be16(pdc->rid);
	/* SACK: the 64 PSNs after cack + 1 (which is a hole, or next) */
	for (i = 0; i < 64; i++)
		if (test_bit((pdc->rx_next + 1 + i) % RUE_PDC_WIN, pdc->rx_bits))
			bits |= BIT_ULL(i);
	cc->sack_psn_offset = cpu_to_be16(2);
	cc->sack_bitmap = cpu_to_be64(bits);
	cc->mpr = 8;
	state = ((u64)(pdc->rcvd_bytes & RUE_NSCC_RCVD_BYTES_MASK) <<
		 RUE_NSCC_RCVD_BYTES_SHIFT) | (pdc->ooo & 0xffff);
	cc->cc_state = cpu_to_be64(state);
	if (rsp)
		skb_put_data(skb, rsp, sizeof(*rsp));
	pdc->ack_bytes = 0;
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
 * A request or CLOSE for a target PDC: track its PSN, deliver it once,
 * acknowledge.  pdc->lock held.
 */
static void rue_pdc_tgt_rcv(struct rue_pdc *pdc, struct rue_uet_rx *rx,
			    u32 psn, u8 flags, bool close)
{
	s32 d = psn - pdc->rx_next;
	const struct rue_ses_rsp *rsp = NULL;
	struct rue_ses_rsp r;
	bool ack = flags & (RUE_PDS_REQ_AR | RUE_PDS_REQ_SYN);
	int ret;

	pdc->last_rx = jiffies;
	if (d < 0 || (d < RUE_PDC_WIN &&
		      test_bit(psn % RUE_PDC_WIN, pdc->rx_bits))) {
		/* a duplicate: delivered once already, say so again */
		rue_stat_inc(pdc->rdev, RUE_STAT_RX_DUP_REQUESTS);
		rue_pdc_tgt_ack(pdc, psn, rx->ce, true, NULL);
		return;
	}
	if (d >= RUE_PDC_WIN) {
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
				  RUE_NACK_PSN_OOR_WINDOW);
		return;
	}
	if (pdc->mode == RUE_UET_MODE_ROD && d > 0) {
		/*
		 * ROD delivers in order only: drop, and name the hole once
		 * (3.5.11); if the resend is lost too, the RTO resends.
		 */
		rue_stat_inc(pdc->rdev, RUE_STAT_RX_DROP_SEQ);
		if (!pdc->nak_valid || pdc->nak_psn != pdc->rx_next) {
			pdc->nak_valid = true;
			pdc->nak_psn = pdc->rx_next;
			rue_pds_nack_send(pdc->rdev, rx, pdc, pdc->rx_next,
					  RUE_NACK_ROD_OOO);
		}
		return;
	}
	if (close) {
		if (d > 0)
			return;	/* requests before it are missing */
		ret = RUE_SES_RC_OK;
	} else {
		ret = rue_ses_rcv(pdc, rx, &r);
		if (ret < 0) {
			rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
					  RUE_NACK_NO_SES_MSG_AVAIL);
			return;
		}
		if (ret != RUE_SES_RC_OK) {
			rsp = &r;
			ack = true;
		}
	}

	__set_bit(psn % RUE_PDC_WIN, pdc->rx_bits);
	pdc->rcvd_bytes += rx->paylen;
	if (d > 0) {
		pdc->ooo++;
		ack = true;
	}
	while (test_bit(pdc->rx_next % RUE_PDC_WIN, pdc->rx_bits)) {
		__clear_bit(pdc->rx_next % RUE_PDC_WIN, pdc->rx_bits);
		pdc->rx_next++;
	}
	pdc->ack_bytes += max_t(u32, rx->paylen, RUE_ACK_MIN_ADD);
	if (rx->ce || close || pdc->ack_bytes >= RUE_ACK_TRIGGER)
		ack = true;
	if (ack)
		rue_pdc_tgt_ack(pdc, psn, rx->ce, false, rsp);
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
			list_add(&pdc->gc_node, &idle);
		}
	spin_unlock_bh(&u->lock);
	list_for_each_entry_safe(pdc, next, &idle, gc_node) {
		rue_pdc_unpublish(pdc);
		spin_lock_bh(&pdc->lock);
		pdc->dead = true;
		rue_ses_rmsg_drop_all(pdc, NULL);
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
		rue_ses_rmsg_drop_all(pdc, qp);
		spin_unlock_bh(&pdc->lock);
	}
	rcu_read_unlock();
}

/* ------------------------------------------------------------------ */
/* Receive                                                             */

static bool rue_pds_pull(struct sk_buff *skb, unsigned int len)
{
	return skb->len >= len && pskb_may_pull(skb, len);
}

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
	const struct rue_pds_ctrl *c = (const void *)rx->skb->data;
	u32 psn = be32_to_cpu(c->psn);
	struct rue_pdc *pdc;
	bool closed;

	if (!rue_pds_pull(rx->skb, sizeof(*c)) ||
	    rue_pds_next(c->prologue) != RUE_PDS_CTL_CLOSE) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	c = (const void *)rx->skb->data;
	pdc = rue_pdc_lookup(rdev, be16_to_cpu(c->dpdcid), RUE_PDC_TARGET, rx);
	if (!pdc) {
		rue_pds_nack_send(rdev, rx, NULL, psn, RUE_NACK_INV_DPDCID);
		return;
	}
	rx->paylen = 0;
	spin_lock_bh(&pdc->lock);
	rue_pdc_tgt_rcv(pdc, rx, psn, rue_pds_flags(c->prologue), true);
	closed = !pdc->dead && pdc->rx_next == psn + 1;
	spin_unlock_bh(&pdc->lock);
	if (closed)
		rue_pdc_tgt_free(pdc);
	rue_pdc_put(pdc);
}

/* ACK, ACK_CC, NACK: for one of our initiator PDCs. */
static void rue_pds_rcv_ini(struct rue_dev *rdev, struct rue_uet_rx *rx, u8 type)
{
	const struct rue_pds_ack_cc *cc = NULL;
	const struct rue_ses_rsp *rsp = NULL;
	const struct rue_pds_ack *a = NULL;
	const struct rue_pds_nack *n = NULL;
	unsigned int len;
	struct rue_pdc *pdc;
	struct rue_qp *qp;
	u16 lid;

	len = type == RUE_PDS_ACK ? sizeof(*a) :
	      type == RUE_PDS_ACK_CC ? sizeof(*cc) : sizeof(*n);
	if (!rue_pds_pull(rx->skb, len))
		goto bad;
	if (type == RUE_PDS_NACK) {
		n = (const void *)rx->skb->data;
		lid = be16_to_cpu(n->dpdcid);
	} else {
		a = (const void *)rx->skb->data;
		if (type == RUE_PDS_ACK_CC)
			cc = (const void *)a;
		if (rue_pds_next(a->prologue) == RUE_PDS_NEXT_RSP) {
			if (!rue_pds_pull(rx->skb, len + sizeof(*rsp)))
				goto bad;
			a = (const void *)rx->skb->data;
			cc = type == RUE_PDS_ACK_CC ? (const void *)a : NULL;
			rsp = (const void *)(rx->skb->data + len);
		}
		lid = be16_to_cpu(a->dpdcid);
	}

	pdc = rue_pdc_lookup(rdev, lid, RUE_PDC_INITIATOR, rx);
	if (!pdc)
		goto bad;
	qp = READ_ONCE(pdc->qp);
	if (!qp || !refcount_inc_not_zero(&qp->refcnt)) {
		rue_pdc_put(pdc);
		goto bad;
	}
	spin_lock_bh(&qp->req.lock);
	if (!pdc->dead) {
		if (n)
			rue_pdc_ini_nack(pdc, n);
		else
			rue_pdc_ini_ack(pdc, a, cc, rsp);
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
		qp = READ_ONCE(pdc->qp);
		if (!qp || !refcount_inc_not_zero(&qp->refcnt))
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

int rue_uet_dev_init(struct rue_dev *rdev)
{
	struct rue_uet_dev *u = &rdev->uet;

	rue_uet_check_sizes();
	spin_lock_init(&u->lock);
	xa_init_flags(&u->pdcs, XA_FLAGS_LOCK_BH);
	xa_init_flags(&u->eps, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	hash_init(u->tgt);
	INIT_DELAYED_WORK(&u->reaper, rue_pds_reap);
	schedule_delayed_work(&u->reaper, RUE_PDC_IDLE);
	return 0;
}

/* After every QP is gone: free the target PDCs left. */
void rue_uet_dev_free(struct rue_dev *rdev)
{
	struct rue_uet_dev *u = &rdev->uet;
	struct hlist_node *tmp;
	struct rue_pdc *pdc;
	int bkt;

	cancel_delayed_work_sync(&u->reaper);
	hash_for_each_safe(u->tgt, bkt, tmp, pdc, tgt_node) {
		hash_del(&pdc->tgt_node);
		rue_pdc_unpublish(pdc);
		spin_lock_bh(&pdc->lock);
		pdc->dead = true;
		rue_ses_rmsg_drop_all(pdc, NULL);
		spin_unlock_bh(&pdc->lock);
		rue_pdc_put(pdc);
	}
	/* call_rcu frees must finish before the module can go */
	rcu_barrier();
	WARN_ON(!xa_empty(&u->pdcs) || !xa_empty(&u->eps));
	xa_destroy(&u->pdcs);
	xa_destroy(&u->eps);
}
