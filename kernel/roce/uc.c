// SPDX-License-Identifier: GPL-2.0
/*
 * The UC transport (IBTA vol 1, 9.8): RC's SEND and RDMA WRITE without
 * acknowledgements, retransmission, READs or atomics.
 *
 * The requester is RC's (rc_req.c, with req.unacked set): the same
 * packets with UC opcodes, no AckReq, and a WQE completes once its last
 * packet is built.  The responder is this file's.  It places what comes
 * in PSN order and drops the rest; nothing it does is visible to the
 * sender.
 *
 * Sequence (IBTA vol 1, 9.8; rdma_rxe alike): a packet that is not the
 * expected PSN, or a MIDDLE or LAST that belongs to no message being
 * received, ends the message in progress; the responder then drops
 * packets until a FIRST or ONLY, whose PSN becomes the expected one.  The receive WQE of
 * an abandoned SEND is kept for the next SEND, as rdma_rxe does: data
 * already placed in it is overwritten.
 *
 * Errors.  A message that does not fit its receive WQE completes that WQE
 * with IB_WC_LOC_LEN_ERR; one that finds no receive WQE, or a WRITE whose
 * key, range or rights fail, is dropped (silently, for the sender).  The
 * QP stays in RTS: UC reports no error to its peer.  A receive ring the
 * user broke, or a receive WQE that fails its own checks, is a local
 * error and moves the QP to the error state, as on RC.
 *
 * Counters: every packet dropped is counted - out of sequence (or behind
 * a dropped one in its message) in rx_drop_out_of_sequence; refused by
 * the QP (no receive WQE; a length, key, range or rights error) in
 * rx_drop_qp_state, as a QP that cannot receive.  rdma statistic has no
 * room for a counter of their own (stats.c).
 *
 * Runs in softirq under resp.lock, like the RC responder, whose state
 * (struct rue_resp) it uses: in_send means a receive WQE is held,
 * msg_open that a SEND is being placed into it.
 */
#include "pkt.h"
#include "rc.h"
#include "rc_comp.h"
#include "rc_resp.h"
#include "uc.h"
#include "core/device.h"
#include "core/mr.h"
#include "core/qp.h"
#include "core/rq.h"
#include "core/sgl.h"
#include "core/stats.h"
#include "core/transport.h"

enum rue_uc_result {
	RUE_UC_OK,
	RUE_UC_DROP,		/* the message is dropped, the QP goes on */
	RUE_UC_ERR,		/* a local error: the QP goes to error */
};

/* Forget the message in progress; a held receive WQE stays for the next. */
static void rue_uc_abandon(struct rue_resp *resp)
{
	resp->msg_open = false;
	resp->msg_off = 0;
	if (resp->write_mr)
		rue_mr_put(resp->write_mr);
	resp->write_mr = NULL;
	resp->in_write = false;
}

/* Complete the held receive WQE and let it go. */
static void rue_uc_complete(struct rue_qp *qp, u8 status, u8 opcode, u32 len,
			    u8 flags, u64 imm, bool se)
{
	struct rue_resp *resp = &qp->resp;

	rue_rq_complete(qp, &resp->rqe_info, status, opcode, len, flags, imm, 0,
			se);
	rue_sgl_put(resp->rqe_sg, resp->rqe_info.num_sge);
	resp->in_send = false;
	resp->msg_open = false;
}

/* Hold a receive WQE, unless one is held already. */
static enum rue_uc_result rue_uc_take(struct rue_qp *qp, u8 opcode)
{
	struct rue_resp *resp = &qp->resp;
	int err;

	if (resp->in_send)
		return RUE_UC_OK;
	err = rue_rq_take(qp, resp->rqe_sg, &resp->rqe_info);
	if (err == -EAGAIN) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		return RUE_UC_DROP;
	}
	if (err)
		return RUE_UC_ERR;
	resp->in_send = true;
	if (resp->rqe_info.status != IB_WC_SUCCESS) {
		rue_uc_complete(qp, resp->rqe_info.status, opcode, 0, 0, 0,
				false);
		return RUE_UC_ERR;
	}
	return RUE_UC_OK;
}

static enum rue_uc_result rue_uc_send(struct rue_qp *qp, struct rue_pkt *pkt)
{
	struct rue_resp *resp = &qp->resp;
	struct rue_rqe_info *info = &resp->rqe_info;
	enum rue_uc_result r;
	u8 flags = 0;
	u64 imm = 0;

