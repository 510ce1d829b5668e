// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control and queueing settings over the "rue" netlink family
 * (RUE_CMD_CC_GET, RUE_CMD_CC_SET): ECN and DCQCN (cc.c), transmission
 * selection (net/txq.c) and PFC (net/pfc.c) of a device.  A setting is
 * checked whole, then the device's settings are replaced at once
 * (rue_cc_replace()).
 */
#include <linux/rue_netlink.h>

#include "cc.h"
#include "nl_cc.h"
#include "core/device.h"
#include "core/netlink.h"
#include "net/pfc.h"
#include "net/txq.h"

static struct netlink_range_validation rue_nl_usec __ro_after_init = { 1, 1000000 };
static struct netlink_range_validation rue_nl_usec0 __ro_after_init = { 0, 1000000 };
static struct netlink_range_validation rue_nl_mbps __ro_after_init = { 1, 1000000 };
static struct netlink_range_validation rue_nl_mbps0 __ro_after_init = { 0, 1000000 };
static struct netlink_range_validation rue_nl_bytes __ro_after_init = { 1024, 1U << 31 };
static struct netlink_range_validation rue_nl_backlog __ro_after_init = { 0, 64 << 20 };
/*
 * Not NLA_POLICY_RANGE(NLA_U32, 1, 0xffff): its bounds are s16, so 0xffff
 * became -1, which 6.1's nla_get_range_unsigned() warns about on every
 * request carrying the attribute (CC_GET too, open to any user), and
 * which both kernels took as no upper bound (rue_nl_fuzz found it).
 */
static struct netlink_range_validation rue_nl_quanta __ro_after_init = { 1, 0xffff };

/* Ranges of the settings; the DSCP map's entries are checked in set. */
const struct nla_policy rue_cc_policy[RUE_A_CC_MAX + 1] = {
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
	[RUE_A_CC_PFC_QUANTA] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_quanta),
	[RUE_A_CC_PFC_PAUSED] = { .type = NLA_REJECT,
				  .reject_message = "read-only" },
	[RUE_A_CC_PFC_ASSERTED] = { .type = NLA_REJECT,
				    .reject_message = "read-only" },
	[RUE_A_CC_PRIO] = NLA_POLICY_MAX(NLA_U8, RUE_NPRIO - 1),
	[RUE_A_CC_DCQCN_DIFFER] = { .type = NLA_REJECT,
				    .reject_message = "read-only" },
};

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

static int rue_nl_put_cc(struct sk_buff *msg, struct rue_dev *rdev, void *arg)
{
	u8 prio = *(u8 *)arg;
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

int rue_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_CC_MAX + 1];
	struct rue_dev *rdev;
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
	rdev = rue_nl_dev_get(skb, info->attrs, info->extack);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	return rue_nl_reply(info, rdev, rue_nl_put_cc, &prio);
}

/* One message per device, with priority 0's DCQCN parameters. */
static int rue_nl_cc_fill(struct sk_buff *msg, struct netlink_callback *cb,
			  struct rue_dev *rdev, unsigned long *cursor)
{
	u8 prio = 0;

	return rue_nl_dump_msg(msg, cb, rdev, rue_nl_put_cc, &prio);
}

static const struct rue_nl_dumper rue_nl_cc_dumper = {
	.scope = RUE_NL_EVERY_DEV,
	.fill = rue_nl_cc_fill,
};

int rue_nl_cc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return rue_nl_dump(skb, cb, &rue_nl_cc_dumper);
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

int rue_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info)
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
	rdev = rue_nl_dev_get(skb, info->attrs, info->extack);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);

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
