// SPDX-License-Identifier: GPL-2.0
/*
 * The "rue" generic netlink family (Documentation/netlink/rue.yaml,
 * uapi/linux/rue_netlink.h): device state, congestion control settings,
 * QP state, UET jobs, PDCs and counters for ruectl.
 */
#include <net/genetlink.h>
#include <rdma/ib_cache.h>
#include <linux/rue_netlink.h>

#include "device.h"
#include "netlink.h"
#include "qp.h"
#include "cc/cc.h"
#include "net/pfc.h"
#include "net/txq.h"
#include "uet/job.h"
#include "uet/pds.h"
#include "uet/uet_stats.h"

static struct genl_family rue_genl_family;

static struct netlink_range_validation rue_nl_usec __ro_after_init = { 1, 1000000 };
static struct netlink_range_validation rue_nl_usec0 __ro_after_init = { 0, 1000000 };
static struct netlink_range_validation rue_nl_mbps __ro_after_init = { 1, 1000000 };
static struct netlink_range_validation rue_nl_mbps0 __ro_after_init = { 0, 1000000 };
static struct netlink_range_validation rue_nl_bytes __ro_after_init = { 1024, 1U << 31 };
static struct netlink_range_validation rue_nl_backlog __ro_after_init = { 0, 64 << 20 };

/* Ranges of the settings; the DSCP map's entries are checked in set. */
static const struct nla_policy rue_cc_policy[RUE_A_CC_MAX + 1] = {
	[RUE_A_CC_ECN] = NLA_POLICY_MAX(NLA_U8, RUE_ECN_ECT1),
	[RUE_A_CC_DSCP_PRIO] = NLA_POLICY_EXACT_LEN(RUE_NDSCP),
	[RUE_A_CC_CNP_DSCP] = NLA_POLICY_MAX(NLA_U8, RUE_NDSCP - 1),
	[RUE_A_CC_CNP_PRIO] = NLA_POLICY_MAX(NLA_U8, RUE_NPRIO - 1),
	[RUE_A_CC_NP_ENABLE] = { .type = NLA_U8 },
	[RUE_A_CC_RP_ENABLE] = { .type = NLA_U8 },
	[RUE_A_CC_MIN_TIME_BETWEEN_CNPS] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_usec0),
	[RUE_A_CC_DCE_TCP_G] = NLA_POLICY_MAX(NLA_U32, RUE_DCQCN_ALPHA_ONE - 1),
	[RUE_A_CC_DCE_TCP_RTT] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_usec),
	[RUE_A_CC_INITIAL_ALPHA] = NLA_POLICY_MAX(NLA_U32, RUE_DCQCN_ALPHA_ONE - 1),
	[RUE_A_CC_RATE_REDUCE_MONITOR_PERIOD] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_usec),
	[RUE_A_CC_RPG_GD] = NLA_POLICY_RANGE(NLA_U32, 1, 31),
	[RUE_A_CC_RPG_MIN_DEC_FAC] = NLA_POLICY_RANGE(NLA_U32, 1, 100),
	[RUE_A_CC_RPG_MIN_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_mbps),
	[RUE_A_CC_RPG_MAX_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_mbps0),
	[RUE_A_CC_RATE_TO_SET_ON_FIRST_CNP] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_mbps0),
	[RUE_A_CC_CLAMP_TGT_RATE] = NLA_POLICY_MAX(NLA_U8, 1),
	[RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC] = NLA_POLICY_MAX(NLA_U8, 1),
	[RUE_A_CC_RPG_TIME_RESET] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_usec),
	[RUE_A_CC_RPG_BYTE_RESET] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_bytes),
	[RUE_A_CC_RPG_THRESHOLD] = NLA_POLICY_RANGE(NLA_U32, 1, 31),
	[RUE_A_CC_RPG_AI_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_mbps0),
	[RUE_A_CC_RPG_HAI_RATE] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_mbps0),
	[RUE_A_CC_LINK_SPEED] = { .type = NLA_REJECT,
				  .reject_message = "the link speed is read-only" },
	[RUE_A_CC_ETS_TSA] = NLA_POLICY_EXACT_LEN(RUE_NPRIO),
	[RUE_A_CC_ETS_WEIGHT] = NLA_POLICY_EXACT_LEN(RUE_NPRIO),
	[RUE_A_CC_PFC_ENABLE] = { .type = NLA_U8 },
	[RUE_A_CC_PFC_XOFF] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_backlog),
	[RUE_A_CC_PFC_XON] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_backlog),
	[RUE_A_CC_PFC_QUANTA] = NLA_POLICY_RANGE(NLA_U32, 1, 0xffff),
	[RUE_A_CC_PFC_PAUSED] = { .type = NLA_REJECT,
				  .reject_message = "read-only" },
	[RUE_A_CC_PFC_ASSERTED] = { .type = NLA_REJECT,
				    .reject_message = "read-only" },
	[RUE_A_CC_PRIO] = NLA_POLICY_MAX(NLA_U8, RUE_NPRIO - 1),
	[RUE_A_CC_DCQCN_DIFFER] = { .type = NLA_REJECT,
				    .reject_message = "read-only" },
};

static struct netlink_range_validation rue_nl_job_id __ro_after_init = {
	1, RUE_JOB_ID_MAX
};

