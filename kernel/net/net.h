/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-network-namespace UDP sockets: RoCEv2 (4791) and UET (4793).
 */
#ifndef _RUE_NET_H
#define _RUE_NET_H

#include <net/net_namespace.h>

int rue_net_get(struct net *net);
void rue_net_put(struct net *net);

int rue_net_init(void);
void rue_net_exit(void);

#endif /* _RUE_NET_H */
