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

/* The ruedv_* API (ruedv.h): the only symbols librue exports. */
#define RUEDV_EXPORT __attribute__((visibility("default")))

/* Bytes from the start of @type to the end of @field. */
#define RUE_FIELD_END(type, field) \
	(offsetof(type, field) + sizeof(((type *)0)->field))

struct rue_device {
	struct verbs_device vdev;
};

struct rue_context {
	struct verbs_context vctx;
	uint32_t caps;		/* enum rue_ctx_caps */
	uint32_t max_inline;
	uint32_t max_sge;
	/* UET (RUE_ALLOC_UCONTEXT_RESP_UET), all 0 from older kernels */
	uint32_t uet_caps;	/* enum rue_uet_caps */
	uint32_t uet_max_msg;
	uint32_t uet_max_entropy;
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
	/*
	 * ibv_cq_ex polling: the CQE start_poll/next_poll returned, read in
	 * place (the kernel does not reuse a slot before cons passes it);
	 * lock held from a successful start_poll to end_poll.
	 */
	const struct rue_cqe *cur;
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
	/* UET QPs (ruedv_create_qp): from the create command and response */
	bool uet;
	uint8_t uet_mode;	/* enum rue_uet_mode */
	uint32_t uet_addr;	/* RUE_UET_ADDR() */
	uint32_t uet_job_id;
	/*
	 * The ibv_qp_ex batch being built, under sq_lock from wr_start to
	 * wr_complete or wr_abort.  Its WQEs are written in the slots past
	 * sq.idx, which the kernel does not read until prod moves; the
	 * first error stops the batch and is wr_complete's answer.
	 */
	struct rue_sqe *wr_cur;	/* the WQE the last ibv_wr_<op>() started */
	enum ibv_wr_opcode wr_cur_op;
	bool wr_cur_addr;	/* UD, UET: its destination is set */
	uint32_t wr_n;		/* WQEs in the batch */
	uint32_t wr_cons;	/* the kernel's cons, last read */
	int wr_err;
	/* doorbells: post_send/post_recv commands with no work request */
	struct ibv_post_send sq_db;
	struct ib_uverbs_post_send_resp sq_db_resp;
	struct ibv_post_recv rq_db;
	struct ib_uverbs_post_recv_resp rq_db_resp;
};

struct rue_srq {
	struct verbs_srq vsrq;
	pthread_spinlock_t lock;	/* the producer */
	struct rue_uring ring;
	uint32_t max_sge;
};

struct rue_mr {
	struct verbs_mr vmr;
	uint64_t key64;		/* valid with RUE_REG_MR_RESP_KEY64 */
	uint32_t job_id;
	uint32_t flags;		/* RUEDV_MR_F_JOB */
	bool has_key64;
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

static inline struct rue_qp *qpx_to_rqp(struct ibv_qp_ex *qpx)
{
	return container_of(qpx, struct rue_qp, vqp.qp_ex);
}

static inline struct rue_cq *cqx_to_rcq(struct ibv_cq_ex *cqx)
{
	return container_of(cqx, struct rue_cq, vcq.cq_ex);
}

static inline struct rue_srq *to_rsrq(struct ibv_srq *srq)
{
	return container_of(srq, struct rue_srq, vsrq.srq);
}

static inline struct rue_mr *to_rmr(struct ibv_mr *mr)
{
	return container_of(mr, struct rue_mr, vmr.ibv_mr);
}

static inline struct rue_ah *to_rah(struct ibv_ah *ah)
{
	return container_of(ah, struct rue_ah, ibah);
}

/* rue.c */
bool rue_is_rue_ctx(const struct ibv_context *ctx);

/* dv.c */
int rue_check_dv_in(const void *attr, uint32_t inlen, size_t oldest,
		    size_t ours);

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
int rue_query_rt_values(struct ibv_context *ctx, struct ibv_values_ex *values);
struct ibv_pd *rue_alloc_pd(struct ibv_context *ctx);
int rue_dealloc_pd(struct ibv_pd *pd);
struct ibv_ah *rue_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int rue_destroy_ah(struct ibv_ah *ah);

/* mr.c */
struct ibv_mr *rue_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			  uint64_t hca_va, int access);
int rue_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		 void *addr, size_t length, int access);
int rue_dereg_mr(struct verbs_mr *vmr);

/* cq.c */
struct ibv_cq *rue_create_cq(struct ibv_context *ctx, int cqe,
			     struct ibv_comp_channel *channel, int vector);
int rue_destroy_cq(struct ibv_cq *cq);
int rue_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
int rue_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int rue_resize_cq(struct ibv_cq *cq, int cqe);
int rue_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr);
struct ibv_cq_ex *rue_create_cq_ex(struct ibv_context *ctx,
				   struct ibv_cq_init_attr_ex *attr);

/* srq.c */
struct ibv_srq *rue_create_srq(struct ibv_pd *pd,
			       struct ibv_srq_init_attr *attr);
int rue_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask);
int rue_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int rue_destroy_srq(struct ibv_srq *srq);
int rue_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr,
		      struct ibv_recv_wr **bad);

/* qp.c */
struct ibv_qp *rue_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
struct ibv_qp *rue_create_qp_ex(struct ibv_context *ctx,
				struct ibv_qp_init_attr_ex *attr);
struct ibv_qp *rue_create_qp_drv(struct ibv_context *ctx,
				 struct ibv_qp_init_attr_ex *attr,
				 const struct rue_create_qp_cmd *drv);
int rue_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int rue_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init);
int rue_destroy_qp(struct ibv_qp *qp);
int rue_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad);
int rue_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad);
int rue_rq_write(struct rue_uring *r, uint32_t max_sge,
		 struct ibv_recv_wr *wr, struct ibv_recv_wr **bad,
		 uint32_t *posted);
/* qp.c: building send queue slots, for post_send and qp_ex.c */
int rue_qp_check_op(struct rue_qp *qp, enum ibv_wr_opcode op);
int rue_qp_can_post(const struct rue_uring *r, bool send);
struct rue_sqe *rue_sq_next_slot(struct rue_qp *qp, uint32_t ahead,
				 uint32_t *cons);
void rue_sqe_init(struct rue_sqe *sqe, uint64_t wr_id,
		  enum ibv_wr_opcode op, unsigned int send_flags);
int rue_sqe_add_inline(struct rue_qp *qp, struct rue_sqe *sqe,
		       const void *addr, size_t len);
int rue_sqe_set_sges(struct rue_qp *qp, struct rue_sqe *sqe,
		     const struct ibv_sge *sg, size_t n);
void rue_sqe_set_dest(struct rue_qp *qp, struct rue_sqe *sqe,
		      struct ibv_ah *ah, uint32_t remote_qpn, uint32_t qkey);
int rue_sq_publish(struct rue_qp *qp, uint32_t n);

/* mw.c */
struct ibv_mw *rue_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int rue_dealloc_mw(struct ibv_mw *mw);
int rue_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		struct ibv_mw_bind *bind);
int rue_sqe_set_bind(struct rue_sqe *sqe, struct ibv_mw *mw, uint32_t rkey,
		     const struct ibv_mw_bind_info *info);

/* qp_ex.c */
void rue_qp_init_ex(struct rue_qp *qp);

#endif /* RUE_PROVIDER_H */
