/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * rue kernel <-> provider ABI.
 *
 * This file is the single source of the ABI: the kernel module and librue
 * both compile against it.  Every command and response struct starts with a
 * 64-bit comp_mask, uses fixed-width types and explicit padding, so that
 * either side can grow without breaking the other: a side that does not
 * know a comp_mask bit rejects it (EOPNOTSUPP), and fields past the end of
 * a short struct read as zero.
 *
 * Queues.  Send, receive and completion queues are rings in kernel memory
 * that librue maps with mmap() on the uverbs file at the offset a create
 * response returns.  A ring is a struct rue_ring_hdr followed, at
 * RUE_RING_DATA_OFFSET, by a power-of-two number of fixed-size slots.
 * Producer and consumer indices are free-running 32-bit counters: the slot
 * of index i is i & (slots - 1), the ring is empty when prod == cons and
 * full when prod - cons == slots.  Each side writes only its own index,
 * with release semantics, and reads the other's with acquire semantics.
 *
 * The kernel never trusts what it reads from a mapped ring: it copies a
 * slot before looking at it, validates every field of the copy, and
 * bounds-checks the user's index.
 */
#ifndef RUE_ABI_USER_H
#define RUE_ABI_USER_H

#include <linux/types.h>

/* uverbs_abi_ver of rue devices; librue matches exactly this value. */
#define RUE_UVERBS_ABI_VERSION 1

/* Version of the ring and slot layouts below. */
#define RUE_RING_ABI 1

/* sysfs: /sys/class/infiniband/<dev>/hca_type reads this. */
#define RUE_HCA_TYPE "rue"

/* Context capability bits (rue_alloc_ucontext_resp.caps). */
enum rue_ctx_caps {
	RUE_CTX_CAP_SQ_DOORBELL_SKIP = 1 << 0, /* RUE_SQ_F_KERNEL_ARMED valid */
	RUE_CTX_CAP_CQ_NOTIFY_RING = 1 << 1,   /* arm CQs through the ring */
	RUE_CTX_CAP_UET = 1 << 2,              /* IB_QPT_DRIVER UET QPs */
};

struct rue_alloc_ucontext_cmd {
	__aligned_u64 comp_mask;
};

/*
 * What UET QPs of this device can do (rue_alloc_ucontext_resp.uet_caps).
 * A bit is set only when the kernel implements it; librue reports them
 * through ruedv_query_device().
 */
enum rue_uet_caps {
	RUE_UET_CAP_RUD = 1 << 0,	/* reliable unordered delivery */
	RUE_UET_CAP_ROD = 1 << 1,	/* reliable ordered delivery */
	RUE_UET_CAP_SEND = 1 << 2,
	RUE_UET_CAP_WRITE = 1 << 3,
	RUE_UET_CAP_READ = 1 << 4,
	RUE_UET_CAP_IMM64 = 1 << 5,	/* 64-bit header data (immediate) */
	RUE_UET_CAP_KEY64 = 1 << 6,	/* 64-bit memory keys */
	RUE_UET_CAP_JOB_MR = 1 << 7,	/* MRs restricted to one job */
	RUE_UET_CAP_UUD = 1 << 8,	/* unreliable unordered delivery */
};

enum rue_alloc_ucontext_resp_mask {
	RUE_ALLOC_UCONTEXT_RESP_UET = 1 << 0,	/* uet_* fields valid */
};

struct rue_alloc_ucontext_resp {
	__aligned_u64 comp_mask;
	__u32 ring_abi;		/* RUE_RING_ABI */
	__u32 caps;		/* enum rue_ctx_caps */
	__u32 max_inline;	/* largest inline send, bytes */
	__u32 max_sge;		/* largest num_sge of a WQE */
	__u32 uet_caps;		/* enum rue_uet_caps */
	__u32 uet_max_msg;	/* largest UET message, bytes */
	__u32 uet_max_entropy;	/* largest uet_entropy at create_qp */
	__u32 reserved;
};

/* ------------------------------------------------------------------ */
/* Rings                                                               */

/*
 * The control block at the start of every ring.  prod, cons and flags live
 * on separate cache lines: each is written by one side only.
 */
