/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC responder, its answers.
 */
#ifndef _RUE_RC_RESP_TX_H
#define _RUE_RC_RESP_TX_H

#include <linux/skbuff.h>

struct rue_qp;

int rue_resp_out(struct rue_qp *qp, int budget, struct sk_buff_head *out,
		 bool *error);

#endif /* _RUE_RC_RESP_TX_H */