	if (pkt->mask & RUE_OPM_FIRST) {
		r = rue_uc_take(qp, RUE_WC_RECV);
		if (r != RUE_UC_OK)
			return r;
		resp->msg_open = true;
		resp->msg_off = 0;
	}
	if (!rue_pkt_len_ok(pkt->paylen, pkt->nseg, qp->mtu,
			    pkt->mask & RUE_OPM_LAST)) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		return RUE_UC_DROP;
	}
	if (pkt->paylen > info->len - resp->msg_off) {
		rue_uc_complete(qp, IB_WC_LOC_LEN_ERR, RUE_WC_RECV, 0, 0, 0,
				false);
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		return RUE_UC_DROP;
	}
	if (pkt->paylen &&
	    rue_sgl_from_skb(resp->rqe_sg, info->num_sge, resp->msg_off,
			     pkt->skb, pkt->pay_off, pkt->paylen)) {
		rue_uc_complete(qp, IB_WC_LOC_PROT_ERR, RUE_WC_RECV, 0, 0, 0,
				false);
		return RUE_UC_ERR;
	}
	resp->msg_off += pkt->paylen;
	if (!(pkt->mask & RUE_OPM_LAST))
		return RUE_UC_OK;
	if (pkt->mask & RUE_OPM_IMM) {
		flags |= RUE_CQE_F_IMM;
		imm = (__force u32)rue_pkt_immdt(pkt)->imm;
	}
	rue_uc_complete(qp, IB_WC_SUCCESS, RUE_WC_RECV, resp->msg_off, flags,
			imm, pkt->se);
	return RUE_UC_OK;
}

static enum rue_uc_result rue_uc_write_first(struct rue_qp *qp,
					     struct rue_pkt *pkt)
{
	const struct rue_reth *reth = rue_pkt_reth(pkt);
	struct rue_resp *resp = &qp->resp;
	enum rue_mr_err merr;

	resp->write_va = be64_to_cpu(reth->va);
	resp->write_rkey = be32_to_cpu(reth->rkey);
	resp->write_len = be32_to_cpu(reth->len);
	resp->write_left = resp->write_len;
	if (!(qp->access & IB_ACCESS_REMOTE_WRITE) ||
	    resp->write_len > RUE_MAX_MSG_BYTES)
		return RUE_UC_DROP;
	if (resp->write_len) {
		resp->write_mr = rue_mr_get_remote(&qp->ibqp, resp->write_rkey,
						   IB_ACCESS_REMOTE_WRITE,
						   &merr);
		if (!resp->write_mr)
			return RUE_UC_DROP;
		if (!rue_mr_in_range(resp->write_mr, resp->write_va,
				     resp->write_len))
			return RUE_UC_DROP;	/* rue_uc_abandon() puts it */
	}
	resp->in_write = true;
	return RUE_UC_OK;
}

static enum rue_uc_result rue_uc_write(struct rue_qp *qp, struct rue_pkt *pkt)
{
	struct rue_resp *resp = &qp->resp;
	bool last = pkt->mask & RUE_OPM_LAST;
	enum rue_uc_result r;
	u32 len = pkt->paylen;

	if (pkt->mask & RUE_OPM_FIRST) {
		r = rue_uc_write_first(qp, pkt);
		if (r != RUE_UC_OK) {
			rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
			return r;
		}
	}
	/* IBTA 9.7.4.1.5, for UC too: all but the last carry one PMTU. */
	if (len > resp->write_left ||
	    !rue_pkt_len_ok(len, pkt->nseg, qp->mtu, last) ||
	    (last && len != resp->write_left) ||
	    (len && !rue_mr_still(resp->write_mr, resp->write_rkey))) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		return RUE_UC_DROP;
	}
	/* WRITE with immediate consumes a receive WQE (IBTA 9.4.3) */
	if (pkt->mask & RUE_OPM_IMM) {
		r = rue_uc_take(qp, RUE_WC_RECV_RDMA_WITH_IMM);
		if (r != RUE_UC_OK)
			return r;
	}
	if (len && rue_mr_copy_from_skb(resp->write_mr,
					resp->write_va + resp->write_len -
					resp->write_left,
					pkt->skb, pkt->pay_off, len)) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_STATE);
		return RUE_UC_DROP;
	}
	resp->write_left -= len;
	if (!last)
		return RUE_UC_OK;
	rue_uc_abandon(resp);	/* the WRITE is over: let its MR go */
	if (pkt->mask & RUE_OPM_IMM)
		rue_uc_complete(qp, IB_WC_SUCCESS, RUE_WC_RECV_RDMA_WITH_IMM,
				resp->write_len, RUE_CQE_F_IMM,
				(__force u32)rue_pkt_immdt(pkt)->imm, pkt->se);
	return RUE_UC_OK;
}

