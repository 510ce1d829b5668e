/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET Semantic Sublayer (UE 1.0.1 section 3.4) on rue QPs: UET QPs
 * (IB_QPT_DRIVER), their send path and the target's delivery.
 */
#ifndef _RUE_SES_H
#define _RUE_SES_H

#include <linux/hashtable.h>
#include <linux/skbuff.h>
#include <rdma/ib_verbs.h>
#include <rdma/rue-abi.h>

struct rue_dev;
struct rue_pdc;
struct rue_pds_tx;
struct rue_qp;
struct rue_ses_rsp;
struct rue_uet_rx;

/* The UET part of a QP (qp->uet), fixed at creation but the PDCs. */
struct rue_uet_qp {
	u32 job;
	u8 mode;			/* enum rue_uet_mode */
	u8 entropy;			/* RUD: source ports to spray over */
	u16 pid;			/* PIDonFEP */
	u16 ri;				/* resource index */
	u32 addr;			/* RUE_UET_ADDR(pid, ri) */
	u32 nr_pdcs;
	DECLARE_HASHTABLE(pdcs, 4);	/* initiator PDCs by peer; req.lock */
};

extern const struct rue_transport_ops rue_uet_transport;

struct sk_buff *rue_ses_build(struct rue_qp *qp, struct rue_pdc *pdc,
			      const struct rue_pds_tx *tx, u32 psn, bool ar,
			      bool retx);
void rue_ses_queue(struct sk_buff *skb, struct rue_pdc *pdc, u32 psn);
void rue_ses_send_one(struct sk_buff *skb);
void rue_ses_tx_done(struct rue_qp *qp, const struct rue_pds_tx *tx,
		     u8 status);

int rue_ses_rcv(struct rue_pdc *pdc, const struct rue_uet_rx *rx,
		struct rue_ses_rsp *rsp);
u8 rue_ses_read_respond(struct rue_pdc *pdc, const struct rue_uet_rx *rx,
			struct sk_buff *skb);
struct rue_ses_rsp_data;
u8 rue_ses_read_data(struct rue_qp *qp, const struct rue_pds_tx *tx,
		     const struct rue_ses_rsp_data *rsp,
		     const struct sk_buff *skb, u32 off);
void rue_ses_rmsg_drop_all(struct rue_pdc *pdc, struct rue_qp *qp);

#endif /* _RUE_SES_H */
