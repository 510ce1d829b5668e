// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control, as a RoCE NIC does it (IBTA annex A17.9, and the
 * DCQCN of ConnectX; Documentation/congestion.md).
 *
 * ECN.  Data packets leave with ECT(0) (or ECT(1), or Not-ECT, per
 * device); ACKs, NAKs and CNPs are Not-ECT and go out with their own DSCP
 * and priority (cnp_dscp, cnp_prio).  The ICRC masks the ECN bits, so a
 * switch may set CE without breaking it.
 *
 * Notification point.  A CE-marked packet arriving on an RC QP is
 * answered with a CNP to the peer QP, at most one per QP per
 * min_time_between_cnps.  For an RDMA READ, the requester is the NP of
 * the responses.  A CNP is never answered.
 *
 * Reaction point.  A CNP cuts its QP's rate (dcqcn.c).  From then until
 * the rate recovers the QP is paced: rue_cc_tx_budget() lets the
 * transmit engine build only what the rate allows now (a token bucket of
 * RUE_CC_BURST_BYTES, plus a little slack), and otherwise arms a timer
 * that kicks the QP when more is due;
 * rue_cc_tx_done() moves the earliest next send time by what went out.
 * A QP that was never notified pays one unlocked flag test per run.
 *
 * Priorities.  A QP's priority comes from its DSCP (the traffic class's
 * upper six bits) through the device's DSCP map; it becomes
 * skb->priority, so mqprio, a VLAN's egress map or a shaper below can
 * tell the classes apart, and np_enable/rp_enable apply per priority.
 *
 * Locking.  Settings: rdev->cc, replaced under rdev->cc_lock and read
 * under RCU.  Per QP: cc.lock (a leaf, taken in softirq and process
 * context with bottom halves off).
 */
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/skbuff.h>
#include <linux/rue_netlink.h>
#include <net/inet_ecn.h>

#include "cc.h"
#include "core/ah.h"
#include "core/device.h"
#include "core/engine.h"
#include "core/qp.h"
#include "core/stats.h"
#include "core/transport.h"
#include "net/xmit.h"
#include "roce/pkt.h"
#include "roce/roce.h"

/* What a paced QP may send ahead of its rate: timer and wakeup latency. */
#define RUE_CC_SLACK_NS		(50 * NSEC_PER_USEC)

/*
 * The credit a paced QP keeps while it waits: a token bucket of this
 * many bytes.  Without it a QP woken late (a busy CPU, a slow timer)
 * loses the time it waited, and its rate becomes one packet per wakeup
 * latency instead of RC.
 */
#define RUE_CC_BURST_BYTES	(32 * 1024)

/* Link speed to assume when the netdev reports none, Mb/s. */
#define RUE_CC_DEFAULT_MBPS	100000

/* Ethernet, IPv4/IPv6 and UDP headers and the ICRC: wire bytes beyond the BTH. */
#define RUE_CC_WIRE_OVERHEAD(v6) \
	(ETH_HLEN + ((v6) ? 40 : 20) + 8 + RUE_ICRC_BYTES)

/**
 * rue_cc_defaults() - ConnectX's defaults
 * @cfg: settings to fill
 *
 * The values mlx5 firmware ships with (Documentation/congestion.md has
 * the table and its sources).
 */
