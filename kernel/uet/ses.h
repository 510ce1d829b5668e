/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET Semantic Sublayer (UE 1.0.1 section 3.4) on rue QPs (ses.c): the
 * UET part of a QP, the UET transport, a device's UET.
 */
#ifndef _RUE_SES_H
#define _RUE_SES_H

#include <rdma/ib_verbs.h>
#include <rdma/rue-abi.h>

#include "pds.h"

struct rue_dev;

/* The UET part of a QP (qp->uet), fixed at creation but the PDCs. */
struct rue_uet_qp {
	u32 job;
	u16 pid;			/* PIDonFEP */
	u16 ri;				/* resource index */
	u32 addr;			/* RUE_UET_ADDR(pid, ri) */
	struct rue_pds_qp pds;		/* its PDCs (pds.h) */
};

extern const struct rue_transport_ops rue_uet_transport;
extern const struct rue_transport_ops rue_uet_uud_transport;

int rue_uet_dev_init(struct rue_dev *rdev);
void rue_uet_dev_free(struct rue_dev *rdev);

#endif /* _RUE_SES_H */
