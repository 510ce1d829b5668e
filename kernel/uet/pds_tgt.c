// SPDX-License-Identifier: GPL-2.0
/*
 * UET PDS, target side (UE 1.0.1 section 3.5): target PDCs, opened by
 * SYN requests; each request delivered to SES once; ACKs and NACKs; the
 * end of a target PDC.
 *
 * A target PDC is made on the first SYN request of an initiator PDC (and
 * found again by the initiator's address and PDCID while SYNs keep
 * coming), at most rue.uet_max_target_pdcs of them.  Anyone can send a
 * SYN from any address, so that state is bounded twice: one bucket of
 * initiator addresses (a keyed hash) holds at most an eighth of the
 * table, and a full table makes room by closing the oldest PDC through
 * which SES has taken no request yet (a job member's PDC is proven by its
 * first request, usually the SYN itself), once it has had
 * RUE_PDC_PROBATION to prove itself; with none such, the SYN is refused
 * (NACK NO_PDC_AVAIL).  A flood of forged SYNs then only displaces its
 * own PDCs, unless it outpaces the table in one probation time (4096 in
 * 100 ms).  It tracks the PSNs
 * it has in a window of RUE_PDC_WIN ahead of rx_next and acknowledges
 * with ACK_CC: the cack PSN, a SACK bitmap from cack + 2, NSCC state.
 * ACKs are coalesced (3.5.12): each request adds max(its length, 1 KiB)
 * and an ACK goes out at 16 KiB, on AR, on an ECN mark, on anything out
 * of order, a duplicate, a SYN, an error or a READ, whose response and
 * data ride in the ACK.  ROD takes the next PSN only and NACKs a hole
 * once.  Of the other CTRL packets (3.5.16) a NOOP takes a PSN as a
 * request does, an ACK_REQ is answered from what the window knows, a
 * CLEAR has nothing to free, the types rue lacks get NACK UNEXP_EVENT.
 * The PDC goes when the CLOSE arrives in order, or when it has been idle
 * too long (pds_reap.c, which asks its initiator to close first).
 *
 * Locking: the table (rdev->uet.tgt) under rdev->uet.lock; a PDC's state
 * under pdc->lock, which the upcalls to SES run under.
 */
#include <linux/ipv6.h>
#include <linux/module.h>
#include <rdma/rue-abi.h>

#include "pdc.h"
#include "pds_tgt.h"
#include "uet.h"
#include "uet_stats.h"
#include "core/device.h"
#include "core/stats.h"
#include "net/xmit.h"

static unsigned int uet_max_target_pdcs = 4096;
module_param(uet_max_target_pdcs, uint, 0644);
MODULE_PARM_DESC(uet_max_target_pdcs, "UET: target PDCs a device keeps at most; more SYNs are refused (default 4096)");

#define RUE_PDC_PROBATION	(HZ / 10)	/* not evicted younger */
#define RUE_EVICT_SCAN		64		/* other buckets' passed over */
#define RUE_ACK_TRIGGER		16384		/* ACK_GEN_TRIGGER */
#define RUE_ACK_MIN_ADD		1024		/* ACK_GEN_MIN_PKT_ADD */

/* ------------------------------------------------------------------ */
/* Opening and closing                                                 */

static u32 rue_tgt_hash(const struct in6_addr *saddr, u16 spdcid)
{
	return jhash_2words(spdcid, jhash(saddr, sizeof(*saddr), 0), 0);
}

/**
 * rue_pdc_tgt_close() - close a target PDC out of the table
 * @pdc: the PDC, unlinked, its lock not held
 *
 * SES forgets it, it is no longer found, the table's reference goes.
 * SES first: while the PDC is published, a QP's release
 * (rue_pds_tgt_qp_gone()) finds it and waits for its lock, so the QPs
 * SES's messages name stay alive while SES returns their receive WQEs;
 * once dead, it is skipped.
 */
void rue_pdc_tgt_close(struct rue_pdc *pdc)
{
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_PDC_CLOSED);
	spin_lock_bh(&pdc->lock);
	pdc->dead = true;
	rue_pdc_ses_close(pdc);
	spin_unlock_bh(&pdc->lock);
	rue_pdc_unpublish(pdc);
	rue_pdc_put(pdc);
}

