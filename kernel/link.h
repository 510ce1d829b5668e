/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma link add/delete and the netdev notifier.
 */
#ifndef _RUE_LINK_H
#define _RUE_LINK_H

int rue_link_init(void);
void rue_link_exit(void);

#endif /* _RUE_LINK_H */
