// SPDX-License-Identifier: GPL-2.0
/*
 * Priority-based flow control (IEEE 802.1Qbb).
 *
 * Receiving.  A packet_type handler for ETH_P_PAUSE (0x8808) on the
 * lower netdev reads MAC control frames.  A PFC frame (opcode 0x0101)
 * carries a class-enable vector and a pause time per priority in quanta
 * of 512 bit times at the link speed; for each priority that is enabled
 * in the frame and has PFC on here, the device's transmit queue for that
 * priority pauses for that long, or resumes at time 0 (txq.c).  A paused
 * priority keeps its packets and its QPs wait; nothing is dropped.
 * Frames too short for a MAC control frame or with an unknown opcode are
 * counted as malformed; 802.3x PAUSE and PFC for priorities without PFC
 * are counted as ignored.  The reserved high byte of the class-enable
 * vector is ignored on receipt (802.1Qbb 36.1.3.2).
 *
 * Sending.  With PFC on for a priority and pfc_xoff set, RoCEv2 packets
 * of that priority (by their DSCP) do not go through the transport in
 * the UDP socket's softirq: they wait in a per-priority receive backlog
 * that a work item on an unbound workqueue ("rue_rx_<dev>", tunable in
 * /sys/devices/virtual/workqueue) works through.  When a priority's
 * backlog passes pfc_xoff bytes, the device sends XOFF for it (pfc_quanta)
 * and repeats it every half pause time while the backlog stays above
 * pfc_xon; below pfc_xon it sends XON.  The backlog takes pfc_xoff plus
 * RUE_PFC_HEADROOM bytes - what the link partner may still send before
 * the XOFF reaches it - and drops and counts beyond that.
 *
 * Locking and lifetime.  pfc->lock (BH) guards the backlog and the XOFF
 * state; settings arrive through rue_pfc_config() under rdev->cc_lock.
 * The handler is registered while the device is attached and removed
 * (dev_remove_pack() waits for running handlers) before the transmit
 * queues close.  The workqueue is created the first time a backlog is
 * configured and destroyed with the device.
 */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/dsfield.h>

#include "pfc.h"
#include "txq.h"
#include "core/device.h"
#include "core/stats.h"
#include "roce/recv.h"

#define RUE_PFC_OPCODE		0x0101
#define RUE_PAUSE_OPCODE	0x0001
/* What the partner may have sent before our XOFF stops it. */
#define RUE_PFC_HEADROOM	(2 * 1024 * 1024)
/* Quanta are 512 bit times; a link of unknown speed counts as 10 Gb/s. */
#define RUE_PFC_QUANTUM_BITS	512
#define RUE_PFC_DEFAULT_MBPS	10000
#define RUE_PFC_BATCH		16

/* A MAC control frame after its Ethernet header (802.1Qbb 36.1.3). */
struct rue_pfc_ctl {
	__be16 opcode;
	__be16 class_enable;		/* high byte reserved */
	__be16 time[RUE_NPRIO];		/* quanta */
} __packed;

/* With its padding, the minimum Ethernet payload. */
#define RUE_PFC_CTL_MIN		(ETH_ZLEN - ETH_HLEN)

static_assert(sizeof(struct rue_pfc_ctl) == 20);

static const u8 rue_pfc_dmac[ETH_ALEN] __aligned(2) = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x01
};

static struct rue_dev *rue_pfc_dev(struct rue_pfc *pfc)
{
	return container_of(pfc, struct rue_dev, pfc);
}

/* Pause quanta at the link speed, in ns. */
static u64 rue_pfc_quanta_ns(struct rue_dev *rdev, u16 quanta)
{
	u32 mbps = READ_ONCE(rdev->link_mbps) ?: RUE_PFC_DEFAULT_MBPS;

	/* bits / (Mb/s) = us */
	return div_u64((u64)quanta * RUE_PFC_QUANTUM_BITS * NSEC_PER_USEC, mbps);
}

/* ------------------------------------------------------------------ */
/* Receiving PFC frames                                                */

static int rue_pfc_rcv(struct sk_buff *skb, struct net_device *ndev,
		       struct packet_type *pt, struct net_device *orig)
{
	struct rue_pfc *pfc = container_of(pt, struct rue_pfc, pt);
	struct rue_dev *rdev = rue_pfc_dev(pfc);
	const struct rue_pfc_ctl *ctl;
	const struct rue_cc_cfg *cfg;
	unsigned long act;
	unsigned int p;
	u8 enable;

