// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues: a receive ring mapped from the kernel, in the
 * layout of a QP's RQ, that any number of the context's RC, UC and UD
 * QPs consume.  Posting writes the ring and moves prod, with no system
 * call; the kernel reads a WQE when a message needs one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rue.h"

struct rue_create_srq_cmd_full {
	struct ibv_create_srq ibv_cmd;
	struct rue_create_srq_cmd drv;
};

struct rue_create_srq_resp_full {
	struct ib_uverbs_create_srq_resp ibv_resp;
	struct rue_create_srq_resp drv;
};

struct ibv_srq *rue_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr)
{
	struct rue_create_srq_cmd_full cmd = {};
	struct rue_create_srq_resp_full resp = {};
	struct rue_srq *srq;
	int ret;

	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return NULL;
	ret = ibv_cmd_create_srq(pd, &srq->vsrq.srq, attr, &cmd.ibv_cmd,
				 sizeof(cmd), &resp.ibv_resp, sizeof(resp));
	if (ret) {
		free(srq);
		errno = ret;
		return NULL;
	}
	errno = 0;
	if (resp.drv.rqe_size < sizeof(struct rue_rqe) ||
	    rue_uring_map(&srq->ring, pd->context->cmd_fd, resp.drv.rq_offset,
			  resp.drv.rq_size, resp.drv.rq_slots,
			  resp.drv.rqe_size)) {
		ret = errno ?: EPROTO;
		rue_err(verbs_get_ctx(pd->context),
			"cannot map the SRQ ring: %s\n", strerror(ret));
		ibv_cmd_destroy_srq(&srq->vsrq.srq);
		free(srq);
		errno = ret;
		return NULL;
	}
	srq->max_sge = attr->attr.max_sge;
	pthread_spin_init(&srq->lock, PTHREAD_PROCESS_PRIVATE);
	return &srq->vsrq.srq;
}

int rue_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask)
{
	struct ibv_modify_srq cmd = {};

	return ibv_cmd_modify_srq(srq, attr, mask, &cmd, sizeof(cmd));
}

int rue_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct ibv_query_srq cmd = {};

	return ibv_cmd_query_srq(srq, attr, &cmd, sizeof(cmd));
}

int rue_destroy_srq(struct ibv_srq *ibsrq)
{
	struct rue_srq *srq = to_rsrq(ibsrq);
	int ret;

	ret = ibv_cmd_destroy_srq(ibsrq);
	if (ret)
		return ret;
	rue_uring_unmap(&srq->ring);
	pthread_spin_destroy(&srq->lock);
	free(srq);
	return 0;
}

int rue_post_srq_recv(struct ibv_srq *ibsrq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad)
{
	struct rue_srq *srq = to_rsrq(ibsrq);
	uint32_t posted;
	int ret;

	pthread_spin_lock(&srq->lock);
	ret = rue_rq_write(&srq->ring, srq->max_sge, wr, bad, &posted);
	pthread_spin_unlock(&srq->lock);
	return ret;
}
