// SPDX-License-Identifier: GPL-2.0
/*
 * QPs over the "rue" netlink family (RUE_CMD_QP_GET): one message per QP
 * of the device a dump names, in QPN order, with its rate control state.
 */
#include <linux/rue_netlink.h>

#include "device.h"
#include "netlink.h"
#include "nl_qp.h"
#include "qp.h"
#include "transport.h"
#include "cc/cc.h"

static int rue_nl_put_qp(struct sk_buff *msg, struct rue_dev *rdev, void *arg)
{
	struct rue_qp *qp = arg;
	struct rue_cc_qp_info cc;
	struct nlattr *nest;

	rue_cc_qp_info(qp, &cc);
	nest = nla_nest_start(msg, RUE_A_DEV_QP);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, RUE_A_QP_NUM, qp->ibqp.qp_num) ||
	    nla_put_u8(msg, RUE_A_QP_TYPE, qp->ibqp.qp_type) ||
	    nla_put_u8(msg, RUE_A_QP_STATE, READ_ONCE(qp->state)) ||
	    nla_put_u32(msg, RUE_A_QP_DEST_NUM, qp->dest_qpn) ||
	    nla_put_u8(msg, RUE_A_QP_PRIO, cc.prio) ||
	    nla_put_u8(msg, RUE_A_QP_DSCP, qp->av.tclass >> 2) ||
	    nla_put_u8(msg, RUE_A_QP_CC_LIMITED, cc.limited) ||
	    nla_put_u32(msg, RUE_A_QP_CC_RATE, cc.rate_mbps) ||
	    nla_put_u32(msg, RUE_A_QP_CC_TARGET, cc.target_mbps) ||
	    nla_put_u32(msg, RUE_A_QP_CC_ALPHA, cc.alpha) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_CNP_SENT, cc.cnp_sent,
			      RUE_A_QP_PAD) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_CNP_HANDLED, cc.cnp_handled,
			      RUE_A_QP_PAD) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_ECN_MARKED, cc.ecn_marked,
			      RUE_A_QP_PAD) ||
	    nla_put_u64_64bit(msg, RUE_A_QP_TX_BYTES, cc.tx_bytes,
			      RUE_A_QP_PAD) ||
	    ((qp->xport->flags & RUE_XPORT_WINDOW) &&
	     nla_put_u32(msg, RUE_A_QP_CWND, READ_ONCE(qp->req.cwnd.cwnd)))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * QPs are read under RCU: destroy_qp unpublishes a QP and waits a grace
 * period before the core frees it.
 */
static int rue_nl_qp_fill(struct sk_buff *msg, struct netlink_callback *cb,
			  struct rue_dev *rdev, unsigned long *cursor)
{
	struct rue_qp *qp;
	int err = 0;

	rcu_read_lock();
	xa_for_each_start(&rdev->qps, *cursor, qp, *cursor) {
		err = rue_nl_dump_msg(msg, cb, rdev, rue_nl_put_qp, qp);
		if (err)
			break;
	}
	rcu_read_unlock();
	return err;
}

static const struct rue_nl_dumper rue_nl_qp_dumper = {
	.scope = RUE_NL_NAMED_DEV,
	.fill = rue_nl_qp_fill,
};

int rue_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return rue_nl_dump(skb, cb, &rue_nl_qp_dumper);
}
