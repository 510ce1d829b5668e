// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN reaction point (Zhu et al., "Congestion Control for Large-Scale
 * RDMA Deployments", SIGCOMM 2015, section 3.1), in the variant ConnectX
 * NICs run and mlx5 exposes: 10-bit alpha, a minimum time between cuts,
 * a bounded cut, optional clamping of the target rate.
 *
 *  - On a CNP: alpha = alpha * g + (1 - g) (the first CNP sets it to
 *    initial_alpha); RT = RC when clamping says so; RC = RC * (1 - alpha/2)
 *    (with gd = 11), never below rpg_min_dec_fac % of RC or rpg_min_rate.
 *    The timer, the byte counter and both stage counters restart.  A CNP
 *    within rate_reduce_monitor_period of the last cut is remembered and
 *    cuts when the period ends.
 *  - Every dce_tcp_rtt: alpha = alpha * g.
 *  - Every rpg_time_reset (timer) and every rpg_byte_reset bytes sent
 *    (byte counter), an increase event.  With both stage counters below F
 *    it is fast recovery, RC = (RT + RC) / 2; with one of them at F or
 *    above, additive increase, RT += AI first; with both, hyper increase,
 *    RT += i * HAI, i = min(stages) - F + 1.
 *  - Once RC is back at the maximum rate the flow is no longer limited and
 *    the counters stop, until the next CNP.
 *
 * Timers are not timers here: rue_dcqcn_advance() replays the periods
 * that passed since the last call, so the state is exact whenever it is
 * looked at (up to RUE_DCQCN_MAX_EVENTS increase events per call), and a
 * flow costs nothing while it sends at full rate.
 */
#include <linux/math64.h>
#include <linux/minmax.h>

#include "dcqcn.h"

#define RUE_NSEC_PER_USEC	1000ULL
#define RUE_KBPS_PER_MBPS	1000ULL

/* Periods replayed per call at most: an idle limited flow is cheap. */
#define RUE_DCQCN_MAX_EVENTS	65536

/**
 * rue_dcqcn_init() - a flow at full rate, never notified
 * @s: its state
 * @max_rate_kbps: the most it may send at, in kb/s
 * @now: the time, in ns
 */
void rue_dcqcn_init(struct rue_dcqcn *s, u32 max_rate_kbps, u64 now)
{
	*s = (struct rue_dcqcn){
		.max_rate = max_rate_kbps,
		.rc = max_rate_kbps,
		.rt = max_rate_kbps,
		.t_alpha = now,
		.t_inc = now,
		.t_cut = now,
	};
}

static void rue_dcqcn_increase(struct rue_dcqcn *s,
			       const struct rue_dcqcn_params *p, bool timer)
{
	u32 f = p->rpg_threshold;
	u64 rt = s->rt;

	if (s->t_stage >= f && s->b_stage >= f)
		rt += (u64)(min(s->t_stage, s->b_stage) - f + 1) *
		      p->rpg_hai_rate * RUE_KBPS_PER_MBPS;
	else if (s->t_stage >= f || s->b_stage >= f)
		rt += (u64)p->rpg_ai_rate * RUE_KBPS_PER_MBPS;
	s->rt = min_t(u64, rt, s->max_rate);
	/* rounding up, or RC would stop one short of RT */
	s->rc = ((u64)s->rt + s->rc + 1) / 2;
	if (timer)
		s->t_stage++;
	else
		s->b_stage++;
	if (s->rc >= s->max_rate) {
		s->rc = s->max_rate;
		s->rt = s->max_rate;
		s->limited = false;
		s->bytes = 0;
	}
}

static void rue_dcqcn_cut(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
			  u64 now, bool first)
{
	u64 floor = div_u64((u64)s->rc * p->rpg_min_dec_fac, 100);
	u64 cut = min_t(u64, ((u64)s->rc * s->alpha) >> p->rpg_gd, s->rc);
	u64 rc = s->rc - cut;
	u64 min_rate = min_t(u64, (u64)p->rpg_min_rate * RUE_KBPS_PER_MBPS,
			     s->max_rate);

	if (p->clamp_tgt_rate ||
	    (p->clamp_tgt_rate_after_time_inc && s->t_stage))
		s->rt = s->rc;
	rc = max(rc, floor);
	if (first && p->rate_to_set_on_first_cnp)
		rc = (u64)p->rate_to_set_on_first_cnp * RUE_KBPS_PER_MBPS;
	rc = clamp_t(u64, rc, min_rate, s->max_rate);
	s->rc = rc;
	s->t_stage = 0;
	s->b_stage = 0;
	s->bytes = 0;
	s->t_inc = now;
	s->t_cut = now;
	s->limited = true;
	s->cut_pending = false;
}