void rue_cc_defaults(struct rue_cc_cfg *cfg)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->ecn = RUE_ECN_ECT0;
	cfg->cnp_dscp = 48;
	cfg->cnp_prio = 6;
	cfg->np_enable = 0xff;
	cfg->rp_enable = 0xff;
	/* mlx5 "trust dscp" default: the class selector bits */
	for (i = 0; i < RUE_NDSCP; i++)
		cfg->dscp_prio[i] = i >> 3;
	cfg->min_time_between_cnps = 4;
	cfg->rpg_max_rate = 0;
	/* dcb's defaults: every priority strict, PFC off */
	cfg->pfc_quanta = 0xffff;
	cfg->dcqcn[0] = (struct rue_dcqcn_params){
		.dce_tcp_g = 1019,
		.dce_tcp_rtt = 1,
		.initial_alpha = 1023,
		.rate_reduce_monitor_period = 4,
		.rpg_gd = 11,
		.rpg_min_dec_fac = 50,
		.rpg_min_rate = 1,
		.rate_to_set_on_first_cnp = 0,
		.clamp_tgt_rate = 0,
		.clamp_tgt_rate_after_time_inc = 1,
		.rpg_time_reset = 300,
		.rpg_byte_reset = 32767,
		.rpg_threshold = 1,
		.rpg_ai_rate = 5,
		.rpg_hai_rate = 50,
	};
	for (i = 1; i < RUE_NPRIO; i++)
		cfg->dcqcn[i] = cfg->dcqcn[0];
}

/**
 * rue_cc_dev_init() - default settings for a new device
 * @rdev: the device, not registered yet
 *
 * Return: 0 or -ENOMEM.
 */
int rue_cc_dev_init(struct rue_dev *rdev)
{
	struct rue_cc_cfg *cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);

	if (!cfg)
		return -ENOMEM;
	rue_cc_defaults(cfg);
	mutex_init(&rdev->cc_lock);
	RCU_INIT_POINTER(rdev->cc, cfg);
	return 0;
}

/* At dealloc_driver: no reader is left. */
void rue_cc_dev_free(struct rue_dev *rdev)
{
	kfree(rcu_dereference_protected(rdev->cc, true));
}

/**
 * rue_cc_replace() - publish new settings
 * @rdev: the device
 * @cfg: the new settings, allocated with kmalloc(); the device owns them
 *
 * Called with rdev->cc_lock held.  QPs see them at their next packet.
 */
void rue_cc_replace(struct rue_dev *rdev, struct rue_cc_cfg *cfg)
{
	struct rue_cc_cfg *old;

	old = rcu_replace_pointer(rdev->cc, cfg, lockdep_is_held(&rdev->cc_lock));
	kfree_rcu(old, rcu);
}

/* The most a QP sends at, kb/s. */
u32 rue_cc_max_rate(const struct rue_dev *rdev, const struct rue_cc_cfg *cfg)
{
	u32 mbps = cfg->rpg_max_rate ?: READ_ONCE(rdev->link_mbps);

	return (mbps ?: RUE_CC_DEFAULT_MBPS) * 1000U;
}

u8 rue_cc_prio(const struct rue_cc_cfg *cfg, u8 tclass)
{
	return cfg->dscp_prio[tclass >> 2] & (RUE_NPRIO - 1);
}

/* The DCQCN parameters of @qp's priority. */
const struct rue_dcqcn_params *rue_cc_params(const struct rue_cc_cfg *cfg,
					     const struct rue_qp *qp)
{
	return &cfg->dcqcn[rue_cc_prio(cfg, qp->av.tclass)];
}

/* The TOS byte of a data packet: the DSCP asked for, ECN as configured. */
u8 rue_cc_data_tos(const struct rue_cc_cfg *cfg, u8 tclass)
{
	u8 tos = tclass & ~INET_ECN_MASK;

	if (cfg->ecn == RUE_ECN_ECT0)
		tos |= INET_ECN_ECT_0;
	else if (cfg->ecn == RUE_ECN_ECT1)
		tos |= INET_ECN_ECT_1;
	return tos;
}

/* ------------------------------------------------------------------ */
/* Per QP                                                              */

static enum hrtimer_restart rue_cc_pace_expired(struct hrtimer *t)
{
	struct rue_qp *qp = container_of(t, struct rue_qp, cc.pace_timer);

	rue_qp_kick(qp);
	return HRTIMER_NORESTART;
}

