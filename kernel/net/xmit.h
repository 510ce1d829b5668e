/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transmit: from RoCEv2 transport headers and payload to an IP packet
 * handed to the network stack.
 */
#ifndef _RUE_XMIT_H
#define _RUE_XMIT_H

#include <linux/skbuff.h>
#include <net/dst_cache.h>

struct rue_av;
struct rue_dev;

/* Payloads up to this many bytes are copied; larger ones lend pages. */
#define RUE_COPY_MAX 256

enum {
	RUE_XMIT_WIRE,		/* handed to the IP stack */
	RUE_XMIT_LOCAL,		/* delivered in memory (loop.c) */
};

struct sk_buff *rue_xmit_alloc(struct rue_dev *rdev, unsigned int linear,
			       gfp_t gfp);
int rue_xmit(struct rue_dev *rdev, const struct rue_av *av,
	     struct dst_cache *dc, __be16 sport, __be16 dport,
	     struct sk_buff *skb, unsigned int pad, u8 tos);
int rue_xmit_uet(struct rue_dev *rdev, const struct rue_av *av,
		 struct dst_cache *dc, __be16 sport, struct sk_buff *skb,
		 u8 tos);

#endif /* _RUE_XMIT_H */
