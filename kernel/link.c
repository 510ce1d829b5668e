// SPDX-License-Identifier: GPL-2.0
/*
 * "rdma link add NAME type rue netdev DEV": assembling a device from its
 * parts (each subsystem's state, each object's verbs, the transports its
 * QPs may have), taking it down again, and following the netdev.  The
 * device's lifetime rules are the comment at the top of device.c.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/module.h>
#include <linux/rtnetlink.h>
#include <linux/user_namespace.h>
#include <net/addrconf.h>
#include <rdma/rdma_netlink.h>
#include <rdma/rue-abi.h>

#include "link.h"
#include "cc/cc.h"
#include "core/ah.h"
#include "core/cq.h"
#include "core/device.h"
#include "core/mr.h"
#include "core/mw.h"
#include "core/qp_verbs.h"
#include "core/srq.h"
#include "core/stats.h"
#include "core/verbs.h"
#include "net/pfc.h"
#include "net/txq.h"
#include "roce/mcast.h"
#include "roce/rc.h"
#include "roce/uc.h"
#include "roce/ud.h"
#include "uet/job.h"
#include "uet/pds.h"
#include "uet/ses.h"

/* What QPs of a rue device may be, by type (transport.h). */
static const struct rue_transport_ops *const rue_transports[] = {
	&rue_rc_transport,
	&rue_uc_transport,
	&rue_ud_transport,
	&rue_uet_transport,
	&rue_uet_uud_transport,
	NULL
};

/* Devices whose dealloc_driver has not run; module unload waits for 0. */
static atomic_t rue_dev_count = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(rue_dev_wq);

/* Last on every path (device.c, step 3): every part, in reverse. */
static void rue_dealloc_driver(struct ib_device *ibdev)
{
	struct rue_dev *rdev = to_rue_dev(ibdev);

	rtnl_lock();
	rue_dev_unlist(rdev);
	rtnl_unlock();

	pr_debug("device %s destroyed\n", dev_name(&ibdev->dev));
	WARN_ON(!xa_empty(&rdev->qps) || !xa_empty(&rdev->ahs));
	xa_destroy(&rdev->qps);
	xa_destroy(&rdev->mrs);
	xa_destroy(&rdev->ahs);
	/*
	 * Whatever still runs counts what it does: UET's target PDCs and
	 * their reaper (one SYN from anyone creates them), the PFC backlog's
	 * work, the device's work.  Stop them all before the counters go.
	 */
	rue_uet_dev_free(rdev);
	rue_mcast_free(rdev);
	rue_pfc_free(rdev);
	if (rdev->wq)
		destroy_workqueue(rdev->wq);
	if (rdev->bulk_wq)
		destroy_workqueue(rdev->bulk_wq);
	free_percpu(rdev->stats);
	free_percpu(rdev->uet_stats);
	rue_cc_dev_free(rdev);
	rue_jobs_destroy(&rdev->jobs);
	put_user_ns(rdev->user_ns);
	netdev_put(rdev->ndev, &rdev->ndev_tracker);
	if (atomic_dec_and_test(&rue_dev_count))
		wake_up_all(&rue_dev_wq);
}

static const struct ib_device_ops rue_link_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,
	.uverbs_abi_ver = RUE_UVERBS_ABI_VERSION,

	.dealloc_driver = rue_dealloc_driver,
};

static int rue_check_newlink(const char *name, struct net_device *ndev)
{
	struct ib_device *other;

	/* librxe claims every device whose name starts with "rxe". */
	if (!strncmp(name, "rxe", 3)) {
		pr_info("%s: names starting with \"rxe\" belong to rdma_rxe\n",
			name);
		return -EINVAL;
	}
	if (strlen(name) >= IB_DEVICE_NAME_MAX || strchr(name, '/')) {
		pr_info("invalid device name\n");
		return -EINVAL;
	}
	other = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (other) {
		ib_device_put(other);
		pr_info("%s: an RDMA device with this name exists\n", name);
		return -EEXIST;
	}
	if (ndev->type != ARPHRD_ETHER || (ndev->flags & IFF_LOOPBACK) ||
	    ndev->addr_len != ETH_ALEN) {
		pr_info("%s: %s is not an Ethernet device\n", name, ndev->name);
		return -EINVAL;
	}
	return 0;
}

