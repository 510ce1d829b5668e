/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * The "rue" generic netlink family: configuration and state of rue devices.
 * Documentation/netlink/rue.yaml describes it; this header is its C form.
 *
 * Requests that change state need CAP_NET_ADMIN in the caller's network
 * namespace; GET requests are open to everyone.
 */
#ifndef _UAPI_LINUX_RUE_NETLINK_H
#define _UAPI_LINUX_RUE_NETLINK_H

#define RUE_GENL_NAME "rue"
#define RUE_GENL_VERSION 1

enum rue_cmd {
	RUE_CMD_UNSPEC,
	RUE_CMD_DEV_GET,	/* do: one device (DEV_INDEX or DEV_NAME); dump: all */

	__RUE_CMD_MAX,
	RUE_CMD_MAX = __RUE_CMD_MAX - 1
};

/* Attributes of a device (RUE_CMD_DEV_*). */
enum rue_dev_attr {
	RUE_A_DEV_UNSPEC,
	RUE_A_DEV_INDEX,		/* u32: ib_device index */
	RUE_A_DEV_NAME,			/* string: ib_device name */
	RUE_A_DEV_NETDEV_IFINDEX,	/* u32: lower netdev */
	RUE_A_DEV_NETDEV_NAME,		/* string */
	RUE_A_DEV_PORT_STATE,		/* u8: enum ib_port_state */
	RUE_A_DEV_PHYS_STATE,		/* u8: IB physical port state */
	RUE_A_DEV_ACTIVE_MTU,		/* u32: RoCE path MTU in bytes */
	RUE_A_DEV_NETDEV_MTU,		/* u32: IP MTU of the netdev */
	RUE_A_DEV_GIDS,			/* nest of RUE_A_DEV_GID */
	RUE_A_DEV_GID,			/* nest: enum rue_gid_attr */
	RUE_A_DEV_NODE_GUID,		/* u64, host order */
	RUE_A_DEV_PAD,

	__RUE_A_DEV_MAX,
	RUE_A_DEV_MAX = __RUE_A_DEV_MAX - 1
};

/* Attributes of one GID table entry. */
enum rue_gid_attr {
	RUE_A_GID_UNSPEC,
	RUE_A_GID_INDEX,		/* u32 */
	RUE_A_GID_GID,			/* binary, 16 bytes */
	RUE_A_GID_TYPE,			/* u8: enum rue_gid_type */

	__RUE_A_GID_MAX,
	RUE_A_GID_MAX = __RUE_A_GID_MAX - 1
};

enum rue_gid_type {
	RUE_GID_TYPE_IB = 0,
	RUE_GID_TYPE_ROCE_V1 = 1,
	RUE_GID_TYPE_ROCE_V2 = 2,
};

#endif /* _UAPI_LINUX_RUE_NETLINK_H */
