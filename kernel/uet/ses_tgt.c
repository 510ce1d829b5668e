// SPDX-License-Identifier: GPL-2.0
/*
 * UET SES, target side (UE 1.0.1 section 3.4): the requests PDS
 * delivers, checked, placed and completed.
 *
 * A request names its QP by PIDonFEP and resource index; the QP must be
 * ready and of the request's job, which is the PDC's too.  A WRITE
 * packet is placed at buffer_offset + message_offset of the MR its
 * 64-bit key names, and a READ read from it, after one check of the key
 * (both halves), the MR's job restriction, its rights and range
 * (rue_ses_mr_check()).  A SEND takes a receive WQE when the first of
 * its packets arrives, in whatever order, and completes it when all
 * request_length bytes are there; WRITE with header data likewise
 * completes a receive WQE when the whole message is there.  PDS
 * delivers each packet exactly once.  A request with a small or medium
 * header is a whole message in one packet and keeps no state
 * (rue_ses_rcv_short()).  A request that fails a check is
 * answered with an SES response carrying the return code, in the ACK
 * (3.4.8); a READ's data rides in its ACK.
 *
 * The messages being received are SES's state of their target PDC, used
 * under the PDC's lock (the upcalls run under it), which is taken before
 * the QP's resp.lock.
 */
#include <linux/slab.h>
#include <rdma/rue-abi.h>

#include "pds.h"
#include "ses_tgt.h"
#include "uet.h"
#include "uet_stats.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/mr.h"
#include "core/qp.h"
#include "core/rq.h"
#include "core/sgl.h"
#include "core/stats.h"

