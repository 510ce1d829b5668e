// SPDX-License-Identifier: GPL-2.0
/*
 * Local delivery.
 *
 * When a packet's destination is an address of the sender's own network
 * namespace (the route is local: same device, or another netdev of the
 * namespace), and a rue device owns that address, the packet never needs
 * a wire: it goes from the transmit path to the receive path of that
 * device in memory, without IP and UDP headers, without the ICRC (which
 * protects packets on wires), and without the IP stack and lo.  RoCE NICs
 * loop such traffic back inside the adapter for the same reason.
 *
 * Receiving can send (an ACK), and sending can receive (the ACK's
 * handler runs the transmitter), so delivery never recurses: packets go
 * to a per-CPU queue, drained by whoever finds it idle, a bounded number
 * at a time; the rest continue from a work item on the same CPU, so a
 * long transfer cannot keep a CPU in softirq.  Bottom halves are disabled
 * throughout, which keeps the queue per-CPU and holds off RCU grace
 * periods while a packet points at its device; queued packets also hold
 * a reference on their device.
 */
#include <linux/inetdevice.h>
#include <linux/percpu.h>
#include <net/addrconf.h>
#include <net/ip6_fib.h>
#include <net/route.h>

#include "lend.h"
#include "loop.h"
#include "core/ah.h"
#include "core/device.h"
#include "core/stats.h"
#include "roce/pkt.h"
#include "roce/recv.h"

#define RUE_LOOP_BUDGET 256

struct rue_loop {
	struct sk_buff_head queue;
	bool busy;
	struct work_struct work;
};

struct rue_loop_cb {
	struct rue_dev *rdev;		/* referenced */
	struct rue_loop_addr addr;
};

static DEFINE_PER_CPU(struct rue_loop, rue_loops);
static struct workqueue_struct *rue_loop_wq;

static struct rue_loop_cb *rue_loop_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct rue_loop_cb) > sizeof(skb->cb));
	return (struct rue_loop_cb *)skb->cb;
}

static void rue_loop_drain(struct rue_loop *lp, int budget)
{
	struct rue_dev *rdev;
	struct sk_buff *skb;

	lp->busy = true;
	while (budget-- > 0 && (skb = __skb_dequeue(&lp->queue))) {
		/* rue_recv_local() frees the skb, and its cb with it */
		rdev = rue_loop_cb(skb)->rdev;
		rue_recv_local(rdev, skb, &rue_loop_cb(skb)->addr);
		ib_device_put(&rdev->ibdev);
	}
	lp->busy = false;
	if (!skb_queue_empty(&lp->queue))
		queue_work_on(smp_processor_id(), rue_loop_wq, &lp->work);
}

static void rue_loop_work(struct work_struct *work)
{
	local_bh_disable();
	rue_loop_drain(this_cpu_ptr(&rue_loops), RUE_LOOP_BUDGET);
	local_bh_enable();
}

/* The rue device owning the destination of a local route, if any. */
static struct rue_dev *rue_loop_target(struct rue_dev *rdev,
				       const struct rue_av *av,
				       struct dst_entry *dst)
{
	struct net_device *ndev;

	if (av->network_type == RDMA_NETWORK_IPV4) {
		if (((struct rtable *)dst)->rt_type != RTN_LOCAL)
			return NULL;
		ndev = __ip_dev_find(rdev->net, av->daddr.s6_addr32[3], false);
	} else {
		if (!(((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL))
			return NULL;
		ndev = ipv6_dev_find(rdev->net, &av->daddr, NULL);
	}
	return ndev ? rue_dev_from_netdev_rcu(ndev) : NULL;
}

/**
 * rue_loop_deliver() - deliver a packet in memory if its route is local
 * @rdev: the sending device
 * @av: where the packet goes
 * @dst: its route
 * @skb: transport headers and payload, data at the BTH, no pad or ICRC
 * @tos: the TOS byte it would have carried
 *
 * Called under rcu_read_lock() with bottom halves disabled.
 *
 * Return: true if the packet was taken (delivered, queued, or dropped
 * because the destination device is going away); false if the caller
 * sends it on the wire.
 */
bool rue_loop_deliver(struct rue_dev *rdev, const struct rue_av *av,
		      struct dst_entry *dst, struct sk_buff *skb, u8 tos)
{
	struct rue_loop *lp = this_cpu_ptr(&rue_loops);
	struct rue_loop_cb *cb;
	struct rue_dev *target;
	u8 nseg, last;

	target = rue_loop_target(rdev, av, dst);
	if (!target)
		return false;
	if (!ib_device_try_get(&target->ibdev)) {
		kfree_skb(skb);
		return true;
	}
	/* lent pages of a region taken back (lend.c); before the cb goes */
	if (unlikely(!rue_lend_end(skb))) {
		ib_device_put(&target->ibdev);
		rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
		kfree_skb(skb);
		return true;
	}
	/* read before the loop cb overwrites it: both live in skb->cb */
	nseg = rue_tx_cb(skb)->nseg;
	last = rue_tx_cb(skb)->last_opcode;
	cb = rue_loop_cb(skb);
	cb->rdev = target;
	cb->addr.saddr = av->saddr;
	cb->addr.daddr = av->daddr;
	cb->addr.tos = tos;
	cb->addr.hop_limit = av->hop_limit ?: 64;
	cb->addr.ipv6 = av->network_type != RDMA_NETWORK_IPV4;
	cb->addr.nseg = nseg;
	cb->addr.last_opcode = last;
	__skb_queue_tail(&lp->queue, skb);
	if (!lp->busy)
		rue_loop_drain(lp, RUE_LOOP_BUDGET);
	return true;
}

int rue_loop_init(void)
{
	int cpu;

	rue_loop_wq = alloc_workqueue("rue_loop", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!rue_loop_wq)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct rue_loop *lp = per_cpu_ptr(&rue_loops, cpu);

		__skb_queue_head_init(&lp->queue);
		INIT_WORK(&lp->work, rue_loop_work);
	}
	return 0;
}

/*
 * Devices are gone, and with them every queued packet (each held its
 * device, so unregistration waited for the work items to drain them).
 */
void rue_loop_exit(void)
{
	destroy_workqueue(rue_loop_wq);
}
