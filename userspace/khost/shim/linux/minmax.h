/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <linux/minmax.h> (GNU C: statement expressions and
 * typeof, as in the kernel).
 *
 * min() and max() evaluate each argument once and, as the 6.1 kernel
 * does, insist that both have the same type: comparing pointers to the
 * two types makes the compiler warn ("comparison of distinct pointer
 * types"), which -Werror turns into the error the kernel build would
 * give.  The _t variants cast both arguments to the named type first.
 */
#ifndef _RUE_KHOST_LINUX_MINMAX_H
#define _RUE_KHOST_LINUX_MINMAX_H

/* unique names, so that nested uses (clamp) do not shadow each other */
#define __rue_paste2(a, b)	a##b
#define __rue_paste(a, b)	__rue_paste2(a, b)
#define __rue_uid(prefix)	__rue_paste(prefix, __COUNTER__)

#define __rue_cmp_once(x, y, op, ux, uy) ({		\
	__typeof__(x) ux = (x);				\
	__typeof__(y) uy = (y);				\
	(void)(&ux == &uy);				\
	ux op uy ? ux : uy; })

#define __rue_cmp(x, y, op) \
	__rue_cmp_once(x, y, op, __rue_uid(__rue_x), __rue_uid(__rue_y))

#define min(x, y)	__rue_cmp(x, y, <)
#define max(x, y)	__rue_cmp(x, y, >)

#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))

/* lo <= hi is the caller's to keep, as in the kernel */
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define clamp_t(type, val, lo, hi) \
	min_t(type, max_t(type, val, lo), hi)

#endif /* _RUE_KHOST_LINUX_MINMAX_H */
