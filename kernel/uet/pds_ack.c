// SPDX-License-Identifier: GPL-2.0
/*
 * UET PDS: what an initiator PDC learns from ACKs and NACKs (UE 1.0.1
 * section 3.5.12).
 *
 * An ACK_CC's cack PSN covers everything in order and its 64-bit SACK
 * bitmap names what arrived after the first hole.  A request that three
 * later ones have overtaken in the SACK is sent again (RUD), once per
 * RTO epoch; ROD learns of a hole from a ROD_OOO NACK and goes back to
 * it.  Every other NACK code resends, waits for the RTO, ends the PDC or
 * is ignored, as rue_nack_act() sorts them.  An ACK may carry an SES
 * response, an error or a READ's data, which SES reads (the answer
 * upcall): a READ is acknowledged by its data only.  RTT samples
 * (Karn), NSCC and the timers follow from what moved.  All under the
 * QP's req.lock.
 */
#include <rdma/rue-abi.h>

#include "pdc.h"
#include "pds_ack.h"
#include "pds_ini.h"
#include "uet.h"
#include "uet_stats.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/stats.h"

#define RUE_DUP_THRESH		3

static bool rue_psn_in(u32 psn, u32 lo, u32 hi)
{
	return (s32)(psn - lo) >= 0 && (s32)(hi - psn) > 0;
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
		rue_pdc_lost(pdc, RUE_CC_TLP);
}

/*
 * An ACK, ACK_CC, NACK, CLOSE_REQ or CLEAR_REQ, pulled: what an
 * initiator PDC is told.
 */
struct rue_pds_ackp {
	const struct rue_pds_ack *a;		/* ACK, ACK_CC */
	const struct rue_pds_ack_cc *cc;	/* ACK_CC */
	const struct rue_pds_nack *n;		/* NACK */
	const struct rue_pds_ctrl *c;		/* CTRL CLOSE_REQ, CLEAR_REQ */
	struct rue_pds_rsp r;			/* the SES response it carries */
};

/*
 * Pull an ACK, ACK_CC, NACK, CLOSE_REQ or CLEAR_REQ and the SES response
 * after an ACK; false: short.
 */
static bool rue_pds_ack_parse(struct sk_buff *skb, u8 type,
			      struct rue_pds_ackp *p)
{
	unsigned int len = type == RUE_PDS_ACK ? sizeof(*p->a) :
			   type == RUE_PDS_ACK_CC ? sizeof(*p->cc) :
			   type == RUE_PDS_CTRL ? sizeof(*p->c) :
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
	if (type == RUE_PDS_CTRL) {
		p->c = (const void *)skb->data;
		return true;
	}
	next = rue_pds_next(((const struct rue_pds_ack *)skb->data)->prologue);
	if (next == RUE_PDS_NEXT_RSP)
		ses = sizeof(struct rue_ses_rsp);
	else if (next == RUE_PDS_NEXT_RSP_DATA)
		ses = sizeof(struct rue_ses_rsp_data);
	else if (next == RUE_PDS_NEXT_RSP_DATA_SMALL)
		ses = sizeof(struct rue_ses_rsp_data_small);
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
	} else if (next == RUE_PDS_NEXT_RSP_DATA_SMALL) {
		p->r.rds = (const void *)(skb->data + len);
		p->r.off = len + ses;
	}
	return true;
}

/*
 * The SES response an ACK carries, for the request @psn names (none for
 * a PROBE's answer): a READ waits for its data (RSP_DATA, or for a
 * medium READ RSP_DATA_SMALL, which names the READ's PSN too), any
 * request for an error (RSP).  SES sees every response and says how the
 * request it answers ends.
 */