struct rue_ring_hdr {
	__u32 prod;
	__u32 pad0[15];
	__u32 cons;
	__u32 pad1[15];
	__u32 flags;		/* per ring type, see below */
	__u32 state;		/* SQ/RQ: enum ib_uverbs_qp_state mirror */
	__u32 pad2[14];
};

#define RUE_RING_DATA_OFFSET 256

/*
 * Send queue flags, written by the kernel.  While RUE_SQ_F_KERNEL_ARMED is
 * set the kernel is guaranteed to look at prod again (an ACK, a timer, a
 * queued worker or a poller is pending), so a post needs no doorbell.  The provider
 * publishes prod, issues a full barrier, then reads flags; the kernel
 * clears the bit, issues a full barrier, then reads prod once more before
 * going idle.  One of the two always sees the other's write.
 */
#define RUE_SQ_F_KERNEL_ARMED (1U << 0)

/*
 * Completion queue flags, written by the provider to request a
 * notification (ibv_req_notify_cq) and cleared by the kernel when it
 * fires the completion event.
 */
#define RUE_CQ_F_NOTIFY_NEXT (1U << 0)	   /* any completion */
#define RUE_CQ_F_NOTIFY_SOLICITED (1U << 1) /* solicited or error only */
/* Set by the kernel when the ring overflowed; the CQ is then in error. */
#define RUE_CQ_F_OVERFLOW (1U << 8)

/* ------------------------------------------------------------------ */
/* Slots                                                               */

struct rue_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/* Work request opcodes in a send queue slot. */
enum rue_wr_opcode {
	RUE_WR_RDMA_WRITE = 0,
	RUE_WR_RDMA_WRITE_WITH_IMM = 1,
	RUE_WR_SEND = 2,
	RUE_WR_SEND_WITH_IMM = 3,
	RUE_WR_RDMA_READ = 4,
	RUE_WR_ATOMIC_CMP_AND_SWP = 5,
	RUE_WR_ATOMIC_FETCH_AND_ADD = 6,
	RUE_WR_LOCAL_INV = 7,
	RUE_WR_BIND_MW = 8,	/* slot fields: struct rue_sqe */
	RUE_WR_SEND_WITH_INV = 9,
	RUE_WR_ATOMIC_WRITE = 15,	/* RC; slot fields: struct rue_sqe */
	/* kernel consumers only: register an FRWR MR (remote_addr = mr) */
	RUE_WR_REG_MR = 0x20,
};

enum rue_sqe_flags {
	RUE_SQE_SIGNALED = 1 << 0,
	RUE_SQE_SOLICITED = 1 << 1,
	RUE_SQE_FENCE = 1 << 2,
	RUE_SQE_INLINE = 1 << 3,	/* data follows the header, not SGEs */
};

/*
 * A send queue slot: this 64-byte header, then num_sge struct rue_sge or
 * (RUE_SQE_INLINE) length bytes of data.  The slot size is returned by
 * create_qp and is a power of two.
 */
struct rue_sqe {
	__aligned_u64 wr_id;
	__u8 opcode;		/* enum rue_wr_opcode */
	__u8 flags;		/* enum rue_sqe_flags */
	__u8 num_sge;
	__u8 reserved0;
	__u32 length;		/* inline: bytes of data */
	/*
	 * Immediate data exactly as the verbs caller passed it (RoCE: the
	 * __be32 in the low 32 bits of the in-memory word), or the rkey
	 * to invalidate (SEND_WITH_INV, LOCAL_INV).
	 */
	__aligned_u64 imm;
	__aligned_u64 remote_addr;
	__aligned_u64 rkey;	/* UD: remote Q_Key; UET: 64-bit key */
	__aligned_u64 compare_add;
	__aligned_u64 swap;
	__u32 ah;		/* UD, UET: address handle number */
	__u32 remote_qpn;	/* UD; UET: RUE_UET_ADDR() of the peer */
};
/*
 * BIND_MW: imm = the window's rkey now, rkey = its rkey once bound (the
 * same index, key >> 8), remote_addr and compare_add = the address and
 * length of the window (length 0 unbinds a type 1 window), swap = its
 * IB_ACCESS_REMOTE_* rights, ah = the lkey of the MR it opens onto.
 */
/*
 * ATOMIC_WRITE (IBTA annex A19.4.2): remote_addr (8-byte aligned) and
 * rkey, num_sge = 0, and compare_add = the 8 bytes to store, copied from
 * the consumer's memory as they are (not converted as a number).
 */
