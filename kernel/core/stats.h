/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-device counters, shown by "rdma statistic show link DEV/1".
 */
#ifndef _RUE_STATS_H
#define _RUE_STATS_H

#include <linux/percpu.h>

enum rue_stat {
	RUE_STAT_TX_PACKETS,
	RUE_STAT_TX_BYTES,
	RUE_STAT_RX_PACKETS,
	RUE_STAT_RX_BYTES,
	RUE_STAT_TX_DROPS,		/* route failure or stack drop */
	RUE_STAT_RX_DROP_HDR,		/* malformed headers or lengths */
	RUE_STAT_RX_DROP_ICRC,
	RUE_STAT_RX_DROP_OPCODE,	/* unsupported opcode */
	RUE_STAT_RX_DROP_QP,		/* no such QP */
	RUE_STAT_RX_DROP_STATE,		/* QP cannot receive now, or UC refused */
	RUE_STAT_RX_DROP_QKEY,
	RUE_STAT_RX_DROP_SEQ,		/* out of sequence (RC NAKs once) */
	RUE_STAT_RX_DUP_REQUESTS,
	RUE_STAT_RX_STALE_RESPONSES,
	RUE_STAT_RETRANSMITS,		/* packets sent again */
	RUE_STAT_RTO_TIMEOUTS,
	RUE_STAT_TLP_PROBES,		/* RC tail-loss probes sent */
	RUE_STAT_RETRY_EXCEEDED,
	RUE_STAT_RNR_NAK_SENT,
	RUE_STAT_RNR_NAK_RCVD,
	RUE_STAT_RNR_RETRY_EXCEEDED,
	RUE_STAT_SEQ_NAK_SENT,
	RUE_STAT_SEQ_NAK_RCVD,
	RUE_STAT_ERR_NAK_SENT,		/* access, invalid, operation */
	RUE_STAT_ERR_NAK_RCVD,
	RUE_STAT_IMPLIED_NAKS,
	RUE_STAT_ACKED_AHEAD,		/* ACKs past a go-back's resend point */
	RUE_STAT_READ_EARLY,		/* READ responses placed out of order */
	RUE_STAT_CQ_OVERFLOWS,
	RUE_STAT_NP_ECN_MARKED,		/* CE-marked packets received */
	RUE_STAT_NP_CNP_SENT,
	RUE_STAT_RP_CNP_HANDLED,
	RUE_STAT_RP_CNP_IGNORED,	/* unknown QP, not RC, DCQCN off */
	RUE_STAT_PFC_MALFORMED,		/* MAC control frames we cannot read */
	RUE_STAT_PFC_IGNORED,		/* PFC for priorities without PFC */
	RUE_STAT_PAUSE_TRANSITION,	/* pauses ended (XOFF to XON), any prio */
	RUE_STAT_UET_RX_DROPS,		/* UET packets dropped or refused */
	RUE_STAT_UET_RETRANSMITS,
	RUE_STAT_UET_NACKS_SENT,
	RUE_STAT_UET_ECN_ECHO,		/* ACKs saying a request was CE-marked */
	RUE_STAT_PRIO_BASE,		/* then RUE_PRIO_NSTATS per priority */
	RUE_NSTATS = RUE_STAT_PRIO_BASE + 8 * 7
};

/* Counters of each priority, as mlx5's ethtool names them. */
enum rue_prio_stat {
	RUE_PRIO_TX_PACKETS,		/* wire packets handed to the stack */
	RUE_PRIO_TX_BYTES,
	RUE_PRIO_TX_DISCARDS,		/* queue overflow, stack drop, detach */
	RUE_PRIO_RX_DISCARDS,		/* receive backlog overflow */
	RUE_PRIO_RX_PAUSE,		/* PFC frames received (XOFF and XON) */
	RUE_PRIO_RX_PAUSE_DURATION,	/* us paused by them */
	RUE_PRIO_TX_PAUSE,		/* PFC frames sent */
	RUE_PRIO_NSTATS
};

#define RUE_STAT_PRIO(p, k) \
	((enum rue_stat)(RUE_STAT_PRIO_BASE + (p) * RUE_PRIO_NSTATS + (k)))

struct rue_dev;

/* rdev->stats is a per-CPU array; counters only ever go up. */
#define rue_stat_add(rdev, idx, n) this_cpu_add((rdev)->stats->c[idx], (n))
#define rue_stat_inc(rdev, idx) rue_stat_add(rdev, idx, 1)

struct rue_stats {
	u64 c[RUE_NSTATS];
};

u64 rue_stat_read(struct rue_dev *rdev, enum rue_stat idx);
int rue_stats_check(void);
void rue_stats_set_ops(struct ib_device *ibdev);

#endif /* _RUE_STATS_H */
