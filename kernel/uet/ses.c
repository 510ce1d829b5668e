// SPDX-License-Identifier: GPL-2.0
/*
 * UET Semantic Sublayer (UE 1.0.1 section 3.4) on rue QPs.
 *
 * A UET QP is an IB_QPT_DRIVER QP bound to one job.  It is reliable and
 * unconnected: each send WQE names its peer (an AH, and the peer's
 * PIDonFEP and resource index in remote_qpn), and its packets go over
 * the QP's PDC to that peer's address (pds.c), created on first use.
 * The QP is found by targets through its PIDonFEP (rdev->uet.eps).
 *
 * Messages.  A WQE is one message of one or more packets, each carrying
 * the standard SES request header (3.4.7.1): SOM on the first packet,
 * which also carries the 64-bit header data (immediate) when there is
 * one; on the others, payload_length and message_offset in its place;
 * request_length, message_id, job and target on all of them, so that a
 * target can place any packet of a message in whatever order they come
 * (RUD).  A send WQE completes when every packet of it is acknowledged.
 *
 * Target.  A WRITE packet is placed at buffer_offset + message_offset of
 * the MR its 64-bit key names, after checking the key (both halves), the
 * MR's job restriction, its rights and range.  A SEND takes a receive
 * WQE when the first of its packets arrives, in whatever order, and
 * completes it when all request_length bytes are there; WRITE with
 * header data likewise completes a receive WQE when the whole message is
 * there.  The PDS delivers each packet exactly once.  A request that
 * fails a check is answered with an SES response carrying the return
 * code, in the ACK (3.4.8); the initiator completes the WQE in error.
 *
 * Send completions are reported in posting order (the SQ is a ring); a
 * failed WQE does not move the QP to the error state: a UET QP talks to
 * many peers and one failing says nothing about the others.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <rdma/rue-abi.h>

#include "job.h"
#include "pds.h"
#include "pds_ini.h"
#include "ses.h"
#include "uet.h"
#include "uet_stats.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/mr.h"
#include "core/qp.h"
#include "core/rq.h"
#include "core/sgl.h"
#include "core/sq.h"
#include "core/stats.h"
#include "core/transport.h"
#include "net/xmit.h"

/*
 * SES's state of a PDC, which PDS keeps for it (struct rue_pds_upcalls):
 * made with the PDC, freed when it dies, and used under the lock its PDC
 * state lives under (the QP's req.lock for an initiator PDC, the PDC's
 * lock for a target one).  Message IDs are numbered per PDC: a target
 * tells partly received messages apart by PDC and message_id.
 */
struct rue_ses_pdc {
	u16 next_msg;			/* initiator: the next message_id */
	u16 slots;			/* target: RUE_PDC_WIN; initiator: 0 */
	struct rue_ses_rmsg *rmsg[];	/* target: by message_id % slots */
};

/* A message being received, in its target PDC's rmsg[]. */
struct rue_ses_rmsg {
	struct rue_qp *qp;		/* not referenced: see qp_gone */
	u16 msg_id;
	u8 opcode;			/* SES */
	bool rqe;			/* holds a receive WQE */
	bool som;			/* the first packet came */
	bool hd;
	u8 status;
	u32 length;			/* request_length */
	u32 got;
	u64 header_data;
	u32 initiator;
	struct rue_rqe_info info;
	struct rue_ksge sg[];		/* qp->max_recv_sge */
};

/* ------------------------------------------------------------------ */
/* QPs: the UET transport's object hooks                               */

/*
 * The UET part of a new QP: its job (only one an administrator granted
 * its creator, job.c) and its endpoint, a PIDonFEP reserved here and
 * published last (rue_ses_qp_publish()): from then on targets find it.
 */
static int rue_ses_qp_create(struct rue_qp *qp,
			     const struct rue_create_qp_cmd *cmd, bool user)
{
	const u64 uet = RUE_CREATE_QP_CMD_DRIVER | RUE_CREATE_QP_CMD_UET;
	struct rue_uet_dev *u = &qp->rdev->uet;
	u32 pid;
	int err;

	/* UET QPs are for user space, made through ruedv_create_qp() */
	if (!user || cmd->comp_mask != uet)
		return -EOPNOTSUPP;
	if (cmd->uet_job_id > RUE_SES_JOB_MASK)
		return -EINVAL;
	err = rue_job_bind(qp->rdev, cmd->uet_job_id);
	if (err)
		return err;
	if (cmd->uet_mode > RUE_UET_MODE_ROD ||
	    cmd->uet_resource_index > RUE_SES_12BIT_MASK) {
		err = -EINVAL;
		goto err_job;
	}
	qp->uet.job = cmd->uet_job_id;
	qp->uet.ri = cmd->uet_resource_index;
	rue_pds_qp_init(&qp->uet.pds, cmd->uet_job_id, cmd->uet_mode,
			max_t(u8, cmd->uet_entropy, 1));

	err = xa_alloc_cyclic_bh(&u->eps, &pid, NULL,
				 XA_LIMIT(1, RUE_SES_12BIT_MASK), &u->pid_next,
				 GFP_KERNEL);
	if (err < 0) {
		err = err == -EBUSY ? -ENOSPC : err;
		goto err_job;
	}
	qp->uet.pid = pid;
	qp->uet.addr = RUE_UET_ADDR(pid, qp->uet.ri);
	return 0;

err_job:
	rue_job_unbind(qp->rdev, cmd->uet_job_id);
	return err;
}