	/*
	 * Other taps (a packet socket, another handler of the ethertype)
	 * may hold the same skb: ours to pull only after unsharing it.
	 */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		rue_stat_inc(rdev, RUE_STAT_PFC_MALFORMED);
		return NET_RX_DROP;
	}
	/* only frames to the reserved address or to us pause a port */
	if (!ether_addr_equal(eth_hdr(skb)->h_dest, rue_pfc_dmac) &&
	    !ether_addr_equal(eth_hdr(skb)->h_dest, ndev->dev_addr)) {
		rue_stat_inc(rdev, RUE_STAT_PFC_IGNORED);
		goto out;
	}
	if (skb->len < RUE_PFC_CTL_MIN ||
	    !pskb_may_pull(skb, sizeof(*ctl))) {
		rue_stat_inc(rdev, RUE_STAT_PFC_MALFORMED);
		goto out;
	}
	ctl = (const struct rue_pfc_ctl *)skb->data;
	if (ctl->opcode == htons(RUE_PAUSE_OPCODE)) {
		rue_stat_inc(rdev, RUE_STAT_PFC_IGNORED);
		goto out;
	}
	if (ctl->opcode != htons(RUE_PFC_OPCODE)) {
		rue_stat_inc(rdev, RUE_STAT_PFC_MALFORMED);
		goto out;
	}
	enable = ntohs(ctl->class_enable) & 0xff;
	rcu_read_lock();
	cfg = rcu_dereference(rdev->cc);
	act = enable & cfg->pfc_enable;
	rcu_read_unlock();
	if (enable & ~act)
		rue_stat_inc(rdev, RUE_STAT_PFC_IGNORED);
	for_each_set_bit(p, &act, RUE_NPRIO) {
		rue_stat_inc(rdev, RUE_STAT_PRIO(p, RUE_PRIO_RX_PAUSE));
		rue_txq_pause(rdev, p,
			      rue_pfc_quanta_ns(rdev, ntohs(ctl->time[p])));
	}
out:
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Sending PFC frames                                                  */

/* XOFF (@quanta > 0) or XON for the priorities in @mask.  BH off. */
static void rue_pfc_send(struct rue_dev *rdev, unsigned long mask, u16 quanta)
{
	struct net_device *ndev = rdev->ndev;
	struct rue_pfc_ctl *ctl;
	struct sk_buff *skb;
	struct ethhdr *eth;
	unsigned int p;

	skb = alloc_skb(LL_RESERVED_SPACE(ndev) + ETH_ZLEN, GFP_ATOMIC);
	if (!skb) {
		rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
		return;
	}
	skb_reserve(skb, LL_RESERVED_SPACE(ndev));
	eth = skb_put_zero(skb, ETH_ZLEN);
	ether_addr_copy(eth->h_dest, rue_pfc_dmac);
	ether_addr_copy(eth->h_source, ndev->dev_addr);
	eth->h_proto = htons(ETH_P_PAUSE);
	ctl = (struct rue_pfc_ctl *)(eth + 1);
	ctl->opcode = htons(RUE_PFC_OPCODE);
	ctl->class_enable = htons(mask);
	for_each_set_bit(p, &mask, RUE_NPRIO)
		ctl->time[p] = htons(quanta);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb->dev = ndev;
	skb->protocol = htons(ETH_P_PAUSE);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_queue_xmit(skb) != NET_XMIT_SUCCESS) {
		rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
		return;
	}
	for_each_set_bit(p, &mask, RUE_NPRIO)
		rue_stat_inc(rdev, RUE_STAT_PRIO(p, RUE_PRIO_TX_PAUSE));
}

/*
 * While some priority is held in XOFF, say so again every half pause.
 * Always hrtimer_start(), from the callback too: a new XOFF may restart
 * the timer while it runs, and forwarding an enqueued timer is a bug.
 */
static void rue_pfc_arm_refresh(struct rue_dev *rdev, u16 quanta)
{
	u64 ns = max_t(u64, rue_pfc_quanta_ns(rdev, quanta) / 2, NSEC_PER_USEC);

	hrtimer_start(&rdev->pfc.refresh_timer, ns_to_ktime(ns),
		      HRTIMER_MODE_REL_SOFT);
}

static enum hrtimer_restart rue_pfc_refresh(struct hrtimer *timer)
{
	struct rue_pfc *pfc = container_of(timer, struct rue_pfc, refresh_timer);
	struct rue_dev *rdev = rue_pfc_dev(pfc);
	u8 mask;
	u16 quanta;

	spin_lock(&pfc->lock);
	mask = pfc->asserted;
	quanta = pfc->quanta;
	spin_unlock(&pfc->lock);
	if (!mask || !READ_ONCE(rdev->tx_ok))
		return HRTIMER_NORESTART;
	rue_pfc_send(rdev, mask, quanta);
	rue_pfc_arm_refresh(rdev, quanta);
	return HRTIMER_NORESTART;
}

