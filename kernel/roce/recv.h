/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 receive path: a packet for a device to the QP it names.
 */
#ifndef _RUE_RECV_H
#define _RUE_RECV_H

#include <linux/skbuff.h>

struct rue_dev;
struct rue_loop_addr;

void rue_recv_roce(struct rue_dev *rdev, struct sk_buff *skb);
void rue_recv_local(struct rue_dev *rdev, struct sk_buff *skb,
		    const struct rue_loop_addr *addr);

#endif /* _RUE_RECV_H */
