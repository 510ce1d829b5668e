/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a rue device advertises, in one place.  Each limit is what the
 * implementation actually enforces, not a wish.
 */
#ifndef _RUE_CAPS_H
#define _RUE_CAPS_H

#include <linux/sizes.h>

#define RUE_VENDOR_ID		0xffffff	/* no IEEE OUI: a software device */
#define RUE_VENDOR_PART_ID	0x7275		/* "ru" */
/* Firmware version major.minor.sub, as (major << 32 | minor << 16 | sub). */
#define RUE_FW_VER		(1ULL << 32)

#define RUE_MAX_QP		(1U << 16)
#define RUE_FIRST_QPN		16	/* below: reserved (QP1 is GSI) */
#define RUE_MAX_QP_WR		16384
#define RUE_MAX_SGE		32
#define RUE_MAX_INLINE		512
#define RUE_MAX_CQ		(1U << 16)
#define RUE_MAX_CQE		(1U << 16)
#define RUE_MAX_MR		(1U << 20)
#define RUE_MAX_PD		(1U << 16)
#define RUE_MAX_AH		(1U << 16)
#define RUE_MAX_RD_ATOMIC	16
#define RUE_MAX_MR_SIZE		(1ULL << 40)
#define RUE_MAX_MSG_SIZE	(1U << 31)
#define RUE_MAX_MSG_BYTES	RUE_MAX_MSG_SIZE
#define RUE_GID_TABLE_LEN	64
#define RUE_MAX_FRWR_PAGES	512

#endif /* _RUE_CAPS_H */