/* The bucket of target PDCs from @saddr. */
static u32 rue_tgt_src(const struct rue_uet_dev *u,
		       const struct in6_addr *saddr)
{
	return jhash(saddr, sizeof(*saddr), u->src_seed) %
	       RUE_TGT_SRC_BUCKETS;
}

/* Into the table, on probation; u->lock held. */
static void rue_pdc_tgt_link(struct rue_uet_dev *u, struct rue_pdc *pdc,
			     u32 h)
{
	hash_add(u->tgt, &pdc->tgt_node, h);
	u->nr_tgt++;
	u->nr_src[rue_tgt_src(u, &pdc->av.daddr)]++;
	pdc->born = jiffies;
	list_add_tail(&pdc->probation, &u->unproven);
}

/**
 * rue_pdc_tgt_unlink() - take a target PDC out of the table
 * @u: the device's UET state, u->lock held
 * @pdc: the PDC, no longer found by SYNs
 *
 * The caller closes it (rue_pdc_tgt_close()) after dropping the lock.
 */
void rue_pdc_tgt_unlink(struct rue_uet_dev *u, struct rue_pdc *pdc)
{
	hash_del(&pdc->tgt_node);
	u->nr_tgt--;
	u->nr_src[rue_tgt_src(u, &pdc->av.daddr)]--;
	list_del_init(&pdc->probation);
}

/* The CLOSE of a target PDC arrived in order: unless the reaper was first. */
static void rue_pdc_tgt_free(struct rue_pdc *pdc)
{
	struct rue_uet_dev *u = &pdc->rdev->uet;

	spin_lock_bh(&u->lock);
	if (!hash_hashed(&pdc->tgt_node)) {
		spin_unlock_bh(&u->lock);
		return;
	}
	rue_pdc_tgt_unlink(u, pdc);
	spin_unlock_bh(&u->lock);
	rue_pdc_tgt_close(pdc);
}

/*
 * Make room: the oldest target PDC still on probation after
 * RUE_PDC_PROBATION - of source bucket @bucket, or any if it is
 * negative - unlinked, for the caller to close; or NULL.  Proven PDCs
 * leave the list as the walk passes them (once each); at most
 * RUE_EVICT_SCAN unproven ones of other buckets are passed over.
 * u->lock held.
 */
static struct rue_pdc *rue_pdc_tgt_evict(struct rue_uet_dev *u, int bucket)
{
	struct rue_pdc *pdc, *next;
	int scan = RUE_EVICT_SCAN;

	list_for_each_entry_safe(pdc, next, &u->unproven, probation) {
		if (READ_ONCE(pdc->proven)) {
			list_del_init(&pdc->probation);
			continue;
		}
		if (time_before(jiffies, pdc->born + RUE_PDC_PROBATION))
			return NULL;	/* the rest are younger */
		if (bucket < 0 || rue_tgt_src(u, &pdc->av.daddr) == bucket) {
			rue_pdc_tgt_unlink(u, pdc);
			return pdc;
		}
		if (!--scan)
			return NULL;
	}
	return NULL;
}

/*
 * Room for a target PDC from @saddr: 0, with *@victim an unproven PDC
 * unlinked to make it (or NULL); or -EBUSY.  A full bucket makes room
 * within itself, a full table anywhere.  u->lock held.
 */
static int rue_pdc_tgt_room(struct rue_uet_dev *u,
			    const struct in6_addr *saddr,
			    struct rue_pdc **victim)
{
	u32 max = READ_ONCE(uet_max_target_pdcs);
	u32 b = rue_tgt_src(u, saddr);

	*victim = NULL;
	if (u->nr_src[b] >= max_t(u32, max / 8, 1))
		*victim = rue_pdc_tgt_evict(u, b);
	else if (u->nr_tgt >= max)
		*victim = rue_pdc_tgt_evict(u, -1);
	else
		return 0;
	return *victim ? 0 : -EBUSY;
}

/*
 * The target PDC of the initiator PDC @rx comes from (its address and
 * PDCID), or NULL.  A PDC of that key with another start PSN belongs to
 * an earlier initiator PDC that had the same PDCID: the initiator keeps
 * its PDCIDs unique only among the PDCs it has, and forgets one without
 * a CLOSE when its QP goes (or its host restarts), so this side may
 * still hold the old one, until the reaper's.  Taken for the new PDC,
 * its PSNs would be nowhere near the new ones and nothing would be
 * acknowledged until the initiator's retries ran out; it is unlinked
 * into *@stale instead, for the caller to close - once it has been
 * quiet for RUE_PDC_PROBATION.  Until then the SYN is refused with
 * ERR_PTR(-EBUSY) and its initiator's RTO sends it again (its retries
 * outlast the probation): a forged SYN, which needs only an address
 * and a 16-bit PDCID, cannot close a PDC in use, nor can a SYN of an
 * earlier PDC the network delayed past the new one's.  u->lock held.
 */