static const struct nla_policy rue_job_policy[RUE_A_JOB_MAX + 1] = {
	[RUE_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_job_id),
	[RUE_A_JOB_UID] = { .type = NLA_U32 },
	[RUE_A_JOB_GID] = { .type = NLA_U32 },
	[RUE_A_JOB_BOUND] = { .type = NLA_REJECT,
			      .reject_message = "read-only" },
};

static const struct nla_policy rue_dev_policy[RUE_A_DEV_MAX + 1] = {
	[RUE_A_DEV_INDEX] = { .type = NLA_U32 },
	[RUE_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = IB_DEVICE_NAME_MAX - 1 },
	[RUE_A_DEV_CC] = NLA_POLICY_NESTED(rue_cc_policy),
	[RUE_A_DEV_JOB] = NLA_POLICY_NESTED(rue_job_policy),
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

/* ------------------------------------------------------------------ */
/* Congestion control                                                  */

/* Priorities whose DCQCN parameters are not priority 0's. */
static u8 rue_nl_dcqcn_differ(const struct rue_cc_cfg *cfg)
{
	u8 differ = 0;
	int i;

	for (i = 1; i < RUE_NPRIO; i++)
		if (memcmp(&cfg->dcqcn[i], &cfg->dcqcn[0], sizeof(cfg->dcqcn[0])))
			differ |= BIT(i);
	return differ;
}

static int rue_nl_put_cc(struct sk_buff *msg, struct rue_dev *rdev, u8 prio)
{
	const struct rue_cc_cfg *cfg;
	const struct rue_dcqcn_params *d;
	u8 tsa[RUE_NPRIO];
	struct nlattr *nest;
	int err = -EMSGSIZE;
	int i;

	nest = nla_nest_start(msg, RUE_A_DEV_CC);
	if (!nest)
		return -EMSGSIZE;
	rcu_read_lock();
	cfg = rcu_dereference(rdev->cc);
	d = &cfg->dcqcn[prio];
	if (nla_put_u8(msg, RUE_A_CC_ECN, cfg->ecn) ||
	    nla_put(msg, RUE_A_CC_DSCP_PRIO, RUE_NDSCP, cfg->dscp_prio) ||
	    nla_put_u8(msg, RUE_A_CC_CNP_DSCP, cfg->cnp_dscp) ||
	    nla_put_u8(msg, RUE_A_CC_CNP_PRIO, cfg->cnp_prio) ||
	    nla_put_u8(msg, RUE_A_CC_NP_ENABLE, cfg->np_enable) ||
	    nla_put_u8(msg, RUE_A_CC_RP_ENABLE, cfg->rp_enable) ||
	    nla_put_u32(msg, RUE_A_CC_MIN_TIME_BETWEEN_CNPS,
			cfg->min_time_between_cnps) ||
	    nla_put_u32(msg, RUE_A_CC_DCE_TCP_G, d->dce_tcp_g) ||
	    nla_put_u32(msg, RUE_A_CC_DCE_TCP_RTT, d->dce_tcp_rtt) ||
	    nla_put_u32(msg, RUE_A_CC_INITIAL_ALPHA, d->initial_alpha) ||
	    nla_put_u32(msg, RUE_A_CC_RATE_REDUCE_MONITOR_PERIOD,
			d->rate_reduce_monitor_period) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_GD, d->rpg_gd) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_MIN_DEC_FAC, d->rpg_min_dec_fac) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_MIN_RATE, d->rpg_min_rate) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_MAX_RATE, cfg->rpg_max_rate) ||
	    nla_put_u32(msg, RUE_A_CC_RATE_TO_SET_ON_FIRST_CNP,
			d->rate_to_set_on_first_cnp) ||
	    nla_put_u8(msg, RUE_A_CC_CLAMP_TGT_RATE, d->clamp_tgt_rate) ||
	    nla_put_u8(msg, RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC,
		       d->clamp_tgt_rate_after_time_inc) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_TIME_RESET, d->rpg_time_reset) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_BYTE_RESET, d->rpg_byte_reset) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_THRESHOLD, d->rpg_threshold) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_AI_RATE, d->rpg_ai_rate) ||
	    nla_put_u32(msg, RUE_A_CC_RPG_HAI_RATE, d->rpg_hai_rate) ||
	    nla_put_u32(msg, RUE_A_CC_LINK_SPEED, READ_ONCE(rdev->link_mbps)))
		goto out;
	for (i = 0; i < RUE_NPRIO; i++)
		tsa[i] = cfg->ets_mask & BIT(i) ? RUE_TSA_ETS : RUE_TSA_STRICT;
	if (nla_put(msg, RUE_A_CC_ETS_TSA, RUE_NPRIO, tsa) ||
	    nla_put(msg, RUE_A_CC_ETS_WEIGHT, RUE_NPRIO, cfg->ets_weight) ||
	    nla_put_u8(msg, RUE_A_CC_PFC_ENABLE, cfg->pfc_enable) ||
	    nla_put_u32(msg, RUE_A_CC_PFC_XOFF, cfg->pfc_xoff) ||
	    nla_put_u32(msg, RUE_A_CC_PFC_XON, cfg->pfc_xon) ||
	    nla_put_u32(msg, RUE_A_CC_PFC_QUANTA, cfg->pfc_quanta) ||
	    nla_put_u8(msg, RUE_A_CC_PFC_PAUSED, rue_txq_paused(rdev)) ||
	    nla_put_u8(msg, RUE_A_CC_PFC_ASSERTED, rue_pfc_asserted(rdev)) ||
	    nla_put_u8(msg, RUE_A_CC_PRIO, prio) ||
	    nla_put_u8(msg, RUE_A_CC_DCQCN_DIFFER, rue_nl_dcqcn_differ(cfg)))
		goto out;
	err = 0;
