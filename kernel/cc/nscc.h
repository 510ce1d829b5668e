/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC, the sender-side window congestion control of UET (UE 1.0.1,
 * congestion management sublayer), for one initiator PDC: a window in bytes that ECN echoes
 * and queueing delay move.  No locking, no clock and no allocation of its
 * own: the state sits in struct rue_pdc, under the lock that guards the
 * PDC, and callers pass the time.  Built into the module and, unchanged,
 * into a host unit test (userspace/khost/nscc_test.cc).
 */
#ifndef _RUE_NSCC_H
#define _RUE_NSCC_H

#include <linux/types.h>

/* struct rue_nscc.avg_delay: microseconds in 24.8 fixed point */
#define RUE_NSCC_AVG_SHIFT	8

/* What one call did, for counters (a set of these is returned). */
#define RUE_NSCC_EV_INCREASE	0x1	/* the window grew */
#define RUE_NSCC_EV_DECREASE	0x2	/* multiplicative decrease, or a loss */
#define RUE_NSCC_EV_QUICK_ADAPT	0x4	/* window set to what got through */

/*
 * Settings, filled from the module parameters by rue_nscc_cfg_default()
 * and then read only; one may serve many PDCs.  Bytes and microseconds.
 */
struct rue_nscc_cfg {
	u32 mss;		/* payload of a full packet */
	u32 max_cwnd;		/* ceiling: 1.5 BDP in NSCC's terms */
	u32 min_cwnd;		/* floor: one packet */
	u32 init_cwnd;		/* a new PDC's window */
	u32 target_us;		/* target queueing delay */
	bool enabled;		/* false: the window stays at max_cwnd */
};

/* One PDC's state; times in ns of the caller's clock (ktime_get_ns()). */
struct rue_nscc {
	u32 cwnd;		/* bytes the PDC may have in flight */
	u32 base_rtt_us;	/* least RTT seen, aged upwards; 0: none yet */
	u32 age_min_us;		/* least RTT of this aging period, ~0: none */
	u32 age_n;		/* RTT samples in this aging period */
	u32 avg_delay;		/* EWMA of the delay, us << RUE_NSCC_AVG_SHIFT */
	u64 inc;		/* increase owed, in bytes^2 (over cwnd) */
	u32 rcvd;		/* bytes acked since the increase was applied */
	u32 achieved;		/* bytes acked in this quick adapt period */
	u32 ignore;		/* after a quick adapt: ECN of this many bytes */
	u32 ignored;		/* ... of which this many were acked so far */
	u64 age_start;		/* start of the base RTT aging period */
	u64 last_adjust;	/* increase last applied with eta */
	u64 last_dec;		/* last multiplicative decrease */
	u64 qa_end;		/* end of this quick adapt period */
	bool clock;		/* the times above hold values */
	bool decreased;		/* last_dec holds a value */
	bool qa_trigger;	/* a loss: quick adapt at the period's end */
};

void rue_nscc_cfg_default(struct rue_nscc_cfg *cfg, u32 mss);
void rue_nscc_init(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg);
unsigned int rue_nscc_on_ack(struct rue_nscc *cc,
			     const struct rue_nscc_cfg *cfg, u32 bytes,
			     u32 rtt_us, bool ecn, u64 now_ns);
unsigned int rue_nscc_on_loss(struct rue_nscc *cc,
			      const struct rue_nscc_cfg *cfg, u64 now_ns);
unsigned int rue_nscc_undo(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
			   u32 cwnd);

/* Bytes the PDC may have in flight (one packet is always allowed). */
static inline u32 rue_nscc_cwnd(const struct rue_nscc *cc)
{
	return cc->cwnd;
}

#endif /* _RUE_NSCC_H */
