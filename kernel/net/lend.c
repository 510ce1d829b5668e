// SPDX-License-Identifier: GPL-2.0
/*
 * Lent memory of RDMA READ responses.
 *
 * A READ response of more than RUE_COPY_MAX bytes lends the pages of the
 * responder's MR to the packet (rc_resp_tx.c): they are read when the
 * packet goes out, not when it is built.  Between the two it may wait in
 * the device's transmit queues (txq.c), for as long as the link partner
 * keeps its priority paused (802.1Qbb) - which the remote that asked for
 * the data can do.  Meanwhile the responder's consumer may take the MR
 * back (LOCAL_INV, SEND_WITH_INV, deregistration, registering it again)
 * and put other data in its pages: from then on the region is not to be
 * accessed (IBTA vol 1, 10.6), and the packet must not carry what the
 * pages hold by the time it goes.
 *
 * So such a packet carries its MR, referenced, and the key the READ
 * named (rue_lend_set()).  Where it leaves rue - to the IP stack
 * (txq.c) or to a local device (loop.c) - rue_lend_end() asks whether
 * the region is still the one that key named (rue_mr_still()); if not,
 * the packet is dropped - counted by the caller as the other drops of
 * its path, tx_prioN_discards (txq.c) or tx_drops (loop.c): the counter
 * table has no room for one of its own (stats.c) - and the requester,
 * missing responses, asks again and meets the invalid key.
 * The reference belongs to skb->destructor, which is rue's until txq.c
 * charges the packet to its socket, so every path that frees the packet
 * before then (a full queue, a purge, a destroyed QP) drops it too.
 *
 * Not covered: a packet handed to the stack is the stack's.  A qdisc or
 * a NIC ring that holds it (a lower device that obeys 802.3x PAUSE)
 * sends what the pages hold when it sends - the same window as for the
 * packets of a destroyed QP (txq.c, "Owners").
 *
 * The MR and key live in the control buffer, after the IPCB/IP6CB that
 * rue_xmit() clears and before the owner (txq.c) at its end.
 */
#include <net/ip.h>
#include <net/ipv6.h>

#include "lend.h"
#include "core/mr.h"

struct rue_lend_cb {
	struct rue_mr *mr;		/* referenced */
	u32 key;
};

#define RUE_LEND_CB_OFF \
	(sizeof_field(struct sk_buff, cb) - sizeof(void *) - \
	 sizeof(struct rue_lend_cb))

static struct rue_lend_cb *rue_lend_cb(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct inet_skb_parm) > RUE_LEND_CB_OFF);
	BUILD_BUG_ON(sizeof(struct inet6_skb_parm) > RUE_LEND_CB_OFF);
	return (struct rue_lend_cb *)(skb->cb + RUE_LEND_CB_OFF);
}

static void rue_lend_release(struct sk_buff *skb)
{
	rue_mr_put(rue_lend_cb(skb)->mr);
}

/**
 * rue_lend_set() - a packet lends pages of @mr, which @key names
 * @skb: a packet just built, without a destructor
 * @mr: the region (or window) the pages are of; the packet references it
 * @key: the rkey the request named
 */
void rue_lend_set(struct sk_buff *skb, struct rue_mr *mr, u32 key)
{
	struct rue_lend_cb *cb = rue_lend_cb(skb);

	WARN_ON_ONCE(skb->destructor);
	refcount_inc(&mr->refcnt);
	cb->mr = mr;
	cb->key = key;
	skb->destructor = rue_lend_release;
}

/**
 * rue_lend_end() - the packet leaves rue: may it?
 * @skb: any packet about to go to the stack or a local device
 *
 * Drops the packet's reference on the MR it lends from, if any.
 *
 * Return: false if the pages it lends belong to a region that was taken
 * back since; the caller drops the packet and counts it.
 */
bool rue_lend_end(struct sk_buff *skb)
{
	struct rue_lend_cb *cb;
	bool ok;

	if (likely(skb->destructor != rue_lend_release))
		return true;
	cb = rue_lend_cb(skb);
	ok = rue_mr_still(cb->mr, cb->key);
	skb_orphan(skb);
	return ok;
}
