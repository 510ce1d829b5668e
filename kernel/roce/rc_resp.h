/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC responder.
 */
#ifndef _RUE_RC_RESP_H
#define _RUE_RC_RESP_H

#include <linux/skbuff.h>

struct rue_pkt;
struct rue_qp;

bool rue_resp_rcv(struct rue_qp *qp, struct rue_pkt *pkt,
		  struct sk_buff_head *out, bool *error, bool *event);
int rue_resp_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
		bool *error);
void rue_resp_start(struct rue_qp *qp);
void rue_resp_clear(struct rue_qp *qp, bool flush);

#endif /* _RUE_RC_RESP_H */
