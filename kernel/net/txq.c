// SPDX-License-Identifier: GPL-2.0
/*
 * The device's transmit queues.
 *
 * A RoCE NIC's send queue has a fixed depth: when it is full, the
 * transport waits for completions to free slots.  rue's wire packets go
 * into the host's IP stack instead, and from there into queues that drop
 * when full: a qdisc, or on veth the peer CPU's backlog (at most
 * netdev_max_backlog packets).  A transport that builds packets as fast
 * as it can - the answer to an 8 MiB RDMA READ is 8192 packets of 1 KiB -
 * overflows them, and go-back-N then resends everything after each drop.
 *
 * So every wire packet is charged to a kernel socket of the device (one
 * of two: txq_sock.c) until the stack frees it: after a NIC's transmit
 * completion, or when the receiving stack takes it (ip_rcv_core() orphans
 * it).  That is how TCP small queues bound a socket's packets below it.
 * At most RUE_TXQ_BYTES are charged at a time, to both together.
 * Packets delivered in memory (loop.c) are not charged: that queue is
 * drained as it is filled.
 *
 * Priorities.  Like a NIC's port, the device has a queue per priority
 * (skb->priority, from the DSCP map: cc.c).  While nothing is queued or
 * paused, a finished packet goes straight to the stack.  Otherwise -
 * the charge is at its bound, the priority is paused by the link partner
 * (pfc.c), or the lower device has stopped a queue it has no qdisc for -
 * it waits in its priority's queue, uncharged, so that a paused priority
 * takes none of the others' room.  The drain work sends waiting packets
 * while the charge allows, choosing by IEEE 802.1Q transmission
 * selection: strict priorities first, highest first, then the ETS
 * priorities by deficit round robin over their weights.  A QP builds
 * packets only while its priority's queue holds less than
 * RUE_TXQ_PRIO_BYTES; above that it waits on the priority's list and is
 * kicked when a quarter of the queue has drained or the pause ends; a
 * drain that kicked QPs lets them run before it goes on.  Packets
 * built on receive (ACKs, CNPs) do not wait: above RUE_TXQ_PRIO_LIMIT
 * they are dropped and counted, and the transport recovers.
 *
 * Owners.  A packet that lends its QP's memory (page fragments of an MR)
 * must not go out once the QP is done with that memory: after the QP is
 * destroyed or has flushed its work requests in the error state, the
 * consumer may free or reuse the buffers, and a packet still queued here
 * would put whatever they hold then on the wire (under an ICRC computed
 * over the old bytes).  So packets carry their QP (rue_txq_set_owner());
 * the drain drops those that lend (page fragments) of a QP in ERR or
 * RESET, and destroy_qp removes them before it frees the QP
 * (rue_txq_purge()), which is also why the drain may look at a queued
 * packet's QP under txq->lock.  Both are counted as discards of the
 * priority, as are READ responses whose MR was taken back (lend.c).  A
 * packet that lends nothing still goes: a NAK queued as its QP failed
 * is the requester's only news of the error.
 *
 * Order.  A veth hands each packet to the input backlog of the CPU that
 * sends it, and two CPUs' backlogs are emptied independently: packets of
 * one QP sent from two CPUs can reach the peer out of order.  RC recovers
 * (at the cost of a go-back); UC loses the message.  So the drain work
 * always runs on one CPU per device (txq->cpu, devices spread over the
 * CPUs), and QPs that must keep their order run their engine there too
 * (RUE_XPORT_IN_ORDER, engine.c).  Other QPs send from where their
 * engine runs (a doorbell's system call, an ACK's softirq) until one of
 * their packets has to wait here: from then on it leaves from txq->cpu,
 * and so must the QP's next ones, or they overtake it (on 6.1 a backlog
 * filled from a workqueue may wait for ksoftirqd while another CPU's is
 * emptied at once: a slow receiver's pauses reordered hundreds of
 * packets per run).  The QP is pinned (RUE_TX_PINNED): its engine runs
 * on txq->cpu, and a packet it sends from elsewhere is queued.  It is let
 * go (rue_txq_unpin()) by a run that finds its priority's queue empty,
 * no drain under way and none of the drained packets in the stack -
 * nothing left to overtake.  Those are charged to a socket of their own
 * (txq->drain_sock), which says how many are left; the bound is on both
 * sockets' charge together.  A QP that never waits, as a latency test's,
 * never moves.
 *
 * Locking.  txq->lock (BH) protects the queues, the waiter lists and the
 * pause state; txq->state mirrors what the fast path needs in one word.
 * The sockets' write_space callback (txq_sock.c) runs as charged packets
 * are freed, in any context: it only queues the drain work.
 *
 * Lifetime.  The queues live as long as the device; the sockets from
 * attach to detach (txq_sock.c): rue_txq_close() stops the timers and the
 * drain, drops what is still queued and releases the sockets.
 */
