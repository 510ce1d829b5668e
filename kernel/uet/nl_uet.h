/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET jobs, PDCs and counters over the "rue" netlink family.
 */
#ifndef _RUE_NL_UET_H
#define _RUE_NL_UET_H

#include <net/genetlink.h>
#include <linux/rue_netlink.h>

extern const struct nla_policy rue_job_policy[RUE_A_JOB_MAX + 1];

int rue_nl_job_new_doit(struct sk_buff *skb, struct genl_info *info);
int rue_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info);
int rue_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info);
int rue_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rue_nl_pdc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rue_nl_uet_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int rue_nl_uet_stats_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);

#endif /* _RUE_NL_UET_H */
