/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unreliable datagram and GSI (QP1) queue pairs.
 */
#ifndef _RUE_UD_H
#define _RUE_UD_H

#include <linux/skbuff.h>

struct rue_pkt;
struct rue_qp;

int rue_ud_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
	      bool *error);
void rue_ud_rcv(struct rue_qp *qp, struct rue_pkt *pkt);

#endif /* _RUE_UD_H */
