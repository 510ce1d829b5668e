// SPDX-License-Identifier: GPL-2.0
/*
 * UET SES, initiator side (UE 1.0.1 section 3.4): send WQEs into request
 * packets, and their completions.
 *
 * A WQE is one message of one or more packets, each carrying the
 * standard SES request header (3.4.7.1): SOM on the first packet, which
 * also carries the 64-bit header data (immediate) when there is one; on
 * the others, payload_length and message_offset in its place;
 * request_length, message_id, job and target on all of them, so that a
 * target can place any packet of a message in whatever order they come
 * (RUD).  A READ is split into requests of one packet's data each, every
 * one its own message, answered with its data in the ACK.  A send WQE
 * completes when every packet of it is acknowledged; an SES response in
 * an ACK fails it with the status its return code maps to.
 *
 * Message IDs are numbered per PDC, in SES's state of the initiator PDC:
 * a target tells messages apart by PDC and message_id.  All of it under
 * the QP's req.lock.
 */
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <rdma/rue-abi.h>

#include "pds.h"
#include "pds_ini.h"
#include "ses_ini.h"
#include "uet.h"
#include "uet_stats.h"
#include "cc/cc.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/sgl.h"
#include "core/sq.h"
#include "net/xmit.h"

/* SES's state of an initiator PDC (rue_pdc_ses()). */
struct rue_ses_ini_pdc {
	u16 next_msg;			/* the next message_id */
};

/**
 * rue_ses_ini_pdc_open() - SES's state of a new initiator PDC
 * @gfp: as for the PDC (rue_pdc_alloc())
 *
 * Return: it, or NULL (no memory).  Freed with kfree().
 */
void *rue_ses_ini_pdc_open(gfp_t gfp)
{
	return kzalloc(sizeof(struct rue_ses_ini_pdc), gfp);
}

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

/* Who a request of WQE @w is from and for: job, target, initiator. */
static void rue_ses_std_addr(const struct rue_qp *qp, const struct rue_swqe *w,
			     struct rue_ses_std *ses)
{
	ses->ri_job = cpu_to_be32(qp->uet.job);
	ses->pid_on_fep = cpu_to_be16(RUE_UET_ADDR_PID(w->sqe.remote_qpn));
	ses->resource_index = cpu_to_be16(RUE_UET_ADDR_RI(w->sqe.remote_qpn));
	ses->initiator = cpu_to_be32(qp->uet.addr);
}

/* The medium header saying what the standard one @s says (pds.c widens). */
static void rue_ses_narrow(struct rue_ses_medium *m,
			   const struct rue_ses_std *s)
{
	m->opcode = s->opcode;
	m->flags = s->flags;
	m->request_length = cpu_to_be16(be32_to_cpu(s->request_length));
	m->ri_job = s->ri_job;
	m->pid_on_fep = s->pid_on_fep;
	m->resource_index = s->resource_index;
	m->data_or_offset = s->flags & RUE_SES_F_HD ? s->header_data :
						      s->buffer_offset;
	m->initiator = s->initiator;
	m->memory_key = s->memory_key;
}

/*
 * A READ request for tx->len bytes at tx->off of the WQE's remote buffer.
 * Each is a message of its own (SOM and EOM), asking for at most one
 * packet of data, which comes back in the ACK (rue_ses_read_respond()):
 * a lost response is asked for again like any lost request, and reading
 * twice is harmless.  It has the medium header (UE 1.0.1 3.4.2: a
 * message in one packet), and its response the small one with its PSN.
 */