static void rue_pdc_answer(struct rue_pdc *pdc, const u32 *psn,
			   const struct rue_pds_rsp *r)
{
	struct rue_pds_tx *tx = NULL;
	u8 status;

	if (psn && rue_psn_in(*psn, pdc->una_psn, pdc->next_psn)) {
		tx = &pdc->win[*psn % RUE_PDC_WIN];
		if (tx->state != RUE_PDS_TX_SENT || (!r->rsp && !tx->read) ||
		    (r->rds &&
		     be32_to_cpu(r->rds->original_request_psn) != *psn))
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

/*
 * Progress (una moved from @old_una, or SYN ended): timers start over.
 * The probes sent while SYN were resent requests (rue_pds_tlp()); with
 * the target's PDCID known the PDC may PROBE afresh even if the ACK that
 * ended SYN named none of the oldest requests, else a tail lost before
 * it would be left to the RTO.
 */
static void rue_pdc_ack_timers(struct rue_pdc *pdc, u32 old_una, bool was_syn)
{
	if (was_syn)
		pdc->tlp_count = 0;
	if (pdc->una_psn != old_una) {
		pdc->retries = 0;
		pdc->tlp_count = 0;
		if (pdc->una_psn == pdc->next_psn)
			rue_pdc_arm_idle(pdc);
		else
			rue_pdc_arm(pdc);
	}
	/* a probe is due a PTO from now */
	if (pdc->una_psn != pdc->next_psn && (pdc->una_psn != old_una || was_syn))
		rue_pdc_tlp_kick(pdc, ktime_get_ns());
}

/*
 * After an RTO, the first ACK that moves una says whether it was
 * spurious.  One back sooner than the path's least RTT after the RTO
 * fired cannot answer a resend: the oldest request had arrived, and the
 * RTO saw only a delay (a late ACK, a stalled host).  Then the window's
 * cut is undone and the resends the RTO queued and did not send yet are
 * dropped: RFC 4015's response, detected by the base RTT where Eifel
 * (RFC 3522) uses timestamps.  A later RTO of the same episode fired a
 * backed-off RTO after the first, longer than any base RTT, so it is
 * never undone.  Any other progress ends the episode.
 */
static void rue_pdc_rto_check(struct rue_pdc *pdc, u32 old_una)
{
	u64 least = (u64)pdc->cc.base_rtt_us * NSEC_PER_USEC;
	u32 psn;

	if (!pdc->rto_undo || pdc->una_psn == old_una)
		return;
	pdc->rto_undo = false;
	if (ktime_get_ns() - pdc->rto_ns >= least)
		return;
	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_RTO_UNDONE);
	rue_pdc_cc(pdc, RUE_CC_UNDO, rue_nscc_undo(&pdc->cc, &pdc->cc_cfg,
						   pdc->rto_undo_cwnd));
	for (psn = pdc->una_psn; psn != pdc->next_psn && pdc->nr_retx; psn++) {
		struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

		if (tx->retx == RUE_RETX_RTO) {
			tx->retx = 0;
			pdc->nr_retx--;
		}
	}
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
		rue_pdc_lost(pdc, RUE_CC_SACK_HOLE);
}

/*
 * An ACK or ACK_CC for an initiator PDC; req.lock held.  In this order:
 * the SES response it carries, what arrived, the timers, a PROBE's
 * answer, congestion control, RUD's holes.  Whether it was taken (not
 * dropped).
 */
static bool rue_pdc_ini_ack(struct rue_pdc *pdc, const struct rue_pds_ackp *p)
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
		return false;
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
	if (p->r.rsp || p->r.rd || p->r.rds)
		rue_pdc_answer(pdc, probe ? NULL : &ack_psn, &p->r);
	rue_pdc_ack_range(pdc, cack, p->cc);
	rue_pdc_rto_check(pdc, old_una);
	rue_pdc_ack_timers(pdc, old_una, was_syn);
	if (probe && pdc->tlp_sent_ns &&
	    be16_to_cpu(a->ack_psn_offset) == pdc->tlp_opaque)
		rue_pdc_tlp_answer(pdc, cack, p->cc);

	if (ecn)
		rue_stat_inc(pdc->rdev, RUE_STAT_UET_ECN_ECHO);
	rue_pdc_cc(pdc, RUE_CC_ACK,
		   rue_nscc_on_ack(&pdc->cc, &pdc->cc_cfg, pdc->ack_bytes_new,
				   pdc->ack_rtt_us, ecn, ktime_get_ns()));
	if (pdc->mode == RUE_UET_MODE_RUD)
		rue_pdc_rud_holes(pdc);
	if ((rue_pds_flags(a->prologue) & RUE_PDS_ACK_REQ_MASK) ==
	    RUE_PDS_ACK_REQ_CLOSE)
		rue_pdc_close_ask(pdc);
	return true;
}

