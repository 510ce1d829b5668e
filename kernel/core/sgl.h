/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Moving data between scatter/gather lists of checked SGEs and packets.
 */
#ifndef _RUE_SGL_H
#define _RUE_SGL_H

#include <linux/skbuff.h>

struct rue_ksge;

bool rue_sgl_can_lend(const struct rue_ksge *sg, u32 nsge, u32 off, u32 len);
int rue_sgl_to_skb(const struct rue_ksge *sg, u32 nsge, u32 off, u32 len,
		   struct sk_buff *skb, bool lend);
int rue_sgl_from_skb(const struct rue_ksge *sg, u32 nsge, u32 off,
		     const struct sk_buff *skb, int skb_off, u32 len);
int rue_sgl_from_buf(const struct rue_ksge *sg, u32 nsge, u32 off,
		     const void *buf, u32 len);
bool rue_sgl_disjoint(const struct rue_ksge *sg, u32 nsge, gfp_t gfp);
void rue_sgl_put(struct rue_ksge *sg, u32 nsge);

#endif /* _RUE_SGL_H */