static struct sk_buff *rue_ses_build_read(struct rue_qp *qp,
					  struct rue_pdc *pdc,
					  const struct rue_pds_tx *tx, u32 psn,
					  bool retx)
{
	const struct rue_swqe *w = rue_swqe(qp, tx->wqe);
	struct rue_ses_std ses = {};
	struct rue_pds_req *h;
	struct sk_buff *skb;

	skb = rue_xmit_alloc(qp->rdev, sizeof(*h) +
			     sizeof(struct rue_ses_medium), GFP_ATOMIC);
	if (!skb)
		return NULL;
	h = skb_put(skb, sizeof(*h));
	rue_pds_req_fill(pdc, h, psn, true, retx);
	h->prologue = rue_pds_prologue_next(h->prologue,
					    RUE_PDS_NEXT_REQ_MEDIUM);
	ses.opcode = RUE_SES_READ;
	ses.flags = RUE_SES_F_SOM | RUE_SES_F_EOM;
	rue_ses_std_addr(qp, w, &ses);
	ses.buffer_offset = cpu_to_be64(w->sqe.remote_addr + tx->off);
	ses.memory_key = cpu_to_be64(w->sqe.rkey);
	ses.request_length = cpu_to_be32(tx->len);
	rue_ses_narrow(skb_put(skb, sizeof(struct rue_ses_medium)), &ses);
	return skb;
}

/*
 * Place the data of a READ response (RSP_DATA or RSP_DATA_SMALL in @r,
 * data at r->off in the ACK) for the READ request @tx: the status the
 * request ends with.
 */