#include <linux/cpumask.h>
#include <linux/ip.h>
#include <linux/net.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/sch_generic.h>
#include <net/sock.h>

#include "lend.h"
#include "txq.h"
#include "txq_sock.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/stats.h"

/* Headers and trailer of a packet, for the room estimate. */
#define RUE_TXQ_HDR_EST		128
/*
 * A priority's queue: QPs wait above this (as deep as the room in the
 * stack, so that a busy priority's QPs have time to refill it) ...
 */
#define RUE_TXQ_PRIO_BYTES	RUE_TXQ_BYTES
/* ... and packets that do not wait are dropped above this. */
#define RUE_TXQ_PRIO_LIMIT	(4 * RUE_TXQ_PRIO_BYTES)
/*
 * The drain runs once a quarter of the room is back, and QPs are kicked
 * when a quarter of their priority's queue is: a drain then takes less
 * than a queue's waiting QPs refill, so a strict priority with work stays
 * ahead of the ones below it.
 */
#define RUE_TXQ_LOW(bytes)	((bytes) / 4 * 3)
#define RUE_TXQ_PRIO_LOW	RUE_TXQ_LOW(RUE_TXQ_PRIO_BYTES)
/* Packets taken off the queues per lock hold, and batches per run. */
#define RUE_TXQ_BATCH		16
#define RUE_TXQ_RUNS		64
/* A stopped lower queue is looked at again after this long. */
#define RUE_TXQ_RETRY_NS	(20 * NSEC_PER_USEC)
/* ETS: bytes per round for each percent of weight. */
#define RUE_TXQ_QUANTUM		1024

#define RUE_TXQ_QUEUED(p)	BIT(p)
#define RUE_TXQ_PAUSED(p)	BIT(8 + (p))
#define RUE_TXQ_DRAINING	BIT(16)

static struct rue_dev *rue_txq_dev(struct rue_txq *txq)
{
	return container_of(txq, struct rue_dev, txq);
}

/*
 * A packet's owner lives in the control buffer's last bytes: rue_xmit()
 * sets IPCB/IP6CB (which end well before) after it is set, and the IP
 * layer takes the control buffer over only once the packet left us.
 */
#define RUE_TXQ_OWNER_OFF	(sizeof_field(struct sk_buff, cb) - sizeof(void *))
/* The owner of a packet the drain found stale: drop it. */
#define RUE_TXQ_STALE		((struct rue_qp *)1UL)

static struct rue_qp **rue_txq_owner(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct inet_skb_parm) > RUE_TXQ_OWNER_OFF);
	BUILD_BUG_ON(sizeof(struct inet6_skb_parm) > RUE_TXQ_OWNER_OFF);
	return (struct rue_qp **)(skb->cb + RUE_TXQ_OWNER_OFF);
}

/**
 * rue_txq_set_owner() - say which QP a packet comes from
 * @skb: a packet about to be sent (rue_xmit())
 * @qp: the QP, or NULL for packets of the device
 */
void rue_txq_set_owner(struct sk_buff *skb, struct rue_qp *qp)
{
	*rue_txq_owner(skb) = qp;
}

/* Priorities with packets that may go now; txq->lock held. */
static unsigned int rue_txq_ready(const struct rue_txq *txq)
{
	return txq->state & ~(txq->state >> 8) & 0xff;
}

