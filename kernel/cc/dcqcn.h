/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DCQCN reaction point arithmetic: the rate of one flow as CNPs, time
 * and bytes sent move it.  No locking and no clock of its own: callers
 * pass the time and serialize calls per flow.  Built into the module and,
 * unchanged, into a host unit test (userspace/khost/dcqcn_test.cc).
 */
#ifndef _RUE_DCQCN_H
#define _RUE_DCQCN_H

#include <linux/types.h>

/* Alpha is a fraction in 1/1024ths, as ConnectX keeps it. */
#define RUE_DCQCN_ALPHA_ONE	1024

/*
 * Parameters, named and scaled like the mlx5 ones they mirror; times in
 * microseconds, rates in Mb/s.  Ranges are checked where they are set
 * (cc.c).
 */
struct rue_dcqcn_params {
	u32 dce_tcp_g;			/* alpha keeps g/1024 per update */
	u32 dce_tcp_rtt;		/* us between alpha updates */
	u32 initial_alpha;		/* alpha on the first CNP */
	u32 rate_reduce_monitor_period;	/* us, at most one cut per period */
	u32 rpg_gd;			/* cut = RC * alpha / 2^gd */
	u32 rpg_min_dec_fac;		/* %: a cut leaves at least this */
	u32 rpg_min_rate;		/* Mb/s */
	u32 rate_to_set_on_first_cnp;	/* Mb/s, 0: cut as usual */
	u32 clamp_tgt_rate;		/* RT = RC on every cut */
	u32 clamp_tgt_rate_after_time_inc; /* ... once the timer raised RT */
	u32 rpg_time_reset;		/* us: increase timer T */
	u32 rpg_byte_reset;		/* bytes: increase byte counter B */
	u32 rpg_threshold;		/* F: fast recovery events per counter */
	u32 rpg_ai_rate;		/* Mb/s: additive increase step */
	u32 rpg_hai_rate;		/* Mb/s: hyper increase step */
};

/* State of one flow; rates in kb/s, times in ns of the caller's clock. */
struct rue_dcqcn {
	u32 max_rate;			/* line rate or rpg_max_rate */
	u32 rc;				/* current rate */
	u32 rt;				/* target rate */
	u32 alpha;
	u32 t_stage;			/* timer increase events since the cut */
	u32 b_stage;			/* byte counter events since the cut */
	u64 bytes;			/* sent since the last byte event */
	u64 t_alpha;			/* last alpha update */
	u64 t_inc;			/* last timer increase event (or cut) */
	u64 t_cut;			/* last cut */
	bool limited;			/* a CNP came and RC is below max_rate */
	bool cut_pending;		/* a CNP within the monitor period */
	bool alpha_set;			/* alpha holds a value (first CNP seen) */
};

void rue_dcqcn_init(struct rue_dcqcn *s, u32 max_rate_kbps, u64 now);
void rue_dcqcn_advance(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
		       u64 now);
bool rue_dcqcn_cnp(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
		   u64 now);
void rue_dcqcn_sent(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
		    u32 bytes);

#endif /* _RUE_DCQCN_H */
