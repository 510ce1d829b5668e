/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC responder.
 */
#ifndef _RUE_RC_RESP_H
#define _RUE_RC_RESP_H

#include <linux/skbuff.h>
#include "core/caps.h"
#include "core/qp.h"

struct rue_pkt;

bool rue_resp_ready(struct rue_qp *qp, bool *event);
bool rue_resp_rcv(struct rue_qp *qp, struct rue_pkt *pkt,
		  struct sk_buff_head *out, bool *error, bool *event);
int rue_resp_tx(struct rue_qp *qp, int budget, struct sk_buff_head *out,
		bool *error);
void rue_resp_start(struct rue_qp *qp);
void rue_resp_clear(struct rue_qp *qp, bool flush);

/* What executing a request came to (rc_resp.c, rc_resp_dup.c). */
enum rue_resp_result {
	RUE_RESP_OK,
	RUE_RESP_RNR,		/* no receive WQE: RNR NAK, try again later */
	RUE_RESP_ERR,		/* NAK sent, the QP goes to the error state */
};

/* for the answers (rc_resp_tx.c) and duplicates (rc_resp_dup.c) */
enum rue_resp_result rue_resp_fail(struct rue_qp *qp, u8 syn,
				   struct rue_pkt *pkt, struct sk_buff_head *out);
void rue_resp_ack(struct rue_qp *qp, u8 syn, u32 psn, struct sk_buff_head *out);
struct rue_res *rue_res_new(struct rue_qp *qp);
struct rue_res *rue_res_find(struct rue_resp *resp, u8 type, u32 psn);
struct rue_mr *rue_resp_mr(struct rue_qp *qp, u32 rkey, u64 va, u64 len,
			   int access);
struct sk_buff *rue_resp_skb(struct rue_qp *qp, u8 opcode, u32 linear, u32 psn,
			     u8 syn, unsigned int pad, u8 **hdr);
void rue_resp_ack_now(struct rue_qp *qp, u8 syn, u32 psn,
		      struct sk_buff_head *out);
void rue_resp_nak(struct rue_qp *qp, u8 syn, u32 psn, struct sk_buff_head *out);
void rue_res_release(struct rue_res *res);
void rue_resp_drop_output(struct rue_resp *resp);

/*
 * READs and atomics the history keeps for duplicates.  A requester asks
 * again only for those at or after its oldest unanswered PSN, of which
 * the responder executed at most max_dest_rd_atomic (<= RUE_MAX_RD_ATOMIC)
 * since; twice that leaves room for a requester that counts otherwise.
 */
#define RUE_RES_HIST	(2 * RUE_MAX_RD_ATOMIC)

/* Responder resource @i of the ring (a free-running index). */
static inline struct rue_res *rue_res_at(struct rue_resp *resp, u32 i)
{
	return &resp->res[i % resp->res_size];
}

#endif /* _RUE_RC_RESP_H */