static struct rue_pdc *rue_pdc_tgt_find(struct rue_uet_dev *u, u32 h,
					const struct rue_uet_rx *rx, u32 start,
					struct rue_pdc **stale)
{
	struct rue_pdc *pdc;

	hash_for_each_possible(u->tgt, pdc, tgt_node, h) {
		if (pdc->rid != rx->spdcid ||
		    !ipv6_addr_equal(&pdc->av.daddr, &rx->av.daddr))
			continue;
		if (pdc->start_psn == start)
			return pdc;
		if (time_before(jiffies, READ_ONCE(pdc->last_rx) +
					 RUE_PDC_PROBATION))
			return ERR_PTR(-EBUSY);
		rue_pdc_tgt_unlink(u, pdc);
		*stale = pdc;
		return NULL;
	}
	return NULL;
}

/*
 * The target PDC a SYN request opens, or the one it opened before; NULL
 * without room, ERR_PTR(-EBUSY) while the PDC the SYN would supersede
 * is in use (both count in syn_refused).
 */
static struct rue_pdc *rue_pdc_tgt_syn(struct rue_dev *rdev,
				       const struct rue_uet_rx *rx,
				       u32 psn, u16 psn_off, u8 mode, u32 job)
{
	struct rue_uet_dev *u = &rdev->uet;
	u32 h = rue_tgt_hash(&rx->av.daddr, rx->spdcid);
	struct rue_pdc *pdc, *victim = NULL, *stale = NULL;

	spin_lock_bh(&u->lock);
	pdc = rue_pdc_tgt_find(u, h, rx, psn - psn_off, &stale);
	if (IS_ERR(pdc)) {
		rue_uet_stat_inc(rdev, RUE_USTAT_SYN_REFUSED);
		goto out;
	}
	if (pdc) {
		refcount_inc(&pdc->ref);
		goto out;
	}
	if (rue_pdc_tgt_room(u, &rx->av.daddr, &victim)) {
		rue_uet_stat_inc(rdev, RUE_USTAT_SYN_REFUSED);
		goto out;
	}
	pdc = rue_pdc_alloc(rdev, RUE_PDC_TARGET, mode, GFP_ATOMIC, job,
			    &rx->av);
	if (pdc) {
		pdc->rid = rx->spdcid;
		pdc->start_psn = psn - psn_off;
		pdc->rx_next = pdc->start_psn;
		rue_pdc_tgt_link(u, pdc, h);
		refcount_inc(&pdc->ref);
		rue_pdc_publish(pdc);
	}
out:
	spin_unlock_bh(&u->lock);
	if (stale) {
		rue_uet_stat_inc(rdev, RUE_USTAT_PDC_SUPERSEDED);
		rue_pdc_tgt_close(stale);
	}
	if (victim) {
		rue_uet_stat_inc(rdev, RUE_USTAT_PDC_EVICTED);
		rue_pdc_tgt_close(victim);
	}
	return pdc;
}

/* ------------------------------------------------------------------ */
/* ACKs and NACKs                                                      */

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
	if (read) {
		next = pdc->rdev->uet.up->read(pdc->rdev, pdc->job, read, skb);
		if (next != RUE_PDS_NEXT_RSP && !pdc->proven)
			WRITE_ONCE(pdc->proven, true);
	} else if (rsp) {
		skb_put_data(skb, rsp, sizeof(*rsp));
	}
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

/* ------------------------------------------------------------------ */
/* Requests and CTRL packets                                           */

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
 * @psn (@d past rx_next, @paylen bytes, a READ if @read) arrived: rx_next
 * moves past what is in order, and ACK coalescing counts it.  Whether an
 * ACK is due now.
 */
