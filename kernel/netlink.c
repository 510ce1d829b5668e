// SPDX-License-Identifier: GPL-2.0
/*
 * The "rue" generic netlink family (Documentation/netlink/rue.yaml,
 * uapi/linux/rue_netlink.h): device state for ruectl.
 */
#include <net/genetlink.h>
#include <rdma/ib_cache.h>
#include <linux/rue_netlink.h>

#include "device.h"
#include "netlink.h"

static struct genl_family rue_genl_family;

static const struct nla_policy rue_dev_policy[RUE_A_DEV_MAX + 1] = {
	[RUE_A_DEV_INDEX] = { .type = NLA_U32 },
	[RUE_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IB_DEVICE_NAME_MAX - 1 },
};

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

static int rue_nl_fill_dev(struct sk_buff *msg, struct rue_dev *rdev,
			   u32 portid, u32 seq, int flags)
{
	struct net_device *ndev = rdev->ndev;
	enum ib_port_state state = rue_dev_port_state(rdev);
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &rue_genl_family, flags,
			  RUE_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;

	if (nla_put_u32(msg, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
	    nla_put_string(msg, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev)) ||
	    nla_put_u32(msg, RUE_A_DEV_NETDEV_IFINDEX, ndev->ifindex) ||
	    nla_put_string(msg, RUE_A_DEV_NETDEV_NAME, netdev_name(ndev)) ||
	    nla_put_u8(msg, RUE_A_DEV_PORT_STATE, state) ||
	    nla_put_u8(msg, RUE_A_DEV_PHYS_STATE,
		       state == IB_PORT_ACTIVE ? IB_PORT_PHYS_STATE_LINK_UP :
						 IB_PORT_PHYS_STATE_DISABLED) ||
	    nla_put_u32(msg, RUE_A_DEV_ACTIVE_MTU,
			ib_mtu_enum_to_int(rue_dev_active_mtu(rdev))) ||
	    nla_put_u32(msg, RUE_A_DEV_NETDEV_MTU, READ_ONCE(ndev->mtu)) ||
	    nla_put_u64_64bit(msg, RUE_A_DEV_NODE_GUID, rdev->node_guid_host,
			      RUE_A_DEV_PAD) ||
	    rue_nl_put_gids(msg, rdev)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

struct rue_nl_find {
	const char *name;
	struct rue_dev *found;
};

static int rue_nl_match_name(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_find *f = arg;

	if (strcmp(dev_name(&rdev->ibdev.dev), f->name))
		return 0;
	if (!ib_device_try_get(&rdev->ibdev))
		return 0;
	f->found = rdev;
	return 1;
}

static struct rue_dev *rue_nl_dev_from_attrs(struct genl_info *info)
{
	struct rue_nl_find f = {};
	unsigned long cursor = 0;

	if (info->attrs[RUE_A_DEV_INDEX])
		return rue_dev_get_by_index(nla_get_u32(info->attrs[RUE_A_DEV_INDEX]));
	if (!info->attrs[RUE_A_DEV_NAME])
		return ERR_PTR(-EINVAL);
	f.name = nla_data(info->attrs[RUE_A_DEV_NAME]);
	rue_dev_for_each(&cursor, rue_nl_match_name, &f);
	return f.found;
}

static int rue_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rue_dev *rdev;
	struct sk_buff *msg;
	int err;

	rdev = rue_nl_dev_from_attrs(info);
	if (IS_ERR(rdev)) {
		GENL_SET_ERR_MSG(info, "a device index or name is required");
		return PTR_ERR(rdev);
	}
	if (!rdev) {
		GENL_SET_ERR_MSG(info, "no such rue device");
		return -ENODEV;
	}

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	err = rue_nl_fill_dev(msg, rdev, info->snd_portid, info->snd_seq, 0);
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

struct rue_nl_dump {
	struct sk_buff *msg;
	struct netlink_callback *cb;
};

static int rue_nl_dump_one(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_dump *d = arg;

	return rue_nl_fill_dev(d->msg, rdev, NETLINK_CB(d->cb->skb).portid,
			       d->cb->nlh->nlmsg_seq, NLM_F_MULTI);
}

static int rue_nl_dev_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct rue_nl_dump d = { .msg = skb, .cb = cb };
	unsigned long cursor = cb->args[0];
	int err;

	err = rue_dev_for_each(&cursor, rue_nl_dump_one, &d);
	cb->args[0] = cursor;
	/* A full message ends this part of the dump; resume at cursor. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

static const struct genl_small_ops rue_genl_ops[] = {
	{
		.cmd = RUE_CMD_DEV_GET,
		.validate = GENL_DONT_VALIDATE_DUMP,
		.doit = rue_nl_dev_get_doit,
		.dumpit = rue_nl_dev_get_dumpit,
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
