/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QPs over the "rue" netlink family.
 */
#ifndef _RUE_NL_QP_H
#define _RUE_NL_QP_H

#include <net/genetlink.h>

int rue_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _RUE_NL_QP_H */
