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

int rue_uet_dev_init(struct rue_dev *rdev);
void rue_uet_dev_free(struct rue_dev *rdev);

#endif /* _RUE_SES_H */
