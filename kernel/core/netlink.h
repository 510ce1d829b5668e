/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RUE_NETLINK_H
#define _RUE_NETLINK_H

int rue_netlink_init(void);
void rue_netlink_exit(void);

#endif /* _RUE_NETLINK_H */