static u8 rue_ses_read_data(struct rue_qp *qp, const struct rue_pds_tx *tx,
			    const struct rue_pds_rsp *r)
{
	const struct rue_swqe *w = rue_swqe(qp, tx->wqe);
	const struct sk_buff *skb = r->skb;
	__be16 plen = r->rd ? r->rd->payload_length : r->rds->payload_length;
	u32 len = be16_to_cpu(plen) & RUE_SES_PAYLEN_MASK;
	u32 off = r->off;

	if (len != tx->len || (r->rd && be32_to_cpu(r->rd->message_offset)) ||
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
 * The answer upcall (pds.h): an ACK carried an SES response.  Every error the
 * target sent is counted; data is placed only for a READ still waiting.
 */
u8 rue_ses_answer(struct rue_qp *qp, const struct rue_pds_tx *tx,
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
	return rue_ses_read_data(qp, tx, r);
}

/*
 * Whether a packet of WQE @w with SES flags @flags may carry the medium
 * request header instead of the standard one (UE 1.0.1 3.4.2), 12 bytes
 * less: the whole message in it (SOM and EOM, at most 16 KiB - 1), a
 * SEND, or a WRITE without header data (the medium header's one word is
 * header data or buffer offset, not both).  READs are built apart
 * (rue_ses_build_read()).
 */
static bool rue_ses_medium_fits(const struct rue_swqe *w, u8 flags)
{
	const u8 som_eom = RUE_SES_F_SOM | RUE_SES_F_EOM;

	if ((flags & som_eom) != som_eom ||
	    w->sqe.length > RUE_SES_PAYLEN_MASK)
		return false;
	switch (w->sqe.opcode) {
	case RUE_WR_SEND:
	case RUE_WR_SEND_WITH_IMM:
	case RUE_WR_RDMA_WRITE:
		return true;
	default:
		return false;
	}
}

/*
 * Append to @skb the SES request header of the packet carrying bytes
 * [@off, @off + @len) of WQE @w's message (message @msg_id, SOM and EOM
 * in @flags), then those bytes: the medium header where it fits, else
 * the standard one.  Its next_hdr, or -EFAULT.
 */
static int rue_ses_put(struct rue_qp *qp, const struct rue_swqe *w,
		       struct sk_buff *skb, u16 msg_id, u8 flags, u32 off,
		       u32 len)
{
	struct rue_ses_std ses = {};
	u8 op = w->sqe.opcode;
	int next;

	ses.opcode = rue_ses_opcode(op);
	ses.message_id = cpu_to_be16(msg_id);
	rue_ses_std_addr(qp, w, &ses);
	if (ses.opcode == RUE_SES_WRITE) {
		ses.buffer_offset = cpu_to_be64(w->sqe.remote_addr);
		ses.memory_key = cpu_to_be64(w->sqe.rkey);
	}
	if (flags & RUE_SES_F_SOM) {
		if (rue_ses_has_hd(op)) {
			flags |= RUE_SES_F_HD;
			ses.header_data = cpu_to_be64(w->sqe.imm);
		}
	} else {
		ses.payload_length = cpu_to_be16(len);
		ses.message_offset = cpu_to_be32(off);
	}
	ses.flags = flags;
	ses.request_length = cpu_to_be32(w->sqe.length);
	if (rue_ses_medium_fits(w, flags)) {
		rue_ses_narrow(skb_put(skb, sizeof(struct rue_ses_medium)),
			       &ses);
		next = RUE_PDS_NEXT_REQ_MEDIUM;
	} else {
		skb_put_data(skb, &ses, sizeof(ses));
		next = RUE_PDS_NEXT_REQ_STD;
	}

	if (w->sqe.flags & RUE_SQE_INLINE)
		skb_put_data(skb, w->inline_data + off, len);
	else if (len && rue_sgl_to_skb(w->sg, w->num_sge, off, len, skb, false))
		return -EFAULT;
	return next;
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
	struct rue_pds_req *h;
	struct sk_buff *skb;
	int next;

	if (tx->read)
		return rue_ses_build_read(qp, pdc, tx, psn, retx);
	skb = rue_xmit_alloc(qp->rdev, sizeof(struct rue_pds_req) +
			     sizeof(struct rue_ses_std) + tx->len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	h = skb_put(skb, sizeof(*h));
	rue_pds_req_fill(pdc, h, psn, ar, retx);
	next = rue_ses_put(qp, w, skb, tx->msg_id, tx->ses_flags, tx->off,
			   tx->len);
	if (next < 0) {
		kfree_skb(skb);
		return NULL;
	}
	h->prologue = rue_pds_prologue_next(h->prologue, next);
	return skb;
}

/* The rebuild upcall (pds.h): a request again, for a resend. */
struct sk_buff *rue_ses_rebuild(struct rue_qp *qp, struct rue_pdc *pdc,
				const struct rue_pds_tx *tx, u32 psn)
{
	return rue_ses_build(qp, pdc, tx, psn, true, true);
}

/* The done upcall (pds.h): a packet of a WQE was acknowledged, or failed. */
void rue_ses_done(struct rue_qp *qp, const struct rue_pds_tx *tx,
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
		struct rue_ses_ini_pdc *s;
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
		pdc = rue_pdc_find(qp, &w->av, max, out);
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

		/*
		 * AR at the end of a message, and on the request that fills
		 * the window (no room for a full one after it): a stopped
		 * initiator always has an ACK coming.  The target acknowledges
		 * every 16 KiB besides (pds_tgt.c).  Asking on every request
		 * past three quarters of the window, as before, drew an ACK
		 * for nearly every other data packet between two guests (0.4
		 * per packet; 1 per 12 over one guest's veth), where a PDC the
		 * window holds only ever sends there.
		 */
		skb = rue_ses_build(qp, pdc, tx, psn,
				    last || !rue_pdc_room(pdc, max), false);
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

/* The transport's tx (transport.h): resends first, then new packets. */
int rue_ses_tx(struct rue_qp *qp, int budget)
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
/* UUD: unreliable unordered delivery (UE 1.0.1 3.5), no PDC           */

/*
 * A UUD message is one packet: a 4-byte PDS header (no PDC, no PSN), the
 * standard SES header with SOM and EOM, the payload.  Nothing comes
 * back: a send WQE completes once its packet is handed to the network,
 * and a message lost on the way is lost (uud_sent here, uud_delivered
 * and uud_dropped at the target tell how many).  SENDs only, as UD: UE
 * gives UUD no RMA.  Longer than one packet's payload: IB_WC_LOC_LEN_ERR.
 */

bool rue_ses_uud_op_valid(const struct rue_qp *qp, u8 op)
{
	return op == RUE_WR_SEND || op == RUE_WR_SEND_WITH_IMM;
}

u8 rue_ses_uud_check_wqe(struct rue_qp *qp, struct rue_swqe *w)
{
	if (w->sqe.length > rue_ses_max_payload(qp))
		return IB_WC_LOC_LEN_ERR;
	return rue_sq_wqe_av(qp, w);
}

/*
 * The packet of UUD WQE @w, message @msg_id, or NULL: no memory (a lost
 * message, as any), or w->status says why not (the netdev's MTU shrank
 * below it since it was checked, its memory went).
 */
static struct sk_buff *rue_ses_uud_build(struct rue_qp *qp,
					 struct rue_swqe *w, u16 msg_id)
{
	struct rue_pds_uud *h;
	struct sk_buff *skb;
	int next;

	if (w->sqe.length > rue_ses_max_payload(qp)) {
		w->status = IB_WC_LOC_LEN_ERR;
		return NULL;
	}
	skb = rue_xmit_alloc(qp->rdev, sizeof(*h) + sizeof(struct rue_ses_std) +
			     w->sqe.length, GFP_ATOMIC);
	if (!skb)
		return NULL;
	h = skb_put(skb, sizeof(*h));
	h->rsvd = 0;
	next = rue_ses_put(qp, w, skb, msg_id, RUE_SES_F_SOM | RUE_SES_F_EOM,
			   0, w->sqe.length);
	if (next < 0) {
		kfree_skb(skb);
		w->status = IB_WC_LOC_PROT_ERR;
		return NULL;
	}
	h->prologue = rue_pds_prologue(RUE_PDS_UUD_REQ, next, 0);
	return skb;
}

/* Send @skb to @av; bottom halves disabled, no lock held. */
static void rue_ses_uud_xmit(struct rue_qp *qp, const struct rue_av *av,
			     struct sk_buff *skb, u16 msg_id)
{
	u32 paths = max_t(u32, qp->uet.pds.entropy, 1);
	const struct rue_cc_cfg *cfg;
	u8 tos;

	/* nothing comes back to echo a CE mark: not ECN-capable */
	rcu_read_lock();
	cfg = rcu_dereference(qp->rdev->cc);
	tos = av->tclass & ~INET_ECN_MASK;
	skb->priority = rue_cc_prio(cfg, av->tclass);
	rcu_read_unlock();
	if (rue_xmit_uet(qp->rdev, av, NULL,
			 rue_pds_sport(qp->uet.pid, msg_id % paths), skb,
			 tos) >= 0)
		rue_uet_stat_inc(qp->rdev, RUE_USTAT_UUD_SENT);
}

/*
 * The UUD transport's tx (transport.h).  Each message goes to its own
 * peer: sent one by one, req.lock dropped around each send (as UD's).
 * The message_id is the WQE's ring index: only a per-PDC reassembly
 * needs more, and UUD has neither.
 */
int rue_ses_uud_tx(struct rue_qp *qp, int budget)
{
	struct rue_req *req = &qp->req;
	struct sk_buff *skb;
	struct rue_av av;
	int n = 0;
	u16 id;

	spin_lock_bh(&req->lock);
	while (n < budget && qp->state == IB_QPS_RTS &&
	       (req->cur != req->head || rue_sq_fetch(qp))) {
		struct rue_swqe *w = rue_swqe(qp, req->cur);

		id = req->cur++;
		if (w->done)
			continue;	/* failed its checks */
		skb = rue_ses_uud_build(qp, w, id);
		w->sent = 1;
		w->done = 1;
		if (!skb)
			continue;
		av = w->av;
		spin_unlock_bh(&req->lock);
		rue_ses_uud_xmit(qp, &av, skb, id);
		n++;
		spin_lock_bh(&req->lock);
	}
	rue_sq_retire_all(qp);
	spin_unlock_bh(&req->lock);
	return n;
}
