// SPDX-License-Identifier: GPL-2.0
/*
 * rue devices: the object, its registry, its attributes, and its ties to
 * the lower netdev and the namespace's sockets.  Assembling a device and
 * taking it down is link.c's.
 *
 * Lifetime of a device, and of its ties to the lower netdev and to the
 * per-namespace UDP sockets:
 *
 *  1. newlink() (link.c) allocates the device, holds the netdev, takes a
 *     user reference on the sockets of the netdev's namespace and hashes
 *     the device by netdev so that the receive path finds it
 *     (rue_dev_attach()).  Then it registers the ib_device, and finally,
 *     under RTNL, confirms that the netdev is still registered in the same
 *     namespace (rue_dev_confirm()).  Only then is the device "live".
 *
 *  2. NETDEV_UNREGISTER, which is also what a move to another namespace
 *     looks like from the old one, runs under RTNL.  It detaches the
 *     device at once (unhash, drop the socket reference), so that nothing
 *     of the old namespace is used after this point, and queues the
 *     ib_device's unregistration if it is live.  A device that is not yet
 *     live is left to newlink(), whose confirmation step fails.
 *
 *  3. dealloc_driver runs exactly once per device, last, on every path:
 *     "rdma link delete", the queued unregistration, module unload, and
 *     ib_dealloc_device() in newlink's error unwind.  It detaches if that
 *     has not happened (rue_dev_unlist()) and releases the netdev.
 *
 * Locking: RTNL is taken before rue_dev_mutex.  rue_dev_mutex protects
 * rue_devs, the hash and the attached flag.  The hash is read under RCU by
 * the receive path; the ib_device (and with it struct rue_dev) is freed by
 * the core with kfree_rcu() after dealloc_driver, so an RCU reader never
 * sees freed memory.
 */
#include <linux/hashtable.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_pack.h>
#include <rdma/rue-abi.h>

#include "caps.h"
#include "compat.h"
#include "device.h"
#include "net/net.h"
#include "net/pfc.h"
#include "net/txq.h"
#include "net/txq_sock.h"

static DEFINE_MUTEX(rue_dev_mutex);
static DEFINE_XARRAY(rue_devs);		/* by ib_device index */
static DEFINE_HASHTABLE(rue_dev_hash, 6);	/* by lower netdev */

/* Hold while looking a device up by netdev and changing its ties. */
void rue_dev_lock(void)
{
	mutex_lock(&rue_dev_mutex);
}

void rue_dev_unlock(void)
{
	mutex_unlock(&rue_dev_mutex);
}

/**
 * rue_dev_from_netdev() - the device over @ndev
 * @ndev: a netdev
 *
 * Return: the device or NULL; valid while rue_dev_lock() is held.
 */
struct rue_dev *rue_dev_from_netdev(const struct net_device *ndev)
{
	struct rue_dev *rdev;

	lockdep_assert_held(&rue_dev_mutex);
	hash_for_each_possible(rue_dev_hash, rdev, hnode, (unsigned long)ndev)
		if (rdev->ndev == ndev)
			return rdev;
	return NULL;
}

struct rue_dev *rue_dev_from_netdev_rcu(const struct net_device *ndev)
{
	struct rue_dev *rdev;

	hash_for_each_possible_rcu(rue_dev_hash, rdev, hnode, (unsigned long)ndev)
		if (rdev->ndev == ndev)
			return rdev;
	return NULL;
}

/**
 * rue_dev_get_by_index() - find a registered device by ib_device index
 * @index: the ib_device index
 *
 * Return: the device with a reference (release with rue_dev_put()), or NULL.
 */
struct rue_dev *rue_dev_get_by_index(u32 index)
{
	struct rue_dev *rdev;

	mutex_lock(&rue_dev_mutex);
	rdev = xa_load(&rue_devs, index);
	if (rdev && !ib_device_try_get(&rdev->ibdev))
		rdev = NULL;
	mutex_unlock(&rue_dev_mutex);
	return rdev;
}

void rue_dev_put(struct rue_dev *rdev)
{
	ib_device_put(&rdev->ibdev);
}

/**
 * rue_dev_for_each() - call @fn for registered devices in index order
 * @cursor: first index to visit; on return, where to resume
 * @fn: callback; a non-zero return stops the walk and is returned
 * @arg: passed to @fn
 *
 * @fn runs with a reference on the device and no lock held, so it may
 * sleep.  Used by netlink dumps, which resume from @cursor.
 */
int rue_dev_for_each(unsigned long *cursor, rue_dev_iter_fn fn, void *arg)
{
	struct rue_dev *rdev;
	int ret = 0;

	for (;;) {
		mutex_lock(&rue_dev_mutex);
		rdev = xa_find(&rue_devs, cursor, ULONG_MAX, XA_PRESENT);
		if (rdev && !ib_device_try_get(&rdev->ibdev)) {
			mutex_unlock(&rue_dev_mutex);
			(*cursor)++;
			continue;
		}
		mutex_unlock(&rue_dev_mutex);
		if (!rdev)
			return 0;
		ret = fn(rdev, arg);
		rue_dev_put(rdev);
		if (ret)
			return ret;
		(*cursor)++;
	}
}

