// SPDX-License-Identifier: GPL-2.0
/*
 * UET Semantic Sublayer (UE 1.0.1 section 3.4) on rue QPs: the UET
 * transport.
 *
 * A UET QP is an IB_QPT_DRIVER QP bound to one job.  It is reliable and
 * unconnected: each send WQE names its peer (an AH, and the peer's
 * PIDonFEP and resource index in remote_qpn), and its packets go over
 * the QP's PDC to that peer's address, created on first use.  The QP is
 * found by targets through its PIDonFEP (rdev->uet.eps).
 *
 * Files: ses.c (this one: a UET QP's lifetime, the transport and upcall
 * tables, a device's UET), ses_ini.c (messages into requests, send
 * completions), ses_tgt.c (target checks, placement, receive
 * completions).
 *
 * SES sits on PDS.  It calls PDS through pds.h and pds_ini.h (find a
 * PDC, room in its window, take a PSN, queue a packet to send once the
 * lock is dropped, resend, drop a QP's PDCs), and PDS delivers to it
 * through one table, rue_ses_upcalls below, and nothing else.  What SES
 * keeps per PDC (an initiator's message counter, the messages a target
 * is receiving) PDS stores for it as an opaque pointer, made and freed
 * through the pdc_open and pdc_close upcalls.
 *
 * Send completions are reported in posting order (the SQ is a ring); a
 * failed WQE does not move the QP to the error state: a UET QP talks to
 * many peers and one failing says nothing about the others.
 *
 * Two transport tables: rue_uet_transport sends over PDCs (RUD, ROD),
 * rue_uet_uud_transport without (UUD, ses_ini.c); the delivery mode a
 * QP is created with picks one.  They differ in what a QP sends only:
 * as a target every UET QP takes requests of every mode.
 */
#include <linux/slab.h>
#include <rdma/rue-abi.h>

#include "job.h"
#include "pdc_owner.h"
#include "pds.h"
#include "pds_ini.h"
#include "ses.h"
#include "ses_ini.h"
#include "ses_tgt.h"
#include "uet.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/sq.h"
#include "core/transport.h"

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
	if (cmd->uet_mode > RUE_UET_MODE_UUD ||
	    cmd->uet_resource_index > RUE_SES_12BIT_MASK) {
		err = -EINVAL;
		goto err_job;
	}
	qp->uet.job = cmd->uet_job_id;
	qp->uet.ri = cmd->uet_resource_index;
	rue_pds_qp_init(&qp->uet.pds, cmd->uet_job_id, cmd->uet_mode,
			max_t(u8, cmd->uet_entropy, 1));
	err = rue_pdc_owner_get(qp);
	if (err)
		goto err_job;

	err = xa_alloc_cyclic_bh(&u->eps, &pid, NULL,
				 XA_LIMIT(1, RUE_SES_12BIT_MASK), &u->pid_next,
				 GFP_KERNEL);
	if (err < 0) {
		err = err == -EBUSY ? -ENOSPC : err;
		goto err_owner;
	}
	qp->uet.pid = pid;
	qp->uet.addr = RUE_UET_ADDR(pid, qp->uet.ri);
	rue_pds_qp_account(&qp->uet.pds);
	return 0;

err_owner:
	rue_pdc_owner_put(qp);
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
	rue_pds_qp_stop(qp);
	rue_pdc_owner_unwait(qp);
	synchronize_rcu();
}

/* After the last reference is gone: target state naming the QP. */
static void rue_ses_qp_release(struct rue_qp *qp)
{
	rue_pds_tgt_qp_gone(qp->rdev, qp);
}

static void rue_ses_qp_free(struct rue_qp *qp)
{
	rue_pds_qp_fini(&qp->uet.pds);
	rue_pdc_owner_put(qp);
	xa_erase_bh(&qp->rdev->uet.eps, qp->uet.pid);
	rue_job_unbind(qp->rdev, qp->uet.job);
}

/* ------------------------------------------------------------------ */
/* What PDS delivers to SES; a device's UET                            */

/*
 * The pdc_open upcall: SES's state of a new PDC.  An initiator's numbers
 * its messages; a target's holds the messages it is receiving.
 */
static void *rue_ses_pdc_open(bool target, gfp_t gfp)
{
	return target ? rue_ses_tgt_pdc_open() : rue_ses_ini_pdc_open(gfp);
}

/* The pdc_close upcall. */
static void rue_ses_pdc_close(void *ses, bool target)
{
	if (target)
		rue_ses_tgt_pdc_close(ses);
	else
		kfree(ses);	/* a counter, nothing to forget */
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
	.uud = rue_ses_uud_rcv,
	.qp_gone = rue_ses_tgt_qp_gone,
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

/* RUD and ROD QPs (and modes rue_ses_qp_create() refuses) */
static bool rue_ses_match_pdc(const struct rue_create_qp_cmd *cmd)
{
	return cmd->uet_mode != RUE_UET_MODE_UUD;
}

/*
 * What both UET tables share: one QP object, its life and its states;
 * they differ in how it sends.
 */
#define RUE_SES_QP_OPS						\
	.qp_types = RUE_QPT_DRIVER_BIT,				\
	.driver_qpt = RUE_DRIVER_QPT_UET,			\
	.flags = RUE_XPORT_AV_PER_WR,				\
	.create = rue_ses_qp_create,				\
	.user_resp = rue_ses_qp_user_resp,			\
	.publish = rue_ses_qp_publish,				\
	.unpublish = rue_ses_qp_unpublish,			\
	.destroy = rue_ses_qp_destroy,				\
	.release = rue_ses_qp_release,				\
	.free = rue_ses_qp_free,				\
	.modify_ok = rue_ses_modify_ok

const struct rue_transport_ops rue_uet_transport = {
	.name = "uet",
	RUE_SES_QP_OPS,
	.match = rue_ses_match_pdc,
	.drop_peers = rue_pds_qp_drop,
	.op_valid = rue_ses_op_valid,
	.check_wqe = rue_sq_wqe_av,
	.tx = rue_ses_tx,
};

/* UUD: one-packet SENDs, no PDC (ses_ini.c). */
const struct rue_transport_ops rue_uet_uud_transport = {
	.name = "uet-uud",
	RUE_SES_QP_OPS,
	.op_valid = rue_ses_uud_op_valid,
	.check_wqe = rue_ses_uud_check_wqe,
	.tx = rue_ses_uud_tx,
};
