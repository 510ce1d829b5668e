/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC requester, sending side.
 */
#ifndef _RUE_RC_REQ_H
#define _RUE_RC_REQ_H

#include <linux/skbuff.h>
#include <rdma/rue-abi.h>

struct rue_qp;

/*
 * WQE opcodes (RUE_WR_*) whose answers come back as responses: they count
 * against max_rd_atomic, and an ACK past one unanswered is an implied NAK.
 * ATOMIC WRITE is answered like a READ (IBTA annex A19.4.2).
 */
static inline bool rue_is_read_or_atomic(u8 op)
{
	return op == RUE_WR_RDMA_READ || op == RUE_WR_ATOMIC_CMP_AND_SWP ||
	       op == RUE_WR_ATOMIC_FETCH_AND_ADD || op == RUE_WR_ATOMIC_WRITE;
}

/* ... and those whose packets carry the message's data. */
static inline bool rue_is_data(u8 op)
{
	switch (op) {
	case RUE_WR_RDMA_WRITE:
	case RUE_WR_RDMA_WRITE_WITH_IMM:
	case RUE_WR_SEND:
	case RUE_WR_SEND_WITH_IMM:
	case RUE_WR_SEND_WITH_INV:
		return true;
	default:
		return false;
	}
}

int rue_req_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
	       bool *error);
void rue_req_start(struct rue_qp *qp);

#endif /* _RUE_RC_REQ_H */
