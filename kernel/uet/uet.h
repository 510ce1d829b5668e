/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ultra Ethernet Transport wire format (UE 1.0.1 section 3): the PDS
 * headers (3.5) and the SES headers (3.4) rue sends and accepts, over
 * UDP port 4793.
 *
 * All fields are big-endian.  Layouts follow the reference provider, the
 * xdp2 headers and Wireshark's dissector, which agree (see
 * Documentation/uet.md for the byte positions and for the choices made
 * where sources differ).  Bit fields are spelled as masks on whole
 * big-endian words, never as C bit fields.
 */
#ifndef _RUE_UET_H
#define _RUE_UET_H

#include <linux/build_bug.h>
#include <linux/types.h>

#define RUE_UET_UDP_PORT	4793

/* PDS prologue: type[15:11] | next_hdr or ctl_type[10:7] | flags[6:0] */
#define RUE_PDS_TYPE_SHIFT	11
#define RUE_PDS_NEXT_SHIFT	7
#define RUE_PDS_FLAGS_MASK	0x7f

static inline __be16 rue_pds_prologue(u8 type, u8 next, u8 flags)
{
	return cpu_to_be16((type & 0x1f) << RUE_PDS_TYPE_SHIFT |
			   (next & 0xf) << RUE_PDS_NEXT_SHIFT |
			   (flags & RUE_PDS_FLAGS_MASK));
}

/* @p with its next_hdr replaced by @next */
static inline __be16 rue_pds_prologue_next(__be16 p, u8 next)
{
	return cpu_to_be16((be16_to_cpu(p) & ~(0xf << RUE_PDS_NEXT_SHIFT)) |
			   (next & 0xf) << RUE_PDS_NEXT_SHIFT);
}

static inline u8 rue_pds_type(__be16 p)
{
	return be16_to_cpu(p) >> RUE_PDS_TYPE_SHIFT;
}

static inline u8 rue_pds_next(__be16 p)
{
	return (be16_to_cpu(p) >> RUE_PDS_NEXT_SHIFT) & 0xf;
}

static inline u8 rue_pds_flags(__be16 p)
{
	return be16_to_cpu(p) & RUE_PDS_FLAGS_MASK;
}

/* PDS packet types (UE 1.0.1 3.5.10) */
enum rue_pds_type {
	RUE_PDS_RUD_REQ = 2,
	RUE_PDS_ROD_REQ = 3,
	RUE_PDS_UUD_REQ = 6,
	RUE_PDS_ACK = 7,
	RUE_PDS_ACK_CC = 8,
	RUE_PDS_NACK = 10,
	RUE_PDS_CTRL = 11,
};

/* next_hdr of requests and ACKs: which SES header follows */
enum rue_pds_next_hdr {
	RUE_PDS_NEXT_NONE = 0,
	RUE_PDS_NEXT_REQ_SMALL = 1,
	RUE_PDS_NEXT_REQ_MEDIUM = 2,
	RUE_PDS_NEXT_REQ_STD = 3,
	RUE_PDS_NEXT_RSP = 4,
	RUE_PDS_NEXT_RSP_DATA = 5,
	RUE_PDS_NEXT_RSP_DATA_SMALL = 6,
};

/* Request flags */
#define RUE_PDS_REQ_RETX	0x10
#define RUE_PDS_REQ_AR		0x08	/* ACK request */
#define RUE_PDS_REQ_SYN		0x04
/* ACK flags */
#define RUE_PDS_ACK_M		0x20	/* ECN-marked packet seen */
#define RUE_PDS_ACK_RETX	0x10
#define RUE_PDS_ACK_P		0x08	/* answers a PROBE: probe_opaque */
#define RUE_PDS_ACK_REQ_MASK	0x06	/* what the target asks: */
#define RUE_PDS_ACK_REQ_CLEAR	0x02
#define RUE_PDS_ACK_REQ_CLOSE	0x04
/* CTRL flags */
#define RUE_PDS_CTRL_ISROD	0x20
#define RUE_PDS_CTRL_RETX	0x10
#define RUE_PDS_CTRL_AR		0x08
#define RUE_PDS_CTRL_SYN	0x04