static bool rue_pdc_tgt_track(struct rue_pdc *pdc, u32 psn, s32 d, u32 paylen,
			      bool read)
{
	bool ack = false;

	__set_bit(psn % RUE_PDC_WIN, pdc->rx_bits);
	__assign_bit(psn % (2 * RUE_PDC_WIN), pdc->rx_reads, read);
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

/* What takes a PSN of a target PDC (rue_pdc_tgt_rcv()). */
enum rue_tgt_pkt {
	RUE_TGT_REQ,		/* a request, for SES */
	RUE_TGT_CLOSE,		/* CTRL CLOSE: the last PSN */
	RUE_TGT_NOOP,		/* CTRL NOOP: a PSN and nothing else */
};

/*
 * A request, CLOSE or NOOP (@kind) for a target PDC: track its PSN,
 * deliver it once, acknowledge.  pdc->lock held.
 */
static void rue_pdc_tgt_rcv(struct rue_pdc *pdc, struct rue_uet_rx *rx,
			    u32 psn, u8 flags, enum rue_tgt_pkt kind)
{
	s32 d = psn - pdc->rx_next;
	const struct rue_ses_rsp *rsp = NULL;
	const struct rue_uet_rx *read = NULL;
	struct rue_ses_rsp r;
	bool ack = flags & (RUE_PDS_REQ_AR | RUE_PDS_REQ_SYN);
	int ret;

	/* a READ is answered, with its data, every time it comes */
	if (kind == RUE_TGT_REQ && (rx->ses->opcode & 0x3f) == RUE_SES_READ)
		read = rx;
	WRITE_ONCE(pdc->last_rx, jiffies);
	if (!rue_pdc_tgt_admit(pdc, rx, psn, d, read))
		return;
	if (kind == RUE_TGT_CLOSE) {
		if (d > 0)
			return;	/* requests before it are missing */
	} else if (kind == RUE_TGT_NOOP) {
		/* nothing for SES: the PSN is all it has */
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
		} else if (!pdc->proven) {
			WRITE_ONCE(pdc->proven, true);
		}
	}
	if (rue_pdc_tgt_track(pdc, psn, d, rx->paylen, read))
		ack = true;
	if (ack || rx->ce || kind == RUE_TGT_CLOSE)
		rue_pdc_tgt_ack(pdc, psn, rx->ce, false, rsp, read, NULL);
}

/**
 * rue_pds_tgt_rcv_req() - a RUD or ROD request, for a target PDC
 * @rdev: the device
 * @rx: the packet, data at the PDS header
 *
 * Bottom halves disabled, under rcu_read_lock().
 */
void rue_pds_tgt_rcv_req(struct rue_dev *rdev, struct rue_uet_rx *rx)
{
	const struct rue_pds_req *h = (const void *)rx->skb->data;
	u8 type = rue_pds_type(h->prologue);
	u8 flags = rue_pds_flags(h->prologue);
	u8 mode = type == RUE_PDS_ROD_REQ ? RUE_UET_MODE_ROD : RUE_UET_MODE_RUD;
	u32 psn = be32_to_cpu(h->psn);
	struct rue_pdc *pdc;

	if (!rue_pds_pull_ses(rx, sizeof(*h), rue_pds_next(h->prologue))) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	/* the pull may have moved the data */
	h = (const void *)rx->skb->data;
	rx->psn = psn;

	if (flags & RUE_PDS_REQ_SYN)
		pdc = rue_pdc_tgt_syn(rdev, rx, psn,
				      be16_to_cpu(h->dpdcid) & RUE_PDS_SYN_PSN_OFFSET,
				      mode, be32_to_cpu(rx->ses->ri_job) &
					    RUE_SES_JOB_MASK);
	else
		pdc = rue_pdc_lookup(rdev, be16_to_cpu(h->dpdcid),
				     RUE_PDC_TARGET, rx);
	if (IS_ERR(pdc)) {
		/* no NACK: the initiator's next SYN may succeed */
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
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
		rue_pdc_tgt_rcv(pdc, rx, psn, flags, RUE_TGT_REQ);
	}
	spin_unlock_bh(&pdc->lock);
	rue_pdc_put(pdc);
}

/*
 * A CTRL ACK_REQ (UE 1.0.1 3.5.16): no PSN of its own; it names @psn, a
 * request the initiator sent and has no answer for, and asks for that
 * answer again.  Received: its ACK again; a READ's, though, carried data
 * the target does not keep, so NACK ACK_WITH_DATA (the initiator sends
 * the READ again, which is read again).  Not received: NACK PKT_NOT_RCVD
 * (the initiator sends it again).  A PSN the target cannot tell about
 * (RUE_PDC_WIN or more from rx_next, or before the PDC's start) is
 * dropped.  pdc->lock held.
 */