/*
 * UET send WQEs: SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM and
 * RDMA_READ; imm is the 64-bit SES header data (all 64 bits are sent).
 */

/* A receive queue slot: this header, then num_sge struct rue_sge. */
struct rue_rqe {
	__aligned_u64 wr_id;
	__u32 num_sge;
	__u32 reserved;
};

/* Completion opcodes (match ibv_wc_opcode). */
enum rue_wc_opcode {
	RUE_WC_SEND = 0,
	RUE_WC_RDMA_WRITE = 1,
	RUE_WC_RDMA_READ = 2,
	RUE_WC_COMP_SWAP = 3,
	RUE_WC_FETCH_ADD = 4,
	RUE_WC_BIND_MW = 5,
	RUE_WC_LOCAL_INV = 6,
	RUE_WC_ATOMIC_WRITE = 9,
	RUE_WC_REG_MR = 0x20,	/* kernel consumers only */
	RUE_WC_RECV = 128,
	RUE_WC_RECV_RDMA_WITH_IMM = 129,
};

enum rue_cqe_flags {
	RUE_CQE_F_GRH = 1 << 0,	   /* UD: a GRH precedes the payload */
	RUE_CQE_F_IMM = 1 << 1,	   /* imm holds immediate data */
	RUE_CQE_F_INV = 1 << 2,	   /* imm holds an invalidated rkey */
	RUE_CQE_F_IPV4 = 1 << 3,   /* UD: the GRH is an IPv4 header */
};

/*
 * The sl of a UD receive over RoCEv2 carries the packet type, coded as
 * RoCE NICs report it: IBTA A17.4.5.1 asks the CQE to tell IPv4 from IPv6
 * frames, and user space has no other field for it (UCX's UD transport
 * reads it to find the destination address in the GRH area).
 */
enum rue_cqe_sl {
	RUE_CQE_SL_IPV6 = 0x1,	   /* bits 2:0, the L3 header */
	RUE_CQE_SL_IPV4 = 0x2,
	RUE_CQE_SL_UDP = 0x8,	   /* the frame had a UDP header: RoCEv2 */
};

/* A completion queue slot. */
struct rue_cqe {
	__aligned_u64 wr_id;
	__u8 status;		/* enum ib_wc_status numbering */
	__u8 opcode;		/* enum rue_wc_opcode */
	__u8 flags;		/* enum rue_cqe_flags */
	__u8 sl;
	__u32 byte_len;
	__u32 qp_num;
	__u32 src_qp;
	__aligned_u64 imm;	/* see rue_sqe.imm */
	__u32 vendor_err;
	__u16 pkey_index;
	__u8 reserved0[2];
	__u32 initiator;	/* UET: the SES initiator field */
	__u32 job_id;		/* UET: the job the message came in */
	/*
	 * User CQs created with IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION
	 * (libibverbs sets it for IBV_WC_EX_WITH_COMPLETION_TIMESTAMP):
	 * when the kernel wrote the CQE, in nanoseconds of CLOCK_MONOTONIC,
	 * the device clock (hca_core_clock 1 GHz); 0 in other CQs.
	 */
	__aligned_u64 timestamp;
	__u8 reserved1[8];
};

/* ------------------------------------------------------------------ */
/* Object creation                                                     */

struct rue_create_cq_cmd {
	__aligned_u64 comp_mask;
};

struct rue_create_cq_resp {
	__aligned_u64 comp_mask;
	__aligned_u64 ring_offset;	/* mmap offset of the ring */
	__u32 ring_size;		/* bytes to map */
	__u32 num_slots;		/* power of two */
	__u32 cqe_size;			/* sizeof(struct rue_cqe) */
	__u32 reserved;
};

struct rue_resize_cq_cmd {
	__aligned_u64 comp_mask;
};

/* Resizing replaces the ring; the old mapping stays valid until unmapped. */
struct rue_resize_cq_resp {
	__aligned_u64 comp_mask;
	__aligned_u64 ring_offset;
	__u32 ring_size;
	__u32 num_slots;
};

/* driver_qp_type for IB_QPT_DRIVER QPs. */
enum rue_driver_qp_type {
	RUE_DRIVER_QPT_UET = 1,
};