/* CTRL types, in the next_hdr position (UE 1.0.1 3.5.16) */
enum rue_pds_ctl_type {
	RUE_PDS_CTL_NOOP = 0,		/* takes a PSN, ACKed as a request */
	RUE_PDS_CTL_ACK_REQ = 1,	/* no PSN: names one sent, asks again */
	RUE_PDS_CTL_CLEAR = 2,		/* no PSN: payload the CLEAR_PSN */
	RUE_PDS_CTL_CLEAR_REQ = 3,	/* target to initiator: send CLEAR */
	RUE_PDS_CTL_CLOSE = 4,
	RUE_PDS_CTL_CLOSE_REQ = 5,
	RUE_PDS_CTL_PROBE = 6,
};

/*
 * NACK codes (UE 1.0.1 3.5.12.5, table 3-58).  0x0c and 0x1b-0xfc are
 * reserved; 0xfd-0xff are experimental, of the NORMAL, ERR and FATAL
 * kinds their names give.
 */
enum rue_pds_nack_code {
	RUE_NACK_TRIMMED = 0x01,
	RUE_NACK_TRIMMED_LASTHOP = 0x02,
	RUE_NACK_TRIMMED_ACK = 0x03,
	RUE_NACK_NO_PDC_AVAIL = 0x04,
	RUE_NACK_NO_CCC_AVAIL = 0x05,
	RUE_NACK_NO_BITMAP = 0x06,
	RUE_NACK_NO_PKT_BUFFER = 0x07,
	RUE_NACK_NO_GTD_DEL_AVAIL = 0x08,
	RUE_NACK_NO_SES_MSG_AVAIL = 0x09,
	RUE_NACK_NO_RESOURCE = 0x0a,
	RUE_NACK_PSN_OOR_WINDOW = 0x0b,
	RUE_NACK_ROD_OOO = 0x0d,
	RUE_NACK_INV_DPDCID = 0x0e,
	RUE_NACK_PDC_HDR_MISMATCH = 0x0f,
	RUE_NACK_CLOSING = 0x10,
	RUE_NACK_CLOSING_IN_ERR = 0x11,
	RUE_NACK_PKT_NOT_RCVD = 0x12,
	RUE_NACK_GTD_RESP_UNAVAIL = 0x13,
	RUE_NACK_ACK_WITH_DATA = 0x14,
	RUE_NACK_INVALID_SYN = 0x15,
	RUE_NACK_PDC_MODE_MISMATCH = 0x16,
	RUE_NACK_NEW_START_PSN = 0x17,
	RUE_NACK_RCVD_SES_PROCG = 0x18,
	RUE_NACK_UNEXP_EVENT = 0x19,
	RUE_NACK_RCVR_INFER_LOSS = 0x1a,
	RUE_NACK_EXP_NORMAL = 0xfd,
	RUE_NACK_EXP_ERR = 0xfe,
	RUE_NACK_EXP_FATAL = 0xff,
};

/*
 * RUD and ROD request, 12 bytes.  While SYN is set the initiator does not
 * know the target's PDCID yet: dpdcid then carries pdc_info[15:12] and
 * psn_offset[11:0], this PSN's distance from the PDC's start PSN.
 */
struct rue_pds_req {
	__be16 prologue;
	__be16 clear_psn_offset;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
} __packed;

#define RUE_PDS_SYN_PSN_OFFSET	0x0fff

/*
 * UUD request, 4 bytes (UE 1.0.1 3.5.10): no PDC, no PSN; an SES header
 * follows (next_hdr) and the message is this one packet.
 */
struct rue_pds_uud {
	__be16 prologue;
	__be16 rsvd;
} __packed;

/*
 * ACK, 12 bytes: ack_psn_offset names the PSN that caused it relative to
 * cack_psn, the newest PSN below which (inclusive) everything arrived.
 */
