/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IEEE 802.1Qbb priority-based flow control on the lower netdev: PFC
 * frames received pause the device's transmit queues (txq.c); a receive
 * backlog per priority sends XOFF and XON.
 */
#ifndef _RUE_PFC_H
#define _RUE_PFC_H

#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "cc/cc.h"

struct rue_dev;

struct rue_pfc {
	struct packet_type pt;		/* ETH_P_PAUSE on the lower netdev */
	bool listening;
	/*
	 * Priorities whose received packets wait in the backlog: PFC on and
	 * an XOFF threshold set.  Read without the lock.
	 */
	u8 hold;
	spinlock_t lock;		/* the backlog and XOFF state (BH) */
	u8 asserted;			/* XOFF sent, XON not yet */
	u32 xoff, xon, limit;		/* bytes, from the settings */
	u16 quanta;
	struct sk_buff_head rxq[RUE_NPRIO];
	u32 rxbytes[RUE_NPRIO];
	struct work_struct rx_work;	/* works through the backlog */
	struct hrtimer refresh_timer;	/* XOFF again before it runs out */
	struct workqueue_struct *wq;	/* rx_work: unbound, in sysfs */
};

void rue_pfc_init(struct rue_dev *rdev);
void rue_pfc_free(struct rue_dev *rdev);
void rue_pfc_attach(struct rue_dev *rdev);
void rue_pfc_detach(struct rue_dev *rdev);
int rue_pfc_config(struct rue_dev *rdev, const struct rue_cc_cfg *cfg);
bool rue_pfc_rx_hold(struct rue_dev *rdev, struct sk_buff *skb);
u8 rue_pfc_asserted(struct rue_dev *rdev);

#endif /* _RUE_PFC_H */