/* Kick the QPs waiting on @pr; txq->lock held. */
static void rue_txq_kick(struct rue_txq_prio *pr)
{
	struct rue_qp *qp, *tmp;

	list_for_each_entry_safe(qp, tmp, &pr->waiters, txq_node) {
		list_del_init(&qp->txq_node);
		rue_qp_kick(qp);
	}
}

static bool rue_txq_budget_ok(struct rue_txq *txq)
{
	return rue_txq_charged(txq) < RUE_TXQ_BYTES;
}

/*
 * A device without a qdisc drops what it is given while its queue is
 * stopped (veth with peer backpressure, on newer kernels): hold packets
 * then.  Under rcu_read_lock().  With a qdisc, the qdisc holds them.
 */
static bool rue_txq_lower_stopped(struct net_device *ndev)
{
	unsigned int i, n = min(ndev->real_num_tx_queues, 16U);

	for (i = 0; i < n; i++) {
		struct netdev_queue *q = netdev_get_tx_queue(ndev, i);

		/* noqueue: the qdisc without an enqueue */
		if (unlikely(netif_xmit_stopped(q)) &&
		    !rcu_dereference(q->qdisc)->enqueue)
			return true;
	}
	return false;
}

/* Drop a packet that will not go, counted on its priority. */
static void rue_txq_discard(struct rue_dev *rdev, struct sk_buff *skb)
{
	rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
	rue_stat_inc(rdev, RUE_STAT_PRIO(skb->priority & (RUE_NPRIO - 1),
					 RUE_PRIO_TX_DISCARDS));
	kfree_skb(skb);
}

/*
 * Hand a finished packet to the IP stack, from the drain if @drained.
 * Under rcu_read_lock() with bottom halves off and tx_ok set.
 */
static int rue_txq_out(struct rue_dev *rdev, struct sk_buff *skb,
		       bool drained)
{
	unsigned int prio = skb->priority & (RUE_NPRIO - 1);
	unsigned int len = skb->len;
	int err;

	if (unlikely(!rue_lend_end(skb))) {
		rue_txq_discard(rdev, skb);
		return -EACCES;
	}
	skb_set_owner_w(skb, drained ? rdev->txq.drain_sock->sk :
				       rdev->txq.sock->sk);
	if (skb->protocol == htons(ETH_P_IP))
		err = ip_local_out(rdev->net, NULL, skb);
	else
		err = ip6_local_out(rdev->net, NULL, skb);
	err = net_xmit_eval(err);
	if (unlikely(err)) {
		rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
		rue_stat_inc(rdev, RUE_STAT_PRIO(prio, RUE_PRIO_TX_DISCARDS));
		return err > 0 ? -ENOBUFS : err;
	}
	rue_stat_inc(rdev, RUE_STAT_PRIO(prio, RUE_PRIO_TX_PACKETS));
	rue_stat_add(rdev, RUE_STAT_PRIO(prio, RUE_PRIO_TX_BYTES), len);
	return 0;
}

/*
 * Transmission selection (IEEE 802.1Q 8.6.8): the strict priorities
 * first, highest first; then the ETS ones by deficit round robin
 * (Shreedhar and Varghese): a priority's first visit in a round adds
 * its quantum, and it sends while its deficit covers the packet at its
 * head.  txq->lock held.
 *
 * Return: the priority to send from, or -1.
 */
static int rue_txq_pick(struct rue_txq *txq, const struct rue_cc_cfg *cfg)
{
	unsigned int ready = rue_txq_ready(txq);
	unsigned int strict = ready & ~cfg->ets_mask;
	unsigned int ets = ready & cfg->ets_mask;
	struct rue_txq_prio *pr;
	int i;

	if (strict)
		return fls(strict) - 1;
	if (!ets)
		return -1;
	/* A quantum is at least 1 KiB, so a packet waits a few rounds at most. */
	for (i = 0; i < RUE_NPRIO * 64; i++) {
		pr = &txq->prio[txq->rr];
		if (ets & BIT(txq->rr)) {
			if (!txq->rr_granted) {
				pr->deficit += max_t(int, cfg->ets_weight[txq->rr], 1) *
					       RUE_TXQ_QUANTUM;
				txq->rr_granted = true;
			}
			if (pr->deficit >= (int)skb_peek(&pr->q)->len)
				return txq->rr;
		}
		txq->rr = (txq->rr + 1) % RUE_NPRIO;
		txq->rr_granted = false;
	}
	return fls(ets) - 1;
}

