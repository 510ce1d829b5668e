// SPDX-License-Identifier: GPL-2.0
/*
 * RC requester, what comes back (IBTA vol 1, 9.7.5.2 and 9.9): ACKs and
 * NAKs, RDMA READ responses, atomic ACKs and ATOMIC WRITE responses
 * complete WQEs in order; lost packets and NAKs, and the timeouts of
 * rc_timer.c, send the transmitter (rc_req.c) back to the oldest
 * incomplete WQE (go-back-N, rue_req_rewind()).
 *
 * Everything here runs under req.lock.
 */

#include "pkt.h"
#include "rc_comp.h"
#include "rc_req.h"
#include "core/caps.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/mr.h"
#include "core/qp.h"
#include "core/sgl.h"
#include "core/sq.h"
#include "core/stats.h"

/* IBTA table 45: RNR NAK timer field to microseconds. */
static const u32 rue_rnr_usecs[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

/* ------------------------------------------------------------------ */
/* Handling responses                                                  */

/*
 * A WQE has PSNs once the transmitter has started it: it is before the
 * one being built, or is that one and partly built, or it was started
 * before a go-back took the transmitter behind it (up to sent_cur).
 *
 * Judging by the transmitter alone, as before, lost the last case: after
 * a go-back, an ACK for PSNs of WQEs past the transmitter moved una_psn
 * into them but completed none, and the next go-back restarted the
 * oldest of them at una_psn - in the middle of its PSNs, so that it and
 * every WQE after it went out again under PSNs other than the first
 * time.  The responder, which had executed a READ under its old PSNs,
 * did not know the same READ under new ones and never answered it
 * (rc_resp.c answers duplicates only from what it executed): the
 * requester asked until its retries ran out.  Seen under reordering,
 * where small go-back windows leave the transmitter far behind.
 */
static bool rue_req_started(struct rue_qp *qp, u32 index)
{
	s32 d = (s32)(index - qp->req.cur);

	return d < 0 || (d == 0 && qp->req.cur_off) ||
	       (s32)(index - qp->req.sent_cur) <= 0;
}

/* The PSN of the next READ response @w takes in order. */
static u32 rue_req_read_next(struct rue_qp *qp, const struct rue_swqe *w)
{
	return rue_psn_add(w->first_psn, w->read_done / qp->mtu);
}

/* Forget every READ response placed early (rue_req_read_early()). */
static void rue_req_early_clear(struct rue_req *req)
{
	if (req->nr_early) {
		bitmap_zero(req->early, RUE_EARLY_BITS);
		req->nr_early = 0;
	}
}

/*
 * Put the transmitter at the oldest incomplete WQE, at its first
 * unacknowledged packet (IBTA 9.7.6.1.2): nothing after it has been asked
 * for since, so no READ or atomic is counted in rd_atomic.
 *
 * Return: true if that WQE had been started (its PSNs are its own).
 */
static bool rue_req_go_oldest(struct rue_qp *qp)
{
	struct rue_req *req = &qp->req;
	struct rue_swqe *w = NULL;
	u32 i, una = req->una_psn;

	for (i = req->tail; i != req->head; i++) {
		w = rue_swqe(qp, i);
		if (!w->done)
			break;
	}
	if (i == req->head || !rue_req_started(qp, i)) {
		req->rtt_pending = false;
		req->psn = req->una_psn;
		req->cur = i;
		req->cur_off = 0;
		req->rd_atomic = 0;
		return false;
	}

	if (w->sqe.opcode == RUE_WR_RDMA_READ) {
		req->una_psn = rue_req_read_next(qp, w);
		req->cur_off = 0;
	} else if (rue_is_data(w->sqe.opcode) &&
		   rue_psn_diff(req->una_psn, w->first_psn) > 0) {
		req->cur_off = rue_psn_diff(req->una_psn, w->first_psn) * qp->mtu;
	} else {
		req->una_psn = w->first_psn;
		req->cur_off = 0;
	}
	req->cur = i;
	req->psn = req->una_psn;
	req->rd_atomic = 0;
	req->nak_psn = req->una_psn;
	req->rtt_pending = false;	/* Karn: no sample from a resend */
	/* Early bits are kept relative to una_psn; backwards, start over. */
	if (rue_psn_diff(req->una_psn, una) < 0)
		rue_req_early_clear(req);
	return true;
}

/* Go back: retransmit from the oldest incomplete WQE. */
void rue_req_rewind(struct rue_qp *qp)
{
	u32 psn = qp->req.psn;

	/* Counted when the resent packets go out would cost the fast path. */
	if (rue_req_go_oldest(qp))
		rue_stat_add(qp->rdev, RUE_STAT_RETRANSMITS,
			     max(rue_psn_diff(psn, qp->req.una_psn), 1));
}

/*
 * Something sent was lost (a sequence NAK, an implied NAK, a timeout):
 * the window shrinks (cc/window.c).  Losses of packets sent before the
 * last cut are that same round of loss, met again as the go-back brings
 * them up: one cut for them.  A timeout always cuts: what went again was
 * lost too.
 */
void rue_req_lost(struct rue_qp *qp, bool timeout)
{
	struct rue_req *req = &qp->req;

	if (!timeout && rue_psn_diff(req->una_psn, req->recover_psn) < 0)
		return;
	rue_cwnd_cut(&req->cwnd, timeout);
	req->recover_psn = req->sent_psn;
}

/*
 * Every packet up to and including @psn arrived.  SEND and WRITE WQEs
 * wholly covered are done; a READ or atomic covered but not answered
 * means its response was lost (implied NAK, IBTA 9.7.5.2.3).
 *
 * Go back for it once: until something new arrives (rue_req_rcv() moves
 * nak_psn off una_psn), later answers are to requests sent before the
 * rewind - reordered by the network, or answers the responder sent
 * before it saw the requests again - and rewinding at each of them
 * would ask for every outstanding READ again and again.
 *
 * Return: true if the packet is to be ignored: the requester rewound,
 * now or before.
 */
static bool rue_req_acked(struct rue_qp *qp, u32 psn)
{
	struct rue_req *req = &qp->req;
	u32 i;

	for (i = req->tail; i != req->head && rue_req_started(qp, i); i++) {
		struct rue_swqe *w = rue_swqe(qp, i);

		if (w->done)
			continue;
		if (rue_psn_diff(w->last_psn, psn) > 0)
			break;
		if (rue_is_read_or_atomic(w->sqe.opcode)) {
			if (req->nak_psn == req->una_psn)
				return true;
			req->una_psn = w->first_psn;
			rue_stat_inc(qp->rdev, RUE_STAT_IMPLIED_NAKS);
			rue_req_lost(qp, false);
			rue_req_rewind(qp);
			return true;
		}
		w->done = 1;
	}
	if (rue_psn_diff(psn, req->una_psn) >= 0)
		req->una_psn = rue_psn_add(psn, 1);
	return false;
}

/*
 * rue_req_skip() met a READ or atomic, at index @i, that the ACK
 * reaches: what comes before it is done, and it is the oldest thing still
 * to be answered.  If the ACK covers it, its answer was lost or is late
 * (an implied NAK, as in rue_req_acked()); if it starts right after the
 * ACK, it is simply next.  Either way the transmitter goes back to it.
 * Refusing to move on instead (as before) left a requester whose go-back
 * stopped short of the READ (its window full) resending the same
 * acknowledged packets at every timeout, each answered by an ACK it
 * refused, until its retries ran out.  Once per una_psn, as any implied
 * NAK: when it is already the oldest (@oldest) and the transmitter went
 * back at una_psn, more ACKs for the same hole wait for the answer or
 * the RTO.
 */
static bool rue_req_skip_to(struct rue_qp *qp, u32 i, bool oldest)
{
	struct rue_req *req = &qp->req;
	u32 j;

	if (oldest && req->nak_psn == req->una_psn)
		return false;
	for (j = req->tail; j != i; j++)
		rue_swqe(qp, j)->done = 1;
	rue_stat_inc(qp->rdev, RUE_STAT_ACKED_AHEAD);
	rue_req_rewind(qp);	/* to the READ's next PSN, or the atomic's */
	return true;
}

/*
 * An ACK (or a sequence NAK) says that every PSN up to @psn arrived, and
 * @psn is at or past req->psn but was sent: the requester went back (an
 * RTO, a NAK) while the responder had more than it knew.  The responder
 * acknowledges each duplicate with the newest PSN it has (IBTA 9.9.2.2,
 * rc_resp.c), so such ACKs come as soon as resent packets arrive.
 * Ignoring them leaves the requester resending what arrived; when that
 * takes longer than the timeout (a deep transmit queue shared by several
 * QPs, a busy guest) it times out again without progress, again and
 * again, until its retries run out.  So the transmitter moves on past
 * @psn, like rxe, which takes an ACK for any PSN it sent.  Only over SEND
 * and WRITE WQEs: a READ or atomic is complete when answered, not when
 * acknowledged; the transmitter goes back to it (rue_req_skip_to()).  The
 * WQEs up to sent_cur have been started, so their PSNs are theirs; later
 * slots may hold stale ones.
 *
 * Return: true if it moved; false when it leaves everything as it was.
 */
static bool rue_req_skip(struct rue_qp *qp, u32 psn)
{
	struct rue_req *req = &qp->req;
	u32 i, j, end = req->sent_cur + 1, off = 0;
	bool oldest = true;
	struct rue_swqe *w;

	for (i = req->tail; (s32)(i - end) < 0 && i != req->head; i++) {
		w = rue_swqe(qp, i);
		if (w->done)
			continue;
		if (rue_psn_diff(w->first_psn, psn) > 1)
			return false;
		if (!rue_is_data(w->sqe.opcode))
			return rue_req_skip_to(qp, i, oldest);
		oldest = false;
		if (rue_psn_diff(w->last_psn, psn) > 0) {
			off = rue_psn_diff(psn, w->first_psn) + 1;
			break;
		}
	}
	for (j = req->tail; j != i; j++)
		rue_swqe(qp, j)->done = 1;
	req->cur = i;
	req->cur_off = off * qp->mtu;
	req->psn = rue_psn_add(psn, 1);
	req->una_psn = req->psn;
	rue_stat_inc(qp->rdev, RUE_STAT_ACKED_AHEAD);
	return true;
}

/* May @pkt, for a PSN at or past req->psn, move the transmitter on? */
static bool rue_req_ahead(struct rue_qp *qp, const struct rue_pkt *pkt)
{
	struct rue_req *req = &qp->req;
	u32 psn = pkt->psn;
	u8 syn;

	if (!(pkt->mask & RUE_OPM_ACK))		/* it has an AETH */
		return false;
	syn = be32_to_cpu(rue_pkt_aeth(pkt)->smsn) >> 24;
	if (syn == RUE_AETH_NAK_PSN_SEQ)
		psn = rue_psn_add(psn, -1);	/* it asks for pkt->psn */
	else if ((syn & RUE_AETH_TYPE_MASK) != RUE_AETH_ACK)
		return false;
	/* a NAK for req->psn itself stays stale: it asks for nothing new */
	return rue_psn_diff(psn, req->psn) >= 0 &&
	       rue_psn_diff(psn, req->sent_psn) < 0 && rue_req_skip(qp, psn);
}

/* The oldest WQE not done, if started; its ring index in @index. */
struct rue_swqe *rue_req_oldest_at(struct rue_qp *qp, u32 *index)
{
	u32 i;

	for (i = qp->req.tail; i != qp->req.head; i++) {
		struct rue_swqe *w = rue_swqe(qp, i);

		if (!w->done) {
			*index = i;
			return rue_req_started(qp, i) ? w : NULL;
		}
	}
	return NULL;
}

static struct rue_swqe *rue_req_oldest(struct rue_qp *qp)
{
	u32 i;

	return rue_req_oldest_at(qp, &i);
}

static u8 rue_nak_status(u8 syn)
{
	switch (syn) {
	case RUE_AETH_NAK_INVALID:
		return IB_WC_REM_INV_REQ_ERR;
	case RUE_AETH_NAK_REM_ACCESS:
		return IB_WC_REM_ACCESS_ERR;
	case RUE_AETH_NAK_INV_RD_REQ:
		return IB_WC_REM_INV_RD_REQ_ERR;
	default:
		return IB_WC_REM_OP_ERR;
	}
}

void rue_req_fail_oldest(struct rue_qp *qp, u8 status)
{
	struct rue_swqe *w = rue_req_oldest(qp);

	if (w) {
		w->status = status;
		w->done = 1;
	}
}

static void rue_req_rnr(struct rue_qp *qp, u32 psn, u8 timer)
{
	struct rue_req *req = &qp->req;

	rue_stat_inc(qp->rdev, RUE_STAT_RNR_NAK_RCVD);
	if (!req->rnr_left) {
		rue_stat_inc(qp->rdev, RUE_STAT_RNR_RETRY_EXCEEDED);
		rue_req_fail_oldest(qp, IB_WC_RNR_RETRY_EXC_ERR);
		return;
	}
	if (qp->attr.rnr_retry != 7)	/* 7 means retry forever */
		req->rnr_left--;
	req->una_psn = psn;
	req->rnr_wait = true;
	hrtimer_start(&req->rnr_timer,
		      ns_to_ktime((u64)rue_rnr_usecs[timer & 31] * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_SOFT);
	/*
	 * The responder answered: the transport timer starts over.  Without
	 * this it ran from the first send across every RNR round, and each
	 * expiry that found the retry sent and its RNR NAK not yet back
	 * spent a transport retry (IBTA 9.7.5.2: RNR retries count apart):
	 * a receiver slow to post receives failed the QP with
	 * RETRY_EXC_ERR although rnr_retry 7 means forever.
	 */
	rue_req_arm_rto(qp, true);
}

static void rue_req_ack(struct rue_qp *qp, struct rue_pkt *pkt)
{
	const struct rue_aeth *aeth = rue_pkt_aeth(pkt);
	u8 syn = be32_to_cpu(aeth->smsn) >> 24;
	struct rue_req *req = &qp->req;

	switch (syn & RUE_AETH_TYPE_MASK) {
	case RUE_AETH_ACK:
		rue_req_acked(qp, pkt->psn);
		req->rnr_left = qp->attr.rnr_retry;
		break;
	case RUE_AETH_RNR_NAK:
		if (!rue_req_acked(qp, rue_psn_add(pkt->psn, -1)))
			rue_req_rnr(qp, pkt->psn, syn);
		break;
	case RUE_AETH_NAK:
		if (rue_req_acked(qp, rue_psn_add(pkt->psn, -1)))
			break;
		if (syn == RUE_AETH_NAK_PSN_SEQ) {
			rue_stat_inc(qp->rdev, RUE_STAT_SEQ_NAK_RCVD);
			/* behind an RNR NAK: the retry comes anyway */
			if (req->rnr_wait && pkt->psn == req->una_psn)
				break;
			if (!req->retry_left) {
				rue_stat_inc(qp->rdev, RUE_STAT_RETRY_EXCEEDED);
				rue_req_fail_oldest(qp, IB_WC_RETRY_EXC_ERR);
				break;
			}
			req->retry_left--;
			req->una_psn = pkt->psn;
			rue_req_lost(qp, false);
			rue_req_rewind(qp);
		} else {
			rue_stat_inc(qp->rdev, RUE_STAT_ERR_NAK_RCVD);
			rue_req_fail_oldest(qp, rue_nak_status(syn));
		}
		break;
	default:
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_HDR);
		break;
	}
}

/*
 * The READ or atomic at ring index @i is complete.  rd_atomic counts what
 * the transmitter asked for since it last went back, all behind cur;
 * an answer to a request from before the go-back, not asked again yet
 * (rue_req_rcv()), is not in it.
 */
static void rue_req_answered(struct rue_qp *qp, u32 i)
{
	if ((s32)(i - qp->req.cur) < 0)
		qp->req.rd_atomic--;
}

/*
 * READ responses that arrive early.  A requester may drop a response out
 * of sequence and ask again for the rest (IBTA 9.7.5.2), but a network
 * that reorders (netem, ECMP, a multi-queue NIC) then costs the rest of
 * a long READ for every packet that overtakes others, and the streams
 * asked for again are reordered in turn: a 1 MiB READ need never finish.
 * So a response packet ahead of una_psn, within RUE_EARLY_BITS of it, is
 * placed into its WQE's buffers at once and remembered in req.early;
 * when una_psn reaches it, it counts as arrived (rue_req_early_take()).
 *
 * Placing early is safe: the buffers belong to the WQE until it
 * completes, and a packet placed twice (asked for again) writes the same
 * bytes.  Unless two of the WQE's SGEs name the same memory: then the
 * order of placement decides what that memory holds, and it must be the
 * message's order (rue_sgl_disjoint()); such a READ's responses are
 * taken in order only.  Seen in rue_loss: a READ scattering its first
 * and last bytes to one address kept the first one's, 3 in 300 runs.
 * Forgetting a bit is always safe too: the packet is asked for again.
 * A packet that cannot be placed early (a bad length, a fault) is
 * dropped, to be judged again when it comes in order.
 *
 * A packet lost for good leaves a hole that early packets pile up
 * behind; at RUE_EARLY_REWIND of them since una_psn last moved the
 * requester goes back for it, once per una_psn, as for any implied NAK.
 *
 * A packet placed early is an answer like one taken in order: the
 * retransmission timer and the probe wait a whole timeout from it
 * (rue_req_rcv()).  Timed from una_psn alone, they fired while the
 * answer to a go-back was still streaming in behind a hole, and asked
 * again: the responder drops what it has not sent yet and starts over
 * at the hole, so the stream that was filling the other holes began
 * again behind the old one's tail, and a retry was spent on an answer
 * still arriving (a 1 MiB READ under netem's loss and delay on 6.1 ran
 * out of retries 1 in 60 cases; 1 in 200 with this, none in 400 once
 * the engine stopped starving the CPU's softirqs, core/engine.c).  Only
 * new packets count: what was placed already can never hold the timer
 * off, and there are at most RUE_EARLY_BITS new ones per una_psn.
 */
#define RUE_EARLY_REWIND	16

/* struct rue_swqe.early: may READ responses be placed early? */
enum {
	RUE_EARLY_UNKNOWN,		/* not asked yet */
	RUE_EARLY_YES,
	RUE_EARLY_NO,			/* its SGEs name a byte twice */
};

/* Asked once per READ, at its first response that comes early. */
static bool rue_req_early_ok(struct rue_swqe *w)
{
	if (w->early == RUE_EARLY_UNKNOWN)
		w->early = rue_sgl_disjoint(w->sg, w->num_sge, GFP_ATOMIC) ?
			   RUE_EARLY_YES : RUE_EARLY_NO;
	return w->early == RUE_EARLY_YES;
}

/*
 * The started, incomplete WQE whose PSNs hold @psn, or NULL.  @in_order
 * is cleared when a READ or atomic before it is still unanswered, so an
 * answer at @psn cannot complete anything yet.
 */
static struct rue_swqe *rue_req_find(struct rue_qp *qp, u32 psn, bool *in_order)
{
	struct rue_req *req = &qp->req;
	u32 i;

	*in_order = true;
	for (i = req->tail; i != req->head && rue_req_started(qp, i); i++) {
		struct rue_swqe *w = rue_swqe(qp, i);

		if (w->done)
			continue;
		if (rue_psn_diff(psn, w->first_psn) < 0)
			return NULL;
		if (rue_psn_diff(psn, w->last_psn) <= 0)
			return w;
		if (rue_is_read_or_atomic(w->sqe.opcode))
			*in_order = false;
	}
	return NULL;
}

/*
 * Place a READ response packet that arrived ahead of una_psn; its last
 * PSN is within RUE_EARLY_BITS of una_psn.  A local peer's packets may
 * carry several MTUs (pkt->nseg), and then set as many bits.
 *
 * Return: true if it placed a packet not placed before.
 */
static bool rue_req_read_early(struct rue_qp *qp, struct rue_swqe *w,
			       struct rue_pkt *pkt)
{
	struct rue_req *req = &qp->req;
	u32 end = rue_psn_add(pkt->psn, pkt->nseg - 1);
	u32 off = rue_psn_diff(pkt->psn, w->first_psn) * qp->mtu;
	bool last = pkt->mask & RUE_OPM_LAST;
	bool at_end = end == w->last_psn;
	u32 psn, n = 0;

	/* At its PSN's offset: whole MTUs, or up to the READ's end. */
	if (!pkt->nseg || rue_psn_diff(end, w->last_psn) > 0 || last != at_end ||
	    pkt->paylen != (last ? w->sqe.length - off : pkt->nseg * qp->mtu)) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_HDR);
		return false;
	}
	/* placed already (a duplicate, or asked for again): nothing new */
	for (psn = pkt->psn; n < pkt->nseg; psn = rue_psn_add(psn, 1), n++)
		if (!test_bit(psn % RUE_EARLY_BITS, req->early))
			break;
	if (n == pkt->nseg) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_STALE_RESPONSES);
		return false;
	}
	if (pkt->paylen &&
	    rue_sgl_from_skb(w->sg, w->num_sge, off, pkt->skb, pkt->pay_off,
			     pkt->paylen))
		return false;
	for (psn = pkt->psn, n = 0; n < pkt->nseg; psn = rue_psn_add(psn, 1), n++)
		if (!__test_and_set_bit(psn % RUE_EARLY_BITS, req->early))
			req->nr_early++;
	rue_stat_inc(qp->rdev, RUE_STAT_READ_EARLY);

	/* packets, not PSNs: a local peer's packet holds many MTUs */
	if (++req->early_pkts >= RUE_EARLY_REWIND &&
	    req->nak_psn != req->una_psn) {
		rue_stat_inc(qp->rdev, RUE_STAT_IMPLIED_NAKS);
		rue_req_lost(qp, false);
		rue_req_rewind(qp);
	}
	return true;
}