/* At QP creation. */
void rue_cc_qp_init(struct rue_qp *qp)
{
	struct rue_qp_cc *cc = &qp->cc;

	spin_lock_init(&cc->lock);
	hrtimer_init(&cc->pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	cc->pace_timer.function = rue_cc_pace_expired;
	atomic64_set(&cc->cnp_sent, 0);
	atomic64_set(&cc->cnp_handled, 0);
	atomic64_set(&cc->ecn_marked, 0);
	rue_dcqcn_init(&cc->dcqcn, RUE_CC_DEFAULT_MBPS * 1000U, 0);
}

/**
 * rue_cc_qp_start() - a QP starts sending at full rate
 * @qp: the QP, entering RTS; its locks held
 */
void rue_cc_qp_start(struct rue_qp *qp)
{
	struct rue_qp_cc *cc = &qp->cc;
	u64 now = ktime_get_ns();
	u32 max;

	rcu_read_lock();
	max = rue_cc_max_rate(qp->rdev, rcu_dereference(qp->rdev->cc));
	rcu_read_unlock();
	spin_lock(&cc->lock);
	rue_dcqcn_init(&cc->dcqcn, max, now);
	WRITE_ONCE(cc->limited, false);
	cc->next_tx = now;
	cc->cnp_sent_once = false;
	spin_unlock(&cc->lock);
}

/* Stop the pacing timer for good; the QP is going away or to RESET/ERR. */
void rue_cc_qp_stop(struct rue_qp *qp)
{
	hrtimer_cancel(&qp->cc.pace_timer);
}

/**
 * rue_cc_mark() - ECN, DSCP and priority of a packet a QP sends
 * @qp: the QP
 * @skb: the packet, data at the BTH
 * @tos: set to the IP TOS / traffic class byte
 *
 * Under rcu_read_lock().
 */
void rue_cc_mark(struct rue_qp *qp, struct sk_buff *skb, u8 *tos)
{
	const struct rue_cc_cfg *cfg = rcu_dereference(qp->rdev->cc);
	u8 opcode = skb->data[0];

	if (rue_opcodes[opcode].mask & (RUE_OPM_ACK | RUE_OPM_CNP)) {
		*tos = cfg->cnp_dscp << 2;
		skb->priority = cfg->cnp_prio;
		return;
	}
	*tos = rue_cc_data_tos(cfg, qp->av.tclass);
	skb->priority = rue_cc_prio(cfg, qp->av.tclass);
}

/**
 * rue_cc_tx_budget() - how many packets a QP may build now
 * @qp: the QP, its transmit engine running
 * @budget: the most it would build
 *
 * A QP in the error state only flushes and is not paced: after
 * rue_cc_qp_stop() nothing arms the timer again.
 *
 * Return: @budget for a QP not rate limited; else what its rate allows,
 * at least one packet, or 0 with the pacing timer armed.
 */
int rue_cc_tx_budget(struct rue_qp *qp, int budget)
{
	struct rue_qp_cc *cc = &qp->cc;
	const struct rue_cc_cfg *cfg;
	u64 now, allow, pkt, burst;
	int n = budget;

	if (likely(!READ_ONCE(cc->limited)) || READ_ONCE(qp->loop) ||
	    READ_ONCE(qp->state) == IB_QPS_ERR)
		return budget;

	now = ktime_get_ns();
	rcu_read_lock();
	cfg = rcu_dereference(qp->rdev->cc);
	spin_lock_bh(&cc->lock);
	rue_dcqcn_advance(&cc->dcqcn, rue_cc_params(cfg, qp), now);
	WRITE_ONCE(cc->limited, cc->dcqcn.limited);
	if (!cc->dcqcn.limited)
		goto out;
	burst = div_u64((u64)RUE_CC_BURST_BYTES * 8000000,
			max_t(u32, cc->dcqcn.rc, 1));
	if (cc->next_tx + burst < now)
		cc->next_tx = now - burst;	/* a full bucket, no more */
	if (cc->next_tx > now + RUE_CC_SLACK_NS) {
		hrtimer_start(&cc->pace_timer,
			      ns_to_ktime(cc->next_tx - RUE_CC_SLACK_NS),
			      HRTIMER_MODE_ABS_SOFT);
		n = 0;
		goto out;
	}
	/* bytes = ns * kb/s / 8e6 */
	allow = div_u64((now + RUE_CC_SLACK_NS - cc->next_tx) *
			cc->dcqcn.rc, 8000000);
	pkt = qp->mtu + RUE_CC_WIRE_OVERHEAD(true) + 64;
	n = min_t(u64, budget, max_t(u64, 1, div64_u64(allow, pkt)));
out:
	spin_unlock_bh(&cc->lock);
	rcu_read_unlock();
	return n;
}

/**
 * rue_cc_tx_done() - account what the transmit engine sent
 * @qp: the QP, its transmit engine running
 * @bytes: wire bytes, headers included
 */
void rue_cc_tx_done(struct rue_qp *qp, u32 bytes)
{
	struct rue_qp_cc *cc = &qp->cc;
	const struct rue_cc_cfg *cfg;

	WRITE_ONCE(cc->tx_bytes, cc->tx_bytes + bytes);
	if (likely(!READ_ONCE(cc->limited)))
		return;
	rcu_read_lock();
	cfg = rcu_dereference(qp->rdev->cc);
	spin_lock_bh(&cc->lock);
	if (cc->dcqcn.limited) {
		/* ns = bytes * 8e6 / kb/s */
		cc->next_tx += div_u64((u64)bytes * 8000000,
				       max_t(u32, cc->dcqcn.rc, 1));
		rue_dcqcn_sent(&cc->dcqcn, rue_cc_params(cfg, qp), bytes);
		WRITE_ONCE(cc->limited, cc->dcqcn.limited);
		/*
		 * The engine stopped at what the rate allowed; more may be
		 * waiting, and no ACK need come to run it again.  A kick
		 * that finds nothing to send costs one empty run.
		 */
		if (cc->dcqcn.limited && bytes &&
		    READ_ONCE(qp->state) != IB_QPS_ERR)
			hrtimer_start(&cc->pace_timer,
				      ns_to_ktime(cc->next_tx - RUE_CC_SLACK_NS),
				      HRTIMER_MODE_ABS_SOFT);
	}
	spin_unlock_bh(&cc->lock);
	rcu_read_unlock();
}

/* ------------------------------------------------------------------ */
/* Notification and reaction                                           */

/* A CNP to @qp's peer (A17.9.3): BTH with BECN, 16 zero bytes, ICRC. */
static void rue_cc_send_cnp(struct rue_qp *qp, const struct rue_cc_cfg *cfg)
{
	struct rue_dev *rdev = qp->rdev;
	struct rue_bth *bth;
	struct sk_buff *skb;

	skb = rue_xmit_alloc(rdev, sizeof(*bth) + RUE_CNP_PAD_BYTES, GFP_ATOMIC);
	if (!skb) {
		rue_stat_inc(rdev, RUE_STAT_TX_DROPS);
		return;
	}
	bth = skb_put_zero(skb, sizeof(*bth) + RUE_CNP_PAD_BYTES);
	rue_bth_fill(bth, RUE_OPCODE_CNP, false, 0, qp->dest_qpn, false, 0);
	bth->qpn |= cpu_to_be32(RUE_BTH_BECN);
	rue_tx_cb_init(skb, 0);
	skb->priority = cfg->cnp_prio;
	if (rue_xmit(rdev, &qp->av, &qp->dst_cache, qp->sport,
		     htons(ROCE_V2_UDP_DPORT), skb, 0, cfg->cnp_dscp << 2) >= 0) {
		rue_stat_inc(rdev, RUE_STAT_NP_CNP_SENT);
		atomic64_inc(&qp->cc.cnp_sent);
	}
}

/**
 * rue_cc_ce_rcv() - a CE-marked packet arrived on an RC QP
 * @qp: the QP it is for, from its peer
 * @pkt: the packet
 *
 * In softirq context.
 */
void rue_cc_ce_rcv(struct rue_qp *qp, const struct rue_pkt *pkt)
{
	const struct rue_cc_cfg *cfg;
	struct rue_qp_cc *cc = &qp->cc;
	u64 now, gap;
	bool send = false;

	rue_stat_inc(qp->rdev, RUE_STAT_NP_ECN_MARKED);
	atomic64_inc(&cc->ecn_marked);
	rcu_read_lock();
	cfg = rcu_dereference(qp->rdev->cc);
	if (!(cfg->np_enable & BIT(rue_cc_prio(cfg, pkt->tos))))
		goto out;
	now = ktime_get_ns();
	gap = (u64)cfg->min_time_between_cnps * NSEC_PER_USEC;
	spin_lock(&cc->lock);
	if (!cc->cnp_sent_once || now - cc->last_cnp >= gap) {
		cc->last_cnp = now;
		cc->cnp_sent_once = true;
		send = true;
	}
	spin_unlock(&cc->lock);
	if (send)
		rue_cc_send_cnp(qp, cfg);
out:
	rcu_read_unlock();
}

/**
 * rue_cc_cnp_rcv() - a CNP arrived
 * @rdev: the device it arrived on
 * @pkt: the CNP, checked by recv.c
 *
 * CNPs for no QP, for a QP whose transport has no reaction point (not
 * RC), not from its peer, or for a priority without DCQCN are counted as
 * ignored.  In softirq context.
 */
void rue_cc_cnp_rcv(struct rue_dev *rdev, const struct rue_pkt *pkt)
{
	const struct rue_cc_cfg *cfg;
	struct rue_qp_cc *cc;
	struct rue_qp *qp;

	qp = rue_qp_get(rdev, pkt->qpn);
	if (!qp)
		goto ignored;
	rcu_read_lock();
	cfg = rcu_dereference(rdev->cc);
	if (!(qp->xport->flags & RUE_XPORT_DCQCN) ||
	    !ipv6_addr_equal(&pkt->saddr, &qp->av.daddr) ||
	    !(cfg->rp_enable & BIT(rue_cc_prio(cfg, qp->av.tclass))) ||
	    READ_ONCE(qp->state) != IB_QPS_RTS) {
		rcu_read_unlock();
		rue_qp_put(qp);
		goto ignored;
	}
	cc = &qp->cc;
	spin_lock(&cc->lock);
	rue_dcqcn_cnp(&cc->dcqcn, rue_cc_params(cfg, qp), ktime_get_ns());
	WRITE_ONCE(cc->limited, cc->dcqcn.limited);
	spin_unlock(&cc->lock);
	rcu_read_unlock();
	atomic64_inc(&cc->cnp_handled);
	rue_stat_inc(rdev, RUE_STAT_RP_CNP_HANDLED);
	rue_qp_put(qp);
	return;

ignored:
	rue_stat_inc(rdev, RUE_STAT_RP_CNP_IGNORED);
}

/**
 * rue_cc_qp_info() - a QP's rate control as it stands now, for netlink
 * @qp: the QP
 * @info: filled with a consistent copy (the DCQCN state advanced to now)
 */
void rue_cc_qp_info(struct rue_qp *qp, struct rue_cc_qp_info *info)
{
	const struct rue_cc_cfg *cfg;
	struct rue_qp_cc *cc = &qp->cc;
	struct rue_dcqcn s;

	rcu_read_lock();
	cfg = rcu_dereference(qp->rdev->cc);
	info->prio = rue_cc_prio(cfg, qp->av.tclass);
	spin_lock_bh(&cc->lock);
	rue_dcqcn_advance(&cc->dcqcn, rue_cc_params(cfg, qp), ktime_get_ns());
	s = cc->dcqcn;
	spin_unlock_bh(&cc->lock);
	rcu_read_unlock();

	info->limited = s.limited;
	info->rate_mbps = s.rc / 1000;
	info->target_mbps = s.rt / 1000;
	info->alpha = s.alpha;
	info->cnp_sent = atomic64_read(&cc->cnp_sent);
	info->cnp_handled = atomic64_read(&cc->cnp_handled);
	info->ecn_marked = atomic64_read(&cc->ecn_marked);
	info->tx_bytes = READ_ONCE(cc->tx_bytes);
}