/*
 * Take up to a batch of packets off the queues; txq->lock held.  Sets
 * *@kicked when QPs were woken to refill a queue.
 */
static bool rue_txq_take(struct rue_txq *txq, const struct rue_cc_cfg *cfg,
			 struct sk_buff_head *batch, bool *kicked)
{
	unsigned long state;
	struct rue_txq_prio *pr;
	struct sk_buff *skb;
	struct rue_qp *qp;
	int n, p;

	for (n = 0; n < RUE_TXQ_BATCH; n++) {
		p = rue_txq_pick(txq, cfg);
		if (p < 0)
			break;
		pr = &txq->prio[p];
		skb = __skb_dequeue(&pr->q);
		pr->qbytes -= skb->len;
		/* its QP is alive: destroy_qp purges under this lock */
		qp = *rue_txq_owner(skb);
		if (qp && skb_shinfo(skb)->nr_frags &&
		    (READ_ONCE(qp->state) == IB_QPS_ERR ||
		     READ_ONCE(qp->state) == IB_QPS_RESET))
			*rue_txq_owner(skb) = RUE_TXQ_STALE;
		if (cfg->ets_mask & BIT(p))
			pr->deficit -= skb->len;
		if (skb_queue_empty(&pr->q)) {
			WRITE_ONCE(txq->state, txq->state & ~RUE_TXQ_QUEUED(p));
			pr->deficit = 0;
		}
		if (pr->qbytes <= RUE_TXQ_PRIO_LOW && !list_empty(&pr->waiters)) {
			rue_txq_kick(pr);
			*kicked = true;
		}
		__skb_queue_tail(batch, skb);
	}
	state = txq->state;
	if (n)
		state |= RUE_TXQ_DRAINING;
	else
		state &= ~RUE_TXQ_DRAINING;
	/* after the charge of what it took before: rue_txq_unpin() */
	smp_store_release(&txq->state, state);
	return n > 0;
}

/*
 * Send one batch if there is room; under rcu_read_lock() with bottom
 * halves off, tx_ok set.  Return: whether to go on.  *@kicked as for
 * rue_txq_take().
 */
static bool rue_txq_drain_one(struct rue_txq *txq, struct sk_buff_head *batch,
			      bool *kicked)
{
	struct rue_dev *rdev = rue_txq_dev(txq);
	struct sk_buff *skb;
	bool took;

	/* out of room: write_space runs us again */
	if (!rue_txq_budget_ok(txq))
		return false;
	if (rue_txq_lower_stopped(rdev->ndev)) {
		hrtimer_start(&txq->retry_timer, ns_to_ktime(RUE_TXQ_RETRY_NS),
			      HRTIMER_MODE_REL_SOFT);
		return false;
	}
	spin_lock(&txq->lock);
	took = rue_txq_take(txq, rcu_dereference(rdev->cc), batch, kicked);
	spin_unlock(&txq->lock);
	while ((skb = __skb_dequeue(batch))) {
		if (unlikely(*rue_txq_owner(skb) == RUE_TXQ_STALE))
			rue_txq_discard(rdev, skb);
		else
			rue_txq_out(rdev, skb, true);
	}
	return took;
}

/* See "Order" above. */
static void rue_txq_drain_soon(struct rue_txq *txq)
{
	queue_work_on(txq->cpu, rue_txq_dev(txq)->wq, &txq->drain_work);
}

static void rue_txq_drain_work(struct work_struct *work)
{
	struct rue_txq *txq = container_of(work, struct rue_txq, drain_work);
	struct rue_dev *rdev = rue_txq_dev(txq);
	struct sk_buff_head batch;
	bool more, kicked = false;
	int runs;

	__skb_queue_head_init(&batch);
	for (runs = 0; ; runs++) {
		/*
		 * QPs woken to refill a queue run on this CPU's pool after
		 * us: go after them, or a higher priority's queue runs dry
		 * while we fill the room from lower ones.  And after a while,
		 * let the CPU do something else.
		 */
		if (kicked || runs == RUE_TXQ_RUNS) {
			rue_txq_drain_soon(txq);
			break;
		}
		/* as the transmit paths run: bottom halves off, under RCU */
		local_bh_disable();
		rcu_read_lock();
		more = READ_ONCE(rdev->tx_ok) &&
		       rue_txq_drain_one(txq, &batch, &kicked);
		rcu_read_unlock();
		local_bh_enable();
		if (!more)
			break;
	}
	spin_lock_bh(&txq->lock);
	/* after the charge of what it sent: rue_txq_unpin() */
	smp_store_release(&txq->state, txq->state & ~RUE_TXQ_DRAINING);
	spin_unlock_bh(&txq->lock);
}

