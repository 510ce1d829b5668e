/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * librue internal types.
 */
#ifndef RUE_PROVIDER_H
#define RUE_PROVIDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <rdma/rue-abi.h>

#include "ibverbs_driver.h"

#define RUE_LOG(ctx, level, fmt, ...)                                        \
	__verbs_log(ctx, level, "%s: %s: " fmt,                              \
		    (ctx)->context.device->name, __func__, ##__VA_ARGS__)
#define rue_err(ctx, fmt, ...) RUE_LOG(ctx, VERBS_LOG_ERR, fmt, ##__VA_ARGS__)
#define rue_dbg(ctx, fmt, ...) RUE_LOG(ctx, VERBS_LOG_DEBUG, fmt, ##__VA_ARGS__)

struct rue_device {
	struct verbs_device vdev;
};

struct rue_context {
	struct verbs_context vctx;
	uint32_t caps;		/* enum rue_ctx_caps */
	uint32_t max_inline;
	uint32_t max_sge;
};

/*
 * A ring mapped from the kernel (layout in rue-abi.h).  idx is this side's
 * free-running index: the producer's next slot, or the consumer's.
 */
struct rue_uring {
	void *map;
	size_t map_len;
	struct rue_ring_hdr *hdr;
	uint8_t *slots;
	uint32_t nslots;
	uint32_t mask;
	uint32_t stride;
	uint32_t idx;
};

struct rue_cq {
	struct verbs_cq vcq;
	pthread_spinlock_t lock;
	struct rue_uring ring;
};

struct rue_qp {
	struct verbs_qp vqp;
	pthread_spinlock_t sq_lock;
	pthread_spinlock_t rq_lock;
	struct rue_uring sq;
	struct rue_uring rq;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline;
	/* doorbells: post_send/post_recv commands with no work request */
	struct ibv_post_send sq_db;
	struct ib_uverbs_post_send_resp sq_db_resp;
	struct ibv_post_recv rq_db;
	struct ib_uverbs_post_recv_resp rq_db_resp;
};

struct rue_ah {
	struct ibv_ah ibah;
	uint32_t ah_num;
};

static inline struct rue_context *to_rctx(struct ibv_context *ctx)
{
	return container_of(ctx, struct rue_context, vctx.context);
}

static inline struct rue_cq *to_rcq(struct ibv_cq *cq)
{
	return container_of(cq, struct rue_cq, vcq.cq);
}

static inline struct rue_qp *to_rqp(struct ibv_qp *qp)
{
	return container_of(qp, struct rue_qp, vqp.qp);
}

static inline struct rue_ah *to_rah(struct ibv_ah *ah)
{
	return container_of(ah, struct rue_ah, ibah);
}

/* ring.c */
int rue_uring_map(struct rue_uring *r, int fd, uint64_t offset, size_t len,
		  uint32_t nslots, uint32_t stride);
void rue_uring_unmap(struct rue_uring *r);

static inline void *rue_uring_slot(const struct rue_uring *r, uint32_t i)
{
	return r->slots + (size_t)(i & r->mask) * r->stride;
}

/* verbs.c */
int rue_query_device_ex(struct ibv_context *ctx,
			const struct ibv_query_device_ex_input *input,
			struct ibv_device_attr_ex *attr, size_t attr_size);
int rue_query_port(struct ibv_context *ctx, uint8_t port,
		   struct ibv_port_attr *attr);
struct ibv_pd *rue_alloc_pd(struct ibv_context *ctx);
int rue_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *rue_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access);
int rue_dereg_mr(struct verbs_mr *vmr);
struct ibv_ah *rue_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int rue_destroy_ah(struct ibv_ah *ah);

/* cq.c */
struct ibv_cq *rue_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int vector);
int rue_destroy_cq(struct ibv_cq *cq);
int rue_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
int rue_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int rue_resize_cq(struct ibv_cq *cq, int cqe);

/* qp.c */
struct ibv_qp *rue_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
struct ibv_qp *rue_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr);
int rue_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int rue_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init);
int rue_destroy_qp(struct ibv_qp *qp);
int rue_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad);
int rue_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad);

#endif /* RUE_PROVIDER_H */