static void rue_ses_qp_user_resp(const struct rue_qp *qp,
				 struct rue_create_qp_resp *resp)
{
	resp->comp_mask |= RUE_CREATE_QP_RESP_UET;
	resp->uet_addr = qp->uet.addr;
	resp->uet_job_id = qp->uet.job;
}

/* Publish: targets find the QP from now on. */
static void rue_ses_qp_publish(struct rue_qp *qp)
{
	xa_store_bh(&qp->rdev->uet.eps, qp->uet.pid, qp, GFP_KERNEL);
}

/*
 * Targets no longer find the QP once a grace period has passed.  Its
 * PIDonFEP stays reserved (storing NULL in an allocating xarray keeps
 * the index) until rue_ses_qp_free(): no new QP takes it while packets
 * for this one may still be in flight here.
 */
static void rue_ses_qp_unpublish(struct rue_qp *qp)
{
	xa_store_bh(&qp->rdev->uet.eps, qp->uet.pid, NULL, GFP_KERNEL);
}

/*
 * Drop the PDCs of a QP being destroyed (unpublished and in the error
 * state: no PDC is made).  After this no PDC timer or ACK finds the QP:
 * they look it up through its PDCs under RCU, and this waits for a grace
 * period.
 */
static void rue_ses_qp_destroy(struct rue_qp *qp)
{
	spin_lock_bh(&qp->req.lock);
	rue_pds_qp_drop(qp);
	spin_unlock_bh(&qp->req.lock);
	synchronize_rcu();
}

/* After the last reference is gone: target state naming the QP. */
static void rue_ses_qp_release(struct rue_qp *qp)
{
	rue_pds_tgt_qp_gone(qp->rdev, qp);
}

static void rue_ses_qp_free(struct rue_qp *qp)
{
	xa_erase_bh(&qp->rdev->uet.eps, qp->uet.pid);
	rue_job_unbind(qp->rdev, qp->uet.job);
}

/* ------------------------------------------------------------------ */
/* Initiator                                                           */

static u32 rue_ses_max_payload(const struct rue_qp *qp)
{
	u32 mtu = READ_ONCE(qp->rdev->ndev->mtu);
	u32 hdrs = sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
		   sizeof(struct rue_pds_req) + sizeof(struct rue_ses_std);

	if (mtu < hdrs + 256)
		return 256;
	return min_t(u32, rounddown(mtu - hdrs, 64), RUE_SES_PAYLEN_MASK);
}

static u8 rue_ses_opcode(u8 wr)
{
	switch (wr) {
	case RUE_WR_RDMA_WRITE:
	case RUE_WR_RDMA_WRITE_WITH_IMM:
		return RUE_SES_WRITE;
	case RUE_WR_RDMA_READ:
		return RUE_SES_READ;
	default:
		return RUE_SES_SEND;
	}
}

static bool rue_ses_has_hd(u8 wr)
{
	return wr == RUE_WR_RDMA_WRITE_WITH_IMM || wr == RUE_WR_SEND_WITH_IMM;
}

/*
 * A READ request for tx->len bytes at tx->off of the WQE's remote buffer.
 * Each is a message of its own (SOM and EOM), asking for at most one
 * packet of data, which comes back in the ACK (rue_ses_read_respond()):
 * a lost response is asked for again like any lost request, and reading
 * twice is harmless.
 */
static struct sk_buff *rue_ses_build_read(struct rue_qp *qp,
					  struct rue_pdc *pdc,
					  const struct rue_pds_tx *tx, u32 psn,
					  bool retx)
{
	const struct rue_swqe *w = rue_swqe(qp, tx->wqe);
	struct rue_ses_std *ses;
	struct sk_buff *skb;

	skb = rue_xmit_alloc(qp->rdev, sizeof(struct rue_pds_req) +
			     sizeof(*ses), GFP_ATOMIC);
	if (!skb)
		return NULL;
	rue_pds_req_fill(pdc, skb_put(skb, sizeof(struct rue_pds_req)), psn,
			 true, retx);
	ses = skb_put_zero(skb, sizeof(*ses));
	ses->opcode = RUE_SES_READ;
	ses->flags = RUE_SES_F_SOM | RUE_SES_F_EOM;
	ses->message_id = cpu_to_be16(tx->msg_id);
	ses->ri_job = cpu_to_be32(qp->uet.job);
	ses->pid_on_fep = cpu_to_be16(RUE_UET_ADDR_PID(w->sqe.remote_qpn));
	ses->resource_index = cpu_to_be16(RUE_UET_ADDR_RI(w->sqe.remote_qpn));
	ses->initiator = cpu_to_be32(qp->uet.addr);
	ses->buffer_offset = cpu_to_be64(w->sqe.remote_addr + tx->off);
	ses->memory_key = cpu_to_be64(w->sqe.rkey);
	ses->request_length = cpu_to_be32(tx->len);
	return skb;
}