static enum hrtimer_restart rue_txq_retry(struct hrtimer *timer)
{
	struct rue_txq *txq = container_of(timer, struct rue_txq, retry_timer);

	rue_txq_drain_soon(txq);
	return HRTIMER_NORESTART;
}

/* End a pause of priority @p, if it is paused; txq->lock held. */
static void rue_txq_resume(struct rue_txq *txq, unsigned int p, u64 now)
{
	struct rue_txq_prio *pr = &txq->prio[p];
	struct rue_dev *rdev = rue_txq_dev(txq);

	if (!(txq->state & RUE_TXQ_PAUSED(p)))
		return;
	WRITE_ONCE(txq->state, txq->state & ~RUE_TXQ_PAUSED(p));
	rue_stat_add(rdev, RUE_STAT_PRIO(p, RUE_PRIO_RX_PAUSE_DURATION),
		     div_u64(now - pr->pause_start, NSEC_PER_USEC));
	rue_stat_inc(rdev, RUE_STAT_PAUSE_TRANSITION);
	rue_txq_kick(pr);
	if (txq->state & RUE_TXQ_QUEUED(p))
		rue_txq_drain_soon(txq);
}

static enum hrtimer_restart rue_txq_resume_timer(struct hrtimer *timer)
{
	struct rue_txq_prio *pr = container_of(timer, struct rue_txq_prio,
					       resume_timer);
	struct rue_txq *txq = container_of(pr - pr->idx, struct rue_txq, prio[0]);
	u64 now = ktime_get_ns();

	spin_lock(&txq->lock);
	if (txq->state & RUE_TXQ_PAUSED(pr->idx)) {
		if (now >= pr->paused_until)
			rue_txq_resume(txq, pr->idx, now);
		else	/* refreshed while we fired */
			hrtimer_start(timer, ns_to_ktime(pr->paused_until),
				      HRTIMER_MODE_ABS_SOFT);
	}
	spin_unlock(&txq->lock);
	return HRTIMER_NORESTART;
}

/**
 * rue_txq_room_back() - charged packets were freed: drain, if it is time
 * @rdev: the device, found under RCU (txq_sock.c)
 */
void rue_txq_room_back(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;

	/* Pairs with rue_txq_xmit(): the uncharge is before this. */
	smp_mb();
	if ((READ_ONCE(txq->state) & 0xff) &&
	    rue_txq_charged(txq) <= RUE_TXQ_LOW(RUE_TXQ_BYTES))
		rue_txq_drain_soon(txq);
}

/**
 * rue_txq_pause() - pause or resume one priority (a PFC frame arrived)
 * @rdev: the device, attached
 * @prio: the priority
 * @ns: for how long from now, 0 to resume now
 *
 * A new pause time replaces the old one (IEEE 802.1Qbb 36.1.3.3).
 */
void rue_txq_pause(struct rue_dev *rdev, unsigned int prio, u64 ns)
{
	struct rue_txq *txq = &rdev->txq;
	struct rue_txq_prio *pr = &txq->prio[prio];
	u64 now = ktime_get_ns();

	spin_lock_bh(&txq->lock);
	if (!ns) {
		rue_txq_resume(txq, prio, now);
	} else {
		if (!(txq->state & RUE_TXQ_PAUSED(prio))) {
			pr->pause_start = now;
			WRITE_ONCE(txq->state, txq->state | RUE_TXQ_PAUSED(prio));
		}
		pr->paused_until = now + ns;
		hrtimer_start(&pr->resume_timer, ns_to_ktime(pr->paused_until),
			      HRTIMER_MODE_ABS_SOFT);
	}
	spin_unlock_bh(&txq->lock);
}

