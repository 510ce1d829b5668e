/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rue devices: one ib_device with one Ethernet port over one netdev.
 */
#ifndef _RUE_DEVICE_H
#define _RUE_DEVICE_H

#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <rdma/ib_verbs.h>

#include "stats.h"
#include "cc/cc.h"
#include "net/pfc.h"
#include "net/txq.h"
#include "roce/mcast.h"
#include "uet/job.h"
#include "uet/uet_dev.h"
#include "uet/uet_stats.h"

struct rue_transport_ops;

struct rue_dev {
	struct ib_device ibdev;

	/*
	 * The lower netdev.  Held (netdev_hold) from creation until
	 * dealloc_driver; valid for the device's whole registered life.
	 */
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;

	/*
	 * The network namespace the device's sockets live in: the netdev's
	 * at creation.  Not refcounted; see the lifetime comment in device.c.
	 */
	struct net *net;
	/*
	 * The user namespace owning @net, held for the device's life: jobs
	 * admit CAP_NET_ADMIN there, checked in process context when @net
	 * may already be on its way out.
	 */
	struct user_namespace *user_ns;

	struct hlist_node hnode;	/* rue_dev_hash, by ndev; RCU */
	bool attached;			/* in the hash, socket ref held */
	bool live;			/* registration confirmed under RTNL */
	/*
	 * Cleared, then an RCU grace period, when the device detaches
	 * from its namespace: transmitters check it under rcu_read_lock().
	 */
	bool tx_ok;

	u64 node_guid_host;		/* for netlink, host order */

	/* what its QPs may be (link.c), NULL-terminated */
	const struct rue_transport_ops *const *transports;

	struct xarray qps;		/* by QPN; RCU lookups on receive */
	struct xarray mrs;		/* by key >> 8; RCU lookups */
	struct xarray ahs;		/* user AHs by number */
	struct rue_mcast mcast;		/* UD multicast groups */
	u32 qp_next;
	u32 mr_next;
	u32 ah_next;

	struct rue_txq txq;		/* transmit queues per priority */
	struct rue_pfc pfc;		/* 802.1Qbb on the lower netdev */

	struct rue_cc_cfg __rcu *cc;	/* congestion control settings */
	struct mutex cc_lock;		/* serializes their replacement */
	u32 link_mbps;			/* netdev speed at creation, 0: unknown */

	struct rue_jobs jobs;		/* UET jobs granted on the device */
	struct rue_uet_dev uet;		/* UET endpoints and PDCs */

	struct rue_stats __percpu *stats;
	struct rue_uet_stats __percpu *uet_stats;	/* uet_stats.h */
	struct workqueue_struct *wq;	/* QP transmit work, first runs */
	struct workqueue_struct *bulk_wq;	/* its continuations (engine.c) */
};

static inline struct rue_dev *to_rue_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rue_dev, ibdev);
}

#define rue_dbg_dev(rdev, fmt, ...) \
	ibdev_dbg(&(rdev)->ibdev, "%s: " fmt, __func__, ##__VA_ARGS__)

void rue_dev_lock(void);
void rue_dev_unlock(void);
struct rue_dev *rue_dev_from_netdev(const struct net_device *ndev);
struct rue_dev *rue_dev_from_netdev_rcu(const struct net_device *ndev);
struct rue_dev *rue_dev_get_by_index(u32 index);
void rue_dev_put(struct rue_dev *rdev);

typedef int (*rue_dev_iter_fn)(struct rue_dev *rdev, void *arg);
int rue_dev_for_each(unsigned long *cursor, rue_dev_iter_fn fn, void *arg);

enum ib_port_state rue_dev_port_state(const struct rue_dev *rdev);
enum ib_mtu rue_dev_active_mtu(const struct rue_dev *rdev);

void rue_dev_set_ops(struct ib_device *ibdev);
int rue_dev_attach(struct rue_dev *rdev);
void rue_dev_detach(struct rue_dev *rdev);
bool rue_dev_confirm(struct rue_dev *rdev);
void rue_dev_unlist(struct rue_dev *rdev);
void rue_dev_unregister_all(void);

#endif /* _RUE_DEVICE_H */