out:
	rcu_read_unlock();
	if (err)
		nla_nest_cancel(msg, nest);
	else
		nla_nest_end(msg, nest);
	return err;
}

static int rue_nl_fill_cc(struct sk_buff *msg, struct rue_dev *rdev,
			  u32 portid, u32 seq, int flags, u8 prio)
{
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &rue_genl_family, flags,
			  RUE_CMD_CC_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
	    nla_put_string(msg, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev)) ||
	    rue_nl_put_cc(msg, rdev, prio)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int rue_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_CC_MAX + 1];
	struct rue_dev *rdev;
	struct sk_buff *msg;
	u8 prio = 0;
	int err;

	/* which priority's DCQCN parameters */
	if (info->attrs[RUE_A_DEV_CC]) {
		err = nla_parse_nested(tb, RUE_A_CC_MAX, info->attrs[RUE_A_DEV_CC],
				       rue_cc_policy, info->extack);
		if (err)
			return err;
		if (tb[RUE_A_CC_PRIO])
			prio = nla_get_u8(tb[RUE_A_CC_PRIO]);
	}

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
	err = rue_nl_fill_cc(msg, rdev, info->snd_portid, info->snd_seq, 0,
			     prio);
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

static int rue_nl_cc_dump_one(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_dump *d = arg;

	return rue_nl_fill_cc(d->msg, rdev, NETLINK_CB(d->cb->skb).portid,
			      d->cb->nlh->nlmsg_seq, NLM_F_MULTI, 0);
}

static int rue_nl_cc_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct rue_nl_dump d = { .msg = skb, .cb = cb };
	unsigned long cursor = cb->args[0];
	int err;

	err = rue_dev_for_each(&cursor, rue_nl_cc_dump_one, &d);
	cb->args[0] = cursor;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

static void rue_nl_u8(const struct nlattr *a, u8 *v)
{
	if (a)
		*v = nla_get_u8(a);
}

static void rue_nl_u32(const struct nlattr *a, u32 *v)
{
	if (a)
		*v = nla_get_u32(a);
}

/* u8 flags kept in u32 fields */
static void rue_nl_flag(const struct nlattr *a, u32 *v)
{
	if (a)
		*v = nla_get_u8(a);
}

/*
 * Transmission selection and PFC.  The ETS priorities' weights must add
 * up to 100, each at least 1 (dcb ets and 802.1Qaz), and XON may not be
 * above XOFF: checked on the result, so that a request may change both.
 */
static int rue_nl_prio_apply(struct rue_cc_cfg *cfg, struct nlattr **tb,
			     struct netlink_ext_ack *extack)
{
	unsigned int sum = 0;
	const u8 *v;
	int i;

	if (tb[RUE_A_CC_ETS_TSA]) {
		v = nla_data(tb[RUE_A_CC_ETS_TSA]);
		cfg->ets_mask = 0;
		for (i = 0; i < RUE_NPRIO; i++) {
			if (v[i] > RUE_TSA_ETS) {
				NL_SET_ERR_MSG_ATTR(extack, tb[RUE_A_CC_ETS_TSA],
						    "a priority is strict (0) or ets (1)");
				return -EINVAL;
			}
			if (v[i] == RUE_TSA_ETS)
				cfg->ets_mask |= BIT(i);
		}
	}
	if (tb[RUE_A_CC_ETS_WEIGHT]) {
		v = nla_data(tb[RUE_A_CC_ETS_WEIGHT]);
		for (i = 0; i < RUE_NPRIO; i++) {
			if (v[i] > 100) {
				NL_SET_ERR_MSG_ATTR(extack, tb[RUE_A_CC_ETS_WEIGHT],
						    "weights are 0 to 100 (%)");
				return -EINVAL;
			}
		}
		memcpy(cfg->ets_weight, v, RUE_NPRIO);
	}
	for (i = 0; i < RUE_NPRIO; i++) {
		if (!(cfg->ets_mask & BIT(i)))
			continue;
		if (!cfg->ets_weight[i]) {
			NL_SET_ERR_MSG(extack, "an ets priority needs a weight of at least 1%");
			return -EINVAL;
		}
		sum += cfg->ets_weight[i];
	}
	if (cfg->ets_mask && sum != 100) {
		NL_SET_ERR_MSG(extack, "the weights of the ets priorities must add up to 100");
		return -EINVAL;
	}
	rue_nl_u8(tb[RUE_A_CC_PFC_ENABLE], &cfg->pfc_enable);
	rue_nl_u32(tb[RUE_A_CC_PFC_XOFF], &cfg->pfc_xoff);
	rue_nl_u32(tb[RUE_A_CC_PFC_XON], &cfg->pfc_xon);
	rue_nl_u32(tb[RUE_A_CC_PFC_QUANTA], &cfg->pfc_quanta);
	if (cfg->pfc_xon > cfg->pfc_xoff) {
		NL_SET_ERR_MSG(extack, "pfc-xon may not be above pfc-xoff");
		return -EINVAL;
	}
	return 0;
}

