/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 wire format: the InfiniBand transport headers carried in UDP
 * (IBTA vol 1 release 1.4, chapter 9 and annex A17), and the per-opcode
 * table that says which headers follow the BTH.
 *
 * All multi-byte fields are big-endian on the wire.  Structs are packed
 * only where a 64-bit field sits at a 4-byte offset (RETH, AtomicETH).
 */
#ifndef _RUE_ROCE_H
#define _RUE_ROCE_H

#include <linux/build_bug.h>
#include <linux/types.h>
#include <rdma/ib_pack.h>

/* Base Transport Header, IBTA 9.2. */
struct rue_bth {
	u8 opcode;
	u8 flags;		/* SE:1 M:1 PadCnt:2 TVer:4 */
	__be16 pkey;
	__be32 qpn;		/* FECN:1 BECN:1 resv6:6 DestQP:24 */
	__be32 apsn;		/* AckReq:1 resv7:7 PSN:24 */
};

#define RUE_BTH_SE		0x80
#define RUE_BTH_MIG		0x40
#define RUE_BTH_PAD_SHIFT	4
#define RUE_BTH_PAD_MASK	0x30
#define RUE_BTH_TVER_MASK	0x0f
#define RUE_BTH_FECN		0x80000000U
#define RUE_BTH_BECN		0x40000000U
#define RUE_BTH_QPN_MASK	0x00ffffffU
#define RUE_BTH_ACKREQ		0x80000000U
#define RUE_BTH_PSN_MASK	0x00ffffffU

/* RDMA Extended Transport Header, IBTA 9.3.3. */
struct rue_reth {
	__be64 va;
	__be32 rkey;
	__be32 len;
} __packed;

/* ACK Extended Transport Header, IBTA 9.3.5. */
struct rue_aeth {
	__be32 smsn;		/* Syndrome:8 MSN:24 */
};

/* AETH syndromes, IBTA 9.7.5.1 table 43. */
#define RUE_AETH_TYPE_MASK	0xe0
#define RUE_AETH_ACK		0x00
#define RUE_AETH_RNR_NAK	0x20
#define RUE_AETH_NAK		0x60
#define RUE_AETH_CREDIT_INVALID	0x1f	/* ACK: no end-to-end credits */
#define RUE_AETH_NAK_PSN_SEQ	0x60
#define RUE_AETH_NAK_INVALID	0x61
#define RUE_AETH_NAK_REM_ACCESS	0x62
#define RUE_AETH_NAK_REM_OP	0x63
#define RUE_AETH_NAK_INV_RD_REQ	0x64
#define RUE_AETH_MSN_MASK	0x00ffffffU

/* Datagram Extended Transport Header, IBTA 9.3.2. */
struct rue_deth {
	__be32 qkey;
	__be32 sqp;		/* resv8:8 SrcQP:24 */
};

/* Immediate data (ImmDt) and Invalidate (IETH) headers, IBTA 9.3.4, 9.3.7. */
struct rue_immdt {
	__be32 imm;
};

struct rue_ieth {
	__be32 rkey;
};

/* Atomic Extended Transport Header, IBTA 9.3.3.2. */
struct rue_atmeth {
	__be64 va;
	__be32 rkey;
	__be64 swap_add;
	__be64 compare;
} __packed;

/* Atomic ACK Extended Transport Header, IBTA 9.3.6. */
struct rue_atmack {
	__be64 orig;
} __packed;

/*
 * RDMA ATOMIC WRITE, IBTA vol 1 annex A19 (Memory Placement Extensions):
 * RC only, BTH RETH and exactly 8 bytes of payload, answered like an RDMA
 * READ by a zero-length RDMA READ Response Only.  6.1's ib_pack.h lacks
 * it (IB_OPCODE_RC_ATOMIC_WRITE since 6.2).
 */
#define RUE_OPCODE_RC_ATOMIC_WRITE	0x1d

/* RoCEv2 CNP: BTH, 16 reserved bytes, ICRC (annex A17.9.3). */
#define RUE_CNP_PAD_BYTES	16
#define RUE_OPCODE_CNP		0x81

#define RUE_ICRC_BYTES		4

static_assert(sizeof(struct rue_bth) == 12);
static_assert(sizeof(struct rue_reth) == 16);
static_assert(sizeof(struct rue_aeth) == 4);
static_assert(sizeof(struct rue_deth) == 8);
static_assert(sizeof(struct rue_immdt) == 4);
static_assert(sizeof(struct rue_ieth) == 4);
static_assert(sizeof(struct rue_atmeth) == 28);
static_assert(sizeof(struct rue_atmack) == 8);

/* What an opcode carries and means; rue_opcodes[] below. */
enum rue_op_mask {
	RUE_OPM_RETH = 1 << 0,
	RUE_OPM_AETH = 1 << 1,
	RUE_OPM_DETH = 1 << 2,
	RUE_OPM_IMM = 1 << 3,
	RUE_OPM_IETH = 1 << 4,
	RUE_OPM_ATMETH = 1 << 5,
	RUE_OPM_ATMACK = 1 << 6,
	RUE_OPM_PAYLOAD = 1 << 7,

	RUE_OPM_REQ = 1 << 8,		/* requester to responder */
	RUE_OPM_RESP = 1 << 9,		/* responder to requester */
	RUE_OPM_SEND = 1 << 10,
	RUE_OPM_WRITE = 1 << 11,
	RUE_OPM_READ = 1 << 12,		/* read request or response */
	RUE_OPM_ATOMIC = 1 << 13,	/* atomic request or ack */
	RUE_OPM_ACK = 1 << 14,		/* ACKNOWLEDGE */

	RUE_OPM_FIRST = 1 << 15,
	RUE_OPM_MIDDLE = 1 << 16,
	RUE_OPM_LAST = 1 << 17,
	RUE_OPM_ONLY = RUE_OPM_FIRST | RUE_OPM_LAST,

	RUE_OPM_RC = 1 << 18,
	RUE_OPM_UD = 1 << 19,
	RUE_OPM_CNP = 1 << 20,
	RUE_OPM_COMP = 1 << 21,		/* consumes a receive WQE */
	RUE_OPM_UC = 1 << 22,
	RUE_OPM_ATOMIC_WRITE = 1 << 23,	/* RUE_OPCODE_RC_ATOMIC_WRITE */
};

struct rue_opcode_info {
	u32 mask;		/* enum rue_op_mask; 0 = not supported */
	u8 hdr_len;		/* BTH and every extension header */
	/* offsets from the BTH start, 0 when absent */
	u8 reth;
	u8 aeth;
	u8 deth;
	u8 imm;
	u8 ieth;
	u8 atmeth;
	u8 atmack;
};

extern const struct rue_opcode_info rue_opcodes[256];

static inline u32 rue_bth_psn(const struct rue_bth *bth)
{
	return be32_to_cpu(bth->apsn) & RUE_BTH_PSN_MASK;
}

static inline u32 rue_bth_qpn(const struct rue_bth *bth)
{
	return be32_to_cpu(bth->qpn) & RUE_BTH_QPN_MASK;
}

static inline unsigned int rue_bth_pad(const struct rue_bth *bth)
{
	return (bth->flags & RUE_BTH_PAD_MASK) >> RUE_BTH_PAD_SHIFT;
}

/* 24-bit PSN arithmetic, IBTA 9.7.1: a - b as a signed distance. */
static inline s32 rue_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static inline u32 rue_psn_add(u32 psn, u32 n)
{
	return (psn + n) & RUE_BTH_PSN_MASK;
}

#endif /* _RUE_ROCE_H */
