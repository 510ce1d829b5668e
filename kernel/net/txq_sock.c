// SPDX-License-Identifier: GPL-2.0
/*
 * The sockets that own rue's packets in the IP stack.
 *
 * Every wire packet is charged to a kernel UDP socket of the device
 * (skb_set_owner_w()) from when it is handed to the stack until the
 * stack frees it (txq.c says why, and what bounds the charge).  There are
 * two: txq->sock for packets sent as they were built, txq->drain_sock for
 * those the drain sent from the device's queues, so that what the second
 * still holds says whether a drained packet may yet be overtaken (txq.c,
 * Order).  Their callback, write_space, runs as charged packets are
 * freed, in any context: it only looks whether to drain.
 *
 * Lifetime.  The sockets exist from attach to detach (device.c).  Packets
 * in flight keep their memory alive (sk_wmem_alloc), not the device's:
 * write_space finds the device through sk_user_data under RCU, which
 * rue_txq_unhook() clears, restoring the sockets' own callback, a grace
 * period before rue_txq_close() releases them.
 */
#include <linux/net.h>
#include <net/sock.h>

#include "txq.h"
#include "txq_sock.h"
#include "core/device.h"

/**
 * rue_txq_charged() - bytes charged to the device's sockets: in the stack
 * @txq: the transmit queue of an attached device (tx_ok read as set)
 */
int rue_txq_charged(struct rue_txq *txq)
{
	return sk_wmem_alloc_get(txq->sock->sk) +
	       sk_wmem_alloc_get(txq->drain_sock->sk);
}

/* Called as charged packets are freed, in any context but hard IRQ. */
static void rue_txq_write_space(struct sock *sk)
{
	struct rue_dev *rdev;

	rcu_read_lock();
	rdev = rcu_dereference_sk_user_data(sk);
	if (rdev)
		rue_txq_room_back(rdev);
	rcu_read_unlock();
}

/* One of the device's sockets, its callback hooked. */
static int rue_txq_sock_new(struct rue_dev *rdev, struct socket **sockp)
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
	*sockp = sock;
	return 0;
}

static void rue_txq_sock_unhook(struct rue_txq *txq, struct socket *sock)
{
	struct sock *sk;

	if (!sock)
		return;
	sk = sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_sk_user_data(sk, NULL);
	sk->sk_write_space = txq->saved_write_space;
	write_unlock_bh(&sk->sk_callback_lock);
}

/**
 * rue_txq_open() - create the device's sockets
 * @rdev: a device attaching to its namespace, not transmitting yet
 *
 * Return: 0 or a negative errno.
 */
int rue_txq_open(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;
	struct socket *sock, *drain_sock;
	int err;

	err = rue_txq_sock_new(rdev, &sock);
	if (err)
		return err;
	err = rue_txq_sock_new(rdev, &drain_sock);
	if (err)
		goto err_sock;
	txq->sock = sock;
	txq->drain_sock = drain_sock;
	return 0;

err_sock:
	/* nothing was sent: no callback can be running */
	rue_txq_sock_unhook(txq, sock);
	sock_release(sock);
	return err;
}

/**
 * rue_txq_unhook() - stop the sockets' callbacks from finding the device
 * @rdev: a device detaching; tx_ok is already clear
 *
 * A grace period (synchronize_net()) must pass before rue_txq_close().
 */
void rue_txq_unhook(struct rue_dev *rdev)
{
	rue_txq_sock_unhook(&rdev->txq, rdev->txq.sock);
	rue_txq_sock_unhook(&rdev->txq, rdev->txq.drain_sock);
}

/**
 * rue_txq_sock_release() - release the sockets, if they were made
 * @rdev: a device detached, a grace period after rue_txq_unhook()
 *
 * Packets still in flight keep the sockets' memory until they are freed.
 */
void rue_txq_sock_release(struct rue_dev *rdev)
{
	struct rue_txq *txq = &rdev->txq;

	if (!txq->sock)
		return;
	sock_release(txq->sock);
	sock_release(txq->drain_sock);
	txq->sock = NULL;
	txq->drain_sock = NULL;
}
