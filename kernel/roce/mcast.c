// SPDX-License-Identifier: GPL-2.0
/*
 * UD multicast (IBTA 10.5, annex A17.4.6): a UD QP attached to a group
 * receives the datagrams sent to the group's address with the multicast
 * QPN (0xFFFFFF) in their BTH.  For RoCEv2 the group is an IP multicast
 * group: its MGID is the IPv6 address or the v4-mapped IPv4 address.
 *
 * Receiving.  The IP stack delivers a multicast datagram only when the
 * interface is a member of the group (IGMP / MLD), so the first QP
 * attached to a group joins it on the lower netdev and the last one to
 * leave leaves it; the joins are counted by the stack, and rdma_cm's own
 * IGMP join (cma_igmp_send()) adds to ours.  Each attached QP gets the
 * packet, its Q_Key checked as for a unicast datagram; the sender's own
 * QP too when it is attached, as on hardware without the create flag
 * that blocks multicast loopback, through the stack's multicast
 * loopback.  Sending needs nothing here: a UD send to an AH whose
 * destination is the group goes through the IP stack like any other.
 *
 * Locking and lifetime.  mcast->lock serializes attach and detach and is
 * taken before RTNL (the joins).  The receive path walks the table and a
 * group's members under RCU and takes a QP reference before delivering.
 * A member names its QP without a reference: a QP leaves all its groups
 * when it is unpublished (rue_mcast_qp_leave(), from destroy_qp), a grace
 * period before it is freed; groups and members are freed after a grace
 * period.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <rdma/ib_addr.h>

#include "mcast.h"
#include "pkt.h"
#include "core/caps.h"
#include "core/device.h"
#include "core/qp.h"
#include "core/stats.h"
#include "core/transport.h"

struct rue_mcg {
	struct hlist_node node;		/* mcast->groups; RCU */
	struct in6_addr addr;		/* the MGID */
	struct list_head members;	/* struct rue_mcg_qp; RCU */
	u32 nmembers;
	struct rcu_head rcu;
};

struct rue_mcg_qp {
	struct list_head node;		/* the group's members; RCU */
	struct rue_qp *qp;		/* no reference: see above */
	struct rcu_head rcu;
};

static u32 rue_mcg_hash(const struct in6_addr *addr)
{
	return ipv6_addr_hash(addr);
}

/* The group of @addr; mcast->lock or rcu_read_lock() held. */
static struct rue_mcg *rue_mcg_find(struct rue_mcast *mc,
				    const struct in6_addr *addr)
{
	struct rue_mcg *g;

	hash_for_each_possible_rcu(mc->groups, g, node, rue_mcg_hash(addr),
				   lockdep_is_held(&mc->lock))
		if (ipv6_addr_equal(&g->addr, addr))
			return g;
	return NULL;
}

/* @qp's membership of @g, or NULL; mcast->lock held. */
static struct rue_mcg_qp *rue_mcg_member(struct rue_mcg *g, struct rue_qp *qp)
{
	struct rue_mcg_qp *m;

	list_for_each_entry(m, &g->members, node)
		if (m->qp == qp)
			return m;
	return NULL;
}

/*
 * Join (@join) or leave the IP group @addr on the lower netdev.  A device
 * that has left its namespace (rdev->tx_ok cleared under RTNL, device.c)
 * joins nothing and leaves nothing: its netdev's groups are another
 * namespace's now, or gone with it.  mcast->lock held; takes RTNL.
 */
static int rue_mcg_ip(struct rue_dev *rdev, const struct in6_addr *addr,
		      bool join)
{
	struct net_device *ndev = rdev->ndev;
	struct in_device *in_dev;
	int err = 0;

	rtnl_lock();
	if (!READ_ONCE(rdev->tx_ok)) {
		err = join ? -ENODEV : 0;
	} else if (ipv6_addr_v4mapped(addr)) {
		in_dev = __in_dev_get_rtnl(ndev);
		if (!in_dev)
			err = -ENODEV;
		else if (join)	/* void: a failed allocation goes unsaid */
			ip_mc_inc_group(in_dev, addr->s6_addr32[3]);
		else
			ip_mc_dec_group(in_dev, addr->s6_addr32[3]);
	} else if (join) {
		err = ipv6_dev_mc_inc(ndev, addr);
	} else {
		ipv6_dev_mc_dec(ndev, addr);
	}
	rtnl_unlock();
	return err;
}

/* A new group, joined and in the table; mcast->lock held. */
static struct rue_mcg *rue_mcg_create(struct rue_dev *rdev,
				      const struct in6_addr *addr)
{
	struct rue_mcast *mc = &rdev->mcast;
	struct rue_mcg *g;
	int err;

	if (mc->ngroups >= RUE_MAX_MCAST_GRP)
		return ERR_PTR(-ENOMEM);
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return ERR_PTR(-ENOMEM);
	g->addr = *addr;
	INIT_LIST_HEAD(&g->members);
	err = rue_mcg_ip(rdev, addr, true);
	if (err) {
		kfree(g);
		return ERR_PTR(err);
	}
	hash_add_rcu(mc->groups, &g->node, rue_mcg_hash(addr));
	mc->ngroups++;
	return g;
}

/* Remove @m from @g, and @g when it was the last; mcast->lock held. */
static void rue_mcg_remove(struct rue_dev *rdev, struct rue_mcg *g,
			   struct rue_mcg_qp *m)
{
	struct rue_mcast *mc = &rdev->mcast;