/*
 * Place the data of a READ response (RSP_DATA @rsp, data at @off in the
 * ACK @skb) for the READ request @tx: the status the request ends with.
 */
static u8 rue_ses_read_data(struct rue_qp *qp, const struct rue_pds_tx *tx,
			    const struct rue_ses_rsp_data *rsp,
			    const struct sk_buff *skb, u32 off)
{
	const struct rue_swqe *w = rue_swqe(qp, tx->wqe);
	u32 len = be16_to_cpu(rsp->payload_length) & RUE_SES_PAYLEN_MASK;

	if (len != tx->len || be32_to_cpu(rsp->message_offset) ||
	    skb->len < off + len)
		return IB_WC_BAD_RESP_ERR;
	if (rue_sgl_from_skb(w->sg, w->num_sge, tx->off, skb, off, len))
		return IB_WC_LOC_PROT_ERR;
	return IB_WC_SUCCESS;
}

/* The completion status of a request the target answered with @rc. */
static u8 rue_ses_rc_to_wc(u8 rc)
{
	switch (rc) {
	case RUE_SES_RC_OK:
		return IB_WC_SUCCESS;
	case RUE_SES_RC_BAD_PID:
	case RUE_SES_RC_BAD_INDEX:
	case RUE_SES_RC_UNSUPPORTED_OP:
	case RUE_SES_RC_TOO_LONG:
		return IB_WC_REM_INV_REQ_ERR;
	default:
		return IB_WC_REM_ACCESS_ERR;
	}
}

/*
 * The answer upcall: an ACK carried an SES response.  Every error the
 * target sent is counted; data is placed only for a READ still waiting.
 */
static u8 rue_ses_answer(struct rue_qp *qp, const struct rue_pds_tx *tx,
			 const struct rue_pds_rsp *r)
{
	u8 rc;

	if (r->rsp) {
		rc = r->rsp->rc & 0x3f;
		if (rc != RUE_SES_RC_OK)
			rue_uet_stat_inc(qp->rdev, RUE_USTAT_SES_ERRORS_RCVD);
		return rue_ses_rc_to_wc(rc);
	}
	if (!tx)
		return IB_WC_SUCCESS;
	return rue_ses_read_data(qp, tx, r->rd, r->skb, r->off);
}

/*
 * One request packet of a WQE (req.lock held): @tx says which, @pdc is
 * the QP's PDC to the WQE's peer; @ar asks for an ACK, @retx says it was
 * sent before.  The packet, PDS header first, or NULL (no memory: the
 * RTO tries again).
 */