/* ------------------------------------------------------------------ */
/* The receive backlog                                                 */

/* The packet's priority, as rue_pfc_rx_hold() filed it. */
static u8 rue_pfc_skb_prio(const struct sk_buff *skb)
{
	return skb->priority & (RUE_NPRIO - 1);
}

static u8 rue_pfc_pkt_prio(struct rue_dev *rdev, struct sk_buff *skb)
{
	u8 tos = ip_hdr(skb)->version == 4 ? ip_hdr(skb)->tos :
					     ipv6_get_dsfield(ipv6_hdr(skb));

	return rue_cc_prio(rcu_dereference(rdev->cc), tos);
}

/**
 * rue_pfc_rx_hold() - put a received packet in its priority's backlog
 * @rdev: the device it is for
 * @skb: a RoCEv2 packet from the UDP socket, data at the UDP header
 *
 * In the socket's softirq, under rcu_read_lock().
 *
 * Return: true if the packet was taken (queued, or dropped and counted),
 * false if its priority is not held: the caller goes on with it.
 */
bool rue_pfc_rx_hold(struct rue_dev *rdev, struct sk_buff *skb)
{
	struct rue_pfc *pfc = &rdev->pfc;
	u8 p = rue_pfc_pkt_prio(rdev, skb);
	bool xoff = false;
	u16 quanta = 0;

	/* pairs with rue_pfc_config(): a held priority has pfc->wq */
	if (!(smp_load_acquire(&pfc->hold) & BIT(p)))
		return false;
	/* The route is the softirq's (noref); the transport needs none. */
	skb_dst_drop(skb);
	spin_lock(&pfc->lock);
	if (pfc->rxbytes[p] + skb->len > pfc->limit) {
		spin_unlock(&pfc->lock);
		rue_stat_inc(rdev, RUE_STAT_PRIO(p, RUE_PRIO_RX_DISCARDS));
		kfree_skb(skb);
		return true;
	}
	skb->priority = p;
	__skb_queue_tail(&pfc->rxq[p], skb);
	pfc->rxbytes[p] += skb->len;
	if (pfc->rxbytes[p] > pfc->xoff && !(pfc->asserted & BIT(p))) {
		pfc->asserted |= BIT(p);
		quanta = pfc->quanta;
		xoff = true;
	}
	spin_unlock(&pfc->lock);
	if (xoff) {
		rue_pfc_send(rdev, BIT(p), quanta);
		rue_pfc_arm_refresh(rdev, quanta);
	}
	queue_work(pfc->wq, &pfc->rx_work);
	return true;
}

/* Take a batch off the backlog, highest priority first; pfc->lock held. */
static u8 rue_pfc_take(struct rue_pfc *pfc, struct sk_buff_head *batch)
{
	struct sk_buff *skb;
	u8 xon = 0;
	int p, n = 0;

	for (p = RUE_NPRIO - 1; p >= 0 && n < RUE_PFC_BATCH; p--) {
		while (n < RUE_PFC_BATCH && (skb = __skb_dequeue(&pfc->rxq[p]))) {
			pfc->rxbytes[p] -= skb->len;
			__skb_queue_tail(batch, skb);
			n++;
		}
		if ((pfc->asserted & BIT(p)) && pfc->rxbytes[p] <= pfc->xon) {
			pfc->asserted &= ~BIT(p);
			xon |= BIT(p);
		}
	}
	return xon;
}

static void rue_pfc_rx_work(struct work_struct *work)
{
	struct rue_pfc *pfc = container_of(work, struct rue_pfc, rx_work);
	struct rue_dev *rdev = rue_pfc_dev(pfc);
	struct sk_buff_head batch;
	struct sk_buff *skb;
	int runs;
	u8 xon;

	__skb_queue_head_init(&batch);
	for (runs = 0; runs < 64; runs++) {
		local_bh_disable();
		spin_lock(&pfc->lock);
		xon = rue_pfc_take(pfc, &batch);
		spin_unlock(&pfc->lock);
		if (xon)
			rue_pfc_send(rdev, xon, 0);
		if (skb_queue_empty(&batch)) {
			local_bh_enable();
			return;
		}
		/* as the UDP socket's softirq would have */
		rcu_read_lock();
		while ((skb = __skb_dequeue(&batch)))
			rue_recv_roce(rdev, skb);
		rcu_read_unlock();
		local_bh_enable();
		cond_resched();
	}
	queue_work(pfc->wq, &pfc->rx_work);
}

/* ------------------------------------------------------------------ */
/* Settings and lifetime                                               */

