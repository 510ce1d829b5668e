/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Atomic operations on region memory, for the responders.
 */
#ifndef _RUE_MR_ATOMIC_H
#define _RUE_MR_ATOMIC_H

#include <linux/types.h>

struct rue_mr;

int rue_mr_atomic(struct rue_mr *mr, u64 iova, bool cmp_swap, u64 compare,
		  u64 swap_add, u64 *orig);
int rue_mr_atomic_write(struct rue_mr *mr, u64 iova, u64 bytes);

#endif /* _RUE_MR_ATOMIC_H */
