// SPDX-License-Identifier: GPL-2.0
/*
 * The "rue" generic netlink family (Documentation/netlink/rue.yaml,
 * uapi/linux/rue_netlink.h): the family, what every command shares
 * (finding the device a request names, the header of each message, the
 * reply to a do, the walk of a dump), and the device object.  Each other
 * object answers in its own file: QPs (nl_qp.c), congestion control and
 * queueing (cc/nl_cc.c), UET jobs, PDCs and counters (uet/nl_uet.c).
 *
 * Every message about a device starts with its index and name.  Objects
 * are read through their own APIs, in process context, with a reference
 * on the device and no lock of theirs held here.
 *
 * Who sees what.  A request reaches the devices of its socket's network
 * namespace only (the host's administrator's reach every device, see
 * rue_nl_visible()).  Devices, settings and counters are anyone's there to
 * read; what is live per connection (QPs and PDCs: PSNs, PDC IDs, peers,
 * enough to forge packets into another tenant's flows) and every change
 * take CAP_NET_ADMIN over that namespace (GENL_UNS_ADMIN_PERM; jobs, the
 * UET access policy, take it over the initial one).
 */
#include <net/genetlink.h>
#include <rdma/ib_cache.h>
#include <linux/rue_netlink.h>

#include "device.h"
#include "netlink.h"
#include "nl_qp.h"
#include "cc/nl_cc.h"
#include "uet/nl_uet.h"

static struct genl_family rue_genl_family;

const struct nla_policy rue_dev_policy[RUE_A_DEV_MAX + 1] = {
	[RUE_A_DEV_INDEX] = { .type = NLA_U32 },
	[RUE_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IB_DEVICE_NAME_MAX - 1 },
	[RUE_A_DEV_CC] = NLA_POLICY_NESTED(rue_cc_policy),
	[RUE_A_DEV_JOB] = NLA_POLICY_NESTED(rue_job_policy),
};

/* ------------------------------------------------------------------ */
/* What every command shares                                           */

/*
 * Requests see the devices of the requester's network namespace only:
 * another namespace's devices, their addresses and their traffic are not
 * its business (a container's netns holds its own devices).  The host's
 * administrator (CAP_NET_ADMIN over the initial user namespace, checked
 * for the socket's opener and the caller by netlink_capable()) sees
 * every device, as "rdma dev" does in shared mode: it owns every
 * namespace anyway.  @req: the request (a dump's cb->skb): the kernel's
 * genetlink socket of the requester's netns owns it, NETLINK_CB() names
 * the requester's socket.
 */
static bool rue_nl_visible(const struct rue_dev *rdev,
			   const struct sk_buff *req)
{
	return net_eq(rdev->net, sock_net(req->sk)) ||
	       netlink_capable(req, CAP_NET_ADMIN);
}

struct rue_nl_find {
	const struct sk_buff *req;
	const char *name;
	struct rue_dev *found;
};

static int rue_nl_match_name(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_find *f = arg;

	if (!rue_nl_visible(rdev, f->req) ||
	    strcmp(dev_name(&rdev->ibdev.dev), f->name))
		return 0;
	if (!ib_device_try_get(&rdev->ibdev))
		return 0;
	f->found = rdev;
	return 1;
}

/* The device of @net with this index, referenced, or NULL. */
static struct rue_dev *rue_nl_dev_by_index(const struct sk_buff *req,
					   u32 index)
{
	struct rue_dev *rdev = rue_dev_get_by_index(index);

	if (rdev && !rue_nl_visible(rdev, req)) {
		rue_dev_put(rdev);
		rdev = NULL;
	}
	return rdev;
}

/* The device @tb names; NULL if none is, ERR_PTR(-EINVAL) if it names none. */
static struct rue_dev *rue_nl_dev_from_attrs(const struct sk_buff *req,
					     struct nlattr **tb)
{
	struct rue_nl_find f = { .req = req };
	unsigned long cursor = 0;

	if (tb[RUE_A_DEV_INDEX])
		return rue_nl_dev_by_index(req, nla_get_u32(tb[RUE_A_DEV_INDEX]));
	if (!tb[RUE_A_DEV_NAME])
		return ERR_PTR(-EINVAL);
	f.name = nla_data(tb[RUE_A_DEV_NAME]);
	rue_dev_for_each(&cursor, rue_nl_match_name, &f);
	return f.found;
}

/**
 * rue_nl_dev_get() - the device a request names
 * @req: the request (a dump's cb->skb)
 * @tb: the request's attributes
 * @extack: where the reason goes
 *
 * Return: the device with a reference (rue_dev_put()), or an ERR_PTR:
 * -EINVAL when the request names no device, -ENODEV when it sees none
 * of that index or name.
 */
