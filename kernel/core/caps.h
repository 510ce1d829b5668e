/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a rue device advertises, in one place.  Each limit is what the
 * implementation actually enforces, not a wish.
 */
#ifndef _RUE_CAPS_H
#define _RUE_CAPS_H

#include <linux/bits.h>

#define RUE_VENDOR_ID		0xffffff	/* no IEEE OUI: a software device */
#define RUE_VENDOR_PART_ID	0x7275		/* "ru" */
/* Firmware version major.minor.sub, as (major << 32 | minor << 16 | sub). */
#define RUE_FW_VER		BIT_ULL(32)

#define RUE_MAX_QP		BIT(16)
#define RUE_FIRST_QPN		16	/* below: reserved (QP1 is GSI) */
#define RUE_MAX_QP_WR		16384
#define RUE_MAX_SGE		32
#define RUE_MAX_INLINE		512
#define RUE_MAX_CQ		BIT(16)
#define RUE_MAX_CQE		BIT(20)	/* 64-byte CQEs: a 64 MiB ring */
#define RUE_MAX_MR		BIT(20)
#define RUE_MAX_PD		BIT(16)
#define RUE_MAX_AH		BIT(16)
#define RUE_MAX_SRQ		BIT(16)
#define RUE_MAX_SRQ_WR		16384
/*
 * Reads and atomics in flight per QP, both directions.  128 as rdma_rxe:
 * perftest copies the peer's limit into max_rd_atomic, so a lower value
 * than rxe's makes modify_qp fail against it.  The responder queues as
 * many answers and keeps twice as many executed (48 bytes each) for
 * duplicate requests (rc_resp.c).
 */
#define RUE_MAX_RD_ATOMIC	128
#define RUE_MAX_MR_SIZE		BIT_ULL(40)
#define RUE_MAX_MSG_SIZE	BIT(31)
#define RUE_MAX_MSG_BYTES	RUE_MAX_MSG_SIZE
#define RUE_GID_TABLE_LEN	64
#define RUE_MAX_FRWR_PAGES	512
/* UD multicast (roce/mcast.c), as rdma_rxe: IBTA leaves them to the CA */
#define RUE_MAX_MCAST_GRP	8192
#define RUE_MAX_MCAST_QP_ATTACH	56
#define RUE_MAX_TOTAL_MCAST_QP_ATTACH	(RUE_MAX_MCAST_GRP * \
					 RUE_MAX_MCAST_QP_ATTACH)

#endif /* _RUE_CAPS_H */
