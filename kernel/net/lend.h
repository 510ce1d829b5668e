/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets that lend the pages of an MR that can be taken back while
 * they wait to go out: RDMA READ responses.
 */
#ifndef _RUE_LEND_H
#define _RUE_LEND_H

#include <linux/skbuff.h>

struct rue_mr;

void rue_lend_set(struct sk_buff *skb, struct rue_mr *mr, u32 key);
bool rue_lend_end(struct sk_buff *skb);

#endif /* _RUE_LEND_H */