/* The DCQCN parameters of one priority. */
static void rue_nl_dcqcn_apply(struct rue_dcqcn_params *d, struct nlattr **tb)
{
	rue_nl_u32(tb[RUE_A_CC_DCE_TCP_G], &d->dce_tcp_g);
	rue_nl_u32(tb[RUE_A_CC_DCE_TCP_RTT], &d->dce_tcp_rtt);
	rue_nl_u32(tb[RUE_A_CC_INITIAL_ALPHA], &d->initial_alpha);
	rue_nl_u32(tb[RUE_A_CC_RATE_REDUCE_MONITOR_PERIOD], &d->rate_reduce_monitor_period);
	rue_nl_u32(tb[RUE_A_CC_RPG_GD], &d->rpg_gd);
	rue_nl_u32(tb[RUE_A_CC_RPG_MIN_DEC_FAC], &d->rpg_min_dec_fac);
	rue_nl_u32(tb[RUE_A_CC_RPG_MIN_RATE], &d->rpg_min_rate);
	rue_nl_u32(tb[RUE_A_CC_RATE_TO_SET_ON_FIRST_CNP], &d->rate_to_set_on_first_cnp);
	rue_nl_flag(tb[RUE_A_CC_CLAMP_TGT_RATE], &d->clamp_tgt_rate);
	rue_nl_flag(tb[RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC], &d->clamp_tgt_rate_after_time_inc);
	rue_nl_u32(tb[RUE_A_CC_RPG_TIME_RESET], &d->rpg_time_reset);
	rue_nl_u32(tb[RUE_A_CC_RPG_BYTE_RESET], &d->rpg_byte_reset);
	rue_nl_u32(tb[RUE_A_CC_RPG_THRESHOLD], &d->rpg_threshold);
	rue_nl_u32(tb[RUE_A_CC_RPG_AI_RATE], &d->rpg_ai_rate);
	rue_nl_u32(tb[RUE_A_CC_RPG_HAI_RATE], &d->rpg_hai_rate);
}

/* Apply the attributes of @tb to @cfg; nothing is applied on error. */
static int rue_nl_cc_apply(struct rue_cc_cfg *cfg, struct nlattr **tb,
			   struct netlink_ext_ack *extack)
{
	const u8 *map;
	int i;

	if (tb[RUE_A_CC_DSCP_PRIO]) {
		map = nla_data(tb[RUE_A_CC_DSCP_PRIO]);
		for (i = 0; i < RUE_NDSCP; i++) {
			if (map[i] >= RUE_NPRIO) {
				NL_SET_ERR_MSG_ATTR(extack, tb[RUE_A_CC_DSCP_PRIO],
						    "priorities are 0 to 7");
				return -EINVAL;
			}
		}
		memcpy(cfg->dscp_prio, map, RUE_NDSCP);
	}
	rue_nl_u8(tb[RUE_A_CC_ECN], &cfg->ecn);
	rue_nl_u8(tb[RUE_A_CC_CNP_DSCP], &cfg->cnp_dscp);
	rue_nl_u8(tb[RUE_A_CC_CNP_PRIO], &cfg->cnp_prio);
	rue_nl_u8(tb[RUE_A_CC_NP_ENABLE], &cfg->np_enable);
	rue_nl_u8(tb[RUE_A_CC_RP_ENABLE], &cfg->rp_enable);
	rue_nl_u32(tb[RUE_A_CC_MIN_TIME_BETWEEN_CNPS], &cfg->min_time_between_cnps);
	rue_nl_u32(tb[RUE_A_CC_RPG_MAX_RATE], &cfg->rpg_max_rate);
	for (i = 0; i < RUE_NPRIO; i++)
		if (!tb[RUE_A_CC_PRIO] || nla_get_u8(tb[RUE_A_CC_PRIO]) == i)
			rue_nl_dcqcn_apply(&cfg->dcqcn[i], tb);
	return rue_nl_prio_apply(cfg, tb, extack);
}

static int rue_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_CC_MAX + 1];
	struct rue_cc_cfg *cfg;
	struct rue_dev *rdev;
	int err;

	if (!info->attrs[RUE_A_DEV_CC]) {
		GENL_SET_ERR_MSG(info, "nothing to set");
		return -EINVAL;
	}
	/* validated against rue_cc_policy with the request */
	err = nla_parse_nested(tb, RUE_A_CC_MAX, info->attrs[RUE_A_DEV_CC],
			       rue_cc_policy, info->extack);
	if (err)
		return err;
	rdev = rue_nl_dev_from_attrs(info);
	if (IS_ERR(rdev)) {
		GENL_SET_ERR_MSG(info, "a device index or name is required");
		return PTR_ERR(rdev);
	}
	if (!rdev) {
		GENL_SET_ERR_MSG(info, "no such rue device");
		return -ENODEV;
	}

	mutex_lock(&rdev->cc_lock);
	cfg = kmemdup(rcu_dereference_protected(rdev->cc,
						lockdep_is_held(&rdev->cc_lock)),
		      sizeof(*cfg), GFP_KERNEL);
	if (!cfg) {
		err = -ENOMEM;
		goto out_unlock;
	}
	err = rue_nl_cc_apply(cfg, tb, info->extack);
	if (!err)
		err = rue_pfc_config(rdev, cfg);
	if (err) {
		kfree(cfg);
		goto out_unlock;
	}
	rue_cc_replace(rdev, cfg);
	/* QPs waiting on a priority they may no longer have */
	rue_txq_wake(rdev);
