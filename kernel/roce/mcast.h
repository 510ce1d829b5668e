/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UD multicast groups of a device (IBTA 10.5 and annex A17.4.6).
 */
#ifndef _RUE_MCAST_H
#define _RUE_MCAST_H

#include <linux/hashtable.h>
#include <linux/mutex.h>

struct ib_device;
struct rue_dev;
struct rue_pkt;
struct rue_qp;

struct rue_mcast {
	/*
	 * Serializes attach and detach; taken before RTNL (the IP group
	 * joins).  Readers of the table are under RCU only.
	 */
	struct mutex lock;
	DECLARE_HASHTABLE(groups, 8);	/* struct rue_mcg by address */
	u32 ngroups;
	u32 nattached;			/* QP attachments, all groups */
};

void rue_mcast_init(struct rue_dev *rdev);
void rue_mcast_free(struct rue_dev *rdev);
void rue_mcast_set_ops(struct ib_device *ibdev);
void rue_mcast_qp_leave(struct rue_qp *qp);
void rue_mcast_rcv(struct rue_dev *rdev, struct rue_pkt *pkt);

#endif /* _RUE_MCAST_H */
