/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RC requester, what comes back (rc_comp.c) and what times out
 * (rc_timer.c).
 */
#ifndef _RUE_RC_COMP_H
#define _RUE_RC_COMP_H

#include <linux/ktime.h>
#include <linux/types.h>

struct rue_pkt;
struct rue_qp;
struct rue_req;
struct rue_swqe;

bool rue_req_rcv(struct rue_qp *qp, struct rue_pkt *pkt, bool *error);
void rue_req_init(struct rue_qp *qp);
void rue_req_stop(struct rue_qp *qp);
void rue_req_resend(struct rue_qp *qp);
void rue_req_arm_rto(struct rue_qp *qp, bool restart);
void rue_req_arm_tlp(struct rue_qp *qp);
void rue_req_rtt_sample(struct rue_req *req, ktime_t now);

/* for the timers (rc_timer.c); req.lock held */
void rue_req_rewind(struct rue_qp *qp);
void rue_req_lost(struct rue_qp *qp, bool timeout);
void rue_req_fail_oldest(struct rue_qp *qp, u8 status);
struct rue_swqe *rue_req_oldest_at(struct rue_qp *qp, u32 *index);

#endif /* _RUE_RC_COMP_H */