struct rue_dev *rue_nl_dev_get(const struct sk_buff *req, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	struct rue_dev *rdev = rue_nl_dev_from_attrs(req, tb);

	if (IS_ERR(rdev)) {
		NL_SET_ERR_MSG(extack, "a device index or name is required");
		return rdev;
	}
	if (!rdev) {
		NL_SET_ERR_MSG(extack, "no such rue device");
		return ERR_PTR(-ENODEV);
	}
	return rdev;
}

/**
 * rue_nl_put_dev() - start a message about @rdev
 * @msg: the message
 * @rdev: the device
 * @portid: the requester's
 * @seq: the request's
 * @flags: NLM_F_MULTI in a dump
 * @cmd: what the message answers (RUE_CMD_*)
 *
 * Return: the header to end with genlmsg_end() once the caller's
 * attributes are in, or NULL (nothing left in @msg) if it is full.
 */
void *rue_nl_put_dev(struct sk_buff *msg, struct rue_dev *rdev, u32 portid,
		     u32 seq, int flags, u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &rue_genl_family, flags, cmd);
	if (!hdr)
		return NULL;
	if (nla_put_u32(msg, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
	    nla_put_string(msg, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev))) {
		genlmsg_cancel(msg, hdr);
		return NULL;
	}
	return hdr;
}

/**
 * rue_nl_fill() - one message about @rdev: its header, then @put's part
 * @msg: the message
 * @rdev: the device
 * @portid: the requester's
 * @seq: the request's
 * @flags: NLM_F_MULTI in a dump
 * @cmd: what the message answers
 * @put: the object's attributes
 * @arg: passed to @put
 *
 * Return: 0, or -EMSGSIZE with nothing of the message left in @msg.
 */
