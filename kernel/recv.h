/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive path: from a UDP socket's encap hook to a device.
 */
#ifndef _RUE_RECV_H
#define _RUE_RECV_H

#include <linux/skbuff.h>
#include <net/sock.h>

int rue_recv_roce_encap(struct sock *sk, struct sk_buff *skb);

#endif /* _RUE_RECV_H */