/*
 * una_psn moved from @una: forget the early packets it passed by other
 * means (an ACK, an error), then take those it has reached, in order.
 */
static void rue_req_early_take(struct rue_qp *qp, u32 una)
{
	struct rue_req *req = &qp->req;
	s32 moved = rue_psn_diff(req->una_psn, una);
	struct rue_swqe *w;
	u32 i;

	if (!req->nr_early)
		return;
	if (moved < 0 || moved >= RUE_EARLY_BITS) {
		rue_req_early_clear(req);
		return;
	}
	for (; una != req->una_psn; una = rue_psn_add(una, 1))
		if (__test_and_clear_bit(una % RUE_EARLY_BITS, req->early))
			req->nr_early--;

	while (req->nr_early &&
	       __test_and_clear_bit(req->una_psn % RUE_EARLY_BITS, req->early)) {
		req->nr_early--;
		w = rue_req_oldest_at(qp, &i);
		if (!w || w->sqe.opcode != RUE_WR_RDMA_READ ||
		    rue_req_read_next(qp, w) != req->una_psn) {
			rue_req_early_clear(req);
			return;
		}
		if (req->una_psn == w->last_psn) {
			w->read_done = w->sqe.length;
			w->done = 1;
			rue_req_answered(qp, i);
		} else {
			w->read_done += qp->mtu;
		}
		req->una_psn = rue_psn_add(req->una_psn, 1);
	}
}

