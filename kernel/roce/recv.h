/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive path: from a UDP socket's encap hook to a device.
 */
#ifndef _RUE_RECV_H
#define _RUE_RECV_H

#include <linux/skbuff.h>
#include <net/sock.h>

struct rue_av;
struct rue_dev;

int rue_recv_roce_encap(struct sock *sk, struct sk_buff *skb);
int rue_recv_uet_encap(struct sock *sk, struct sk_buff *skb);
void rue_recv_roce(struct rue_dev *rdev, struct sk_buff *skb);
struct rue_loop_addr;
void rue_recv_local(struct rue_dev *rdev, struct sk_buff *skb,
		    const struct rue_loop_addr *addr);

#endif /* _RUE_RECV_H */
