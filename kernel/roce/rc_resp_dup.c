// SPDX-License-Identifier: GPL-2.0
/*
 * RC responder, duplicate requests (IBTA vol 1, 9.9.2.2): a request
 * whose PSN is behind the expected one.  The rules, and why answers
 * still queued are dropped only at the start of a run of duplicates, are
 * at the top of rc_resp.c.
 *
 * Runs in softirq under resp.lock.
 */
#include "pkt.h"
#include "rc_resp.h"
#include "rc_resp_dup.h"
#include "core/device.h"
#include "core/mr.h"
#include "core/qp.h"
#include "core/stats.h"

/*
 * A multi-segment packet that starts before the expected PSN but reaches
 * it (the requester went back to a point we had passed): keep only the
 * new segments.  Every segment but the last holds one PMTU.
 */
bool rue_resp_trim(struct rue_qp *qp, struct rue_pkt *pkt)
{
	u32 k = rue_psn_diff(qp->resp.epsn, pkt->psn);

	if (pkt->nseg <= 1 || k >= pkt->nseg || pkt->paylen < k * qp->mtu)
		return false;
	pkt->pay_off += k * qp->mtu;
	pkt->paylen -= k * qp->mtu;
	pkt->psn = qp->resp.epsn;
	pkt->nseg -= k;
	pkt->mask &= ~(RUE_OPM_FIRST | RUE_OPM_RETH);
	return true;
}

/*
 * A duplicate RDMA READ is answered again only as the READ it repeats,
 * kept as a responder resource (IBTA 9.7.5.1.2): from the PSN the
 * duplicate carries, with the same key and the rest of the same range.
 * A requester asks again from the first response it lacks, so the
 * duplicate's address and length must be the kept READ's, moved on by
 * the packets before that PSN; anything else repeats no READ and is
 * dropped, and the key is the kept one: a duplicate cannot name memory
 * of its own.  The MR is looked up again (it may have been taken back
 * since): a failure is a remote access error, as for a new READ.
 */
static enum rue_resp_result rue_resp_read_again(struct rue_qp *qp,
						struct rue_pkt *pkt,
						struct sk_buff_head *out)
{
	const struct rue_reth *reth = rue_pkt_reth(pkt);
	struct rue_resp *resp = &qp->resp;
	struct rue_res *old, *res;
	struct rue_mr *mr = NULL;
	u64 skip;

	old = rue_res_find(resp, RUE_RES_READ, pkt->psn);
	if (!old)
		return RUE_RESP_OK;	/* too old, or no READ: dropped */
	skip = (u64)rue_psn_diff(pkt->psn, old->first_psn) * qp->mtu;
	if (skip > old->length || be64_to_cpu(reth->va) != old->va + skip ||
	    be32_to_cpu(reth->len) != old->length - skip)
		return RUE_RESP_OK;
	if (old->length - skip) {
		mr = rue_resp_mr(qp, old->rkey, old->va + skip,
				 old->length - skip, IB_ACCESS_REMOTE_READ);
		if (!mr)
			return rue_resp_fail(qp, RUE_AETH_NAK_REM_ACCESS, pkt, out);
	}
	res = rue_res_new(qp);
	if (!res) {
		if (mr)
			rue_mr_put(mr);
		return RUE_RESP_OK;	/* answers queued up to the limit */
	}
	res->type = RUE_RES_READ;
	res->pending = true;
	res->first_psn = pkt->psn;
	res->last_psn = old->last_psn;
	res->va = old->va + skip;
	res->length = old->length - skip;
	res->rkey = old->rkey;
	res->mr = mr;
	resp->dup_next = rue_psn_add(res->last_psn, 1);
	return RUE_RESP_OK;
}

/*
 * A duplicate atomic or ATOMIC WRITE (@type): the original's answer
 * again, never executed twice (IBTA 9.7.5.1.2, annex A19.4.2).
 */
static void rue_resp_atomic_again(struct rue_qp *qp, struct rue_pkt *pkt,
				  u8 type)
{
	struct rue_res *old, *res;

	old = rue_res_find(&qp->resp, type, pkt->psn);
	if (!old || old->first_psn != pkt->psn)
		return;		/* too old to answer: drop */
	res = rue_res_new(qp);
	if (!res)
		return;
	*res = *old;
	res->pending = true;
}

enum rue_resp_result rue_resp_dup(struct rue_qp *qp, struct rue_pkt *pkt,
				  struct sk_buff_head *out)
{
	struct rue_resp *resp = &qp->resp;

	rue_stat_inc(qp->rdev, RUE_STAT_RX_DUP_REQUESTS);
	if (!resp->dup_run || rue_psn_diff(pkt->psn, resp->dup_next) < 0)
		rue_resp_drop_output(resp);
	resp->dup_run = true;
	resp->dup_next = rue_psn_add(pkt->psn, pkt->nseg);

	if (pkt->mask & RUE_OPM_READ)
		return rue_resp_read_again(qp, pkt, out);
	if (pkt->mask & RUE_OPM_ATOMIC) {
		rue_resp_atomic_again(qp, pkt, RUE_RES_ATOMIC);
		return RUE_RESP_OK;
	}
	if (pkt->mask & RUE_OPM_ATOMIC_WRITE) {
		rue_resp_atomic_again(qp, pkt, RUE_RES_ATOMIC_WRITE);
		return RUE_RESP_OK;
	}
	/* SEND or WRITE: acknowledge everything so far, after the answers. */
	rue_resp_ack(qp, RUE_AETH_ACK | RUE_AETH_CREDIT_INVALID,
		     rue_psn_add(resp->epsn, -1), out);
	return RUE_RESP_OK;
}