static void rue_pdc_tgt_ack_req(struct rue_pdc *pdc, struct rue_uet_rx *rx,
				u32 psn)
{
	s32 d = psn - pdc->rx_next;

	if (d >= RUE_PDC_WIN || d < -RUE_PDC_WIN ||
	    (s32)(psn - pdc->start_psn) < 0) {
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	WRITE_ONCE(pdc->last_rx, jiffies);
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_ACK_REQS_RCVD);
	if (d >= 0 && !test_bit(psn % RUE_PDC_WIN, pdc->rx_bits))
		rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
				  RUE_NACK_PKT_NOT_RCVD);
	else if (test_bit(psn % (2 * RUE_PDC_WIN), pdc->rx_reads))
		rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
				  RUE_NACK_ACK_WITH_DATA);
	else
		rue_pdc_tgt_ack(pdc, psn, rx->ce, false, NULL, NULL, NULL);
}

/*
 * A CTRL packet of type @type for target PDC @pdc, alive; pdc->lock held.
 * Whether it closed the PDC (the caller frees it).
 */
static bool rue_pdc_tgt_ctrl(struct rue_pdc *pdc, struct rue_uet_rx *rx,
			     const struct rue_pds_ctrl *c, u8 type)
{
	u32 psn = be32_to_cpu(c->psn);
	u8 flags = rue_pds_flags(c->prologue);

	switch (type) {
	case RUE_PDS_CTL_PROBE:
		/* no PSN: answered at once, whatever it names */
		WRITE_ONCE(pdc->last_rx, jiffies);
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_TLP_PROBES_RCVD);
		rue_pdc_tgt_ack(pdc, psn, rx->ce, false, NULL, NULL, c);
		return false;
	case RUE_PDS_CTL_CLOSE:
		rue_pdc_tgt_rcv(pdc, rx, psn, flags, RUE_TGT_CLOSE);
		return !pdc->dead && pdc->rx_next == psn + 1;
	case RUE_PDS_CTL_NOOP:
		rue_pdc_tgt_rcv(pdc, rx, psn, flags, RUE_TGT_NOOP);
		return false;
	case RUE_PDS_CTL_ACK_REQ:
		rue_pdc_tgt_ack_req(pdc, rx, psn);
		return false;
	case RUE_PDS_CTL_CLEAR:
		/*
		 * The initiator has every answer up to the CLEAR_PSN of the
		 * payload (3.5.16): a target that keeps answers frees them.
		 * rue keeps none (a READ is read again), so nothing to do.
		 */
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_CLEARS_RCVD);
		return false;
	default:
		/* CREDIT, CREDIT_REQ, NEGOTIATION, reserved: not rue's */
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(pdc->rdev, rx, pdc, psn,
				  RUE_NACK_UNEXP_EVENT);
		return false;
	}
}

/**
 * rue_pds_tgt_rcv_ctrl() - a CTRL packet for a target PDC
 * @rdev: the device
 * @rx: the packet, data at the PDS header
 *
 * A CTRL packet with SYN set would name its PDC by the initiator's
 * address and PDCID, as a SYN request does; rue opens and finds target
 * PDCs that way only for requests, and answers such a packet with NACK
 * UNEXP_EVENT (rue's initiators send none: a PDC in SYN resends
 * requests, it does not probe or close).
 *
 * Bottom halves disabled, under rcu_read_lock().
 */
void rue_pds_tgt_rcv_ctrl(struct rue_dev *rdev, struct rue_uet_rx *rx)
{
	const struct rue_pds_ctrl *c;
	struct rue_pdc *pdc;
	bool closed = false;
	u32 psn;

	if (!rue_pds_pull(rx->skb, sizeof(*c))) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		return;
	}
	c = (const void *)rx->skb->data;
	psn = be32_to_cpu(c->psn);
	if (rue_pds_flags(c->prologue) & RUE_PDS_CTRL_SYN) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		rue_pds_nack_send(rdev, rx, NULL, psn, RUE_NACK_UNEXP_EVENT);
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
	if (pdc->dead)
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
	else
		closed = rue_pdc_tgt_ctrl(pdc, rx, c,
					  rue_pds_next(c->prologue));
	spin_unlock_bh(&pdc->lock);
	if (closed)
		rue_pdc_tgt_free(pdc);
	rue_pdc_put(pdc);
}