/*
 * What a NACK asks of the initiator, by code (UE 1.0.1 3.5.12.5, table
 * 3-58: NORMAL codes retransmit, PDC_ERR and PDC_FATAL ones end the PDC).
 * Reserved codes, and codes of a later revision, are counted and ignored:
 * a peer must not end a PDC with a code rue cannot know.
 */
enum rue_nack_act {
	RUE_NACK_IGNORE,	/* reserved: nacks_ignored */
	RUE_NACK_WAIT,		/* kept, or no room yet: the RTO resends */
	RUE_NACK_RESEND,	/* the packet or its payload was lost */
	RUE_NACK_GO_BACK,	/* ROD: the target drops all after the hole */
	RUE_NACK_END,		/* the PDC cannot go on */
};

static enum rue_nack_act rue_nack_act(u8 code)
{
	switch (code) {
	case RUE_NACK_TRIMMED:		/* a switch cut the payload */
	case RUE_NACK_TRIMMED_LASTHOP:
	case RUE_NACK_TRIMMED_ACK:
	case RUE_NACK_PKT_NOT_RCVD:	/* the answer to an ACK request */
	case RUE_NACK_ACK_WITH_DATA:	/* ... whose data was not kept */
	case RUE_NACK_RCVR_INFER_LOSS:
	case RUE_NACK_EXP_NORMAL:
		return RUE_NACK_RESEND;
	case RUE_NACK_ROD_OOO:
		return RUE_NACK_GO_BACK;
	case RUE_NACK_NO_PDC_AVAIL:	/* resources: ask again later, as RNR */
	case RUE_NACK_NO_CCC_AVAIL:
	case RUE_NACK_NO_BITMAP:
	case RUE_NACK_NO_PKT_BUFFER:
	case RUE_NACK_NO_GTD_DEL_AVAIL:
	case RUE_NACK_NO_SES_MSG_AVAIL:
	case RUE_NACK_NO_RESOURCE:
	case RUE_NACK_PSN_OOR_WINDOW:
	case RUE_NACK_NEW_START_PSN:
	case RUE_NACK_RCVD_SES_PROCG:	/* the target has it: its ACK follows */
		return RUE_NACK_WAIT;
	case RUE_NACK_INV_DPDCID:
	case RUE_NACK_PDC_HDR_MISMATCH:
	case RUE_NACK_CLOSING:
	case RUE_NACK_CLOSING_IN_ERR:
	case RUE_NACK_GTD_RESP_UNAVAIL:
	case RUE_NACK_INVALID_SYN:
	case RUE_NACK_PDC_MODE_MISMATCH:
	case RUE_NACK_UNEXP_EVENT:
	case RUE_NACK_EXP_ERR:
	case RUE_NACK_EXP_FATAL:
		return RUE_NACK_END;
	default:
		return RUE_NACK_IGNORE;
	}
}

/*
 * Go back to the hole at @psn: a ROD target drops what follows it.  Once
 * per hole: the NACKs of the packets already behind it name the same PSN
 * (a lost resend is the RTO's).
 */
static void rue_pdc_go_back(struct rue_pdc *pdc, u32 psn)
{
	u32 p;

	if (pdc->gbn_valid && pdc->gbn_psn == psn)
		return;
	pdc->gbn_valid = true;
	pdc->gbn_psn = psn;
	rue_pdc_lost(pdc, RUE_CC_GO_BACK);
	for (p = psn; p != pdc->next_psn; p++)
		rue_pdc_mark_retx(pdc, &pdc->win[p % RUE_PDC_WIN],
				  RUE_RETX_FAST);
}

/* The one request at @psn was lost: send it again, once per loss. */
static void rue_pdc_resend_one(struct rue_pdc *pdc, u32 psn)
{
	struct rue_pds_tx *tx = &pdc->win[psn % RUE_PDC_WIN];

	if (pdc->mode == RUE_UET_MODE_ROD) {
		rue_pdc_go_back(pdc, psn);
		return;
	}
	if (tx->state != RUE_PDS_TX_SENT || tx->retx)
		return;
	rue_pdc_lost(pdc, RUE_CC_NACK);
	rue_pdc_mark_retx(pdc, tx, RUE_RETX_FAST);
}

