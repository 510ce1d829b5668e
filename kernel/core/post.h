/* SPDX-License-Identifier: GPL-2.0 */
/*
 * post_send and post_recv: kernel consumers' work requests, and the
 * doorbells of user QPs.
 */
#ifndef _RUE_POST_H
#define _RUE_POST_H

#include <rdma/ib_verbs.h>

struct rue_ring;

int rue_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int rue_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
int rue_post_rqes(struct rue_ring *ring, u32 max_sge,
		  const struct ib_recv_wr *wr, const struct ib_recv_wr **bad_wr);

#endif /* _RUE_POST_H */