/* At device allocation. */
void rue_pfc_init(struct rue_dev *rdev)
{
	struct rue_pfc *pfc = &rdev->pfc;
	int p;

	spin_lock_init(&pfc->lock);
	for (p = 0; p < RUE_NPRIO; p++)
		__skb_queue_head_init(&pfc->rxq[p]);
	INIT_WORK(&pfc->rx_work, rue_pfc_rx_work);
	hrtimer_init(&pfc->refresh_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	pfc->refresh_timer.function = rue_pfc_refresh;
	pfc->pt.type = htons(ETH_P_PAUSE);
	pfc->pt.func = rue_pfc_rcv;
}

/* At dealloc_driver, detached. */
void rue_pfc_free(struct rue_dev *rdev)
{
	if (rdev->pfc.wq)
		destroy_workqueue(rdev->pfc.wq);
}

/**
 * rue_pfc_config() - apply new settings
 * @rdev: the device
 * @cfg: its settings, just published
 *
 * Called with rdev->cc_lock held, in process context.  Priorities that
 * stop being held get XON if they were in XOFF; what they have in the
 * backlog is still delivered.
 *
 * Return: 0, or -ENOMEM if the backlog's workqueue cannot be created
 * (the backlog then stays off).
 */
int rue_pfc_config(struct rue_dev *rdev, const struct rue_cc_cfg *cfg)
{
	struct rue_pfc *pfc = &rdev->pfc;
	u8 hold = cfg->pfc_xoff ? cfg->pfc_enable : 0;
	unsigned long xon;

	lockdep_assert_held(&rdev->cc_lock);
	if (hold && !pfc->wq) {
		pfc->wq = alloc_workqueue("rue_rx_%s", WQ_UNBOUND | WQ_SYSFS, 0,
					  dev_name(&rdev->ibdev.dev));
		if (!pfc->wq)
			return -ENOMEM;
	}
	spin_lock_bh(&pfc->lock);
	pfc->xoff = cfg->pfc_xoff;
	pfc->xon = min(cfg->pfc_xon, cfg->pfc_xoff);
	pfc->limit = cfg->pfc_xoff + max_t(u32, cfg->pfc_xoff, RUE_PFC_HEADROOM);
	pfc->quanta = cfg->pfc_quanta;
	xon = pfc->asserted & ~hold;
	pfc->asserted &= hold;
	/* the workqueue before the bits that lead to it */
	smp_store_release(&pfc->hold, hold);
	spin_unlock_bh(&pfc->lock);
	if (xon && READ_ONCE(rdev->tx_ok)) {
		local_bh_disable();
		rue_pfc_send(rdev, xon, 0);
		local_bh_enable();
	}
	return 0;
}

/* Priorities held in XOFF now, for netlink. */
u8 rue_pfc_asserted(struct rue_dev *rdev)
{
	return READ_ONCE(rdev->pfc.asserted);
}

/**
 * rue_pfc_attach() - listen for PFC frames on the lower netdev
 * @rdev: a device attaching, before it transmits
 */
void rue_pfc_attach(struct rue_dev *rdev)
{
	rdev->pfc.pt.dev = rdev->ndev;
	dev_add_pack(&rdev->pfc.pt);
	rdev->pfc.listening = true;
}

/**
 * rue_pfc_detach() - stop listening and empty the backlog
 * @rdev: a device detached from its namespace: no longer in the lookup
 *	  hash, a grace period passed, so nothing new enters the backlog
 *
 * A priority still in XOFF gets XON, so the partner need not wait for
 * its pause to run out.
 */
void rue_pfc_detach(struct rue_dev *rdev)
{
	struct rue_pfc *pfc = &rdev->pfc;
	struct sk_buff_head purge;
	struct sk_buff *skb;
	unsigned long xon;
	int p;

	if (!pfc->listening)
		return;
	dev_remove_pack(&pfc->pt);
	pfc->listening = false;
	hrtimer_cancel(&pfc->refresh_timer);
	cancel_work_sync(&pfc->rx_work);

	__skb_queue_head_init(&purge);
	spin_lock_bh(&pfc->lock);
	for (p = 0; p < RUE_NPRIO; p++) {
		skb_queue_splice_tail_init(&pfc->rxq[p], &purge);
		pfc->rxbytes[p] = 0;
	}
	xon = pfc->asserted;
	pfc->asserted = 0;
	spin_unlock_bh(&pfc->lock);
	while ((skb = __skb_dequeue(&purge))) {
		rue_stat_inc(rdev, RUE_STAT_PRIO(rue_pfc_skb_prio(skb),
						 RUE_PRIO_RX_DISCARDS));
		kfree_skb(skb);
	}
	if (xon) {
		local_bh_disable();
		rue_pfc_send(rdev, xon, 0);
		local_bh_enable();
	}
}
