/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels rue supports (Debian 12's 6.1 and
 * bookworm-backports' 6.12), kept in one place.
 */
#ifndef _RUE_COMPAT_H
#define _RUE_COMPAT_H

#include <linux/bits.h>
#include <linux/version.h>

/*
 * 6.10 ("RDMA: Pass uverbs_attr_bundle as part of '.create_cq' flow")
 * changed create_cq to take the attribute bundle instead of the udata.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define RUE_CREATE_CQ_ATTRS 1
#endif

/* 6.12 moved the unaligned accessors from asm/ to linux/. */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 6.3 made vm_flags writable only through vm_flags_set() and friends. */
#if KERNEL_VERSION(6, 3, 0) <= LINUX_VERSION_CODE
#define rue_vm_flags_set(vma, flags) vm_flags_set(vma, flags)
#else
#define rue_vm_flags_set(vma, flags) ((vma)->vm_flags |= (flags))
#endif

/*
 * 6.2 added the Memory Placement Extensions (RDMA ATOMIC WRITE and
 * FLUSH) to the core; rue answers and sends ATOMIC WRITE on 6.1 too (its
 * requests come from librue, not from the core), and 6.1's uverbs passes
 * all 64 capability bits on (ib_uverbs_ex_query_device()).  The value is
 * the uapi's IB_UVERBS_DEVICE_ATOMIC_WRITE.
 */
#if KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
#define RUE_DEVICE_ATOMIC_WRITE IB_DEVICE_ATOMIC_WRITE
#else
#define RUE_DEVICE_ATOMIC_WRITE BIT_ULL(40)
#endif

#endif /* _RUE_COMPAT_H */