/**
 * rue_txq_pause_duration() - microseconds priority @prio has been paused
 * @rdev: the device
 * @prio: the priority
 *
 * The pause in progress counts too, as a NIC's duration counter does.
 * Under the lock that rue_txq_resume() adds a finished pause under, so
 * that successive readings never go back.
 */
u64 rue_txq_pause_duration(struct rue_dev *rdev, unsigned int prio)
{
	struct rue_txq *txq = &rdev->txq;
	u64 us;

	spin_lock_bh(&txq->lock);
	us = rue_stat_read(rdev, RUE_STAT_PRIO(prio, RUE_PRIO_RX_PAUSE_DURATION));
	if (txq->state & RUE_TXQ_PAUSED(prio))
		us += div_u64(ktime_get_ns() - txq->prio[prio].pause_start,
			      NSEC_PER_USEC);
	spin_unlock_bh(&txq->lock);
	return us;
}

/* The priorities paused now, for netlink. */
u8 rue_txq_paused(struct rue_dev *rdev)
{
	return (READ_ONCE(rdev->txq.state) >> 8) & 0xff;
}

/**
 * rue_txq_xmit() - send a finished wire packet, or queue it
 * @rdev: the device
 * @skb: the packet with its IP header and route; skb->priority says
 *	 its priority; consumed
 *
 * Under rcu_read_lock() with bottom halves off, tx_ok set.
 *
 * Return: 0 when sent or queued, else a negative errno (dropped and
 * counted).
 */
int rue_txq_xmit(struct rue_dev *rdev, struct sk_buff *skb)
{
	struct rue_txq *txq = &rdev->txq;
	unsigned int p = skb->priority & (RUE_NPRIO - 1);
	struct rue_txq_prio *pr = &txq->prio[p];
	struct rue_qp *qp = *rue_txq_owner(skb);
	bool drain, away;

	/* See "Order" above: a pinned QP's packets leave from txq->cpu. */
	away = qp && test_bit(RUE_TX_PINNED, &qp->tx_bits) &&
	       smp_processor_id() != txq->cpu;
	if (likely(!READ_ONCE(txq->state)) && !away &&
	    rue_txq_budget_ok(txq) && !rue_txq_lower_stopped(rdev->ndev))
		return rue_txq_out(rdev, skb, false);

	spin_lock(&txq->lock);
	if (!away && !(txq->state & (RUE_TXQ_DRAINING | RUE_TXQ_PAUSED(p))) &&
	    !rue_txq_ready(txq) && rue_txq_budget_ok(txq) &&
	    !rue_txq_lower_stopped(rdev->ndev)) {
		/* nothing waits before it */
		spin_unlock(&txq->lock);
		return rue_txq_out(rdev, skb, false);
	}
	if (unlikely(pr->qbytes >= RUE_TXQ_PRIO_LIMIT)) {
		spin_unlock(&txq->lock);
		rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
		rue_stat_inc(rdev, RUE_STAT_PRIO(p, RUE_PRIO_TX_DISCARDS));
		kfree_skb(skb);
		return -ENOBUFS;
	}
	__skb_queue_tail(&pr->q, skb);
	pr->qbytes += skb->len;
	if (qp && !test_bit(RUE_TX_PINNED, &qp->tx_bits))
		set_bit(RUE_TX_PINNED, &qp->tx_bits);
	WRITE_ONCE(txq->state, txq->state | RUE_TXQ_QUEUED(p));
	drain = !(txq->state & RUE_TXQ_PAUSED(p));
	spin_unlock(&txq->lock);
	/* Pairs with write_space: either it sees the queued bit, or we the room. */
	smp_mb();
	if (drain && rue_txq_budget_ok(txq))
		rue_txq_drain_soon(txq);
	return 0;
}

/* Devices made, to spread their drain CPUs. */
static atomic_t rue_txq_devs = ATOMIC_INIT(0);