/* UET delivery modes (UE 1.0.1 section 3.5: PDS). */
enum rue_uet_mode {
	RUE_UET_MODE_RUD = 0,	/* reliable, unordered: sprayed */
	RUE_UET_MODE_ROD = 1,	/* reliable, ordered: one path */
	RUE_UET_MODE_UUD = 2,	/* unreliable: one-packet SENDs, no PDC */
};

enum rue_create_qp_cmd_mask {
	RUE_CREATE_QP_CMD_DRIVER = 1 << 0,	/* driver_qp_type is valid */
	RUE_CREATE_QP_CMD_UET = 1 << 1,		/* uet_* fields are valid */
};

/*
 * A UET QP (driver_qp_type RUE_DRIVER_QPT_UET) is reliable and
 * unconnected: one QP talks to many peers, each send WQE naming its peer
 * (rue_sqe.ah, and in rue_sqe.remote_qpn the peer's endpoint address
 * RUE_UET_ADDR(pid_on_fep, resource_index)).  It belongs to one job,
 * which an administrator must have granted to its creator.
 */
struct rue_create_qp_cmd {
	__aligned_u64 comp_mask;
	__u32 driver_qp_type;	/* enum rue_driver_qp_type */
	__u32 reserved;
	__u32 uet_job_id;	/* 24 bits */
	__u8 uet_mode;		/* enum rue_uet_mode */
	__u8 uet_entropy;	/* RUD: UDP source ports to spray over; 0: 1 */
	__u16 uet_resource_index; /* 12 bits, carried in every request */
};

/*
 * A UET endpoint address as it travels in rue_sqe.remote_qpn and
 * rue_cqe.src_qp: resource index in bits 23:12, PIDonFEP in bits 11:0
 * (the layout of the libibverbs UET RFC's QPN).
 */
#define RUE_UET_ADDR(pid, ri)	((((ri) & 0xfffU) << 12) | ((pid) & 0xfffU))
#define RUE_UET_ADDR_PID(a)	((a) & 0xfffU)
#define RUE_UET_ADDR_RI(a)	(((a) >> 12) & 0xfffU)

struct rue_create_qp_resp {
	__aligned_u64 comp_mask;
	__aligned_u64 sq_offset;	/* mmap offsets, 0 when absent */
	__aligned_u64 rq_offset;
	__u32 sq_size;			/* bytes to map */
	__u32 rq_size;
	__u32 sq_slots;			/* power of two */
	__u32 rq_slots;
	__u32 sqe_size;			/* slot strides, powers of two */
	__u32 rqe_size;
	__u32 max_inline;
	__u32 reserved;
	/* RUE_CREATE_QP_RESP_UET */
	__u32 uet_addr;			/* RUE_UET_ADDR() of this QP */
	__u32 uet_job_id;
};

enum rue_create_qp_resp_mask {
	RUE_CREATE_QP_RESP_UET = 1 << 0,	/* uet_* fields are valid */
};

enum rue_reg_mr_cmd_mask {
	RUE_REG_MR_CMD_JOB = 1 << 0,	/* only job_id's UET QPs may use it */
};

struct rue_reg_mr_cmd {
	__aligned_u64 comp_mask;
	__u32 job_id;
	__u32 reserved;
};

enum rue_reg_mr_resp_mask {
	RUE_REG_MR_RESP_KEY64 = 1 << 0,	/* key64 is valid */
};

/*
 * key64 is the MR's 64-bit UET memory key: a random upper half that the
 * kernel never reveals otherwise, over the 32-bit rkey.  A UET request
 * naming this MR must carry all 64 bits.
 */
struct rue_reg_mr_resp {
	__aligned_u64 comp_mask;
	__aligned_u64 key64;
};

struct rue_create_srq_cmd {
	__aligned_u64 comp_mask;
};

struct rue_create_srq_resp {
	__aligned_u64 comp_mask;
	__aligned_u64 rq_offset;
	__u32 rq_size;
	__u32 rq_slots;
	__u32 rqe_size;
	__u32 srq_num;
};

/*
 * The core's create_ah response is 4 bytes long, so this one has 4-byte
 * alignment: no 64-bit members.
 */
struct rue_create_ah_resp {
	__u32 comp_mask;
	__u32 ah_num;		/* goes in rue_sqe.ah */
};

#endif /* RUE_ABI_USER_H */
