/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ruedv: the direct-verbs API of rue devices (librue), for what the
 * standard verbs cannot express yet: Ultra Ethernet Transport QPs (UE
 * 1.0.1), their jobs, 64-bit memory keys and 64-bit immediate data.
 * See ruedv(7).
 *
 * Every attribute struct starts with a comp_mask, has explicit padding,
 * and is passed with the caller's sizeof (inlen), so that the library and
 * its callers can grow apart.  Calls on objects of other devices fail
 * with EOPNOTSUPP.
 */
#ifndef RUEDV_H
#define RUEDV_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ruedv_device_attr.caps; the values of the kernel's RUE_UET_CAP_*. */
enum {
	RUEDV_DEVICE_CAP_UET_RUD = 1 << 0,
	RUEDV_DEVICE_CAP_UET_ROD = 1 << 1,
	RUEDV_DEVICE_CAP_UET_SEND = 1 << 2,
	RUEDV_DEVICE_CAP_UET_WRITE = 1 << 3,
	RUEDV_DEVICE_CAP_UET_READ = 1 << 4,
	RUEDV_DEVICE_CAP_UET_IMM64 = 1 << 5,
	RUEDV_DEVICE_CAP_UET_KEY64 = 1 << 6,
	RUEDV_DEVICE_CAP_UET_JOB_MR = 1 << 7,
	RUEDV_DEVICE_CAP_UET_UUD = 1 << 8,
};

struct ruedv_device_attr {
	uint64_t comp_mask;
	uint32_t caps;		/* RUEDV_DEVICE_CAP_*; 0: no UET */
	uint32_t max_msg_size;	/* largest UET message, bytes */
	uint32_t max_entropy;	/* largest ruedv_qp_init_attr.entropy */
	uint8_t reserved[4];
};

int ruedv_query_device(struct ibv_context *ctx, struct ruedv_device_attr *attr,
		       uint32_t inlen);

/* UET delivery modes (UE 1.0.1 section 3.5, PDS). */
enum ruedv_uet_mode {
	RUEDV_UET_RUD = 0,	/* reliable, unordered */
	RUEDV_UET_ROD = 1,	/* reliable, ordered */
	RUEDV_UET_UUD = 2,	/* unreliable: one-packet SENDs, no PDC */
};

struct ruedv_qp_init_attr {
	uint64_t comp_mask;	/* no bits defined: 0 */
	uint32_t job_id;	/* 24 bits */
	uint8_t mode;		/* enum ruedv_uet_mode */
	uint8_t entropy;	/* RUD: paths to spray over; 0: one */
	uint16_t resource_index; /* 12 bits */
	uint8_t reserved[8];
};

/*
 * A UET QP: attr_ex->qp_type must be IBV_QPT_DRIVER.  It moves
 * RESET -> INIT -> RTR -> RTS with ibv_modify_qp (IBV_QP_STATE, plus
 * IBV_QP_PORT for INIT) and addresses its peer in every work request.
 */
struct ibv_qp *ruedv_create_qp(struct ibv_context *ctx,
			       struct ibv_qp_init_attr_ex *attr_ex,
			       struct ruedv_qp_init_attr *attr, uint32_t inlen);

/* A UET endpoint address: resource index in bits 23:12, PIDonFEP 11:0. */
#define RUEDV_UET_ADDR(pid, ri) \
	((((uint32_t)(ri) & 0xfffU) << 12) | ((uint32_t)(pid) & 0xfffU))
#define RUEDV_UET_ADDR_PID(a) ((uint32_t)(a) & 0xfffU)
#define RUEDV_UET_ADDR_RI(a) (((uint32_t)(a) >> 12) & 0xfffU)

struct ruedv_qp_attr {
	uint64_t comp_mask;
	uint32_t addr;		/* RUEDV_UET_ADDR() of this QP */
	uint32_t job_id;
	uint8_t mode;		/* enum ruedv_uet_mode */
	uint8_t reserved[7];
};

int ruedv_query_qp(struct ibv_qp *qp, struct ruedv_qp_attr *attr,
		   uint32_t inlen);

enum {
	RUEDV_MR_INIT_ATTR_MASK_JOB = 1 << 0,	/* job_id is valid */
};

struct ruedv_mr_init_attr {
	uint64_t comp_mask;	/* RUEDV_MR_INIT_ATTR_MASK_* */
	uint32_t job_id;	/* only this job's UET QPs may use the MR */
	uint32_t reserved;
};

struct ibv_mr *ruedv_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			    int access, struct ruedv_mr_init_attr *attr,
			    uint32_t inlen);

enum {
	RUEDV_MR_F_JOB = 1 << 0,	/* restricted to job_id */
};

struct ruedv_mr_attr {
	uint64_t comp_mask;
	uint64_t key64;		/* the 64-bit UET memory key */
	uint32_t job_id;
	uint32_t flags;		/* RUEDV_MR_F_* */
};

int ruedv_query_mr(struct ibv_mr *mr, struct ruedv_mr_attr *attr,
		   uint32_t inlen);

/*
 * Between ibv_wr_<op>() and ibv_wr_complete() on a UET QP, each about the
 * work request just started.  Errors show at ibv_wr_complete().
 */
void ruedv_wr_set_peer(struct ibv_qp_ex *qpx, struct ibv_ah *ah,
		       uint32_t remote_addr);
void ruedv_wr_set_key64(struct ibv_qp_ex *qpx, uint64_t key64);
void ruedv_wr_set_imm64(struct ibv_qp_ex *qpx, uint64_t imm);

/* During a poll (ibv_start_poll()/ibv_next_poll()) of a rue CQ. */
uint32_t ruedv_wc_read_initiator(struct ibv_cq_ex *cq);
uint32_t ruedv_wc_read_job_id(struct ibv_cq_ex *cq);
uint64_t ruedv_wc_read_imm64(struct ibv_cq_ex *cq);

#ifdef __cplusplus
}
#endif

#endif /* RUEDV_H */