out_unlock:
	mutex_unlock(&rdev->cc_lock);
	rue_dev_put(rdev);
	return err;
}

/* ------------------------------------------------------------------ */
/* QPs                                                                 */

static int rue_nl_put_qp(struct sk_buff *msg, struct rue_qp *qp)
{
	const struct rue_cc_cfg *cfg = rcu_dereference(qp->rdev->cc);
	struct rue_qp_cc *cc = &qp->cc;
	struct rue_dcqcn s;
	struct nlattr *nest;

	spin_lock_bh(&cc->lock);
	rue_dcqcn_advance(&cc->dcqcn, rue_cc_params(cfg, qp), ktime_get_ns());
	s = cc->dcqcn;
	spin_unlock_bh(&cc->lock);

	nest = nla_nest_start(msg, RUE_A_DEV_QP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RUE_A_QP_NUM, qp->ibqp.qp_num) ||
	    nla_put_u8(msg, RUE_A_QP_TYPE, qp->ibqp.qp_type) ||
	    nla_put_u8(msg, RUE_A_QP_STATE, READ_ONCE(qp->state)) ||
	    nla_put_u32(msg, RUE_A_QP_DEST_NUM, qp->dest_qpn) ||
	    nla_put_u8(msg, RUE_A_QP_PRIO, rue_cc_prio(cfg, qp->av.tclass)) ||
	    nla_put_u8(msg, RUE_A_QP_DSCP, qp->av.tclass >> 2) ||
	    nla_put_u8(msg, RUE_A_QP_CC_LIMITED, s.limited) ||
	    nla_put_u32(msg, RUE_A_QP_CC_RATE, s.rc / 1000) ||
	    nla_put_u32(msg, RUE_A_QP_CC_TARGET, s.rt / 1000) ||
	    nla_put_u32(msg, RUE_A_QP_CC_ALPHA, s.alpha) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_CNP_SENT,
			      atomic64_read(&cc->cnp_sent), RUE_A_QP_PAD) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_CNP_HANDLED,
			      atomic64_read(&cc->cnp_handled), RUE_A_QP_PAD) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_ECN_MARKED,
			      atomic64_read(&cc->ecn_marked), RUE_A_QP_PAD) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_TX_BYTES, READ_ONCE(cc->tx_bytes),
			      RUE_A_QP_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * Dump one device's QPs, in QPN order: cb->args[0] is the device index
 * plus one once found, cb->args[1] the next QPN.  QPs are read under
 * RCU: destroy_qp unpublishes a QP and waits a grace period before the
 * core frees it.
 */
#define RUE_NL_QPN_END	BIT(24)

static int rue_nl_qp_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	unsigned long qpn = cb->args[1];
	struct rue_dev *rdev;
	struct rue_qp *qp;
	void *hdr;
	int err = 0;

	if (!cb->args[0]) {
		struct nlattr *tb[RUE_A_DEV_MAX + 1];
		struct genl_info info = { .attrs = tb, .extack = cb->extack };

		err = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, RUE_A_DEV_MAX,
				  rue_dev_policy, cb->extack);
		if (err)
			return err;
		rdev = rue_nl_dev_from_attrs(&info);
		if (IS_ERR(rdev)) {
			NL_SET_ERR_MSG(cb->extack, "a device index or name is required");
			return PTR_ERR(rdev);
		}
		if (!rdev) {
			NL_SET_ERR_MSG(cb->extack, "no such rue device");
			return -ENODEV;
		}
		cb->args[0] = rdev->ibdev.index + 1;
	} else {
		rdev = rue_dev_get_by_index(cb->args[0] - 1);
		if (IS_ERR_OR_NULL(rdev))
			return 0;	/* gone since: the dump ends */
	}

	rcu_read_lock();
	xa_for_each_start(&rdev->qps, qpn, qp, qpn) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rue_genl_family,
				  NLM_F_MULTI, RUE_CMD_QP_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		if (nla_put_u32(skb, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
		    nla_put_string(skb, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev)) ||
		    rue_nl_put_qp(skb, qp)) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	rcu_read_unlock();
	/* all dumped: the next call finds nothing past any QPN and ends */
	cb->args[1] = err ? qpn : RUE_NL_QPN_END;
	rue_dev_put(rdev);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ------------------------------------------------------------------ */
/* UET jobs                                                            */

/*
 * UIDs and GIDs travel as numbers of the user namespace of the socket's
 * opener, both ways, so that the numbers of a dump do not depend on which
 * process happens to read its later parts.
 */
static struct user_namespace *rue_nl_user_ns(const struct sk_buff *skb)
{
	return sk_user_ns(NETLINK_CB(skb).sk);
}

static int rue_nl_put_job(struct sk_buff *msg, const struct rue_job_info *job,
			  struct user_namespace *ns)
{
	const struct rue_job_grant *grant = &job->grant;
	struct nlattr *nest;

