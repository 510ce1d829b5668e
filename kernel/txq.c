// SPDX-License-Identifier: GPL-2.0
/*
 * The device's transmit queue.
 *
 * A RoCE NIC's send queue has a fixed depth: when it is full, the
 * transport waits for completions to free slots.  rue's wire packets go
 * into the host's IP stack instead, and from there into queues that drop
 * when full: a qdisc, or on veth the peer CPU's backlog (at most
 * netdev_max_backlog packets).  A transport that builds packets as fast
 * as it can - the answer to an 8 MiB RDMA READ is 8192 packets of 1 KiB -
 * overflows them, and go-back-N then resends everything after each drop.
 *
 * So every wire packet is charged to a kernel socket of the device
 * (skb_set_owner_w()) until the stack frees it: after a NIC's transmit
 * completion, or when the receiving stack takes it (ip_rcv_core() orphans
 * it).  That is how TCP small queues bound a socket's packets below it.
 * Transmit engines build wire packets only while the charge is below
 * RUE_TXQ_BYTES; a QP that finds no room waits on a list, and the
 * socket's write_space callback, which the stack calls as charged
 * packets are freed, kicks the waiters once half the room is back.
 * Packets delivered in memory (loop.c) are not charged: that queue is
 * drained as it is filled.
 *
 * Lifetime.  The socket exists from attach to detach (device.c).  Packets
 * in flight keep its memory alive (sk_wmem_alloc), not the device's:
 * write_space finds the device through sk_user_data under RCU, which
 * rue_txq_unhook() clears, restoring the socket's own callback, a grace
 * period before rue_txq_close() releases the socket.  The waiters lock
 * is taken with interrupts off: packets may be freed with them off.
 */
#include <linux/net.h>
#include <net/sock.h>

#include "device.h"
#include "qp.h"
#include "txq.h"

/*
 * About 400 packets of a 1 KiB MTU: well under netdev_max_backlog (1000)
 * even for two devices sending on one CPU, and far more than a veth or a
 * NIC needs to stay busy.
 */
#define RUE_TXQ_BYTES	(1024 * 1024)

/* Headers and trailer of a packet, for the room estimate. */
#define RUE_TXQ_HDR_EST	128

/* At device allocation: QPs may wait and cancel before and after attach. */
void rue_txq_init(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;

	spin_lock_init(&txq->lock);
	INIT_LIST_HEAD(&txq->waiters);
	txq->nwait = 0;
	txq->sock = NULL;
}

/* Kick every waiting QP; txq->lock held. */
static void rue_txq_kick_all(struct rue_txq *txq)
{
	struct rue_qp *qp, *tmp;

	list_for_each_entry_safe(qp, tmp, &txq->waiters, txq_node) {
		list_del_init(&qp->txq_node);
		rue_qp_kick(qp);
	}
	WRITE_ONCE(txq->nwait, 0);
}

/* Called as charged packets are freed, in any context but hard IRQ. */
static void rue_txq_write_space(struct sock *sk)
{
	struct rue_dev *rdev;
	struct rue_txq *txq;
	unsigned long flags;

	rcu_read_lock();
	rdev = rcu_dereference_sk_user_data(sk);
	if (!rdev)
		goto out;
	txq = &rdev->txq;
	/* Ordered after the uncharge by sock_wfree()'s atomic; see room(). */
	if (!READ_ONCE(txq->nwait) ||
	    sk_wmem_alloc_get(sk) > READ_ONCE(sk->sk_sndbuf) / 2)
		goto out;
	/*
	 * Kick under the lock: rue_txq_cancel() takes it too, so a QP on
	 * the list is not being destroyed.
	 */
	spin_lock_irqsave(&txq->lock, flags);
	rue_txq_kick_all(txq);
	spin_unlock_irqrestore(&txq->lock, flags);
out:
	rcu_read_unlock();
}

/**
 * rue_txq_open() - create the device's transmit queue
 * @rdev: a device attaching to its namespace, not transmitting yet
 *
 * Return: 0 or a negative errno.
 */
int rue_txq_open(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;
	struct socket *sock;
	struct sock *sk;
	int err;

	err = sock_create_kern(rdev->net, PF_INET, SOCK_DGRAM, IPPROTO_UDP,
			       &sock);
	if (err)
		return err;
	sk = sock->sk;
	lock_sock(sk);
	sk->sk_sndbuf = RUE_TXQ_BYTES;
	sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
	/* Keep each QP's flow hash: the stack spreads flows by it. */
	sk->sk_txhash = 0;
	release_sock(sk);

	write_lock_bh(&sk->sk_callback_lock);
	txq->saved_write_space = sk->sk_write_space;
	sk->sk_write_space = rue_txq_write_space;
	rcu_assign_sk_user_data(sk, rdev);
	write_unlock_bh(&sk->sk_callback_lock);
	txq->sock = sock;
	return 0;
}