struct rue_pds_ack {
	__be16 prologue;
	__be16 ack_psn_offset;
	__be32 cack_psn;
	__be16 spdcid;
	__be16 dpdcid;
} __packed;

/*
 * ACK_CC, 32 bytes: an ACK with a 64-bit SACK bitmap (bit i: PSN
 * cack_psn + sack_psn_offset + i arrived) and NSCC state.
 */
struct rue_pds_ack_cc {
	struct rue_pds_ack ack;
	u8 cc_type;			/* cc_type[7:4] | cc_flags[3:0] */
	u8 mpr;
	__be16 sack_psn_offset;
	__be64 sack_bitmap;
	__be64 cc_state;
} __packed;

/* NSCC ack_cc_state: service_time:16 | restore:1 | pend:7 | bytes:24 | ooo:16 */
#define RUE_NSCC_RCVD_BYTES_SHIFT	16
#define RUE_NSCC_RCVD_BYTES_MASK	0xffffffULL

/* NACK, 16 bytes */
struct rue_pds_nack {
	__be16 prologue;
	u8 nack_code;
	u8 vendor_code;
	__be32 nack_psn;
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;
} __packed;

/*
 * CTRL, 16 bytes.  A PROBE (tail-loss probe) takes no PSN: psn is the
 * newest the initiator sent, probe_opaque comes back in the ACK's
 * ack_psn_offset (with P set), payload is the PSN the ACK's SACK bitmap
 * should start at.
 */
struct rue_pds_ctrl {
	__be16 prologue;
	__be16 probe_opaque;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;
} __packed;

/* SES opcodes (UE 1.0.1 3.4.2) */
enum rue_ses_opcode {
	RUE_SES_WRITE = 0x01,
	RUE_SES_READ = 0x02,
	RUE_SES_SEND = 0x05,
};

/* SES request flags: ver[7:6] | DC | IE | REL | HD | EOM | SOM */
#define RUE_SES_F_DC		0x20
#define RUE_SES_F_IE		0x10
#define RUE_SES_F_REL		0x08
#define RUE_SES_F_HD		0x04
#define RUE_SES_F_EOM		0x02
#define RUE_SES_F_SOM		0x01

#define RUE_SES_JOB_MASK	0x00ffffffU
#define RUE_SES_12BIT_MASK	0x0fff
#define RUE_SES_PAYLEN_MASK	0x3fff

/*
 * SES standard request, 44 bytes.  On packets after the first (SOM
 * clear) header_data gives way to payload_length and message_offset.
 */
struct rue_ses_std {
	u8 opcode;			/* rsvd[7:6] | opcode[5:0] */
	u8 flags;
	__be16 message_id;
	__be32 ri_job;			/* ri_generation[31:24] | job_id */
	__be16 pid_on_fep;		/* rsvd[15:12] | pid_on_fep */
	__be16 resource_index;		/* rsvd[15:12] | resource_index */
	__be64 buffer_offset;
	__be32 initiator;
	__be64 memory_key;
	union {
		__be64 header_data;	/* SOM */
		struct {
			__be16 rsvd;
			__be16 payload_length;	/* rsvd[15:14] | length */
			__be32 message_offset;
		} __packed;
	};
	__be32 request_length;
} __packed;

/*
 * SES medium request, 32 bytes: a message in one packet (SOM and EOM).
 * Bytes 2-3 carry request_length where the standard header has
 * message_id; the first 8-byte word is header_data when HD is set, else
 * buffer_offset.
 */
struct rue_ses_medium {
	u8 opcode;			/* rsvd[7:6] | opcode[5:0] */
	u8 flags;
	__be16 request_length;		/* rsvd[15:14] | length */
	__be32 ri_job;			/* ri_generation[31:24] | job_id */
	__be16 pid_on_fep;		/* rsvd[15:12] | pid_on_fep */
	__be16 resource_index;		/* rsvd[15:12] | resource_index */
	__be64 data_or_offset;		/* header_data (HD) or buffer_offset */
	__be32 initiator;
	__be64 memory_key;
} __packed;

