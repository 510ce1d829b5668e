/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCEv2 Invariant CRC, IBTA annex A17.3.3.
 */
#ifndef _RUE_ICRC_H
#define _RUE_ICRC_H

#include <linux/skbuff.h>

u32 rue_icrc(const struct sk_buff *skb, unsigned int bth_off,
	     unsigned int len);
int rue_icrc_selftest(void);

#endif /* _RUE_ICRC_H */
