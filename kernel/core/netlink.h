/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "rue" generic netlink family, and what its per-object files share.
 */
#ifndef _RUE_NETLINK_H
#define _RUE_NETLINK_H

#include <net/genetlink.h>
#include <linux/rue_netlink.h>

struct rue_dev;

extern const struct nla_policy rue_dev_policy[RUE_A_DEV_MAX + 1];

/* An object's attributes in a message about @rdev; 0 or -EMSGSIZE. */
typedef int (*rue_nl_put_fn)(struct sk_buff *msg, struct rue_dev *rdev,
			     void *arg);

struct rue_dev *rue_nl_dev_get(const struct sk_buff *req, struct nlattr **tb,
			       struct netlink_ext_ack *extack);
void *rue_nl_put_dev(struct sk_buff *msg, struct rue_dev *rdev, u32 portid,
		     u32 seq, int flags, u8 cmd);
int rue_nl_fill(struct sk_buff *msg, struct rue_dev *rdev, u32 portid,
		u32 seq, int flags, u8 cmd, rue_nl_put_fn put, void *arg);
int rue_nl_reply(struct genl_info *info, struct rue_dev *rdev,
		 rue_nl_put_fn put, void *arg);

/* Which devices a dump covers. */
enum rue_nl_scope {
	RUE_NL_EVERY_DEV,		/* all of them, whatever the request */
	RUE_NL_NAMED_DEV,		/* the one the request must name */
	RUE_NL_NAMED_OR_EVERY_DEV,	/* the one named, or all if none is */
};

/*
 * A dump (rue_nl_dump()).  @fill adds @rdev's messages from *@cursor on
 * (0: its first object), one per object, with rue_nl_dump_msg(); when
 * one does not fit it returns -EMSGSIZE with *@cursor at that object,
 * and the dump's next call resumes there.
 */
struct rue_nl_dumper {
	enum rue_nl_scope scope;
	int (*fill)(struct sk_buff *msg, struct netlink_callback *cb,
		    struct rue_dev *rdev, unsigned long *cursor);
};

int rue_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
		const struct rue_nl_dumper *d);
int rue_nl_dump_msg(struct sk_buff *msg, struct netlink_callback *cb,
		    struct rue_dev *rdev, rue_nl_put_fn put, void *arg);

int rue_netlink_init(void);
void rue_netlink_exit(void);

#endif /* _RUE_NETLINK_H */