/*
 * The answer to the oldest WQE, an ATOMIC WRITE: a zero-length READ
 * Response Only at its PSN (IBTA annex A19.4.2).
 */
static void rue_req_atomic_write_resp(struct rue_qp *qp, struct rue_swqe *w,
				      u32 i, struct rue_pkt *pkt)
{
	if (pkt->psn != w->first_psn) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_STALE_RESPONSES);
		return;
	}
	if ((pkt->mask & RUE_OPM_ONLY) != RUE_OPM_ONLY || pkt->paylen) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_HDR);
		w->status = IB_WC_BAD_RESP_ERR;
	}
	w->done = 1;
	rue_req_answered(qp, i);
	qp->req.una_psn = rue_psn_add(pkt->psn, 1);
}

/*
 * An RDMA READ response: the payload goes to the WQE that asked for it.
 *
 * Return: true if it was placed early, and new (rue_req_read_early()).
 */
static bool rue_req_read_resp(struct rue_qp *qp, struct rue_pkt *pkt)
{
	struct rue_req *req = &qp->req;
	struct rue_swqe *w;
	bool first = pkt->mask & RUE_OPM_FIRST, last = pkt->mask & RUE_OPM_LAST;
	bool in_order;
	u32 left, i;

	w = rue_req_find(qp, pkt->psn, &in_order);
	if (w && w->sqe.opcode == RUE_WR_RDMA_READ &&
	    rue_psn_diff(rue_psn_add(pkt->psn, pkt->nseg - 1), req->una_psn) <
	    RUE_EARLY_BITS) {
		s32 ahead = rue_psn_diff(pkt->psn, rue_req_read_next(qp, w));

		if ((ahead > 0 || (!ahead && !in_order)) &&
		    rue_req_early_ok(w)) {
			return rue_req_read_early(qp, w, pkt);
		}
	}

	/* Responses come in order: earlier SENDs and WRITEs arrived. */
	if (rue_req_acked(qp, rue_psn_add(pkt->psn, -1)))
		return false;
	w = rue_req_oldest_at(qp, &i);
	if (w && w->sqe.opcode == RUE_WR_ATOMIC_WRITE) {
		rue_req_atomic_write_resp(qp, w, i, pkt);
		return false;
	}
	if (!w || w->sqe.opcode != RUE_WR_RDMA_READ ||
	    pkt->psn != rue_req_read_next(qp, w)) {
		/* A response went missing: go back once for it. */
		if (w && w->sqe.opcode == RUE_WR_RDMA_READ &&
		    req->nak_psn != req->una_psn) {
			rue_stat_inc(qp->rdev, RUE_STAT_IMPLIED_NAKS);
			rue_req_rewind(qp);
		}
		return false;
	}

	/*
	 * A READ asked again for its remainder (rue_req_read_pkt()) is
	 * answered from a First or Only response at the restart point; a
	 * Middle or Last needs an earlier First.
	 */
	left = w->sqe.length - w->read_done;
	if ((!first && !w->read_done) || pkt->paylen > left ||
	    !rue_pkt_len_ok(pkt->paylen, pkt->nseg, qp->mtu, last) ||
	    (last && pkt->paylen != left)) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_HDR);
		w->status = IB_WC_BAD_RESP_ERR;
		w->done = 1;
		return false;
	}
	if (pkt->paylen &&
	    rue_sgl_from_skb(w->sg, w->num_sge, w->read_done, pkt->skb,
			     pkt->pay_off, pkt->paylen)) {
		w->status = IB_WC_LOC_PROT_ERR;
		w->done = 1;
		return false;
	}
	w->read_done += pkt->paylen;
	req->una_psn = rue_psn_add(pkt->psn, pkt->nseg);
	if (last) {
		w->done = 1;
		rue_req_answered(qp, i);
	}
	return false;
}