static struct sk_buff *rue_ses_build(struct rue_qp *qp, struct rue_pdc *pdc,
				     const struct rue_pds_tx *tx, u32 psn,
				     bool ar, bool retx)
{
	const struct rue_swqe *w = rue_swqe(qp, tx->wqe);
	u8 op = w->sqe.opcode;
	struct rue_ses_std *ses;
	struct sk_buff *skb;
	u8 flags = tx->ses_flags;

	if (tx->read)
		return rue_ses_build_read(qp, pdc, tx, psn, retx);
	skb = rue_xmit_alloc(qp->rdev, sizeof(struct rue_pds_req) +
			     sizeof(*ses) + tx->len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	rue_pds_req_fill(pdc, skb_put(skb, sizeof(struct rue_pds_req)), psn,
			 ar, retx);
	ses = skb_put_zero(skb, sizeof(*ses));
	ses->opcode = rue_ses_opcode(op);
	ses->message_id = cpu_to_be16(tx->msg_id);
	ses->ri_job = cpu_to_be32(qp->uet.job);
	ses->pid_on_fep = cpu_to_be16(RUE_UET_ADDR_PID(w->sqe.remote_qpn));
	ses->resource_index = cpu_to_be16(RUE_UET_ADDR_RI(w->sqe.remote_qpn));
	ses->initiator = cpu_to_be32(qp->uet.addr);
	if (ses->opcode == RUE_SES_WRITE) {
		ses->buffer_offset = cpu_to_be64(w->sqe.remote_addr);
		ses->memory_key = cpu_to_be64(w->sqe.rkey);
	}
	if (flags & RUE_SES_F_SOM) {
		if (rue_ses_has_hd(op)) {
			flags |= RUE_SES_F_HD;
			ses->header_data = cpu_to_be64(w->sqe.imm);
		}
	} else {
		ses->payload_length = cpu_to_be16(tx->len);
		ses->message_offset = cpu_to_be32(tx->off);
	}
	ses->flags = flags;
	ses->request_length = cpu_to_be32(w->sqe.length);

	if (w->sqe.flags & RUE_SQE_INLINE) {
		skb_put_data(skb, w->inline_data + tx->off, tx->len);
	} else if (tx->len && rue_sgl_to_skb(w->sg, w->num_sge, tx->off,
					     tx->len, skb, false)) {
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/* The rebuild upcall: a request again, for a resend. */
static struct sk_buff *rue_ses_rebuild(struct rue_qp *qp, struct rue_pdc *pdc,
				       const struct rue_pds_tx *tx, u32 psn)
{
	return rue_ses_build(qp, pdc, tx, psn, true, true);
}

/* The done upcall: a packet of a WQE was acknowledged, or failed. */
static void rue_ses_done(struct rue_qp *qp, const struct rue_pds_tx *tx,
			 u8 status)
{
	struct rue_swqe *w = rue_swqe(qp, tx->wqe);

	if (status != IB_WC_SUCCESS && w->status == IB_WC_SUCCESS)
		w->status = status;
	if (!WARN_ON_ONCE(!w->uet_left))
		w->uet_left--;
	if (!w->uet_left && w->sent)
		w->done = 1;
}

/* New packets of the WQEs at req.cur; req.lock held. */
static int rue_ses_tx_new(struct rue_qp *qp, struct sk_buff_head *out,
			  int budget)
{
	struct rue_req *req = &qp->req;
	u32 max = rue_ses_max_payload(qp);
	int n = 0;

	while (n < budget && qp->state == IB_QPS_RTS &&
	       (req->cur != req->head || rue_sq_fetch(qp))) {
		struct rue_swqe *w = rue_swqe(qp, req->cur);
		struct rue_pds_tx *tx;
		struct rue_ses_pdc *s;
		struct rue_pdc *pdc;
		struct sk_buff *skb;
		u32 psn, len, charge;
		bool last;

		if (w->done || (w->status != IB_WC_SUCCESS && req->cur_off)) {
			/* failed: send no more of it */
			w->sent = 1;
			if (!w->uet_left)
				w->done = 1;
			req->cur++;
			req->cur_off = 0;
			continue;
		}
		len = min(w->sqe.length - req->cur_off, max);
		/* a READ request is small; its response comes back */
		charge = w->sqe.opcode == RUE_WR_RDMA_READ ? 64 : max(len, 64U);
		pdc = rue_pdc_find(qp, &w->av, max);
		if (!pdc || !rue_pdc_room(pdc, charge))
			break;	/* an ACK or the RTO kicks us */

		last = req->cur_off + len == w->sqe.length;
		tx = rue_pdc_take_psn(pdc, charge, &psn);
		tx->wqe = req->cur;
		tx->off = req->cur_off;
		tx->len = len;
		s = rue_pdc_ses(pdc);
		if (!req->cur_off)
			w->uet_msg = s->next_msg++;
		tx->msg_id = w->uet_msg;
		tx->ses_flags = (req->cur_off ? 0 : RUE_SES_F_SOM) |
				(last ? RUE_SES_F_EOM : 0);
		tx->read = w->sqe.opcode == RUE_WR_RDMA_READ;
		w->uet_left++;

		/* AR: at the end of a message, or with the window filling */
		skb = rue_ses_build(qp, pdc, tx, psn,
				    last || rue_pdc_filling(pdc), false);
		if (skb)
			rue_pds_queue(out, skb, pdc, psn);
		n++;
		req->cur_off += len;
		if (last) {
			w->sent = 1;
			req->cur++;
			req->cur_off = 0;
		}
	}
	return n;
}

/* The transport's tx: resends first, then new packets; packets sent. */
static int rue_ses_tx(struct rue_qp *qp, int budget)
{
	struct rue_req *req = &qp->req;
	struct sk_buff_head out;
	int n = 0;

	__skb_queue_head_init(&out);
	spin_lock_bh(&req->lock);
	if (qp->state == IB_QPS_RTS) {
		/* what was lost first, then what is new */
		n = rue_pds_qp_resend(qp, &out, budget);
		n += rue_ses_tx_new(qp, &out, budget - n);
	}
	rue_sq_retire_all(qp);
	spin_unlock_bh(&req->lock);

	rue_pds_send_queued(&out);
	return n;
}

/* ------------------------------------------------------------------ */
/* Target                                                              */

static void rue_ses_rmsg_free(struct rue_ses_rmsg *m)
{
	if (m->rqe)
		rue_sgl_put(m->sg, m->info.num_sge);
	kfree(m);
}

/* Complete a receive WQE with the message; resp.lock held. */
static void rue_ses_rmsg_complete(struct rue_qp *qp, struct rue_ses_rmsg *m)
{
	struct rue_cqe cqe = {
		.wr_id = m->info.wr_id,
		.status = m->status,
		.opcode = m->opcode == RUE_SES_WRITE ?
			  RUE_WC_RECV_RDMA_WITH_IMM : RUE_WC_RECV,
		.byte_len = m->opcode == RUE_SES_WRITE ? 0 : m->length,
		.qp_num = qp->ibqp.qp_num,
		.src_qp = m->initiator,
		.imm = m->header_data,
		.initiator = m->initiator,
		.job_id = qp->uet.job,
	};

	if (m->hd)
		cqe.flags |= RUE_CQE_F_IMM;
	rue_qp_complete(qp, qp->rcq, &cqe, false);
}

/* Forget the messages being received on a PDC: those for @qp, or all. */
static void rue_ses_rmsg_drop_all(struct rue_ses_pdc *s, struct rue_qp *qp)
{
	int i;

	for (i = 0; i < s->slots; i++) {
		struct rue_ses_rmsg *m = s->rmsg[i];

		if (m && (!qp || m->qp == qp)) {
			s->rmsg[i] = NULL;
			rue_ses_rmsg_free(m);
		}
	}
}

/* The pdc_open upcall: a target keeps its messages being received. */
static void *rue_ses_pdc_open(bool target)
{
	u16 slots = target ? RUE_PDC_WIN : 0;
	struct rue_ses_pdc *s;

	s = kzalloc(struct_size(s, rmsg, slots), GFP_ATOMIC);
	if (s)
		s->slots = slots;
	return s;
}

/* The pdc_close upcall. */
static void rue_ses_pdc_close(void *ses)
{
	rue_ses_rmsg_drop_all(ses, NULL);
	kfree(ses);
}

/* The qp_gone upcall: messages for a QP being destroyed. */
static void rue_ses_qp_gone(void *ses, struct rue_qp *qp)
{
	rue_ses_rmsg_drop_all(ses, qp);
}

/*
 * The QP a request is for, referenced, if it may take it: the PIDonFEP
 * names a ready QP with that resource index, and the request's job is
 * the QP's and the PDC's (@pdc_job).  Else NULL and *@rc says why.
 */
static struct rue_qp *rue_ses_target_qp(struct rue_dev *rdev,
					const struct rue_ses_std *ses,
					u32 pdc_job, u8 *rc)
{
	u16 pid = be16_to_cpu(ses->pid_on_fep) & RUE_SES_12BIT_MASK;
	u16 ri = be16_to_cpu(ses->resource_index) & RUE_SES_12BIT_MASK;
	u32 job = be32_to_cpu(ses->ri_job) & RUE_SES_JOB_MASK;
	struct rue_qp *qp;

	qp = xa_load(&rdev->uet.eps, pid);
	if (!qp || !refcount_inc_not_zero(&qp->refcnt)) {
		*rc = RUE_SES_RC_BAD_PID;
		return NULL;
	}
	if (qp->uet.ri != ri)
		*rc = RUE_SES_RC_BAD_INDEX;
	else if (qp->uet.job != job)
		*rc = RUE_SES_RC_BAD_JOB_ID;
	else if (READ_ONCE(qp->state) < IB_QPS_RTR ||
		 READ_ONCE(qp->state) == IB_QPS_ERR)
		*rc = RUE_SES_RC_BAD_PID;
	else if (job != pdc_job)
		*rc = RUE_SES_RC_BAD_JOB_ID;
	else
		return qp;
	rue_qp_put(qp);
	return NULL;
}

/*
 * The memory a WRITE or READ request @ses names, checked before it is
 * touched: the 64-bit key (the lower half finds the MR, the upper half
 * is the part nobody can guess: rue-abi.h, key64), the MR's restriction
 * to a job, the right @access, and [@va, @va + @len) within the MR.  A
 * return code; *@mrp referenced when RUE_SES_RC_OK.
 */
static u8 rue_ses_mr_check(struct rue_qp *qp, const struct rue_ses_std *ses,
			   int access, u64 va, u32 len, struct rue_mr **mrp)
{
	u64 key = be64_to_cpu(ses->memory_key);
	u32 job = be32_to_cpu(ses->ri_job) & RUE_SES_JOB_MASK;
	enum rue_mr_err merr;
	struct rue_mr *mr;
	u8 rc = RUE_SES_RC_OK;

	mr = rue_mr_get(qp->rdev, (u32)key, true, qp->ibqp.pd, access, &merr);
	if (!mr)
		return merr == RUE_MR_EACCESS ? RUE_SES_RC_PERM_VIOLATION :
						RUE_SES_RC_BAD_MKEY;
	if (mr->key_hi != (u32)(key >> 32))
		rc = RUE_SES_RC_BAD_MKEY;
	else if (mr->job_only && mr->job != job)
		rc = RUE_SES_RC_BAD_JOB_ID;
	else if (!rue_mr_in_range(mr, va, len))
		rc = RUE_SES_RC_BAD_ADDR;
	if (rc != RUE_SES_RC_OK) {
		rue_mr_put(mr);
		return rc;
	}
	*mrp = mr;
	return rc;
}

/* Place a WRITE packet, @off into its message; the return code. */
static u8 rue_ses_write(struct rue_qp *qp, const struct rue_uet_rx *rx,
			u32 off)
{
	u64 va = be64_to_cpu(rx->ses->buffer_offset) + off;
	struct rue_mr *mr;
	u8 rc;

	rc = rue_ses_mr_check(qp, rx->ses, IB_ACCESS_REMOTE_WRITE, va,
			      rx->paylen, &mr);
	if (rc != RUE_SES_RC_OK)
		return rc;
	if (rx->paylen &&
	    rue_mr_copy_from_skb(mr, va, rx->skb, rx->pay_off, rx->paylen))
		rc = RUE_SES_RC_BAD_ADDR;
	rue_mr_put(mr);
	return rc;
}

/* Take a receive WQE for a message; resp.lock is taken here. */
static int rue_ses_rmsg_take_rqe(struct rue_qp *qp, struct rue_ses_rmsg *m)
{
	int err;

	spin_lock(&qp->resp.lock);
	err = rue_rq_take(qp, m->sg, &m->info);
	spin_unlock(&qp->resp.lock);
	if (err)
		return err;
	m->rqe = true;
	if (m->info.status != IB_WC_SUCCESS)
		m->status = m->info.status;
	return 0;
}

/*
 * The message state of a multi-packet SEND, or of a WRITE with header
 * data (or one whose first packet has not come yet), taking a receive
 * WQE for a SEND.  The PDC's lock held.
 */
static int rue_ses_rmsg_get(struct rue_ses_pdc *s, struct rue_qp *qp,
			    u16 msg_id, u8 opcode, u32 length,
			    struct rue_ses_rmsg **mp)
{
	struct rue_ses_rmsg **slot = &s->rmsg[msg_id % s->slots];
	struct rue_ses_rmsg *m = *slot;
	int err;

	if (m && m->msg_id == msg_id && m->qp == qp) {
		*mp = m;
		return 0;
	}
	if (m) {
		/* a message its initiator gave up on */
		*slot = NULL;
		rue_ses_rmsg_free(m);
	}
	m = kzalloc(struct_size(m, sg, qp->max_recv_sge), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	m->qp = qp;
	m->msg_id = msg_id;
	m->opcode = opcode;
	m->length = length;
	m->status = IB_WC_SUCCESS;
	if (opcode == RUE_SES_SEND) {
		err = rue_ses_rmsg_take_rqe(qp, m);
		if (err) {
			kfree(m);
			return err;
		}
		if (m->info.status == IB_WC_SUCCESS && length > m->info.len)
			m->status = IB_WC_LOC_LEN_ERR;
	}
	*slot = m;
	*mp = m;
	return 0;
}

/*
 * The last packet of message @m came (@rx): a WRITE with header data
 * takes its receive WQE now; the WQE completes, the state goes.  A
 * return code, or a negative errno (no receive WQE: asked again).
 */
static int rue_ses_rmsg_end(struct rue_ses_pdc *s, struct rue_qp *qp,
			    struct rue_ses_rmsg *m, const struct rue_uet_rx *rx)
{
	u8 rc = RUE_SES_RC_OK;
	int err;

	if ((rx->ses->opcode & 0x3f) == RUE_SES_WRITE && m->hd) {
		err = rue_ses_rmsg_take_rqe(qp, m);
		if (err) {
			/* asked again; only this packet's bytes count again */
			m->got -= rx->paylen;
			return err;
		}
	}
	s->rmsg[m->msg_id % s->slots] = NULL;
	if (m->rqe) {
		spin_lock(&qp->resp.lock);
		rue_ses_rmsg_complete(qp, m);
		spin_unlock(&qp->resp.lock);
		rue_qp_notify(qp);
	}
	if (m->status == IB_WC_LOC_LEN_ERR)
		rc = RUE_SES_RC_TOO_LONG;
	rue_ses_rmsg_free(m);
	return rc;
}

/*
 * A packet of a message that keeps state (a SEND, a WRITE with header
 * data or of several packets) at @off of it: a SEND's data is placed;
 * the message ends once all its bytes and its first packet are here.
 */
static int rue_ses_rmsg_add(struct rue_ses_pdc *s, struct rue_qp *qp,
			    const struct rue_uet_rx *rx, u32 off)
{
	const struct rue_ses_std *ses = rx->ses;
	u8 opcode = ses->opcode & 0x3f;
	u32 length = be32_to_cpu(ses->request_length);
	struct rue_ses_rmsg *m;
	int err;

	err = rue_ses_rmsg_get(s, qp, be16_to_cpu(ses->message_id), opcode,
			       length, &m);
	if (err)
		return err;
	if (opcode == RUE_SES_SEND && m->status == IB_WC_SUCCESS &&
	    rx->paylen &&
	    rue_sgl_from_skb(m->sg, m->info.num_sge, off, rx->skb,
			     rx->pay_off, rx->paylen))
		m->status = IB_WC_LOC_PROT_ERR;
	if (ses->flags & RUE_SES_F_SOM) {
		m->som = true;
		m->initiator = be32_to_cpu(ses->initiator);
		if (ses->flags & RUE_SES_F_HD) {
			m->hd = true;
			m->header_data = be64_to_cpu(ses->header_data);
		}
	}
	m->got += rx->paylen;
	if (m->got < length || !m->som)
		return RUE_SES_RC_OK;
	return rue_ses_rmsg_end(s, qp, m, rx);
}

/*
 * A request for @qp: its lengths, then by opcode.  A return code, or a
 * negative errno when it cannot be taken now.
 */
static int rue_ses_rcv_op(struct rue_ses_pdc *s, struct rue_qp *qp,
			  const struct rue_uet_rx *rx)
{
	const struct rue_ses_std *ses = rx->ses;
	u8 flags = ses->flags;
	bool som = flags & RUE_SES_F_SOM;
	u32 off = som ? 0 : be32_to_cpu(ses->message_offset);
	u8 rc;

	if ((u64)off + rx->paylen > be32_to_cpu(ses->request_length) ||
	    (!som && (be16_to_cpu(ses->payload_length) & RUE_SES_PAYLEN_MASK) !=
		     rx->paylen))
		return RUE_SES_RC_TOO_LONG;

	switch (ses->opcode & 0x3f) {
	case RUE_SES_WRITE:
		rc = rue_ses_write(qp, rx, off);
		if (rc != RUE_SES_RC_OK)
			return rc;
		/* a single-packet WRITE without header data needs no state */
		if (som && (flags & RUE_SES_F_EOM) && !(flags & RUE_SES_F_HD))
			return RUE_SES_RC_OK;
		break;
	case RUE_SES_SEND:
		break;
	default:
		return RUE_SES_RC_UNSUPPORTED_OP;
	}
	return rue_ses_rmsg_add(s, qp, rx, off);
}

/* An SES response (3.4.8) to the request @ses: return code @rc. */
static void rue_ses_rsp_fill(struct rue_ses_rsp *rsp,
			     const struct rue_ses_std *ses, u8 rc)
{
	memset(rsp, 0, sizeof(*rsp));
	rsp->opcode = RUE_SES_RSP_RESPONSE;
	rsp->rc = rc;
	rsp->message_id = ses->message_id;
	rsp->ri_job = ses->ri_job;
}

/*
 * The deliver upcall: a request PDS has not delivered before, on a target
 * PDC of job @pdc_job whose SES state is @pdc_ses.  An SES return code
 * (@rsp filled when not OK), or a negative errno when the target cannot
 * take it now (no receive WQE): the packet counts as not received and
 * will come again.
 */
static int rue_ses_deliver(struct rue_dev *rdev, u32 pdc_job, void *pdc_ses,
			   const struct rue_uet_rx *rx, struct rue_ses_rsp *rsp)
{
	struct rue_qp *qp;
	u8 rc = RUE_SES_RC_OK;
	int ret;

	qp = rue_ses_target_qp(rdev, rx->ses, pdc_job, &rc);
	if (qp) {
		ret = rue_ses_rcv_op(pdc_ses, qp, rx);
		rue_qp_put(qp);
	} else {
		ret = rc;
	}
	if (ret < 0)
		return ret == -EAGAIN ? -EAGAIN : -ENOBUFS;
	if (ret != RUE_SES_RC_OK) {
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
		rue_ses_rsp_fill(rsp, rx->ses, ret);
	}
	return ret;
}

/*
 * The read upcall: answer the READ @rx (new or a duplicate: reading again
 * is harmless) in its ACK @skb, on a target PDC of job @pdc_job.  Appends
 * RSP_DATA and the data, or an RSP saying why not: the ACK's next_hdr.
 */
static u8 rue_ses_read(struct rue_dev *rdev, u32 pdc_job,
		       const struct rue_uet_rx *rx, struct sk_buff *skb)
{
	const struct rue_ses_std *ses = rx->ses;
	u32 len = be32_to_cpu(ses->request_length);
	struct rue_ses_rsp_data *rd;
	struct rue_mr *mr = NULL;
	struct rue_qp *qp;
	u8 rc = RUE_SES_RC_OK;

	qp = rue_ses_target_qp(rdev, ses, pdc_job, &rc);
	if (!qp)
		goto error;
	if (len > RUE_SES_PAYLEN_MASK || rx->paylen ||
	    !(ses->flags & RUE_SES_F_SOM))
		rc = RUE_SES_RC_TOO_LONG;	/* one packet's worth, no more */
	else
		rc = rue_ses_mr_check(qp, ses, IB_ACCESS_REMOTE_READ,
				      be64_to_cpu(ses->buffer_offset), len, &mr);
	if (rc == RUE_SES_RC_OK) {
		rd = skb_put_zero(skb, sizeof(*rd));
		rd->opcode = RUE_SES_RSP_RESPONSE_W_DATA;
		rd->rc = RUE_SES_RC_OK;
		rd->message_id = ses->message_id;
		rd->read_request_message_id = ses->message_id;
		rd->ri_job = ses->ri_job;
		rd->payload_length = cpu_to_be16(len);
		rd->modified_length = cpu_to_be32(len);
		if (len && rue_mr_copy_to_buf(mr, be64_to_cpu(ses->buffer_offset),
					      skb_put(skb, len), len)) {
			/* unreadable after all: say so instead */
			skb_trim(skb, skb->len - len - sizeof(*rd));
			rc = RUE_SES_RC_BAD_ADDR;
		}
		rue_mr_put(mr);
	}
	rue_qp_put(qp);
	if (rc == RUE_SES_RC_OK)
		return RUE_PDS_NEXT_RSP_DATA;
error:
	rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
	rue_ses_rsp_fill(skb_put(skb, sizeof(struct rue_ses_rsp)), ses, rc);
	return RUE_PDS_NEXT_RSP;
}

/* ------------------------------------------------------------------ */
/* The UET transport                                                   */

/*
 * UET QPs go RESET, INIT, RTR, RTS like UD QPs (and EFA's SRD QPs), but
 * need no attribute on the way: they have no path, peer or Q_Key.
 */
static bool rue_ses_modify_ok(enum ib_qp_state cur, enum ib_qp_state next,
			      int mask)
{
	const int allowed = IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_PORT |
			    IB_QP_PKEY_INDEX | IB_QP_QKEY | IB_QP_SQ_PSN;

	if (mask & ~allowed)
		return false;
	if (next == IB_QPS_RESET || next == IB_QPS_ERR)
		return true;
	switch (cur) {
	case IB_QPS_RESET:
		return next == IB_QPS_INIT;
	case IB_QPS_INIT:
		return next == IB_QPS_INIT || next == IB_QPS_RTR;
	case IB_QPS_RTR:
		return next == IB_QPS_RTS;
	case IB_QPS_RTS:
		return next == IB_QPS_RTS;
	default:
		return false;
	}
}

static bool rue_ses_op_valid(const struct rue_qp *qp, u8 op)
{
	return op == RUE_WR_SEND || op == RUE_WR_SEND_WITH_IMM ||
	       op == RUE_WR_RDMA_WRITE || op == RUE_WR_RDMA_WRITE_WITH_IMM ||
	       op == RUE_WR_RDMA_READ;
}

/* What PDS delivers to SES (pds.h). */
static const struct rue_pds_upcalls rue_ses_upcalls = {
	.pdc_open = rue_ses_pdc_open,
	.pdc_close = rue_ses_pdc_close,
	.rebuild = rue_ses_rebuild,
	.answer = rue_ses_answer,
	.done = rue_ses_done,
	.deliver = rue_ses_deliver,
	.read = rue_ses_read,
	.qp_gone = rue_ses_qp_gone,
};

/**
 * rue_uet_dev_init() - a device's UET: endpoints, and PDS delivering to SES
 * @rdev: the device, before any QP
 *
 * Return: 0.
 */
int rue_uet_dev_init(struct rue_dev *rdev)
{
	xa_init_flags(&rdev->uet.eps, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	return rue_pds_dev_init(rdev, &rue_ses_upcalls);
}

/**
 * rue_uet_dev_free() - undo rue_uet_dev_init()
 * @rdev: the device, after every QP is gone
 */
void rue_uet_dev_free(struct rue_dev *rdev)
{
	rue_pds_dev_free(rdev);
	WARN_ON(!xa_empty(&rdev->uet.eps));
	xa_destroy(&rdev->uet.eps);
}

const struct rue_transport_ops rue_uet_transport = {
	.name = "uet",
	.qp_types = RUE_QPT_DRIVER_BIT,
	.driver_qpt = RUE_DRIVER_QPT_UET,
	.flags = RUE_XPORT_AV_PER_WR,
	.create = rue_ses_qp_create,
	.user_resp = rue_ses_qp_user_resp,
	.publish = rue_ses_qp_publish,
	.unpublish = rue_ses_qp_unpublish,
	.destroy = rue_ses_qp_destroy,
	.release = rue_ses_qp_release,
	.free = rue_ses_qp_free,
	.modify_ok = rue_ses_modify_ok,
	.drop_peers = rue_pds_qp_drop,
	.op_valid = rue_ses_op_valid,
	.check_wqe = rue_sq_wqe_av,
	.tx = rue_ses_tx,
};
