/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control: ECN marking, the notification point that answers
 * CE marks with CNPs, and the DCQCN reaction point that paces each QP.
 */
#ifndef _RUE_CC_H
#define _RUE_CC_H

#include <linux/hrtimer.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "dcqcn.h"

struct rue_dev;
struct rue_pkt;
struct rue_qp;
struct sk_buff;

#define RUE_NPRIO	8
#define RUE_NDSCP	64

/*
 * A device's settings.  Published with RCU and replaced whole on every
 * change, so the data path reads one consistent set without a lock.
 */
struct rue_cc_cfg {
	u8 ecn;				/* enum rue_ecn_mode */
	u8 cnp_dscp;
	u8 cnp_prio;
	u8 np_enable;			/* bit per priority */
	u8 rp_enable;
	u8 dscp_prio[RUE_NDSCP];
	u32 min_time_between_cnps;	/* us */
	u32 rpg_max_rate;		/* Mb/s, 0: the link speed */
	struct rue_dcqcn_params dcqcn[RUE_NPRIO];	/* per priority */
	/* transmission selection (txq.c) and PFC (pfc.c) */
	u8 ets_mask;			/* bit per priority: ETS, else strict */
	u8 ets_weight[RUE_NPRIO];	/* %, of the ETS priorities */
	u8 pfc_enable;			/* bit per priority */
	u32 pfc_xoff;			/* bytes of receive backlog, 0: never */
	u32 pfc_xon;
	u32 pfc_quanta;			/* asked for by XOFF, 512 bit times */
	struct rcu_head rcu;
};

/* A QP's share, in struct rue_qp. */
struct rue_qp_cc {
	spinlock_t lock;		/* dcqcn, next_tx, last_cnp */
	struct rue_dcqcn dcqcn;
	bool limited;			/* dcqcn.limited, read without the lock */
	u64 next_tx;			/* ns: when the paced flow may send more */
	u64 last_cnp;			/* ns: NP, the last CNP sent */
	bool cnp_sent_once;
	struct hrtimer pace_timer;	/* kicks a paced QP */
	u64 tx_bytes;			/* written by the transmit engine only */
	atomic64_t cnp_sent;
	atomic64_t cnp_handled;
	atomic64_t ecn_marked;
};

/* A QP's rate control as netlink shows it (rue_cc_qp_info()). */
struct rue_cc_qp_info {
	u8 prio;
	bool limited;
	u32 rate_mbps;			/* DCQCN's current rate */
	u32 target_mbps;		/* and its target rate */
	u32 alpha;
	u64 cnp_sent;
	u64 cnp_handled;
	u64 ecn_marked;
	u64 tx_bytes;
};

int rue_cc_dev_init(struct rue_dev *rdev);
void rue_cc_dev_free(struct rue_dev *rdev);

void rue_cc_qp_init(struct rue_qp *qp);
void rue_cc_qp_start(struct rue_qp *qp);
void rue_cc_qp_stop(struct rue_qp *qp);
void rue_cc_qp_info(struct rue_qp *qp, struct rue_cc_qp_info *info);

u8 rue_cc_prio(const struct rue_cc_cfg *cfg, u8 tclass);
const struct rue_dcqcn_params *rue_cc_params(const struct rue_cc_cfg *cfg,
					     const struct rue_qp *qp);
u8 rue_cc_data_tos(const struct rue_cc_cfg *cfg, u8 tclass);
void rue_cc_mark(struct rue_qp *qp, struct sk_buff *skb, u8 *tos);
int rue_cc_tx_budget(struct rue_qp *qp, int budget);
void rue_cc_tx_done(struct rue_qp *qp, u32 bytes);

void rue_cc_ce_rcv(struct rue_qp *qp, const struct rue_pkt *pkt);
void rue_cc_cnp_rcv(struct rue_dev *rdev, const struct rue_pkt *pkt);

void rue_cc_defaults(struct rue_cc_cfg *cfg);
void rue_cc_replace(struct rue_dev *rdev, struct rue_cc_cfg *cfg);
u32 rue_cc_max_rate(const struct rue_dev *rdev, const struct rue_cc_cfg *cfg);

#endif /* _RUE_CC_H */