static void rue_req_atomic_ack(struct rue_qp *qp, struct rue_pkt *pkt)
{
	const struct rue_atmack *ack = rue_pkt_atmack(pkt);
	struct rue_swqe *w;
	u64 orig;
	u32 i;

	if (rue_req_acked(qp, rue_psn_add(pkt->psn, -1)))
		return;
	w = rue_req_oldest_at(qp, &i);
	if (!w || (w->sqe.opcode != RUE_WR_ATOMIC_CMP_AND_SWP &&
		   w->sqe.opcode != RUE_WR_ATOMIC_FETCH_AND_ADD) ||
	    w->first_psn != pkt->psn) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_STALE_RESPONSES);
		return;
	}
	orig = be64_to_cpu(ack->orig);
	if (rue_sgl_from_buf(w->sg, w->num_sge, 0, &orig, sizeof(orig)))
		w->status = IB_WC_LOC_PROT_ERR;
	w->done = 1;
	rue_req_answered(qp, i);
	qp->req.una_psn = rue_psn_add(pkt->psn, 1);
}

/*
 * An answer (a READ response, an atomic ACK) for a PSN at or past
 * req->psn that went out: the requester went back (a probe, a timeout)
 * and has not asked again yet.  It answers the request sent before, as
 * an answer to the one sent again would (a request keeps its PSNs, IBTA
 * 9.7.5.2), and is taken.  Dropped as stale, as before, it cost a go-back,
 * or the READ if the responder did not answer again: under TCG the engine
 * asks again milliseconds after a probe (HostileRead, 1 in 84 runs).
 */