int rue_nl_fill(struct sk_buff *msg, struct rue_dev *rdev, u32 portid,
		u32 seq, int flags, u8 cmd, rue_nl_put_fn put, void *arg)
{
	void *hdr;

	hdr = rue_nl_put_dev(msg, rdev, portid, seq, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (put(msg, rdev, arg)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/**
 * rue_nl_reply() - answer a do request with one message about @rdev
 * @info: the request
 * @rdev: the device, referenced; the reference is dropped here
 * @put: the object's attributes
 * @arg: passed to @put
 *
 * Return: 0 or an error.
 */
int rue_nl_reply(struct genl_info *info, struct rue_dev *rdev,
		 rue_nl_put_fn put, void *arg)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	err = rue_nl_fill(msg, rdev, info->snd_portid, info->snd_seq, 0,
			  info->genlhdr->cmd, put, arg);
	if (err) {
		nlmsg_free(msg);
		goto out_put;
	}
	rue_dev_put(rdev);
	return genlmsg_reply(msg, info);

out_put:
	rue_dev_put(rdev);
	return err;
}

/* ------------------------------------------------------------------ */
/* The dump helper                                                     */

/*
 * A dump goes device by device in index order, and in each device object
 * by object in the order @fill keeps, as many messages per call as fit.
 * Its state lives in the callback's arguments:
 */
enum {
	RUE_NL_ARG_STATE,		/* 0 before the first call, then: */
	RUE_NL_ARG_DEV,			/* the device index to resume at */
	RUE_NL_ARG_CURSOR,		/* @fill's cursor in that device */
};

enum {
	RUE_NL_DUMP_ONE = 1,		/* the device the request names */
	RUE_NL_DUMP_ALL,		/* every device */
	RUE_NL_DUMP_DONE,
};

struct rue_nl_walk {
	struct sk_buff *msg;
	struct netlink_callback *cb;
	const struct rue_nl_dumper *d;
};

/* @rdev's messages from the cursor on; the cursor stays where one did not fit. */
static int rue_nl_dump_dev(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_walk *w = arg;
	struct netlink_callback *cb = w->cb;
	unsigned long cursor = cb->args[RUE_NL_ARG_CURSOR];
	int err;

	if (!rue_nl_visible(rdev, cb->skb))
		return 0;

	err = w->d->fill(w->msg, cb, rdev, &cursor);
	/* the next device starts at its beginning */
	cb->args[RUE_NL_ARG_CURSOR] = err ? cursor : 0;
	return err;
}

/* First call: which devices. */
static int rue_nl_dump_start(struct netlink_callback *cb,
			     const struct rue_nl_dumper *d)
{
	struct nlattr *tb[RUE_A_DEV_MAX + 1];
	struct rue_dev *rdev;
	int err;

	if (d->scope == RUE_NL_EVERY_DEV) {
		cb->args[RUE_NL_ARG_STATE] = RUE_NL_DUMP_ALL;
		return 0;
	}
	err = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, RUE_A_DEV_MAX,
			  rue_dev_policy, cb->extack);
	if (err)
		return err;
	if (d->scope == RUE_NL_NAMED_OR_EVERY_DEV &&
	    !tb[RUE_A_DEV_INDEX] && !tb[RUE_A_DEV_NAME]) {
		cb->args[RUE_NL_ARG_STATE] = RUE_NL_DUMP_ALL;
		return 0;
	}
	rdev = rue_nl_dev_get(cb->skb, tb, cb->extack);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	cb->args[RUE_NL_ARG_STATE] = RUE_NL_DUMP_ONE;
	cb->args[RUE_NL_ARG_DEV] = rdev->ibdev.index;
	rue_dev_put(rdev);
	return 0;
}

/* The one device of a dump: gone since the first call ends the dump. */
static int rue_nl_dump_one(struct rue_nl_walk *w)
{
	struct netlink_callback *cb = w->cb;
	struct rue_dev *rdev;
	int err;

	rdev = rue_nl_dev_by_index(cb->skb, cb->args[RUE_NL_ARG_DEV]);
	if (!rdev)
		return 0;
	err = rue_nl_dump_dev(rdev, w);
	rue_dev_put(rdev);
	if (!err)
		cb->args[RUE_NL_ARG_STATE] = RUE_NL_DUMP_DONE;
	return err;
}

/**
 * rue_nl_dump() - the dumpit of a command: @d's messages for the devices
 * the request asks for, resumed where the last call stopped
 * @skb: the message to fill
 * @cb: the dump's callback state
 * @d: what to dump
 *
 * Return: the length of @skb (more to come while it is not 0) or an error.
 */
int rue_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
		const struct rue_nl_dumper *d)
{
	struct rue_nl_walk w = { .msg = skb, .cb = cb, .d = d };
	unsigned long cursor;
	int err = 0;

	if (!cb->args[RUE_NL_ARG_STATE]) {
		err = rue_nl_dump_start(cb, d);
		if (err)
			return err;
	}
	switch (cb->args[RUE_NL_ARG_STATE]) {
	case RUE_NL_DUMP_ONE:
		err = rue_nl_dump_one(&w);
		break;
	case RUE_NL_DUMP_ALL:
		cursor = cb->args[RUE_NL_ARG_DEV];
		err = rue_dev_for_each(&cursor, rue_nl_dump_dev, &w);
		cb->args[RUE_NL_ARG_DEV] = cursor;
		break;
	default:
		break;
	}
	/* A full message ends this part of the dump; resume at the cursors. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/**
 * rue_nl_dump_msg() - the message of a dump's current object
 * @msg: the message being filled
 * @cb: the dump
 * @rdev: the device
 * @put: the object's attributes
 * @arg: passed to @put
 *
 * For a dumper's fill.  Return: 0 or -EMSGSIZE.
 */
int rue_nl_dump_msg(struct sk_buff *msg, struct netlink_callback *cb,
		    struct rue_dev *rdev, rue_nl_put_fn put, void *arg)
{
	const struct genlmsghdr *req = nlmsg_data(cb->nlh);

	return rue_nl_fill(msg, rdev, NETLINK_CB(cb->skb).portid,
			   cb->nlh->nlmsg_seq, NLM_F_MULTI, req->cmd, put, arg);
}

/* ------------------------------------------------------------------ */
/* Devices                                                             */

static u8 rue_gid_type(enum ib_gid_type type)
{
	switch (type) {
	case IB_GID_TYPE_ROCE:
		return RUE_GID_TYPE_ROCE_V1;
	case IB_GID_TYPE_ROCE_UDP_ENCAP:
		return RUE_GID_TYPE_ROCE_V2;
	default:
		return RUE_GID_TYPE_IB;
	}
}

static int rue_nl_put_gids(struct sk_buff *msg, struct rue_dev *rdev)
{
	const struct ib_gid_attr *attr;
	struct nlattr *gids, *gid;
	u32 i;

	gids = nla_nest_start(msg, RUE_A_DEV_GIDS);
	if (!gids)
		return -EMSGSIZE;
	for (i = 0; i < rdev->ibdev.port_data[1].immutable.gid_tbl_len; i++) {
		attr = rdma_get_gid_attr(&rdev->ibdev, 1, i);
		if (IS_ERR(attr))
			continue;
		gid = nla_nest_start(msg, RUE_A_DEV_GID);
		if (!gid ||
		    nla_put_u32(msg, RUE_A_GID_INDEX, i) ||
		    nla_put(msg, RUE_A_GID_GID, sizeof(attr->gid), attr->gid.raw) ||
		    nla_put_u8(msg, RUE_A_GID_TYPE, rue_gid_type(attr->gid_type))) {
			rdma_put_gid_attr(attr);
			return -EMSGSIZE;
		}
		rdma_put_gid_attr(attr);
		nla_nest_end(msg, gid);
	}
	nla_nest_end(msg, gids);
	return 0;
}

static int rue_nl_put_dev_state(struct sk_buff *msg, struct rue_dev *rdev,
				void *arg)
{
	struct net_device *ndev = rdev->ndev;
	enum ib_port_state state = rue_dev_port_state(rdev);

	if (nla_put_u32(msg, RUE_A_DEV_NETDEV_IFINDEX, ndev->ifindex) ||
	    nla_put_string(msg, RUE_A_DEV_NETDEV_NAME, netdev_name(ndev)) ||
	    nla_put_u8(msg, RUE_A_DEV_PORT_STATE, state) ||
	    nla_put_u8(msg, RUE_A_DEV_PHYS_STATE,
		       state == IB_PORT_ACTIVE ? IB_PORT_PHYS_STATE_LINK_UP :
						 IB_PORT_PHYS_STATE_DISABLED) ||
	    nla_put_u32(msg, RUE_A_DEV_ACTIVE_MTU,
			ib_mtu_enum_to_int(rue_dev_active_mtu(rdev))) ||
	    nla_put_u32(msg, RUE_A_DEV_NETDEV_MTU, READ_ONCE(ndev->mtu)) ||
	    nla_put_u64_64bit(msg, RUE_A_DEV_NODE_GUID, rdev->node_guid_host,
			      RUE_A_DEV_PAD))
		return -EMSGSIZE;
	return rue_nl_put_gids(msg, rdev);
}

static int rue_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rue_dev *rdev = rue_nl_dev_get(skb, info->attrs,
					      info->extack);

	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	return rue_nl_reply(info, rdev, rue_nl_put_dev_state, NULL);
}

