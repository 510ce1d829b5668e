/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's transmit queue: a bound on its packets inside the host's
 * network stack.
 */
#ifndef _RUE_TXQ_H
#define _RUE_TXQ_H

#include <linux/list.h>
#include <linux/spinlock.h>

struct rue_dev;
struct rue_qp;
struct sk_buff;
struct sock;
struct socket;

struct rue_txq {
	struct socket *sock;		/* owner of packets in flight */
	spinlock_t lock;		/* waiters */
	struct list_head waiters;	/* QPs waiting for room (qp->txq_node) */
	unsigned int nwait;		/* list length; read without the lock */
	void (*saved_write_space)(struct sock *sk);
};

void rue_txq_init(struct rue_dev *rdev);
int rue_txq_open(struct rue_dev *rdev);
void rue_txq_unhook(struct rue_dev *rdev);
void rue_txq_close(struct rue_dev *rdev);
int rue_txq_room(struct rue_qp *qp, int budget);
void rue_txq_charge(struct rue_dev *rdev, struct sk_buff *skb);
void rue_txq_cancel(struct rue_qp *qp);

#endif /* _RUE_TXQ_H */
