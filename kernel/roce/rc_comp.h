/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC requester, what comes back and what times out.
 */
#ifndef _RUE_RC_COMP_H
#define _RUE_RC_COMP_H

#include <linux/types.h>

struct rue_pkt;
struct rue_qp;

bool rue_req_rcv(struct rue_qp *qp, struct rue_pkt *pkt, bool *error);
void rue_req_init(struct rue_qp *qp);
void rue_req_stop(struct rue_qp *qp);
void rue_req_resend(struct rue_qp *qp);

#endif /* _RUE_RC_COMP_H */