/* At device allocation: QPs may wait and cancel before and after attach. */
void rue_txq_init(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;
	int p;

	spin_lock_init(&txq->lock);
	txq->cpu = cpumask_local_spread(atomic_inc_return(&rue_txq_devs),
					NUMA_NO_NODE);
	txq->state = 0;
	txq->sock = NULL;
	for (p = 0; p < RUE_NPRIO; p++) {
		struct rue_txq_prio *pr = &txq->prio[p];

		pr->idx = p;
		__skb_queue_head_init(&pr->q);
		INIT_LIST_HEAD(&pr->waiters);
		hrtimer_init(&pr->resume_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS_SOFT);
		pr->resume_timer.function = rue_txq_resume_timer;
	}
	INIT_WORK(&txq->drain_work, rue_txq_drain_work);
	hrtimer_init(&txq->retry_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	txq->retry_timer.function = rue_txq_retry;
}

/* Kick every waiting QP; txq->lock held. */
static void rue_txq_kick_all(struct rue_txq *txq)
{
	int p;

	for (p = 0; p < RUE_NPRIO; p++)
		rue_txq_kick(&txq->prio[p]);
}

/**
 * rue_txq_wake() - the priorities may have changed: kick every waiter
 * @rdev: the device
 */
void rue_txq_wake(struct rue_dev *rdev)
{
	spin_lock_bh(&rdev->txq.lock);
	rue_txq_kick_all(&rdev->txq);
	spin_unlock_bh(&rdev->txq.lock);
	rue_txq_drain_soon(&rdev->txq);
}

/**
 * rue_txq_close() - release the transmit queue
 * @rdev: a device detached, a grace period after rue_txq_unhook(), no
 *	  longer receiving PFC frames
 *
 * Queued packets are dropped and counted.  QPs still waiting are kicked:
 * they find the device detached, and what they send is dropped and
 * counted.  Packets still in flight keep the socket's memory until they
 * are freed.
 */
void rue_txq_close(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;
	struct sk_buff_head purge;
	struct sk_buff *skb;
	int p;

	__skb_queue_head_init(&purge);
	for (p = 0; p < RUE_NPRIO; p++)
		hrtimer_cancel(&txq->prio[p].resume_timer);
	hrtimer_cancel(&txq->retry_timer);
	cancel_work_sync(&txq->drain_work);

	spin_lock_bh(&txq->lock);
	for (p = 0; p < RUE_NPRIO; p++) {
		skb_queue_splice_tail_init(&txq->prio[p].q, &purge);
		txq->prio[p].qbytes = 0;
	}
	txq->state = 0;
	rue_txq_kick_all(txq);
	spin_unlock_bh(&txq->lock);

	while ((skb = __skb_dequeue(&purge)))
		rue_txq_discard(rdev, skb);
	rue_txq_sock_release(rdev);
}

/**
 * rue_txq_room() - how many wire packets a QP may build now
 * @qp: the QP about to run its transmit engine
 * @budget: the most it would build
 *
 * A QP whose packets stay in memory, or that is in the error state (it
 * only flushes), is not limited.
 *
 * Return: @budget or less; 0 when its priority's queue is full, and then
 * the QP is kicked (rue_qp_kick()) once there is room.
 */
int rue_txq_room(struct rue_qp *qp, int budget)
{
	struct rue_dev *rdev = qp->rdev;
	struct rue_txq *txq = &rdev->txq;
	struct rue_txq_prio *pr;
	unsigned int p;
	int room;

	if (READ_ONCE(qp->loop) || READ_ONCE(qp->state) == IB_QPS_ERR)
		return budget;
	rcu_read_lock();
	if (!READ_ONCE(rdev->tx_ok)) {
		/* rue_xmit() drops and counts: nothing to wait for */
		rcu_read_unlock();
		return budget;
	}
	p = rue_cc_prio(rcu_dereference(rdev->cc), qp->av.tclass);
	if (!(READ_ONCE(txq->state) & (RUE_TXQ_QUEUED(p) | RUE_TXQ_PAUSED(p)))) {
		room = RUE_TXQ_BYTES - rue_txq_charged(txq);
		if (room > 0) {
			rcu_read_unlock();
			return min_t(int, budget,
				     DIV_ROUND_UP(room, SKB_TRUESIZE(qp->mtu +
								   RUE_TXQ_HDR_EST)));
		}
	}
	/* What does not fit in the stack waits in the priority's queue. */
	pr = &txq->prio[p];
	spin_lock_bh(&txq->lock);
	room = RUE_TXQ_PRIO_BYTES - pr->qbytes;
	if (room <= 0 && list_empty(&qp->txq_node))
		list_add_tail(&qp->txq_node, &pr->waiters);
	spin_unlock_bh(&txq->lock);
	rcu_read_unlock();
	if (room <= 0)
		return 0;
	return min_t(int, budget, DIV_ROUND_UP(room, qp->mtu + RUE_TXQ_HDR_EST));
}

/**
 * rue_txq_unpin() - let a pinned QP send from any CPU again, if it may
 * @qp: the QP, in its engine's run (RUE_TX_RUNNING held): nothing else
 *	sends its packets meanwhile
 *
 * It may once nothing waits in its priority's queue, no drain is under
 * way and nothing drained is in the stack: then none of its own packets
 * is left to overtake (txq.c, Order).
 */
void rue_txq_unpin(struct rue_qp *qp)
{
	struct rue_dev *rdev = qp->rdev;
	struct rue_txq *txq = &rdev->txq;
	unsigned long state;
	unsigned int p;

	if (likely(!test_bit(RUE_TX_PINNED, &qp->tx_bits)))
		return;
	rcu_read_lock();
	if (!READ_ONCE(rdev->tx_ok))
		goto out;	/* what it sends is dropped: no order to keep */
	p = rue_cc_prio(rcu_dereference(rdev->cc), qp->av.tclass);
	/*
	 * The drain charges what it took before it clears DRAINING (a
	 * release): read after the state, the charge includes it.
	 */
	state = smp_load_acquire(&txq->state);
	if (!(state & (RUE_TXQ_QUEUED(p) | RUE_TXQ_DRAINING)) &&
	    !sk_wmem_alloc_get(txq->drain_sock->sk))
		clear_bit(RUE_TX_PINNED, &qp->tx_bits);
out:
	rcu_read_unlock();
}

/**
 * rue_txq_cancel() - take a QP off the waiters
 * @qp: a QP being destroyed, in the error state
 *
 * After this no drain or resume kicks the QP.
 */
void rue_txq_cancel(struct rue_qp *qp)
{
	struct rue_txq *txq = &qp->rdev->txq;

	spin_lock_bh(&txq->lock);
	list_del_init(&qp->txq_node);
	spin_unlock_bh(&txq->lock);
}

/**
 * rue_txq_purge() - drop the packets a QP left in the queues that lend
 * @qp: a QP being destroyed, whose engine and receive path have stopped:
 *	it queues no more packets
 *
 * After this no queued packet refers to the QP or lends its memory; the
 * others go as the device's.
 */
void rue_txq_purge(struct rue_qp *qp)
{
	struct rue_dev *rdev = qp->rdev;
	struct rue_txq *txq = &rdev->txq;
	struct sk_buff *skb, *tmp;
	struct sk_buff_head purge;
	struct rue_txq_prio *pr;
	int p;

	__skb_queue_head_init(&purge);
	spin_lock_bh(&txq->lock);
	for (p = 0; p < RUE_NPRIO; p++) {
		pr = &txq->prio[p];
		skb_queue_walk_safe(&pr->q, skb, tmp) {
			if (*rue_txq_owner(skb) != qp)
				continue;
			*rue_txq_owner(skb) = NULL;
			if (!skb_shinfo(skb)->nr_frags)
				continue;
			__skb_unlink(skb, &pr->q);
			pr->qbytes -= skb->len;
			__skb_queue_tail(&purge, skb);
		}
		if (skb_queue_empty(&pr->q) && (txq->state & RUE_TXQ_QUEUED(p))) {
			WRITE_ONCE(txq->state, txq->state & ~RUE_TXQ_QUEUED(p));
			pr->deficit = 0;
		}
		/* the room it leaves is for the QPs waiting on it */
		if (pr->qbytes <= RUE_TXQ_PRIO_LOW)
			rue_txq_kick(pr);
	}
	spin_unlock_bh(&txq->lock);
	while ((skb = __skb_dequeue(&purge)))
		rue_txq_discard(rdev, skb);
}