static bool rue_req_answers_sent(struct rue_qp *qp, const struct rue_pkt *pkt)
{
	return (pkt->mask & (RUE_OPM_READ | RUE_OPM_ATOMIC)) &&
	       rue_psn_diff(pkt->psn, qp->req.sent_psn) < 0;
}

/*
 * una_psn moved past the transmitter (answers to requests sent before a
 * go-back, early READ responses taken): it moves on to the oldest WQE
 * still incomplete, a READ at the PSN its next response carries.  Left
 * behind, as once, it skipped a READ completed meanwhile and sent the
 * WQEs after it under PSNs other than the first time (against IBTA
 * 9.7.5.2); the responder did not know the next READ under its new PSN
 * and only acknowledged it until the retries ran out (8 QPs over netem's
 * loss, duplication and reordering, 4-7 of 15 runs on 6.1).
 */
static void rue_req_catch_up(struct rue_qp *qp)
{
	if (rue_psn_diff(qp->req.una_psn, qp->req.psn) > 0)
		rue_req_go_oldest(qp);
}

/**
 * rue_req_rcv() - handle a response packet of an RC QP
 * @qp: the QP (referenced)
 * @pkt: the checked packet
 * @error: set when a WQE completed in error
 *
 * Return: true if the transmitter should run (window opened, rewind).
 */