/*
 * SES small request, 20 bytes: the medium header's first 20, always
 * with buffer_offset.  No initiator and no memory key: the memory is the
 * one the resource index names (an optimized key, UE 1.0.1 3.4.2).
 */
struct rue_ses_small {
	u8 opcode;
	u8 flags;
	__be16 request_length;		/* rsvd[15:14] | length */
	__be32 ri_job;
	__be16 pid_on_fep;
	__be16 resource_index;
	__be64 buffer_offset;
} __packed;

/* SES response opcodes and return codes (UE 1.0.1 3.4.4) */
enum rue_ses_rsp_opcode {
	RUE_SES_RSP_DEFAULT = 0,
	RUE_SES_RSP_RESPONSE = 1,
	RUE_SES_RSP_RESPONSE_W_DATA = 2,
};

enum rue_ses_rc {
	RUE_SES_RC_OK = 0x01,
	RUE_SES_RC_UNSUPPORTED_OP = 0x06,
	RUE_SES_RC_PERM_VIOLATION = 0x17,
	RUE_SES_RC_BAD_INDEX = 0x19,
	RUE_SES_RC_BAD_PID = 0x1a,
	RUE_SES_RC_BAD_JOB_ID = 0x1b,
	RUE_SES_RC_BAD_MKEY = 0x1c,
	RUE_SES_RC_BAD_ADDR = 0x1d,
	RUE_SES_RC_TOO_LONG = 0x22,
};

/* SES response without data, 12 bytes */
struct rue_ses_rsp {
	u8 opcode;			/* list[7:6] | opcode[5:0] */
	u8 rc;				/* ver[7:6] | return_code[5:0] */
	__be16 message_id;
	__be32 ri_job;
	__be32 modified_length;
} __packed;

/* SES response with data, 20 bytes, then payload_length bytes */
struct rue_ses_rsp_data {
	u8 opcode;			/* list[7:6] | opcode[5:0] */
	u8 rc;				/* ver[7:6] | return_code[5:0] */
	__be16 message_id;
	__be32 ri_job;
	__be16 read_request_message_id;
	__be16 payload_length;		/* rsvd[15:14] | length */
	__be32 modified_length;
	__be32 message_offset;
} __packed;

/*
 * SES response with data to a request without message_id (a small or
 * medium one), 12 bytes, then payload_length bytes: the request is
 * named by its PSN.
 */
struct rue_ses_rsp_data_small {
	u8 opcode;			/* list[7:6] | opcode[5:0] */
	u8 rc;				/* ver[7:6] | return_code[5:0] */
	__be16 payload_length;		/* rsvd[15:14] | length */
	__be32 job;			/* rsvd[31:24] | job_id */
	__be32 original_request_psn;
} __packed;

static inline void rue_uet_check_sizes(void)
{
	BUILD_BUG_ON(sizeof(struct rue_pds_req) != 12);
	BUILD_BUG_ON(sizeof(struct rue_pds_uud) != 4);
	BUILD_BUG_ON(sizeof(struct rue_pds_ack) != 12);
	BUILD_BUG_ON(sizeof(struct rue_pds_ack_cc) != 32);
	BUILD_BUG_ON(sizeof(struct rue_pds_nack) != 16);
	BUILD_BUG_ON(sizeof(struct rue_pds_ctrl) != 16);
	BUILD_BUG_ON(sizeof(struct rue_ses_std) != 44);
	BUILD_BUG_ON(sizeof(struct rue_ses_medium) != 32);
	BUILD_BUG_ON(sizeof(struct rue_ses_small) != 20);
	BUILD_BUG_ON(sizeof(struct rue_ses_rsp) != 12);
	BUILD_BUG_ON(sizeof(struct rue_ses_rsp_data) != 20);
	BUILD_BUG_ON(sizeof(struct rue_ses_rsp_data_small) != 12);
}

#endif /* _RUE_UET_H */
