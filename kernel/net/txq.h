/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device's transmit queues: one per priority, a scheduler between
 * them, pause per priority (PFC), and a bound on the packets inside the
 * host's network stack.
 */
#ifndef _RUE_TXQ_H
#define _RUE_TXQ_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "cc/cc.h"

struct rue_dev;
struct rue_qp;
struct sock;
struct socket;

struct rue_txq_prio {
	struct sk_buff_head q;		/* built, waiting to go; txq->lock */
	u32 qbytes;			/* their length */
	int deficit;			/* ETS: bytes it may still send */
	struct list_head waiters;	/* QPs waiting for room (qp->txq_node) */
	u64 paused_until;		/* ns, while paused */
	u64 pause_start;		/* ns */
	struct hrtimer resume_timer;	/* ends a pause */
	u8 idx;				/* the priority */
};

struct rue_txq {
	struct socket *sock;		/* owner of packets in the stack ... */
	struct socket *drain_sock;	/* ... or of those the drain sent */
	spinlock_t lock;		/* everything below */
	/*
	 * Bits 0-7: the priority has queued packets; 8-15: it is paused;
	 * RUE_TXQ_DRAINING: packets taken off a queue are being sent.
	 * Written under the lock, read without it by the fast path: zero
	 * means nothing is queued or paused.
	 */
	unsigned long state;
	u8 rr;				/* ETS: the priority being served */
	bool rr_granted;		/* it has had its quantum this round */
	struct rue_txq_prio prio[RUE_NPRIO];
	struct work_struct drain_work;	/* sends queued packets ... */
	int cpu;			/* ... from this CPU (txq.c, Order) */
	struct hrtimer retry_timer;	/* the lower device stopped its queue */
	void (*saved_write_space)(struct sock *sk);
};

void rue_txq_init(struct rue_dev *rdev);
void rue_txq_close(struct rue_dev *rdev);
void rue_txq_room_back(struct rue_dev *rdev);
int rue_txq_room(struct rue_qp *qp, int budget);
void rue_txq_unpin(struct rue_qp *qp);
int rue_txq_xmit(struct rue_dev *rdev, struct sk_buff *skb);
void rue_txq_cancel(struct rue_qp *qp);
void rue_txq_set_owner(struct sk_buff *skb, struct rue_qp *qp);
void rue_txq_purge(struct rue_qp *qp);
void rue_txq_wake(struct rue_dev *rdev);
void rue_txq_pause(struct rue_dev *rdev, unsigned int prio, u64 ns);
u64 rue_txq_pause_duration(struct rue_dev *rdev, unsigned int prio);
u8 rue_txq_paused(struct rue_dev *rdev);

/*
 * Priorities whose packets wait in rue now: queued behind others, or
 * paused by PFC.  Read without the lock: a hint.
 */
static inline u8 rue_txq_held(const struct rue_txq *txq)
{
	unsigned long s = READ_ONCE(txq->state);

	return (s | s >> 8) & 0xff;
}

#endif /* _RUE_TXQ_H */
