/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control and queueing settings over the "rue" netlink family.
 */
#ifndef _RUE_NL_CC_H
#define _RUE_NL_CC_H

#include <net/genetlink.h>
#include <linux/rue_netlink.h>

extern const struct nla_policy rue_cc_policy[RUE_A_CC_MAX + 1];

int rue_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info);
int rue_nl_cc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rue_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _RUE_NL_CC_H */