	nest = nla_nest_start(msg, RUE_A_DEV_JOB);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RUE_A_JOB_ID, job->id) ||
	    (uid_valid(grant->uid) &&
	     nla_put_u32(msg, RUE_A_JOB_UID, from_kuid_munged(ns, grant->uid))) ||
	    (gid_valid(grant->gid) &&
	     nla_put_u32(msg, RUE_A_JOB_GID, from_kgid_munged(ns, grant->gid))) ||
	    nla_put_u32(msg, RUE_A_JOB_BOUND, job->bound)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int rue_nl_fill_job(struct sk_buff *msg, struct rue_dev *rdev,
			   const struct rue_job_info *job,
			   struct user_namespace *ns, u32 portid, u32 seq,
			   int flags)
{
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &rue_genl_family, flags,
			  RUE_CMD_JOB_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
	    nla_put_string(msg, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev)) ||
	    rue_nl_put_job(msg, job, ns)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/* The device of a job request, with a reference; ERR_PTR with a reason. */
static struct rue_dev *rue_nl_job_dev(struct genl_info *info)
{
	struct rue_dev *rdev = rue_nl_dev_from_attrs(info);

	if (IS_ERR(rdev)) {
		GENL_SET_ERR_MSG(info, "a device index or name is required");
		return rdev;
	}
	if (!rdev) {
		GENL_SET_ERR_MSG(info, "no such rue device");
		return ERR_PTR(-ENODEV);
	}
	return rdev;
}

/* The job nest of a do request, parsed into @tb; it must name a job. */
static int rue_nl_job_attrs(struct genl_info *info, struct nlattr **tb)
{
	int err;

	if (!info->attrs[RUE_A_DEV_JOB]) {
		GENL_SET_ERR_MSG(info, "a job is required");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, RUE_A_JOB_MAX, info->attrs[RUE_A_DEV_JOB],
			       rue_job_policy, info->extack);
	if (err)
		return err;
	if (!tb[RUE_A_JOB_ID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[RUE_A_DEV_JOB],
				    "a job id is required");
		return -EINVAL;
	}
	return 0;
}

/* Who the new job admits, mapped from the requester's user namespace. */
static int rue_nl_job_grant(struct genl_info *info, struct nlattr **tb,
			    struct user_namespace *ns,
			    struct rue_job_grant *grant)
{
	grant->uid = INVALID_UID;
	grant->gid = INVALID_GID;
	if (tb[RUE_A_JOB_UID]) {
		grant->uid = make_kuid(ns, nla_get_u32(tb[RUE_A_JOB_UID]));
		if (!uid_valid(grant->uid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_UID],
					    "uid not valid in the caller's user namespace");
			return -EINVAL;
		}
	}
	if (tb[RUE_A_JOB_GID]) {
		grant->gid = make_kgid(ns, nla_get_u32(tb[RUE_A_JOB_GID]));
		if (!gid_valid(grant->gid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_GID],
					    "gid not valid in the caller's user namespace");
			return -EINVAL;
		}
	}
	return 0;
}

static int rue_nl_job_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_JOB_MAX + 1];
	struct rue_job_grant grant;
	struct rue_dev *rdev;
	int err;

	err = rue_nl_job_attrs(info, tb);
	if (err)
		return err;
	err = rue_nl_job_grant(info, tb, rue_nl_user_ns(skb), &grant);
	if (err)
		return err;
	rdev = rue_nl_job_dev(info);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	err = rue_job_add(rdev, nla_get_u32(tb[RUE_A_JOB_ID]), &grant);
	if (err == -EEXIST)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_ID],
				    "the device has this job already");
	rue_dev_put(rdev);
	return err;
}

static int rue_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_JOB_MAX + 1];
	struct rue_dev *rdev;
	int err;

	err = rue_nl_job_attrs(info, tb);
	if (err)
		return err;
	rdev = rue_nl_job_dev(info);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	err = rue_job_del(rdev, nla_get_u32(tb[RUE_A_JOB_ID]));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_ID], "no such job");
	else if (err == -EBUSY)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_ID],
				    "QPs are bound to the job");
	rue_dev_put(rdev);
	return err;
}

static int rue_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_JOB_MAX + 1];
	struct rue_job_info job;
	struct rue_dev *rdev;
	struct sk_buff *msg;
	int err;

	err = rue_nl_job_attrs(info, tb);
	if (err)
		return err;
	rdev = rue_nl_job_dev(info);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	err = rue_job_query(rdev, nla_get_u32(tb[RUE_A_JOB_ID]), &job);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_ID], "no such job");
		goto out_put;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	err = rue_nl_fill_job(msg, rdev, &job, rue_nl_user_ns(skb),
			      info->snd_portid, info->snd_seq, 0);
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

/*
 * A job (or PDC) dump: cb->args[0] is 0 before the first call, then
 * whether it covers one device or every device; cb->args[1] is the index
 * of the device to resume at, cb->args[2] the job ID (PDCID) in it.
 */
enum {
	RUE_NL_DUMP_ONE = 1,
	RUE_NL_DUMP_ALL,
};

struct rue_nl_job_dump {
	struct sk_buff *msg;
	struct netlink_callback *cb;
	struct user_namespace *ns;
	struct rue_dev *rdev;
};

static int rue_nl_job_dump_one(const struct rue_job_info *job, void *arg)
{
	struct rue_nl_job_dump *d = arg;

	return rue_nl_fill_job(d->msg, d->rdev, job, d->ns,
			       NETLINK_CB(d->cb->skb).portid,
			       d->cb->nlh->nlmsg_seq, NLM_F_MULTI);
}

/* @rdev's jobs from cb->args[2] on; there, past them all when done. */
static int rue_nl_job_dump_jobs(struct rue_nl_job_dump *d,
				struct rue_dev *rdev)
{
	u32 cursor = d->cb->args[2];
	int err;

