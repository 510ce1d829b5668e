// SPDX-License-Identifier: GPL-2.0
/*
 * UET over the "rue" netlink family: the jobs a device admits
 * (RUE_CMD_JOB_NEW, _DEL, _GET; job.c), its PDCs (RUE_CMD_PDC_GET; a
 * copy of each from rue_pds_for_each()) and its UET counters
 * (RUE_CMD_UET_STATS_GET; uet_stats.c).
 */
#include <linux/rue_netlink.h>

#include "job.h"
#include "nl_uet.h"
#include "pds.h"
#include "uet_stats.h"
#include "core/device.h"
#include "core/netlink.h"

static struct netlink_range_validation rue_nl_job_id __ro_after_init = {
	1, RUE_JOB_ID_MAX
};

const struct nla_policy rue_job_policy[RUE_A_JOB_MAX + 1] = {
	[RUE_A_JOB_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &rue_nl_job_id),
	[RUE_A_JOB_UID] = { .type = NLA_U32 },
	[RUE_A_JOB_GID] = { .type = NLA_U32 },
	[RUE_A_JOB_BOUND] = { .type = NLA_REJECT,
			      .reject_message = "read-only" },
};

/* ------------------------------------------------------------------ */
/* Jobs                                                                */

/*
 * UIDs and GIDs travel as numbers of the user namespace of the socket's
 * opener, both ways, so that the numbers of a dump do not depend on which
 * process happens to read its later parts.
 */
static struct user_namespace *rue_nl_user_ns(const struct sk_buff *skb)
{
	return sk_user_ns(NETLINK_CB(skb).sk);
}

/* A job, in a message to @ns's numbers. */
struct rue_nl_job {
	const struct rue_job_info *info;
	struct user_namespace *ns;
};

static int rue_nl_put_job(struct sk_buff *msg, struct rue_dev *rdev, void *arg)
{
	const struct rue_nl_job *j = arg;
	const struct rue_job_info *job = j->info;
	struct user_namespace *ns = j->ns;
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

/* A job's device, referenced, after its job nest is parsed into @tb. */
static struct rue_dev *rue_nl_job_dev(struct sk_buff *skb,
				      struct genl_info *info, struct nlattr **tb)
{
	int err = rue_nl_job_attrs(info, tb);

	if (err)
		return ERR_PTR(err);
	return rue_nl_dev_get(skb, info->attrs, info->extack);
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

int rue_nl_job_new_doit(struct sk_buff *skb, struct genl_info *info)
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
	rdev = rue_nl_dev_get(skb, info->attrs, info->extack);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	err = rue_job_add(rdev, nla_get_u32(tb[RUE_A_JOB_ID]), &grant);
	if (err == -EEXIST)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_ID],
				    "the device has this job already");
	rue_dev_put(rdev);
	return err;
}

int rue_nl_job_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_JOB_MAX + 1];
	struct rue_dev *rdev;
	int err;

	rdev = rue_nl_job_dev(skb, info, tb);
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

int rue_nl_job_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[RUE_A_JOB_MAX + 1];
	struct rue_job_info job;
	struct rue_nl_job j = { .info = &job, .ns = rue_nl_user_ns(skb) };
	struct rue_dev *rdev;
	int err;

	rdev = rue_nl_job_dev(skb, info, tb);
	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	err = rue_job_query(rdev, nla_get_u32(tb[RUE_A_JOB_ID]), &job);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[RUE_A_JOB_ID], "no such job");
		rue_dev_put(rdev);
		return err;
	}
	return rue_nl_reply(info, rdev, rue_nl_put_job, &j);
}

struct rue_nl_job_walk {
	struct sk_buff *msg;
	struct netlink_callback *cb;
	struct rue_dev *rdev;
};

static int rue_nl_job_dump_one(const struct rue_job_info *job, void *arg)
{
	struct rue_nl_job_walk *w = arg;
	struct rue_nl_job j = { .info = job, .ns = rue_nl_user_ns(w->cb->skb) };

	return rue_nl_dump_msg(w->msg, w->cb, w->rdev, rue_nl_put_job, &j);
}

/* One message per job, in job ID order. */
static int rue_nl_job_fill(struct sk_buff *msg, struct netlink_callback *cb,
			   struct rue_dev *rdev, unsigned long *cursor)
{
	struct rue_nl_job_walk w = { .msg = msg, .cb = cb, .rdev = rdev };
	u32 id = *cursor;
	int err;

	err = rue_job_for_each(rdev, &id, rue_nl_job_dump_one, &w);
	*cursor = id;
	return err;
}

static const struct rue_nl_dumper rue_nl_job_dumper = {
	.scope = RUE_NL_NAMED_OR_EVERY_DEV,
	.fill = rue_nl_job_fill,
};

int rue_nl_job_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return rue_nl_dump(skb, cb, &rue_nl_job_dumper);
}

/* ------------------------------------------------------------------ */
/* PDCs                                                                */

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

static int rue_nl_put_pdc(struct sk_buff *msg, struct rue_dev *rdev, void *arg)
{
	const struct rue_pdc_info *pdc = arg;
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

struct rue_nl_pdc_walk {
	struct sk_buff *msg;
	struct netlink_callback *cb;
	struct rue_dev *rdev;
};

/* rue_pds_for_each's step, in process context with no lock held. */
static int rue_nl_pdc_dump_one(const struct rue_pdc_info *pdc, void *arg)
{
	struct rue_nl_pdc_walk *w = arg;

	return rue_nl_dump_msg(w->msg, w->cb, w->rdev, rue_nl_put_pdc,
			       (void *)pdc);
}

/* One message per PDC, in PDCID order. */
static int rue_nl_pdc_fill(struct sk_buff *msg, struct netlink_callback *cb,
			   struct rue_dev *rdev, unsigned long *cursor)
{
	struct rue_nl_pdc_walk w = { .msg = msg, .cb = cb, .rdev = rdev };

	return rue_pds_for_each(rdev, cursor, rue_nl_pdc_dump_one, &w);
}

static const struct rue_nl_dumper rue_nl_pdc_dumper = {
	.scope = RUE_NL_NAMED_OR_EVERY_DEV,
	.fill = rue_nl_pdc_fill,
};

int rue_nl_pdc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return rue_nl_dump(skb, cb, &rue_nl_pdc_dumper);
}

/* ------------------------------------------------------------------ */
/* Counters                                                            */

/* Every counter, by name: uet_stats.c's table is the only list. */
static int rue_nl_put_uet_stats(struct sk_buff *msg, struct rue_dev *rdev,
				void *arg)
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

/*
 * One message holds every counter: at most about 50 bytes each, so
 * NLMSG_GOODSIZE has room for some 70 of them.
 */
int rue_nl_uet_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rue_dev *rdev;

	rdev = rue_nl_dev_get(skb, info->attrs, info->extack);

	if (IS_ERR(rdev))
		return PTR_ERR(rdev);
	return rue_nl_reply(info, rdev, rue_nl_put_uet_stats, NULL);
}

/* One message per device. */
static int rue_nl_uet_stats_fill(struct sk_buff *msg,
				 struct netlink_callback *cb,
				 struct rue_dev *rdev, unsigned long *cursor)
{
	return rue_nl_dump_msg(msg, cb, rdev, rue_nl_put_uet_stats, NULL);
}

static const struct rue_nl_dumper rue_nl_uet_stats_dumper = {
	.scope = RUE_NL_EVERY_DEV,
	.fill = rue_nl_uet_stats_fill,
};

int rue_nl_uet_stats_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return rue_nl_dump(skb, cb, &rue_nl_uet_stats_dumper);
}
