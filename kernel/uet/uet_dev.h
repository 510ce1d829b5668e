/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a device keeps for UET (struct rue_dev.uet): SES's endpoints and
 * PDS's PDCs.  Data only: pds.c and ses.c set it up.
 */
#ifndef _RUE_UET_DEV_H
#define _RUE_UET_DEV_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

struct rue_pds_upcalls;

/* Buckets of target PDCs by their initiator's address (pds_tgt.c). */
#define RUE_TGT_SRC_BUCKETS	64

struct rue_uet_dev {
	/* SES (ses.c) */
	struct xarray eps;		/* UET QPs by PIDonFEP; RCU */
	u32 pid_next;

	/* PDS (pds.c) */
	spinlock_t lock;		/* tgt hash, the list of PDCs */
	struct xarray pdcs;		/* every PDC by its local PDCID; RCU */
	DECLARE_HASHTABLE(tgt, 8);	/* target PDCs by peer and its PDCID */
	struct delayed_work reaper;	/* closes idle target PDCs */
	u32 nr_tgt;			/* target PDCs in tgt; lock */
	/*
	 * Target PDCs SES has taken no request of yet, oldest first (lazily:
	 * proven ones leave when eviction passes them); lock.
	 */
	struct list_head unproven;
	u32 src_seed;			/* of the per-source buckets' hash */
	u16 nr_src[RUE_TGT_SRC_BUCKETS];	/* target PDCs by source; lock */
	atomic_t nr_alloc;		/* PDCs allocated and not yet freed */
	/* the users whose QPs hold initiator PDCs (pdc_owner.c) */
	struct mutex owner_lock;
	DECLARE_HASHTABLE(owners, 4);
	const struct rue_pds_upcalls *up;	/* SES, from rue_pds_dev_init() */
};

#endif /* _RUE_UET_DEV_H */