/* One message per device. */
static int rue_nl_dev_fill(struct sk_buff *msg, struct netlink_callback *cb,
			   struct rue_dev *rdev, unsigned long *cursor)
{
	return rue_nl_dump_msg(msg, cb, rdev, rue_nl_put_dev_state, NULL);
}

static const struct rue_nl_dumper rue_nl_dev_dumper = {
	.scope = RUE_NL_EVERY_DEV,
	.fill = rue_nl_dev_fill,
};

static int rue_nl_dev_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return rue_nl_dump(skb, cb, &rue_nl_dev_dumper);
}

/* ------------------------------------------------------------------ */
/* The family                                                          */

static const struct genl_small_ops rue_genl_ops[] = {
	{
		.cmd = RUE_CMD_DEV_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.doit = rue_nl_dev_get_doit,
		.dumpit = rue_nl_dev_get_dumpit,
	},
	{
		.cmd = RUE_CMD_CC_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.doit = rue_nl_cc_get_doit,
		.dumpit = rue_nl_cc_get_dumpit,
	},
	{
		.cmd = RUE_CMD_CC_SET,
		.flags = GENL_UNS_ADMIN_PERM,
		.doit = rue_nl_cc_set_doit,
	},
	{
		.cmd = RUE_CMD_QP_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.flags = GENL_UNS_ADMIN_PERM,
		.dumpit = rue_nl_qp_get_dumpit,
	},
	{
		.cmd = RUE_CMD_JOB_NEW,
		.flags = GENL_ADMIN_PERM,
		.doit = rue_nl_job_new_doit,
	},
	{
		.cmd = RUE_CMD_JOB_DEL,
		.flags = GENL_ADMIN_PERM,
		.doit = rue_nl_job_del_doit,
	},
	{
		.cmd = RUE_CMD_JOB_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.doit = rue_nl_job_get_doit,
		.dumpit = rue_nl_job_get_dumpit,
	},
	{
		.cmd = RUE_CMD_PDC_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.flags = GENL_UNS_ADMIN_PERM,
		.dumpit = rue_nl_pdc_get_dumpit,
	},
	{
		.cmd = RUE_CMD_UET_STATS_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.doit = rue_nl_uet_stats_get_doit,
		.dumpit = rue_nl_uet_stats_get_dumpit,
	},
};

static struct genl_family rue_genl_family __ro_after_init = {
	.name = RUE_GENL_NAME,
	.version = RUE_GENL_VERSION,
	.maxattr = RUE_A_DEV_MAX,
	.policy = rue_dev_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.small_ops = rue_genl_ops,
	.n_small_ops = ARRAY_SIZE(rue_genl_ops),
	.resv_start_op = RUE_CMD_MAX + 1,
};

int rue_netlink_init(void)
{
	return genl_register_family(&rue_genl_family);
}

void rue_netlink_exit(void)
{
	genl_unregister_family(&rue_genl_family);
}