enum ib_port_state rue_dev_port_state(const struct rue_dev *rdev)
{
	if (netif_running(rdev->ndev) && netif_carrier_ok(rdev->ndev))
		return IB_PORT_ACTIVE;
	return IB_PORT_DOWN;
}

/*
 * The largest IB MTU whose packets, with all RoCEv2 headers (IPv6 is the
 * larger), fit in the netdev's MTU.
 */
enum ib_mtu rue_dev_active_mtu(const struct rue_dev *rdev)
{
	unsigned int mtu = READ_ONCE(rdev->ndev->mtu);
	unsigned int overhead = sizeof(struct ipv6hdr) + sizeof(struct udphdr) +
				IB_BTH_BYTES + IB_EXT_ATOMICETH_BYTES + IB_ICRC_BYTES;
	enum ib_mtu ib = IB_MTU_4096;

	while (ib > IB_MTU_256 && ib_mtu_enum_to_int(ib) + overhead > mtu)
		ib--;
	return ib;
}

/* ------------------------------------------------------------------ */
/* Device and port attributes                                          */

static int rue_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr, struct ib_udata *udata)
{
	struct rue_dev *rdev = to_rue_dev(ibdev);

	memset(attr, 0, sizeof(*attr));
	attr->fw_ver = RUE_FW_VER;
	attr->sys_image_guid = rdev->ibdev.node_guid;
	attr->max_mr_size = RUE_MAX_MR_SIZE;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = RUE_VENDOR_ID;
	attr->vendor_part_id = RUE_VENDOR_PART_ID;
	attr->hw_ver = 0;
	attr->max_qp = RUE_MAX_QP;
	attr->max_qp_wr = RUE_MAX_QP_WR;
	attr->device_cap_flags = IB_DEVICE_PORT_ACTIVE_EVENT |
				 IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_RC_RNR_NAK_GEN |
				 IB_DEVICE_CURR_QP_STATE_MOD |
				 IB_DEVICE_SHUTDOWN_PORT |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B |
				 RUE_DEVICE_ATOMIC_WRITE;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_send_sge = RUE_MAX_SGE;
	attr->max_recv_sge = RUE_MAX_SGE;
	attr->max_sge_rd = RUE_MAX_SGE;
	attr->max_cq = RUE_MAX_CQ;
	attr->max_cqe = RUE_MAX_CQE;
	attr->max_mr = RUE_MAX_MR;
	attr->max_mw = RUE_MAX_MR;	/* windows take MR keys (mw.c) */
	attr->max_pd = RUE_MAX_PD;
	attr->max_qp_rd_atom = RUE_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = RUE_MAX_RD_ATOMIC * RUE_MAX_QP;
	attr->max_qp_init_rd_atom = RUE_MAX_RD_ATOMIC;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_fast_reg_page_list_len = RUE_MAX_FRWR_PAGES;
	attr->max_ah = RUE_MAX_AH;
	attr->max_srq = RUE_MAX_SRQ;
	attr->max_srq_wr = RUE_MAX_SRQ_WR;
	attr->max_srq_sge = RUE_MAX_SGE;
	attr->max_mcast_grp = RUE_MAX_MCAST_GRP;
	attr->max_mcast_qp_attach = RUE_MAX_MCAST_QP_ATTACH;
	attr->max_total_mcast_qp_attach = RUE_MAX_TOTAL_MCAST_QP_ATTACH;
	attr->max_pkeys = 1;
	attr->local_ca_ack_delay = 15;
	/* completion timestamps: nanoseconds (struct rue_cqe.timestamp) */
	attr->hca_core_clock = 1000000;	/* kHz */
	attr->timestamp_mask = U64_MAX;
	/* modify_cq: u16 counts and microseconds (rue_modify_cq()) */
	attr->cq_caps.max_cq_moderation_count = U16_MAX;
	attr->cq_caps.max_cq_moderation_period = U16_MAX;
	return 0;
}

static int rue_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct rue_dev *rdev = to_rue_dev(ibdev);
	int err;

	/* The core zeroes *attr before calling. */
	attr->state = rue_dev_port_state(rdev);
	attr->phys_state = attr->state == IB_PORT_ACTIVE ?
			   IB_PORT_PHYS_STATE_LINK_UP :
			   IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = rue_dev_active_mtu(rdev);
	attr->gid_tbl_len = RUE_GID_TABLE_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = RUE_MAX_MSG_SIZE;
	attr->pkey_tbl_len = 1;
	attr->max_vl_num = 1;

	err = ib_get_eth_speed(ibdev, port, &attr->active_speed,
			       &attr->active_width);
	if (err) {
		attr->active_speed = IB_SPEED_SDR;
		attr->active_width = IB_WIDTH_1X;
	}
	return 0;
}

static int rue_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr = {};
	int err;

	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;

	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer rue_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int rue_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static void rue_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%s", RUE_VERSION);
}

/* sysfs: hca_type identifies rue devices to librue; parent names the netdev. */
static ssize_t hca_type_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", RUE_HCA_TYPE);
}
static DEVICE_ATTR_RO(hca_type);

