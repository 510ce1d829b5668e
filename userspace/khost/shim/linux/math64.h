/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <linux/math64.h>.  The kernel has these because a
 * 32-bit machine cannot divide 64 bits in one instruction; the host can,
 * so they are plain divisions with the kernel's argument types (div_u64
 * takes a 32-bit divisor).
 */
#ifndef _RUE_KHOST_LINUX_MATH64_H
#define _RUE_KHOST_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

#endif /* _RUE_KHOST_LINUX_MATH64_H */