/* A NACK for an initiator PDC; req.lock held. */
static void rue_pdc_ini_nack(struct rue_pdc *pdc, const struct rue_pds_nack *n)
{
	u32 psn = be32_to_cpu(n->nack_psn);

	rue_uet_stat_inc(pdc->rdev, RUE_USTAT_NACKS_RCVD);
	if (!rue_psn_in(psn, pdc->una_psn, pdc->next_psn))
		return;
	switch (rue_nack_act(n->nack_code)) {
	case RUE_NACK_IGNORE:
		rue_uet_stat_inc(pdc->rdev, RUE_USTAT_NACKS_IGNORED);
		break;
	case RUE_NACK_WAIT:
		break;
	case RUE_NACK_RESEND:
		rue_pdc_resend_one(pdc, psn);
		break;
	case RUE_NACK_GO_BACK:
		rue_pdc_go_back(pdc, psn);
		break;
	case RUE_NACK_END:
		if (n->nack_code == RUE_NACK_INV_DPDCID && pdc->closing) {
			/* the target closed already; our CLOSE's ACK got lost */
			rue_pdc_ack_one(pdc, psn, IB_WC_SUCCESS, true);
			break;
		}
		rue_pdc_fail(pdc, IB_WC_REM_ABORT_ERR);
		break;
	}
}

/* Whether the target asks for a CLEAR (CLEAR_REQ, or an ACK's REQ). */
static bool rue_pds_clear_asked(const struct rue_pds_ackp *p)
{
	if (p->c)
		return rue_pds_next(p->c->prologue) == RUE_PDS_CTL_CLEAR_REQ;
	return p->a && (rue_pds_flags(p->a->prologue) &
			RUE_PDS_ACK_REQ_MASK) == RUE_PDS_ACK_REQ_CLEAR;
}

/**
 * rue_pds_ack_rcv() - an ACK, ACK_CC, NACK, CLOSE_REQ or CLEAR_REQ, for an
 * initiator PDC
 * @rdev: the device
 * @rx: the packet, data at the PDS header
 * @type: RUE_PDS_ACK, _ACK_CC, _NACK, or _CTRL for a CLOSE_REQ or CLEAR_REQ
 *
 * Bottom halves disabled, under rcu_read_lock().
 */
void rue_pds_ack_rcv(struct rue_dev *rdev, struct rue_uet_rx *rx, u8 type)
{
	struct sk_buff *clear = NULL;
	struct rue_pds_ackp p;
	struct rue_pdc *pdc;
	struct rue_qp *qp;
	u16 lid;

	if (!rue_pds_ack_parse(rx->skb, type, &p))
		goto bad;
	lid = be16_to_cpu(p.n ? p.n->dpdcid :
			  p.c ? p.c->dpdcid : p.a->dpdcid);
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
		bool took = true;

		if (p.c && !rue_pds_clear_asked(&p))
			rue_pdc_close_ask(pdc);
		else if (p.n)
			rue_pdc_ini_nack(pdc, p.n);
		else if (!p.c)
			took = rue_pdc_ini_ack(pdc, &p);
		if (pdc->closing && pdc->una_psn == pdc->next_psn)
			rue_pdc_ini_drop(pdc);
		if (took && !pdc->dead && rue_pds_clear_asked(&p))
			clear = rue_pds_clear_pkt(pdc);
	}
	spin_unlock_bh(&qp->req.lock);
	if (clear)
		rue_pds_send_one(clear);
	rue_pdc_put(pdc);
	/*
	 * The engine runs from the workqueue, not from this softirq as RC's
	 * ACKs run it (rc.c): measured between two guests (6.12, rueperf
	 * 64 KiB WRITE), running it here cut RUD to 0.59x and ROD to 0.71x
	 * (performance.md).  The worker sends what several ACKs opened in
	 * one run, outside the receive softirq.
	 */
	rue_qp_kick(qp);
	rue_qp_put(qp);
	return;
bad:
	rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
}