/* How many whole @period_ns fit between @*t and @now; @*t moves on. */
static u64 rue_dcqcn_periods(u64 *t, u64 now, u64 period_ns)
{
	u64 n;

	if (now <= *t)
		return 0;
	n = div64_u64(now - *t, period_ns);
	*t += n * period_ns;
	return n;
}

/* Alpha updates and timer increase events up to @now. */
static void rue_dcqcn_replay(struct rue_dcqcn *s,
			     const struct rue_dcqcn_params *p, u64 now)
{
	u64 n;

	if (s->alpha_set) {
		n = rue_dcqcn_periods(&s->t_alpha, now,
				      max_t(u64, p->dce_tcp_rtt, 1) *
				      RUE_NSEC_PER_USEC);
		/* alpha * g / 1024 < alpha while g < 1024: ends by 0 */
		while (n-- && s->alpha)
			s->alpha = (s->alpha * p->dce_tcp_g) >> 10;
	}

	if (!s->limited) {
		s->t_inc = now;
		return;
	}
	n = rue_dcqcn_periods(&s->t_inc, now,
			      max_t(u64, p->rpg_time_reset, 1) * RUE_NSEC_PER_USEC);
	n = min_t(u64, n, RUE_DCQCN_MAX_EVENTS);
	while (n-- && s->limited)
		rue_dcqcn_increase(s, p, true);
	if (!s->limited)
		s->t_inc = now;
}

/**
 * rue_dcqcn_advance() - bring a flow's state up to @now
 * @s: its state
 * @p: parameters
 * @now: the time, not before the last call's
 *
 * Replays the alpha updates, a cut left pending (at the end of its
 * monitor period, with alpha as it was then), and the timer's increase
 * events that fell due since the last call.
 */
void rue_dcqcn_advance(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
		       u64 now)
{
	u64 due = s->t_cut + max_t(u64, p->rate_reduce_monitor_period, 1) *
			     RUE_NSEC_PER_USEC;

	if (s->cut_pending && now >= due) {
		rue_dcqcn_replay(s, p, due);
		rue_dcqcn_cut(s, p, due, false);
	}
	rue_dcqcn_replay(s, p, now);
}

/**
 * rue_dcqcn_cnp() - a congestion notification arrived for the flow
 * @s: its state
 * @p: parameters
 * @now: the time
 *
 * Return: true if the rate was cut now, false if the cut waits for the
 * end of the current monitor period.
 */
bool rue_dcqcn_cnp(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
		   u64 now)
{
	u64 period = max_t(u64, p->rate_reduce_monitor_period, 1) *
		     RUE_NSEC_PER_USEC;
	bool first = !s->alpha_set;

	rue_dcqcn_advance(s, p, now);
	if (first) {
		s->alpha = min_t(u32, p->initial_alpha, RUE_DCQCN_ALPHA_ONE);
		s->alpha_set = true;
	} else {
		s->alpha = ((s->alpha * p->dce_tcp_g) >> 10) +
			   (RUE_DCQCN_ALPHA_ONE - p->dce_tcp_g);
		s->alpha = min_t(u32, s->alpha, RUE_DCQCN_ALPHA_ONE);
	}
	s->t_alpha = now;

	if (first || now >= s->t_cut + period) {
		rue_dcqcn_cut(s, p, now, first);
		return true;
	}
	s->cut_pending = true;
	return false;
}

/**
 * rue_dcqcn_sent() - the flow sent @bytes
 * @s: its state
 * @p: parameters
 * @bytes: wire bytes
 *
 * Every rpg_byte_reset bytes is an increase event.
 */
void rue_dcqcn_sent(struct rue_dcqcn *s, const struct rue_dcqcn_params *p,
		    u32 bytes)
{
	u32 b = max_t(u32, p->rpg_byte_reset, 1);

	if (!s->limited)
		return;
	s->bytes += bytes;
	while (s->bytes >= b && s->limited) {
		s->bytes -= b;
		rue_dcqcn_increase(s, p, false);
	}
}