/* SES's state of a target PDC (rue_pdc_ses()): messages being received. */
struct rue_ses_tgt_pdc {
	struct rue_ses_rmsg *rmsg[RUE_PDC_WIN];	/* by message_id % WIN */
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

/*
 * A message that will not complete (its initiator gave up on it, or its
 * PDC closed): a receive WQE it holds goes back to its owner, completed
 * with IB_WC_REM_ABORT_ERR, unless the QP is in the error state (being
 * destroyed, or flushing: see Documentation/uet.md).  m->qp is alive:
 * its release waits for the PDC's lock, held here (rue_ses_tgt_qp_gone()).
 */
static void rue_ses_rmsg_abort(struct rue_ses_rmsg *m)
{
	struct rue_qp *qp = m->qp;
	bool done = false;

	if (m->rqe) {
		spin_lock(&qp->resp.lock);
		if (qp->state != IB_QPS_ERR) {
			if (m->status == IB_WC_SUCCESS)
				m->status = IB_WC_REM_ABORT_ERR;
			rue_ses_rmsg_complete(qp, m);
			done = true;
		}
		spin_unlock(&qp->resp.lock);
	}
	if (done)
		rue_qp_notify(qp);
	rue_ses_rmsg_free(m);
}

/*
 * Forget the messages being received on a PDC: those for @qp, which is
 * going (no completion), or all, the PDC closing (aborted).
 */
static void rue_ses_rmsg_drop_all(struct rue_ses_tgt_pdc *s, struct rue_qp *qp)
{
	int i;

	for (i = 0; i < RUE_PDC_WIN; i++) {
		struct rue_ses_rmsg *m = s->rmsg[i];

		if (!m)
			continue;
		if (!qp) {
			s->rmsg[i] = NULL;
			rue_ses_rmsg_abort(m);
		} else if (m->qp == qp) {
			s->rmsg[i] = NULL;
			rue_ses_rmsg_free(m);
		}
	}
}

/**
 * rue_ses_tgt_pdc_open() - SES's state of a new target PDC
 *
 * Return: it, or NULL (no memory).
 */
void *rue_ses_tgt_pdc_open(void)
{
	return kzalloc(sizeof(struct rue_ses_tgt_pdc), GFP_ATOMIC);
}

/**
 * rue_ses_tgt_pdc_close() - the target PDC goes: forget its messages
 * @ses: its SES state, freed; the PDC's lock held
 */
void rue_ses_tgt_pdc_close(void *ses)
{
	rue_ses_rmsg_drop_all(ses, NULL);
	kfree(ses);
}

/**
 * rue_ses_tgt_qp_gone() - the qp_gone upcall: forget messages for a QP
 * @ses: SES's state of a target PDC, the PDC's lock held
 * @qp: a QP being destroyed
 */
void rue_ses_tgt_qp_gone(void *ses, struct rue_qp *qp)
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
 * The memory a WRITE or READ request @rx names, @off into its message,
 * checked before it is touched: the 64-bit key (the lower half finds
 * the MR, the upper half is the part nobody can guess: rue-abi.h,
 * key64), the MR's restriction to a job, the right @access, and
 * [va, va + @len) within the MR.  The address is buffer_offset + @off,
 * or @off into the MR for a request without buffer_offset (rx->at_start).
 * A return code; *@mrp referenced and *@vap set when RUE_SES_RC_OK.
 */
static u8 rue_ses_mr_check(struct rue_qp *qp, const struct rue_uet_rx *rx,
			   int access, u32 off, u32 len, struct rue_mr **mrp,
			   u64 *vap)
{
	const struct rue_ses_std *ses = rx->ses;
	u64 key = be64_to_cpu(ses->memory_key), va;
	u32 job = be32_to_cpu(ses->ri_job) & RUE_SES_JOB_MASK;
	enum rue_mr_err merr;
	struct rue_mr *mr;
	u8 rc = RUE_SES_RC_OK;

	mr = rue_mr_get(qp->rdev, (u32)key, true, qp->ibqp.pd, access, &merr);
	if (!mr)
		return merr == RUE_MR_EACCESS ? RUE_SES_RC_PERM_VIOLATION :
						RUE_SES_RC_BAD_MKEY;
	va = (rx->at_start ? mr->iova : be64_to_cpu(ses->buffer_offset)) + off;
	/* memory windows are RoCE's (mw.c): no UET key opens one */
	if (mr->key_hi != (u32)(key >> 32) || mr->type == RUE_MR_WINDOW)
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
	*vap = va;
	return rc;
}

/* Place a WRITE packet, @off into its message; the return code. */
static u8 rue_ses_write(struct rue_qp *qp, const struct rue_uet_rx *rx,
			u32 off)
{
	struct rue_mr *mr;
	u64 va;
	u8 rc;

	rc = rue_ses_mr_check(qp, rx, IB_ACCESS_REMOTE_WRITE, off, rx->paylen,
			      &mr, &va);
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
 * WQE for a SEND: 0, a return code, or a negative errno.  The PDC's lock
 * held.  Every packet of a message carries its opcode and request_length
 * (UE 1.0.1 3.4.2); the first one to arrive fixes both, and a later
 * packet that says otherwise is refused (a return code) rather than
 * placed: the receive WQE was sized against the first length, and
 * rue_ses_rcv_op() checked the packet's offset against its own.
 */
static int rue_ses_rmsg_get(struct rue_ses_tgt_pdc *s, struct rue_qp *qp,
			    u16 msg_id, u8 opcode, u32 length,
			    struct rue_ses_rmsg **mp)
{
	struct rue_ses_rmsg **slot = &s->rmsg[msg_id % RUE_PDC_WIN];
	struct rue_ses_rmsg *m = *slot;
	int err;

	if (m && m->msg_id == msg_id && m->qp == qp) {
		if (m->opcode != opcode)
			return RUE_SES_RC_UNSUPPORTED_OP;
		if (m->length != length)
			return RUE_SES_RC_TOO_LONG;
		*mp = m;
		return 0;
	}
	if (m) {
		/* a message its initiator gave up on */
		*slot = NULL;
		rue_ses_rmsg_abort(m);
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
static int rue_ses_rmsg_end(struct rue_ses_tgt_pdc *s, struct rue_qp *qp,
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
	s->rmsg[m->msg_id % RUE_PDC_WIN] = NULL;
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
static int rue_ses_rmsg_add(struct rue_ses_tgt_pdc *s, struct rue_qp *qp,
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
 * A message in one packet @rx for @qp, completed at once: a receive WQE
 * takes a SEND's data, or only the completion of a WRITE with header
 * data (placed already).  It holds a message's state only while it is
 * placed, in the form a multi-packet message keeps.  A return code, or
 * a negative errno when no receive WQE takes it (nothing placed).
 */
static int rue_ses_one(struct rue_qp *qp, const struct rue_uet_rx *rx,
		       u8 opcode)
{
	const struct rue_ses_std *ses = rx->ses;
	struct rue_ses_rmsg *m;
	int ret;

	m = kzalloc(struct_size(m, sg, qp->max_recv_sge), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	m->qp = qp;
	m->opcode = opcode;
	m->length = rx->paylen;
	m->status = IB_WC_SUCCESS;
	m->initiator = be32_to_cpu(ses->initiator);
	if (ses->flags & RUE_SES_F_HD) {
		m->hd = true;
		m->header_data = be64_to_cpu(ses->header_data);
	}
	ret = rue_ses_rmsg_take_rqe(qp, m);
	if (ret) {
		kfree(m);
		return ret;
	}
	if (opcode == RUE_SES_SEND && m->status == IB_WC_SUCCESS) {
		if (m->length > m->info.len)
			m->status = IB_WC_LOC_LEN_ERR;
		else if (m->length &&
			 rue_sgl_from_skb(m->sg, m->info.num_sge, 0, rx->skb,
					  rx->pay_off, m->length))
			m->status = IB_WC_LOC_PROT_ERR;
	}
	spin_lock(&qp->resp.lock);
	rue_ses_rmsg_complete(qp, m);
	spin_unlock(&qp->resp.lock);
	rue_qp_notify(qp);
	ret = m->status == IB_WC_LOC_LEN_ERR ? RUE_SES_RC_TOO_LONG :
					       RUE_SES_RC_OK;
	rue_ses_rmsg_free(m);
	return ret;
}

/*
 * A request with a small or medium header (pds.c widened it): no
 * message_id to keep a message's state by, so the message must be this
 * one packet (SOM and EOM, request_length its payload), placed and
 * completed at once.  The small header carries no memory key: it is for
 * memory its resource index names (an optimized key, UE 1.0.1 3.4.2),
 * which rue does not have, so RMA with it is refused as a bad key.
 */
static int rue_ses_rcv_short(struct rue_qp *qp, const struct rue_uet_rx *rx)
{
	const u8 som_eom = RUE_SES_F_SOM | RUE_SES_F_EOM;
	const struct rue_ses_std *ses = rx->ses;
	u8 opcode = ses->opcode & 0x3f;
	u8 rc;

	if ((ses->flags & som_eom) != som_eom ||
	    be32_to_cpu(ses->request_length) != rx->paylen)
		return RUE_SES_RC_TOO_LONG;
	switch (opcode) {
	case RUE_SES_WRITE:
		if (rx->ses_kind == RUE_PDS_NEXT_REQ_SMALL)
			return RUE_SES_RC_BAD_MKEY;
		rc = rue_ses_write(qp, rx, 0);
		if (rc != RUE_SES_RC_OK || !(ses->flags & RUE_SES_F_HD))
			return rc;
		break;
	case RUE_SES_SEND:
		break;
	default:
		return RUE_SES_RC_UNSUPPORTED_OP;
	}
	return rue_ses_one(qp, rx, opcode);
}

/*
 * A request for @qp: its lengths, then by opcode.  A return code, or a
 * negative errno when it cannot be taken now.
 */
static int rue_ses_rcv_op(struct rue_ses_tgt_pdc *s, struct rue_qp *qp,
			  const struct rue_uet_rx *rx)
{
	const struct rue_ses_std *ses = rx->ses;
	u8 flags = ses->flags;
	bool som = flags & RUE_SES_F_SOM;
	u32 off = som ? 0 : be32_to_cpu(ses->message_offset);
	u8 rc;

	if (rx->ses_kind != RUE_PDS_NEXT_REQ_STD)
		return rue_ses_rcv_short(qp, rx);
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
 * The deliver upcall (pds.h): a request PDS has not delivered before, on a target
 * PDC of job @pdc_job whose SES state is @pdc_ses.  An SES return code
 * (@rsp filled when not OK), or a negative errno when the target cannot
 * take it now (no receive WQE): the packet counts as not received and
 * will come again.
 */
int rue_ses_deliver(struct rue_dev *rdev, u32 pdc_job, void *pdc_ses,
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
 * The header of the response to the READ @rx with @len bytes of data,
 * put in @skb: RSP_DATA, or RSP_DATA_SMALL for a request without
 * message_id, which it names by its PSN (UE 1.0.1 3.4.4).  Its next_hdr.
 */
static u8 rue_ses_read_rsp(const struct rue_uet_rx *rx, u32 len,
			   struct sk_buff *skb)
{
	const struct rue_ses_std *ses = rx->ses;
	struct rue_ses_rsp_data_small *rs;
	struct rue_ses_rsp_data *rd;

	if (rx->ses_kind != RUE_PDS_NEXT_REQ_STD) {
		rs = skb_put_zero(skb, sizeof(*rs));
		rs->opcode = RUE_SES_RSP_RESPONSE_W_DATA;
		rs->rc = RUE_SES_RC_OK;
		rs->payload_length = cpu_to_be16(len);
		rs->job = cpu_to_be32(be32_to_cpu(ses->ri_job) &
				      RUE_SES_JOB_MASK);
		rs->original_request_psn = cpu_to_be32(rx->psn);
		return RUE_PDS_NEXT_RSP_DATA_SMALL;
	}
	rd = skb_put_zero(skb, sizeof(*rd));
	rd->opcode = RUE_SES_RSP_RESPONSE_W_DATA;
	rd->rc = RUE_SES_RC_OK;
	rd->message_id = ses->message_id;
	rd->read_request_message_id = ses->message_id;
	rd->ri_job = ses->ri_job;
	rd->payload_length = cpu_to_be16(len);
	rd->modified_length = cpu_to_be32(len);
	return RUE_PDS_NEXT_RSP_DATA;
}

/*
 * The read upcall (pds.h): answer the READ @rx (new or a duplicate: reading again
 * is harmless) in its ACK @skb, on a target PDC of job @pdc_job.  Appends
 * the response header and the data, or an RSP saying why not: the ACK's
 * next_hdr.  A small header has no key (rue_ses_rcv_short()).
 */
u8 rue_ses_read(struct rue_dev *rdev, u32 pdc_job,
		const struct rue_uet_rx *rx, struct sk_buff *skb)
{
	const struct rue_ses_std *ses = rx->ses;
	u32 len = be32_to_cpu(ses->request_length);
	unsigned int start = skb->len;
	struct rue_mr *mr = NULL;
	struct rue_qp *qp;
	u8 next = RUE_PDS_NEXT_RSP;
	u8 rc = RUE_SES_RC_OK;
	u64 va;

	qp = rue_ses_target_qp(rdev, ses, pdc_job, &rc);
	if (!qp)
		goto error;
	if (len > RUE_SES_PAYLEN_MASK || rx->paylen ||
	    !(ses->flags & RUE_SES_F_SOM))
		rc = RUE_SES_RC_TOO_LONG;	/* one packet's worth, no more */
	else if (rx->ses_kind == RUE_PDS_NEXT_REQ_SMALL)
		rc = RUE_SES_RC_BAD_MKEY;
	else
		rc = rue_ses_mr_check(qp, rx, IB_ACCESS_REMOTE_READ, 0, len,
				      &mr, &va);
	if (rc == RUE_SES_RC_OK) {
		next = rue_ses_read_rsp(rx, len, skb);
		if (len && rue_mr_copy_to_buf(mr, va, skb_put(skb, len), len)) {
			/* unreadable after all: say so instead */
			skb_trim(skb, start);
			rc = RUE_SES_RC_BAD_ADDR;
		}
		rue_mr_put(mr);
	}
	rue_qp_put(qp);
	if (rc == RUE_SES_RC_OK)
		return next;
error:
	rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
	rue_ses_rsp_fill(skb_put(skb, sizeof(struct rue_ses_rsp)), ses, rc);
	return RUE_PDS_NEXT_RSP;
}

/**
 * rue_ses_uud_rcv() - the uud upcall (pds.h): a UUD request
 * @rdev: the device
 * @rx: the request, SES header pulled
 *
 * A SEND in one packet (SOM and EOM, request_length its payload), for a
 * UET QP of the request's own job: there is no PDC whose job it must be
 * too.  Anything else is dropped and counted, unanswered (UUD has no
 * ACK).  Bottom halves disabled, under rcu_read_lock().
 */
void rue_ses_uud_rcv(struct rue_dev *rdev, const struct rue_uet_rx *rx)
{
	const u8 som_eom = RUE_SES_F_SOM | RUE_SES_F_EOM;
	const struct rue_ses_std *ses = rx->ses;
	struct rue_qp *qp;
	bool taken = false;
	u8 rc;

	if ((ses->opcode & 0x3f) == RUE_SES_SEND &&
	    (ses->flags & som_eom) == som_eom &&
	    be32_to_cpu(ses->request_length) == rx->paylen) {
		qp = rue_ses_target_qp(rdev, ses, be32_to_cpu(ses->ri_job) &
					       RUE_SES_JOB_MASK, &rc);
		if (qp) {
			/* no receive WQE: dropped, UUD has no RNR */
			taken = rue_ses_one(qp, rx, RUE_SES_SEND) >= 0;
			rue_qp_put(qp);
		}
	}
	if (taken) {
		rue_uet_stat_inc(rdev, RUE_USTAT_UUD_DELIVERED);
	} else {
		rue_uet_stat_inc(rdev, RUE_USTAT_UUD_DROPPED);
		rue_stat_inc(rdev, RUE_STAT_UET_RX_DROPS);
	}
}