	d->rdev = rdev;
	err = rue_job_for_each(rdev, &cursor, rue_nl_job_dump_one, d);
	d->cb->args[2] = cursor;
	return err;
}

/* rue_dev_for_each's step: the next device starts at its first job. */
static int rue_nl_job_dump_dev(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_job_dump *d = arg;
	int err;

	err = rue_nl_job_dump_jobs(d, rdev);
	if (!err)
		d->cb->args[2] = 0;
	return err;
}

/* First call: which devices, from the request's attributes. */
static int rue_nl_dump_start(struct netlink_callback *cb)
{
	struct nlattr *tb[RUE_A_DEV_MAX + 1];
	struct genl_info info = { .attrs = tb, .extack = cb->extack };
	struct rue_dev *rdev;
	int err;

	err = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, RUE_A_DEV_MAX,
			  rue_dev_policy, cb->extack);
	if (err)
		return err;
	if (!tb[RUE_A_DEV_INDEX] && !tb[RUE_A_DEV_NAME]) {
		cb->args[0] = RUE_NL_DUMP_ALL;
		return 0;
	}
	rdev = rue_nl_dev_from_attrs(&info);
	if (IS_ERR_OR_NULL(rdev)) {
		NL_SET_ERR_MSG(cb->extack, "no such rue device");
		return -ENODEV;
	}
	cb->args[0] = RUE_NL_DUMP_ONE;
	cb->args[1] = rdev->ibdev.index;
	rue_dev_put(rdev);
	return 0;
}

static int rue_nl_job_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct rue_nl_job_dump d = {
		.msg = skb,
		.cb = cb,
		.ns = rue_nl_user_ns(cb->skb),
	};
	unsigned long cursor;
	struct rue_dev *rdev;
	int err;

	if (!cb->args[0]) {
		err = rue_nl_dump_start(cb);
		if (err)
			return err;
	}
	if (cb->args[0] == RUE_NL_DUMP_ALL) {
		cursor = cb->args[1];
		err = rue_dev_for_each(&cursor, rue_nl_job_dump_dev, &d);
		cb->args[1] = cursor;
	} else {
		rdev = rue_dev_get_by_index(cb->args[1]);
		if (!rdev)
			return 0;	/* gone since: the dump ends */
		err = rue_nl_job_dump_jobs(&d, rdev);
		rue_dev_put(rdev);
	}
	/* A full message ends this part of the dump; resume at the cursors. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ------------------------------------------------------------------ */
/* UET PDCs                                                            */

/* The peer as its family's address: an IPv4 peer is kept v4-mapped. */
static int rue_nl_put_peer(struct sk_buff *msg, const struct rue_pdc_info *pdc)
{
	if (pdc->network_type == RDMA_NETWORK_IPV4) {
		if (nla_put_u8(msg, RUE_A_PDC_FAMILY, AF_INET) ||
		    nla_put_in_addr(msg, RUE_A_PDC_PEER, pdc->peer.s6_addr32[3]))
			return -EMSGSIZE;
		return 0;
	}
	if (nla_put_u8(msg, RUE_A_PDC_FAMILY, AF_INET6) ||
	    nla_put_in6_addr(msg, RUE_A_PDC_PEER, &pdc->peer))
		return -EMSGSIZE;
	return 0;
}

/* What only an initiator PDC has: its QP and its send state. */
static int rue_nl_put_pdc_ini(struct sk_buff *msg,
			      const struct rue_pdc_info *pdc)
{
	if (nla_put_u8(msg, RUE_A_PDC_SYN, pdc->syn) ||
	    nla_put_u8(msg, RUE_A_PDC_CLOSING, pdc->closing) ||
	    nla_put_u32(msg, RUE_A_PDC_QPN, pdc->qpn) ||
	    nla_put_u32(msg, RUE_A_PDC_NEXT_PSN, pdc->next_psn) ||
	    nla_put_u32(msg, RUE_A_PDC_UNA_PSN, pdc->una_psn) ||
	    nla_put_u32(msg, RUE_A_PDC_SRTT, pdc->srtt_us) ||
	    nla_put_u32(msg, RUE_A_PDC_RTO, pdc->rto_us) ||
	    nla_put_u32(msg, RUE_A_PDC_RETRIES, pdc->retries) ||
	    nla_put_u32(msg, RUE_A_PDC_CWND, pdc->cwnd))
		return -EMSGSIZE;
	return 0;
}