	list_del_rcu(&m->node);
	kfree_rcu(m, rcu);
	mc->nattached--;
	if (--g->nmembers)
		return;
	hash_del_rcu(&g->node);
	mc->ngroups--;
	rue_mcg_ip(rdev, &g->addr, false);
	kfree_rcu(g, rcu);
}

/* Only UD QPs join groups (IBTA 10.5.2.1); the MGID must be multicast. */
static int rue_mcast_check(struct rue_qp *qp, const union ib_gid *gid)
{
	if (!(qp->xport->flags & RUE_XPORT_MCAST) ||
	    qp->ibqp.qp_type != IB_QPT_UD)
		return -EINVAL;
	if (!rdma_is_multicast_addr((struct in6_addr *)gid->raw))
		return -EINVAL;
	return 0;
}

static int rue_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	struct rue_dev *rdev = qp->rdev;
	struct rue_mcast *mc = &rdev->mcast;
	const struct in6_addr *addr = (const struct in6_addr *)gid->raw;
	struct rue_mcg_qp *m;
	struct rue_mcg *g;
	int err;

	err = rue_mcast_check(qp, gid);
	if (err)
		return err;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->qp = qp;

	mutex_lock(&mc->lock);
	g = rue_mcg_find(mc, addr);
	if (g && rue_mcg_member(g, qp)) {
		err = 0;		/* attached already: as rdma_rxe */
		goto out_free;
	}
	err = -ENOMEM;
	if (mc->nattached >= RUE_MAX_TOTAL_MCAST_QP_ATTACH ||
	    (g && g->nmembers >= RUE_MAX_MCAST_QP_ATTACH))
		goto out_free;
	if (!g) {
		g = rue_mcg_create(rdev, addr);
		if (IS_ERR(g)) {
			err = PTR_ERR(g);
			goto out_free;
		}
	}
	list_add_tail_rcu(&m->node, &g->members);
	g->nmembers++;
	mc->nattached++;
	mutex_unlock(&mc->lock);
	return 0;

out_free:
	mutex_unlock(&mc->lock);
	kfree(m);
	return err;
}

static int rue_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct rue_qp *qp = to_rue_qp(ibqp);
	struct rue_dev *rdev = qp->rdev;
	struct rue_mcast *mc = &rdev->mcast;
	struct rue_mcg_qp *m = NULL;
	struct rue_mcg *g;
	int err;

	err = rue_mcast_check(qp, gid);
	if (err)
		return err;
	mutex_lock(&mc->lock);
	g = rue_mcg_find(mc, (const struct in6_addr *)gid->raw);
	if (g)
		m = rue_mcg_member(g, qp);
	if (m)
		rue_mcg_remove(rdev, g, m);
	mutex_unlock(&mc->lock);
	return m ? 0 : -EINVAL;
}

/**
 * rue_mcast_qp_leave() - detach a QP from every group it is attached to
 * @qp: the QP, being unpublished (destroy_qp waits a grace period after)
 *
 * Kernel consumers may destroy a QP that is still attached; uverbs
 * detaches first.  May sleep.
 */
void rue_mcast_qp_leave(struct rue_qp *qp)
{
	struct rue_dev *rdev = qp->rdev;
	struct rue_mcast *mc = &rdev->mcast;
	struct rue_mcg_qp *m, *mnext;
	struct hlist_node *tmp;
	struct rue_mcg *g;
	int bkt;

	mutex_lock(&mc->lock);
	if (!mc->nattached)
		goto out;
	hash_for_each_safe(mc->groups, bkt, tmp, g, node)
		list_for_each_entry_safe(m, mnext, &g->members, node)
			if (m->qp == qp) {
				rue_mcg_remove(rdev, g, m);
				break;
			}
out:
	mutex_unlock(&mc->lock);
}

/**
 * rue_mcast_rcv() - a checked datagram sent to the multicast QPN
 * @rdev: the device it came in on
 * @pkt: the packet, for every attached QP to copy
 *
 * Bottom halves disabled.
 */
void rue_mcast_rcv(struct rue_dev *rdev, struct rue_pkt *pkt)
{
	struct rue_mcg_qp *m;
	struct rue_mcg *g;
	bool taken = false;

	if (!(pkt->mask & RUE_OPM_UD)) {
		rue_stat_inc(rdev, RUE_STAT_RX_DROP_OPCODE);
		return;
	}
	rcu_read_lock();
	g = rue_mcg_find(&rdev->mcast, &pkt->daddr);
	if (g) {
		list_for_each_entry_rcu(m, &g->members, node) {
			struct rue_qp *qp = m->qp;

			if (!refcount_inc_not_zero(&qp->refcnt))
				continue;
			qp->xport->rcv(qp, pkt);
			rue_qp_put(qp);
			taken = true;
		}
	}
	rcu_read_unlock();
	if (!taken)
		rue_stat_inc(rdev, RUE_STAT_RX_DROP_QP);
}

void rue_mcast_init(struct rue_dev *rdev)
{
	mutex_init(&rdev->mcast.lock);
	hash_init(rdev->mcast.groups);
}

/* Every QP is gone, and with them every group (rue_mcast_qp_leave()). */
void rue_mcast_free(struct rue_dev *rdev)
{
	mutex_destroy(&rdev->mcast.lock);
}

static const struct ib_device_ops rue_mcast_ops = {
	.attach_mcast = rue_attach_mcast,
	.detach_mcast = rue_detach_mcast,
};

void rue_mcast_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_mcast_ops);
}