static void rue_dev_init_guid(struct rue_dev *rdev)
{
	u8 eui[8];

	/* EUI-64 from the netdev's MAC, as RoCE NICs and rdma_rxe do. */
	addrconf_addr_eui48(eui, rdev->ndev->dev_addr);
	memcpy(&rdev->ibdev.node_guid, eui, sizeof(eui));
	rdev->node_guid_host = be64_to_cpu(rdev->ibdev.node_guid);
}

/* The netdev's speed in Mb/s, 0 if it has none: DCQCN's line rate. */
static u32 rue_dev_link_mbps(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;
	u32 speed = 0;

	rtnl_lock();
	if (!__ethtool_get_link_ksettings(ndev, &ks) &&
	    ks.base.speed != SPEED_UNKNOWN)
		speed = ks.base.speed;
	rtnl_unlock();
	return speed;
}

/* Every part's state, before anything can reach the device. */
static int rue_dev_init_parts(struct rue_dev *rdev, const char *name)
{
	struct net_device *ndev = rdev->ndev;

	rdev->net = dev_net(ndev);
	rdev->user_ns = get_user_ns(rdev->net->user_ns);
	rdev->transports = rue_transports;
	rue_txq_init(rdev);
	rue_pfc_init(rdev);
	rue_jobs_init(&rdev->jobs);
	rue_uet_dev_init(rdev);
	rue_mcast_init(rdev);
	xa_init_flags(&rdev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&rdev->mrs, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	xa_init_flags(&rdev->ahs, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	rdev->stats = alloc_percpu(struct rue_stats);
	rdev->uet_stats = alloc_percpu(struct rue_uet_stats);
	rdev->link_mbps = rue_dev_link_mbps(ndev);
	/*
	 * Per-CPU: transmit work continues on the CPU that queued it, so a
	 * QP's packets enter a veth peer's backlog on one CPU and stay in
	 * order (another CPU's backlog may be drained first).
	 */
	rdev->wq = alloc_workqueue("rue_%s", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0,
				   name);
	/* at the CPU's normal priority: see "Bulk" in core/engine.c */
	rdev->bulk_wq = alloc_workqueue("rue_bulk_%s", WQ_MEM_RECLAIM, 0, name);
	if (!rdev->stats || !rdev->uet_stats || !rdev->wq || !rdev->bulk_wq)
		return -ENOMEM;
	return rue_cc_dev_init(rdev);
}

/* The ib_device's attributes and verbs: each object file's ops. */
static void rue_dev_assemble(struct rue_dev *rdev)
{
	struct ib_device *ibdev = &rdev->ibdev;

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	ibdev->local_dma_lkey = 0;
	strscpy(ibdev->node_desc, "rue", sizeof(ibdev->node_desc));
	/*
	 * The core leaves these write() commands off unless asked: librue
	 * uses the first two, without work requests, as doorbells.
	 */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_POST_RECV) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	rue_dev_init_guid(rdev);
	ib_set_device_ops(ibdev, &rue_link_dev_ops);
	rue_dev_set_ops(ibdev);
	rue_verbs_set_ops(ibdev);
	rue_ah_set_ops(ibdev);
	rue_cq_set_ops(ibdev);
	rue_mr_set_ops(ibdev);
	rue_mw_set_ops(ibdev);
	rue_qp_set_ops(ibdev);
	rue_srq_set_ops(ibdev);
	rue_stats_set_ops(ibdev);
	rue_mcast_set_ops(ibdev);
}

/* Tie the device to the netdev and register it (device.c, step 1). */
static int rue_dev_register(struct rue_dev *rdev, const char *name)
{
	struct net_device *ndev = rdev->ndev;
	int err;

	err = ib_device_set_netdev(&rdev->ibdev, ndev, 1);
	if (err)
		return err;
	err = rue_dev_attach(rdev);
	if (err == -EEXIST)
		pr_info("%s: %s already has a rue device\n", name, ndev->name);
	else if (err == -EADDRINUSE)
		pr_info("%s: UDP port in use in the namespace of %s (is rdma_rxe loaded?)\n",
			name, ndev->name);
	if (err)
		return err;

	/* No DMA device: consumers use virtual addresses (ib_uses_virt_dma). */
	err = ib_register_device(&rdev->ibdev, name, NULL);
	if (err)
		pr_info("%s: registration failed: %d\n", name, err);
	return err;
}

static void rue_dev_port_event(struct rue_dev *rdev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &rdev->ibdev,
		.element.port_num = 1,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

static int rue_newlink(const char *name, struct net_device *ndev)
{
	struct rue_dev *rdev;
	int err;

	err = rue_check_newlink(name, ndev);
	if (err)
		return err;

	rdev = ib_alloc_device(rue_dev, ibdev);
	if (!rdev)
		return -ENOMEM;
	atomic_inc(&rue_dev_count);

	/* From here on, ib_dealloc_device() runs rue_dealloc_driver(). */
	rdev->ndev = ndev;
	netdev_hold(ndev, &rdev->ndev_tracker, GFP_KERNEL);
	err = rue_dev_init_parts(rdev, name);
	if (err)
		goto err_dealloc;
	rue_dev_assemble(rdev);
	err = rue_dev_register(rdev, name);
	if (err)
		goto err_dealloc;

	if (!rue_dev_confirm(rdev)) {
		pr_info("%s: %s went away during creation\n", name, ndev->name);
		ib_unregister_device(&rdev->ibdev);
		return -ENODEV;
	}

	pr_debug("device %s created on %s\n", name, ndev->name);
	if (rue_dev_port_state(rdev) == IB_PORT_ACTIVE)
		rue_dev_port_event(rdev, IB_EVENT_PORT_ACTIVE);
	return 0;

err_dealloc:
	ib_dealloc_device(&rdev->ibdev);
	return err;
}

static struct rdma_link_ops rue_link_ops = {
	.type = "rue",
	.newlink = rue_newlink,
};

MODULE_ALIAS_RDMA_LINK("rue");

/* ------------------------------------------------------------------ */
/* Following the netdev                                                */

static int rue_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct rue_dev *rdev;

	ASSERT_RTNL();

	rue_dev_lock();
	rdev = rue_dev_from_netdev(ndev);
	if (!rdev) {
		rue_dev_unlock();
		return NOTIFY_DONE;
	}

	switch (event) {
	case NETDEV_UNREGISTER:
		rue_dev_detach(rdev);
		/*
		 * A device that is not live is still in newlink(), whose
		 * confirmation sees the detach and unwinds.
		 */
		if (rdev->live)
			ib_unregister_device_queued(&rdev->ibdev);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		if (rdev->live)
			rue_dev_port_event(rdev,
					   rue_dev_port_state(rdev) == IB_PORT_ACTIVE ?
					   IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
		break;
	default:
		break;
	}
	rue_dev_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block rue_netdev_notifier = {
	.notifier_call = rue_netdev_event,
};

/* ------------------------------------------------------------------ */

int rue_link_init(void)
{
	int err;

	err = register_netdevice_notifier(&rue_netdev_notifier);
	if (err)
		return err;
	rdma_link_register(&rue_link_ops);
	return 0;
}

/*
 * Unload: no new links (rdma_link_unregister waits for newlink calls in
 * progress), then unregister every device, and wait until every
 * dealloc_driver has run before the module's code goes away.
 */
void rue_link_exit(void)
{
	rdma_link_unregister(&rue_link_ops);
	rue_dev_unregister_all();
	wait_event(rue_dev_wq, !atomic_read(&rue_dev_count));
	unregister_netdevice_notifier(&rue_netdev_notifier);
}
