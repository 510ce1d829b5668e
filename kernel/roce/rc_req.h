/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC requester.
 */
#ifndef _RUE_RC_REQ_H
#define _RUE_RC_REQ_H

#include <linux/skbuff.h>

struct rue_pkt;
struct rue_qp;

int rue_req_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
	       bool *error);
bool rue_req_rcv(struct rue_qp *qp, struct rue_pkt *pkt, bool *error);
void rue_req_init(struct rue_qp *qp);
void rue_req_start(struct rue_qp *qp);
void rue_req_stop(struct rue_qp *qp);
void rue_req_resend(struct rue_qp *qp);

#endif /* _RUE_RC_REQ_H */
