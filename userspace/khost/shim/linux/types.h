/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <linux/types.h>, for kernel sources built unchanged
 * into host tests (userspace/khost).
 *
 * As in the kernel, it is the uapi header (__u32, __be32...; reached with
 * #include_next, since this one hides it) plus the kernel's own names
 * for the same types, so system headers that want the uapi one (glibc's
 * <sys/stat.h> does, through <linux/stat.h>) still find everything.
 * u64 is __u64, unsigned long long, as in the kernel.
 */
#ifndef _RUE_KHOST_LINUX_TYPES_H
#define _RUE_KHOST_LINUX_TYPES_H

#include_next <linux/types.h>

#ifndef __cplusplus
#include <stdbool.h>
#endif

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#endif /* _RUE_KHOST_LINUX_TYPES_H */