static ssize_t parent_show(struct device *device,
			   struct device_attribute *attr, char *buf)
{
	struct rue_dev *rdev = rdma_device_to_drv_device(device, struct rue_dev,
							 ibdev);

	return sysfs_emit(buf, "%s\n", netdev_name(rdev->ndev));
}
static DEVICE_ATTR_RO(parent);

static struct attribute *rue_dev_attributes[] = {
	&dev_attr_hca_type.attr,
	&dev_attr_parent.attr,
	NULL
};

static const struct attribute_group rue_dev_attr_group = {
	.attrs = rue_dev_attributes,
};

static const struct ib_device_ops rue_dev_ops = {
	.device_group = &rue_dev_attr_group,
	.get_dev_fw_str = rue_get_dev_fw_str,
	.get_link_layer = rue_get_link_layer,
	.get_port_immutable = rue_get_port_immutable,
	.query_device = rue_query_device,
	.query_pkey = rue_query_pkey,
	.query_port = rue_query_port,
};

void rue_dev_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_dev_ops);
}

/* ------------------------------------------------------------------ */
/* Ties to the netdev's namespace                                      */

static int __rue_dev_attach(struct rue_dev *rdev)
{
	int err;

	lockdep_assert_held(&rue_dev_mutex);

	err = rue_net_get(rdev->net);
	if (err)
		return err;
	err = rue_txq_open(rdev);
	if (err) {
		rue_net_put(rdev->net);
		return err;
	}
	rue_pfc_attach(rdev);
	hash_add_rcu(rue_dev_hash, &rdev->hnode, (unsigned long)rdev->ndev);
	rdev->attached = true;
	WRITE_ONCE(rdev->tx_ok, true);
	return 0;
}

/**
 * rue_dev_detach() - step 2 of the lifetime comment: nothing of the
 * netdev's namespace is used by the device after this
 * @rdev: the device; rue_dev_lock() held
 */
void rue_dev_detach(struct rue_dev *rdev)
{
	lockdep_assert_held(&rue_dev_mutex);

	if (!rdev->attached)
		return;
	hash_del_rcu(&rdev->hnode);
	rdev->attached = false;
	WRITE_ONCE(rdev->tx_ok, false);
	rue_txq_unhook(rdev);
	/*
	 * No transmitter or receiver still uses the namespace, and no
	 * callback of the transmit queue's socket the device, after this.
	 */
	synchronize_net();
	/* the pause handler arms the queues' timers: before they close */
	rue_pfc_detach(rdev);
	rue_txq_close(rdev);
	rue_net_put(rdev->net);
}

/**
 * rue_dev_attach() - step 1: tie a new device to its netdev's namespace
 * @rdev: the device, not registered yet
 *
 * Return: 0, -EEXIST if the netdev has a rue device already, or why the
 * namespace's sockets or the transmit queues could not be had
 * (-EADDRINUSE: another driver holds the UDP port).
 */
int rue_dev_attach(struct rue_dev *rdev)
{
	int err;

	mutex_lock(&rue_dev_mutex);
	if (rue_dev_from_netdev(rdev->ndev))
		err = -EEXIST;
	else
		err = __rue_dev_attach(rdev);
	mutex_unlock(&rue_dev_mutex);
	return err;
}

/* Step 1 of the lifetime comment: confirm the netdev survived registration. */
bool rue_dev_confirm(struct rue_dev *rdev)
{
	bool ok;

	rtnl_lock();
	mutex_lock(&rue_dev_mutex);
	ok = rdev->attached &&
	     READ_ONCE(rdev->ndev->reg_state) == NETREG_REGISTERED &&
	     net_eq(dev_net(rdev->ndev), rdev->net);
	if (ok)
		ok = !xa_insert(&rue_devs, rdev->ibdev.index, rdev, GFP_KERNEL);
	rdev->live = ok;
	mutex_unlock(&rue_dev_mutex);
	rtnl_unlock();
	return ok;
}

/* Step 3: detach if not done yet, and leave the registry; under RTNL. */
void rue_dev_unlist(struct rue_dev *rdev)
{
	ASSERT_RTNL();
	mutex_lock(&rue_dev_mutex);
	rue_dev_detach(rdev);
	if (xa_load(&rue_devs, rdev->ibdev.index) == rdev)
		xa_erase(&rue_devs, rdev->ibdev.index);
	mutex_unlock(&rue_dev_mutex);
}

/*
 * Module unload: unregister every device.  A device whose unregistration
 * the notifier queued is unregistered by whichever call comes first; the
 * core serializes them.
 */
void rue_dev_unregister_all(void)
{
	struct rue_dev *rdev;
	unsigned long index;

	for (;;) {
		index = 0;
		mutex_lock(&rue_dev_mutex);
		rdev = xa_find(&rue_devs, &index, ULONG_MAX, XA_PRESENT);
		if (rdev)
			get_device(&rdev->ibdev.dev);
		mutex_unlock(&rue_dev_mutex);
		if (!rdev)
			break;
		ib_unregister_device(&rdev->ibdev);
		put_device(&rdev->ibdev.dev);
	}
}