static int rue_nl_put_pdc(struct sk_buff *msg, const struct rue_pdc_info *pdc)
{
	bool ini = pdc->role == RUE_PDC_INITIATOR;
	struct nlattr *nest;

	nest = nla_nest_start(msg, RUE_A_DEV_PDC);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(msg, RUE_A_PDC_LOCAL_ID, pdc->lid) ||
	    nla_put_u16(msg, RUE_A_PDC_REMOTE_ID, pdc->rid) ||
	    nla_put_u8(msg, RUE_A_PDC_ROLE, ini ? RUE_PDC_ROLE_INITIATOR :
						  RUE_PDC_ROLE_TARGET) ||
	    nla_put_u8(msg, RUE_A_PDC_MODE, pdc->mode) ||
	    nla_put_u32(msg, RUE_A_PDC_JOB, pdc->job) ||
	    rue_nl_put_peer(msg, pdc) ||
	    (ini ? rue_nl_put_pdc_ini(msg, pdc) :
		   nla_put_u32(msg, RUE_A_PDC_RX_NEXT_PSN, pdc->rx_next))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

struct rue_nl_pdc_dump {
	struct sk_buff *msg;
	struct netlink_callback *cb;
	struct rue_dev *rdev;
};

/* rue_pds_for_each's step, in process context with no lock held. */
static int rue_nl_pdc_dump_one(const struct rue_pdc_info *pdc, void *arg)
{
	struct rue_nl_pdc_dump *d = arg;
	struct rue_dev *rdev = d->rdev;
	void *hdr;

	hdr = genlmsg_put(d->msg, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, &rue_genl_family,
			  NLM_F_MULTI, RUE_CMD_PDC_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(d->msg, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
	    nla_put_string(d->msg, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev)) ||
	    rue_nl_put_pdc(d->msg, pdc)) {
		genlmsg_cancel(d->msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(d->msg, hdr);
	return 0;
}

/*
 * @rdev's PDCs from cb->args[2] on.  When the message fills up, the
 * cursor is the PDCID that did not fit, and the next part starts there.
 */
static int rue_nl_pdc_dump_pdcs(struct rue_nl_pdc_dump *d,
				struct rue_dev *rdev)
{
	unsigned long cursor = d->cb->args[2];
	int err;

	d->rdev = rdev;
	err = rue_pds_for_each(rdev, &cursor, rue_nl_pdc_dump_one, d);
	d->cb->args[2] = cursor;
	return err;
}

/* rue_dev_for_each's step: the next device starts at its first PDC. */
static int rue_nl_pdc_dump_dev(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_pdc_dump *d = arg;
	int err;

	err = rue_nl_pdc_dump_pdcs(d, rdev);
	if (!err)
		d->cb->args[2] = 0;
	return err;
}

/* One message per PDC, in device index and then PDCID order. */
static int rue_nl_pdc_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct rue_nl_pdc_dump d = { .msg = skb, .cb = cb };
	unsigned long cursor;
	struct rue_dev *rdev;
	int err;

	if (!cb->args[0]) {
		err = rue_nl_dump_start(cb);
		if (err)
			return err;
	}
	if (cb->args[0] == RUE_NL_DUMP_ALL) {
		cursor = cb->args[1];
		err = rue_dev_for_each(&cursor, rue_nl_pdc_dump_dev, &d);
		cb->args[1] = cursor;
	} else {
		rdev = rue_dev_get_by_index(cb->args[1]);
		if (!rdev)
			return 0;	/* gone since: the dump ends */
		err = rue_nl_pdc_dump_pdcs(&d, rdev);
		rue_dev_put(rdev);
	}
	/* A full message ends this part of the dump; resume at the cursors. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* ------------------------------------------------------------------ */
/* UET counters                                                        */

/* Every counter, by name: uet_stats.c's table is the only list. */
static int rue_nl_put_uet_stats(struct sk_buff *msg, struct rue_dev *rdev)
{
	struct nlattr *stats, *stat;
	int i;

	stats = nla_nest_start(msg, RUE_A_DEV_UET_STATS);
	if (!stats)
		return -EMSGSIZE;
	for (i = 0; i < RUE_NUSTATS; i++) {
		stat = nla_nest_start(msg, RUE_A_DEV_UET_STAT);
		if (!stat ||
		    nla_put_string(msg, RUE_A_UET_STAT_NAME,
				   rue_uet_stat_name(i)) ||
		    nla_put_u64_64bit(msg, RUE_A_UET_STAT_VALUE,
				      rue_uet_stat_read(rdev, i),
				      RUE_A_UET_STAT_PAD)) {
			nla_nest_cancel(msg, stats);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, stat);
	}
	nla_nest_end(msg, stats);
	return 0;
}

static int rue_nl_fill_uet_stats(struct sk_buff *msg, struct rue_dev *rdev,
				 u32 portid, u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &rue_genl_family, flags,
			  RUE_CMD_UET_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RUE_A_DEV_INDEX, rdev->ibdev.index) ||
	    nla_put_string(msg, RUE_A_DEV_NAME, dev_name(&rdev->ibdev.dev)) ||
	    rue_nl_put_uet_stats(msg, rdev)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/*
 * One message holds every counter: at most about 50 bytes each, so
 * NLMSG_GOODSIZE has room for some 70 of them.
 */
static int rue_nl_uet_stats_get_doit(struct sk_buff *skb,
				     struct genl_info *info)
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
	err = rue_nl_fill_uet_stats(msg, rdev, info->snd_portid,
				    info->snd_seq, 0);
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

static int rue_nl_uet_stats_dump_one(struct rue_dev *rdev, void *arg)
{
	struct rue_nl_dump *d = arg;

	return rue_nl_fill_uet_stats(d->msg, rdev,
				     NETLINK_CB(d->cb->skb).portid,
				     d->cb->nlh->nlmsg_seq, NLM_F_MULTI);
}

static int rue_nl_uet_stats_get_dumpit(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	struct rue_nl_dump d = { .msg = skb, .cb = cb };
	unsigned long cursor = cb->args[0];
	int err;

	err = rue_dev_for_each(&cursor, rue_nl_uet_stats_dump_one, &d);
	cb->args[0] = cursor;
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