bool rue_req_rcv(struct rue_qp *qp, struct rue_pkt *pkt, bool *error)
{
	struct rue_req *req = &qp->req;
	bool early = false;
	u32 una, tail;

	spin_lock_bh(&req->lock);
	if (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD &&
	    qp->state != IB_QPS_SQE) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		spin_unlock_bh(&req->lock);
		return false;
	}
	/*
	 * Only PSNs in [una_psn, psn) can be answers to what we sent, and,
	 * after a go-back, answers and ACKs up to sent_psn (which move
	 * una_psn: progress like any other, below).
	 */
	una = req->una_psn;
	tail = req->tail;
	if (rue_psn_diff(pkt->psn, req->una_psn) < 0 ||
	    (rue_psn_diff(pkt->psn, req->psn) >= 0 &&
	     !rue_req_answers_sent(qp, pkt) && !rue_req_ahead(qp, pkt))) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_STALE_RESPONSES);
		spin_unlock_bh(&req->lock);
		return false;
	}

	if (pkt->mask & RUE_OPM_READ)
		early = rue_req_read_resp(qp, pkt);
	else if (pkt->mask & RUE_OPM_ATOMIC)
		rue_req_atomic_ack(qp, pkt);
	else
		rue_req_ack(qp, pkt);
	rue_req_early_take(qp, una);
	rue_req_catch_up(qp);

	if (rue_sq_retire(qp))
		*error = true;
	if (rue_psn_diff(req->una_psn, una) > 0)
		rue_cwnd_grow(&req->cwnd, rue_psn_diff(req->una_psn, una));
	if (req->una_psn != una || req->tail != tail) {
		req->retry_left = qp->attr.retry_cnt;
		req->nak_psn = req->una_psn - 1;
		req->early_pkts = 0;
		if (req->rtt_pending &&
		    rue_psn_diff(req->una_psn, req->rtt_psn) > 0)
			rue_req_rtt_sample(req, ktime_get());
		req->tlp_count = 0;
		rue_req_arm_rto(qp, true);
		rue_req_arm_tlp(qp);
	} else if (early) {
		/* an answer all the same: see "READ responses that arrive early" */
		rue_req_arm_rto(qp, true);
		rue_req_arm_tlp(qp);
	}
	spin_unlock_bh(&req->lock);
	return true;
}