/**
 * rue_txq_unhook() - stop the socket's callbacks from finding the device
 * @rdev: a device detaching; tx_ok is already clear
 *
 * A grace period (synchronize_net()) must pass before rue_txq_close().
 */
void rue_txq_unhook(struct rue_dev *rdev)
{
	struct sock *sk;

	if (!rdev->txq.sock)
		return;
	sk = rdev->txq.sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_sk_user_data(sk, NULL);
	sk->sk_write_space = rdev->txq.saved_write_space;
	write_unlock_bh(&sk->sk_callback_lock);
}

/**
 * rue_txq_close() - release the transmit queue
 * @rdev: a device detached, a grace period after rue_txq_unhook()
 *
 * QPs still waiting are kicked: they find the device detached, and what
 * they send is dropped and counted.  Packets still in flight keep the
 * socket's memory until they are freed.
 */
void rue_txq_close(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;
	unsigned long flags;

	if (!txq->sock)
		return;
	spin_lock_irqsave(&txq->lock, flags);
	rue_txq_kick_all(txq);
	spin_unlock_irqrestore(&txq->lock, flags);
	sock_release(txq->sock);
	txq->sock = NULL;
}

/**
 * rue_txq_room() - how many wire packets a QP may build now
 * @qp: the QP about to run its transmit engine
 * @budget: the most it would build
 *
 * A QP whose packets stay in memory, or that is in the error state (it
 * only flushes), is not limited.
 *
 * Return: @budget or less; 0 when the queue is full, and then the QP is
 * kicked (rue_qp_kick()) once there is room.
 */
int rue_txq_room(struct rue_qp *qp, int budget)
{
	struct rue_dev *rdev = qp->rdev;
	struct rue_txq *txq = &rdev->txq;
	unsigned int per_pkt;
	unsigned long flags;
	struct sock *sk;
	int room;

	if (READ_ONCE(qp->loop) || READ_ONCE(qp->state) == IB_QPS_ERR)
		return budget;
	rcu_read_lock();
	if (!READ_ONCE(rdev->tx_ok)) {
		/* rue_xmit() drops and counts: nothing to wait for */
		rcu_read_unlock();
		return budget;
	}
	sk = txq->sock->sk;
	per_pkt = SKB_TRUESIZE(qp->mtu + RUE_TXQ_HDR_EST);
	room = READ_ONCE(sk->sk_sndbuf) - sk_wmem_alloc_get(sk);
	if (room <= 0) {
		spin_lock_irqsave(&txq->lock, flags);
		if (list_empty(&qp->txq_node)) {
			list_add_tail(&qp->txq_node, &txq->waiters);
			WRITE_ONCE(txq->nwait, txq->nwait + 1);
		}
		spin_unlock_irqrestore(&txq->lock, flags);
		/*
		 * Pairs with the ordered uncharge in sock_wfree(): either
		 * write_space sees nwait, or we see its room.  If we do, we
		 * stay listed; a spurious kick costs one empty run.
		 */
		smp_mb();
		room = READ_ONCE(sk->sk_sndbuf) - sk_wmem_alloc_get(sk);
	}
	rcu_read_unlock();
	if (room <= 0)
		return 0;
	return min_t(int, budget, DIV_ROUND_UP(room, per_pkt));
}

/**
 * rue_txq_charge() - charge a wire packet to its device's queue
 * @rdev: the device, attached (called under rcu_read_lock() with tx_ok)
 * @skb: the packet, about to enter the IP stack
 */
void rue_txq_charge(struct rue_dev *rdev, struct sk_buff *skb)
{
	skb_set_owner_w(skb, rdev->txq.sock->sk);
}

/**
 * rue_txq_cancel() - take a QP off the waiters
 * @qp: a QP being destroyed, in the error state
 *
 * After this no write_space call kicks the QP.
 */
void rue_txq_cancel(struct rue_qp *qp)
{
	struct rue_txq *txq = &qp->rdev->txq;
	unsigned long flags;

	spin_lock_irqsave(&txq->lock, flags);
	if (!list_empty(&qp->txq_node)) {
		list_del_init(&qp->txq_node);
		WRITE_ONCE(txq->nwait, txq->nwait - 1);
	}
	spin_unlock_irqrestore(&txq->lock, flags);
}
