/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Local delivery: packets to an address of this network namespace that a
 * rue device owns go straight to that device's receive path.
 */
#ifndef _RUE_LOOP_H
#define _RUE_LOOP_H

#include <linux/in6.h>
#include <linux/skbuff.h>

struct rue_av;
struct rue_dev;

/* What a packet delivered in memory carries instead of an IP header. */
struct rue_loop_addr {
	struct in6_addr saddr;		/* IPv4 addresses IPv4-mapped */
	struct in6_addr daddr;
	u8 tos;
	u8 hop_limit;
	bool ipv6;
	u8 nseg;			/* struct rue_tx_cb */
	u8 last_opcode;
};

bool rue_loop_deliver(struct rue_dev *rdev, const struct rue_av *av,
		      struct dst_entry *dst, struct sk_buff *skb, u8 tos);
int rue_loop_init(void);
void rue_loop_exit(void);

#endif /* _RUE_LOOP_H */