/*
 * Whether @pkt may be placed: in sequence, or the start of a message.
 * Anything else is dropped and ends the message in progress.
 */
static bool rue_uc_accept(struct rue_qp *qp, const struct rue_pkt *pkt)
{
	struct rue_resp *resp = &qp->resp;
	bool start = pkt->mask & RUE_OPM_FIRST;

	if (resp->drop_msg || pkt->psn != resp->epsn) {
		rue_uc_abandon(resp);
		resp->drop_msg = !start;
		return start;
	}
	/* a new message while one is open: the open one is lost */
	if (start) {
		rue_uc_abandon(resp);
		return true;
	}
	if (pkt->mask & RUE_OPM_SEND ? resp->msg_open : resp->in_write)
		return true;
	rue_uc_abandon(resp);
	resp->drop_msg = true;
	return false;
}

/* A request packet for a UC QP; resp.lock taken here. */
static void rue_uc_rcv_req(struct rue_qp *qp, struct rue_pkt *pkt,
			   bool *error, bool *event)
{
	struct rue_resp *resp = &qp->resp;
	enum rue_uc_result r;

	spin_lock_bh(&resp->lock);
	if (!rue_resp_ready(qp, event))
		goto out;
	if (!rue_uc_accept(qp, pkt)) {
		rue_stat_inc(qp->rdev, RUE_STAT_RX_DROP_SEQ);
		goto out;
	}
	resp->epsn = rue_psn_add(pkt->psn, pkt->nseg);
	if (pkt->mask & RUE_OPM_SEND)
		r = rue_uc_send(qp, pkt);
	else
		r = rue_uc_write(qp, pkt);
	if (r != RUE_UC_OK) {
		rue_uc_abandon(resp);
		resp->drop_msg = !(pkt->mask & RUE_OPM_LAST);
	}
	if (r == RUE_UC_ERR)
		*error = true;
	else if (r == RUE_UC_OK && (pkt->mask & RUE_OPM_LAST))
		resp->msn++;
out:
	spin_unlock_bh(&resp->lock);
}

static void rue_uc_rcv(struct rue_qp *qp, struct rue_pkt *pkt)
{
	bool error = false, event = false;

	if (!rue_rc_rcv_ok(qp, pkt))
		return;
	rue_uc_rcv_req(qp, pkt, &error, &event);
	rue_qp_notify(qp);
	if (event)
		rue_qp_event(qp, IB_EVENT_COMM_EST);
	if (error)
		rue_qp_error(qp);
}

static int rue_uc_create(struct rue_qp *qp,
			 const struct rue_create_qp_cmd *cmd, bool user)
{
	rue_req_init(qp);
	qp->req.unacked = true;
	return 0;
}

static bool rue_uc_op_valid(const struct rue_qp *qp, u8 op)
{
	switch (op) {
	case RUE_WR_RDMA_WRITE:
	case RUE_WR_RDMA_WRITE_WITH_IMM:
	case RUE_WR_SEND:
	case RUE_WR_SEND_WITH_IMM:
	case RUE_WR_LOCAL_INV:		/* type 2 windows of user QPs */
	case RUE_WR_BIND_MW:
		return true;
	case RUE_WR_REG_MR:
		return !qp->user;
	default:
		return false;
	}
}

const struct rue_transport_ops rue_uc_transport = {
	.name = "uc",
	.qp_types = BIT(IB_QPT_UC),
	.flags = RUE_XPORT_DCQCN | RUE_XPORT_IN_ORDER | RUE_XPORT_SRQ,
	.rx_opm = RUE_OPM_UC,
	.create = rue_uc_create,
	.enter = rue_rc_enter,
	.stop = rue_req_stop,
	.clear = rue_resp_clear,
	.op_valid = rue_uc_op_valid,
	.tx = rue_rc_tx,
	.rcv = rue_uc_rcv,
};
