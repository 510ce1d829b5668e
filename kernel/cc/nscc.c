// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC: UET's network-signalled congestion control, the sender's window
 * (UE 1.0.1, congestion management sublayer), one instance per initiator
 * PDC.  The spec's text is not public; the rules and constants follow the
 * UEC htsim model of NSCC (ultraethernet/uet-htsim, protocols/uec.cpp,
 * readable in the atseis/uet-htsim fork) as summarized in
 * shared/reference/uet.md section 3.  Documentation/congestion.md has the
 * user's view.
 *
 * Signals, per ACK: the bytes it newly acknowledges, an RTT sample, and
 * the ECN echo (the M flag of the ACK: the request it answers arrived
 * CE-marked).
 *
 *  - Base RTT: the least RTT sample.  A route that got longer would leave
 *    it too low for ever, so it ages upwards, slowly and only on strong
 *    evidence: when a whole second (RUE_NSCC_AGE_NS) brought at least 8
 *    samples and none of them came within twice the target of the base,
 *    the least of them becomes the base.  NSCC keeps a standing queue of
 *    about the target (decreases start above it), which must not count
 *    as a longer path: with a margin of one target only, the base would
 *    ratchet up by a target every second.  A base raised by someone
 *    else's standing queue or by a second of scheduling noise comes down
 *    again with the next shorter sample.  (htsim knows the network's RTT
 *    and never ages.)  Delay is the RTT minus the base RTT; rue's
 *    receiver reports no service time, so there is nothing else to
 *    subtract.
 *  - Average delay: an EWMA with gain 1/16 per ACK.  A delay above the
 *    target on an ACK without ECN counts as base_rtt / 4 instead: the
 *    network says it is not queueing, so the delay is the end hosts'
 *    (htsim does the same).  It sets the size of a decrease only.
 *  - The quadrant rule, on this ACK's delay (the average when the ACK
 *    brought no RTT sample):
 *
 *			no ECN			ECN
 *	delay < target	proportional increase	nothing (htsim re-paths)
 *	delay >= target	fair increase		multiplicative decrease
 *
 *    Proportional: inc += 4 * MSS * a * (target - delay) / target per
 *    byte acked.  Fair: inc += 5 * MSS * a per byte acked.  Both build up
 *    in inc (bytes^2) and are applied as cwnd += inc / cwnd once 8 MSS
 *    were acked or a base RTT passed since the last time, which makes
 *    them additive per RTT: a window's worth of ACKs adds the factor
 *    times MSS * a.  When a base RTT has passed, eta = 0.15 * MSS * a is
 *    added too, whatever the quadrant.
 *    Multiplicative: cwnd *= max(1 - 0.8 * (avg - target) / avg, 0.5),
 *    only while the average delay is above the target, at most once per
 *    base RTT.
 *  - Quick adapt: the first ACK after each period of base RTT + target
 *    looks back at the period.  If its delay exceeded 4 * target, or a
 *    loss was reported during the period, and the bytes acked in it were
 *    fewer than max_cwnd / 8, the window becomes those bytes: what
 *    actually got through.  The ECN echoes of what was in flight then
 *    (taken as the old window's worth of bytes) are then ignored: they
 *    describe the queue the old window built.
 *  - Loss (an RTO, or a loss the sender inferred): quick adapt if a
 *    period has ended and little got through in it; otherwise the window
 *    halves, at most once per base RTT (htsim takes the NACKed bytes off
 *    instead: rue's RTO does not know how many were lost), and quick
 *    adapt looks at the current period when it ends.
 *  - Bounds: [min_cwnd, max_cwnd] after every change.
 *
 * a is htsim's scaling_factor_a, BDP / (100 Gb/s * 12 us), so that the
 * increases are a fixed share of the path's BDP per RTT.  rue knows no
 * link speed here; it takes max_cwnd as NSCC's maxwnd = 1.5 BDP, so
 * BDP = max_cwnd * 2 / 3.
 *
 * Fixed point: fractions in 1/1024 (a, the decrease factor, and
 * (target - delay) / target), the average delay in 1/256 us, the pending
 * increase in bytes^2 (u64, saturating); everything else integer bytes,
 * microseconds and nanoseconds.  Division of 64 bits only through
 * div_u64()/div64_u64().
 *
 * Simplified or left out, against htsim: scaling_factor_b (it takes the
 * target to be the reference RTT, 12 us; in a guest whose RTT is
 * hundreds of us it would multiply the proportional increase by tens),
 * fast increase (a whole window at under 1 us of delay: never measured
 * in a guest), a congestion control context shared by several PDCs (one
 * per PDC here), the receiver's rcv_cwnd_pend back-pressure and credits
 * (RCCC), trimming and NACK-driven decreases, and the multipath
 * re-pathing of the ECN-and-low-delay quadrant.  Changed: quick adapt
 * never raises the window (htsim's may), bytes in flight at a quick
 * adapt are taken as the old window (the caller keeps the count), and a
 * loss asks quick adapt for one look, at the end of its period (htsim's
 * request stays until one happens, however much later).
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>

#include "nscc.h"

static bool uet_cc = true;
module_param(uet_cc, bool, 0644);
MODULE_PARM_DESC(uet_cc, "UET: NSCC congestion window for new PDCs (default 1; 0: a fixed window of uet_cc_max_pkts)");

/*
 * The target queueing delay.  htsim uses the network's RTT (12 us in its
 * data centre).  A TCG guest measures RTTs of 50 us to 2 ms, and the
 * spread is softirq and vCPU scheduling, not queues: with a target below
 * it, every clean ACK would count as delayed (fair instead of
 * proportional increase, no harm), and 4 * target, the quick adapt
 * threshold, would be crossed by scheduling noise alone, resetting
 * windows of flows that are fine.  500 us puts quick adapt at 2 ms of
 * delay, beyond all but real stalls, and stays below the queues the
 * selftests' shaped bottlenecks build before they mark (100 Mb/s with RED
 * from 30 KB: 2.4 ms), so marks there are always acted on.
 */
static unsigned int uet_cc_target_us = 500;
module_param(uet_cc_target_us, uint, 0644);
MODULE_PARM_DESC(uet_cc_target_us, "UET: NSCC target queueing delay in us (default 500)");

/* The PDC's own window (RUE_PDC_WIN): more can never be in flight. */
static unsigned int uet_cc_max_pkts = 256;
module_param(uet_cc_max_pkts, uint, 0644);
MODULE_PARM_DESC(uet_cc_max_pkts, "UET: NSCC window ceiling in full packets (default 256)");

#define RUE_NSCC_NS_PER_US	1000ULL

/* Limits that keep the arithmetic within 64 bits (and sane settings). */
#define RUE_NSCC_MSS_MIN	64
#define RUE_NSCC_MSS_MAX	65536
#define RUE_NSCC_CWND_LIMIT	(64U << 20)	/* bytes */
#define RUE_NSCC_TARGET_MAX_US	1000000
#define RUE_NSCC_RTT_MAX_US	10000000	/* longer samples count as this */

/* htsim's reference path: 100 Gb/s and 12 us, a BDP of 150000 bytes. */
#define RUE_NSCC_REF_BDP	150000ULL

#define RUE_NSCC_ONE		1024	/* 1.0 in the fractions */
#define RUE_NSCC_GAMMA		819	/* 0.8: the decrease's gain */
#define RUE_NSCC_MD_FLOOR	512	/* 0.5: the largest decrease */
#define RUE_NSCC_FAIR		5	/* fair increase, MSS * a per RTT */
#define RUE_NSCC_PROP		4	/* proportional, MSS * a at no delay */
#define RUE_NSCC_ETA_PCT	15	/* eta, % of MSS * a per base RTT */
#define RUE_NSCC_ADJUST_MSS	8	/* apply the increase every 8 MSS */
#define RUE_NSCC_QA_FACTOR	4	/* quick adapt beyond 4 * target */
#define RUE_NSCC_QA_GATE	3	/* ... if under max_cwnd / 2^3 got through */

/*
 * The delay EWMA's gain, 1/2^4.  htsim uses 0.0125 with an ACK per
 * packet; rue's target coalesces ACKs to one per 16 KiB (4 to 11 packets)
 * and a guest has far fewer of them, so the gain per ACK is larger.
 */
#define RUE_NSCC_AVG_GAIN	4

/* Base RTT aging: a second of samples, 8 at least, 2 targets above. */
#define RUE_NSCC_AGE_NS		1000000000ULL
#define RUE_NSCC_AGE_SAMPLES	8
#define RUE_NSCC_AGE_MARGIN	2

/**
 * rue_nscc_cfg_default() - settings from the module parameters
 * @cfg: to fill
 * @mss: payload bytes of a full packet on the PDC's path
 *
 * The parameters are read once, here: a change applies to PDCs set up
 * afterwards.  Values are clamped to what the arithmetic allows.
 */
void rue_nscc_cfg_default(struct rue_nscc_cfg *cfg, u32 mss)
{
	u64 max;

	mss = clamp_t(u32, mss, RUE_NSCC_MSS_MIN, RUE_NSCC_MSS_MAX);
	max = (u64)max_t(u32, uet_cc_max_pkts, 1) * mss;
	*cfg = (struct rue_nscc_cfg){
		.mss = mss,
		.max_cwnd = min_t(u64, max, RUE_NSCC_CWND_LIMIT),
		.min_cwnd = mss,
		.target_us = clamp_t(u32, uet_cc_target_us, 1,
				     RUE_NSCC_TARGET_MAX_US),
		.enabled = uet_cc,
	};
	cfg->max_cwnd = max(cfg->max_cwnd, cfg->min_cwnd);
	/* NSCC starts a flow at its full window and lets the signals cut */
	cfg->init_cwnd = cfg->max_cwnd;
}

/**
 * rue_nscc_init() - a new PDC's window
 * @cc: its state
 * @cfg: settings
 */
void rue_nscc_init(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg)
{
	*cc = (struct rue_nscc){
		.cwnd = cfg->enabled ? cfg->init_cwnd : cfg->max_cwnd,
		.age_min_us = ~0U,
	};
	cc->cwnd = clamp(cc->cwnd, cfg->min_cwnd, cfg->max_cwnd);
}

/* @now at or after @t, on a clock that does not wrap in practice. */
static bool after_eq(u64 now, u64 t)
{
	return (s64)(now - t) >= 0;
}

static u64 us_to_ns(u32 us)
{
	return us * RUE_NSCC_NS_PER_US;
}

/* The base RTT, or the target until there is one: "an RTT" for periods. */
static u32 rtt_period_us(const struct rue_nscc *cc,
			 const struct rue_nscc_cfg *cfg)
{
	return cc->base_rtt_us ? cc->base_rtt_us : cfg->target_us;
}

static u32 add_sat(u32 a, u32 b)
{
	return a + b < a ? ~0U : a + b;
}

static void start_clock(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
			u64 now)
{
	if (cc->clock)
		return;
	cc->clock = true;
	cc->age_start = now;
	cc->last_adjust = now;
	cc->qa_end = now + us_to_ns(rtt_period_us(cc, cfg) + cfg->target_us);
}

/*
 * An RTT sample: age the base RTT if a period ended, take the sample
 * into the period's minimum and the base, and into the average delay.
 * Return: the sample's delay, in us.
 */
static u32 take_sample(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
		       u32 rtt, bool ecn, u64 now)
{
	u32 delay, in;

	rtt = min_t(u32, rtt, RUE_NSCC_RTT_MAX_US);
	if (after_eq(now, cc->age_start + RUE_NSCC_AGE_NS)) {
		if (cc->age_n >= RUE_NSCC_AGE_SAMPLES &&
		    cc->age_min_us - cc->base_rtt_us >
		    RUE_NSCC_AGE_MARGIN * cfg->target_us)
			cc->base_rtt_us = cc->age_min_us;
		cc->age_min_us = ~0U;
		cc->age_n = 0;
		cc->age_start = now;
	}
	cc->age_min_us = min(cc->age_min_us, rtt);
	cc->age_n = add_sat(cc->age_n, 1);
	if (!cc->base_rtt_us || rtt < cc->base_rtt_us)
		cc->base_rtt_us = rtt;

	delay = rtt - cc->base_rtt_us;
	in = !ecn && delay > cfg->target_us ? cc->base_rtt_us / 4 : delay;
	/* avg += (in - avg) / 16, in 1/256 us: at most 10 s << 8 < 2^32 */
	cc->avg_delay = cc->avg_delay - (cc->avg_delay >> RUE_NSCC_AVG_GAIN) +
			(in << (RUE_NSCC_AVG_SHIFT - RUE_NSCC_AVG_GAIN));
	return delay;
}

/* htsim's scaling_factor_a in 1/1024: BDP / 150000, BDP = max_cwnd / 1.5 */
static u64 scale_a(const struct rue_nscc_cfg *cfg)
{
	u64 a = div64_u64((u64)cfg->max_cwnd * 2 * RUE_NSCC_ONE,
			  3 * RUE_NSCC_REF_BDP);

	return max_t(u64, a, 1);
}

static void owe(struct rue_nscc *cc, u64 per_byte, u32 bytes)
{
	/* per_byte < 2^27 and bytes <= 2^26 (RUE_NSCC_CWND_LIMIT) */
	u64 add = per_byte * bytes;

	cc->inc = cc->inc + add < cc->inc ? ~0ULL : cc->inc + add;
}

static void fair_increase(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
			  u32 bytes)
{
	owe(cc, (RUE_NSCC_FAIR * cfg->mss * scale_a(cfg)) >> 10, bytes);
}

static void proportional_increase(struct rue_nscc *cc,
				  const struct rue_nscc_cfg *cfg, u32 bytes,
				  u32 delay)
{
	u32 t = max_t(u32, cfg->target_us, 1);
	u64 frac = div_u64((u64)(t - delay) * RUE_NSCC_ONE, t);
	u64 per = (RUE_NSCC_PROP * cfg->mss * scale_a(cfg)) >> 10;

	owe(cc, (per * frac) >> 10, bytes);
}

/* cwnd *= max(1 - 0.8 (avg - target) / avg, 0.5), once per base RTT. */
static unsigned int multiplicative_decrease(struct rue_nscc *cc,
					    const struct rue_nscc_cfg *cfg,
					    u64 now)
{
	u64 t = (u64)cfg->target_us << RUE_NSCC_AVG_SHIFT;
	u64 avg = cc->avg_delay, f;
	u32 old = cc->cwnd;

	if (avg <= t)
		return 0;
	if (cc->decreased &&
	    !after_eq(now, cc->last_dec + us_to_ns(rtt_period_us(cc, cfg))))
		return 0;
	f = RUE_NSCC_ONE - div64_u64(RUE_NSCC_GAMMA * (avg - t), avg);
	f = max_t(u64, f, RUE_NSCC_MD_FLOOR);
	cc->cwnd = max_t(u32, ((u64)cc->cwnd * f) >> 10, cfg->min_cwnd);
	cc->last_dec = now;
	cc->decreased = true;
	return cc->cwnd < old ? RUE_NSCC_EV_DECREASE : 0;
}

/*
 * Apply the increase owed, when 8 MSS were acked or a base RTT passed
 * since it last was, with eta once per base RTT.
 */
static unsigned int adjust(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
			   u64 now)
{
	bool period = after_eq(now, cc->last_adjust +
				    us_to_ns(rtt_period_us(cc, cfg)));
	u64 cwnd = cc->cwnd;
	u32 old = cc->cwnd;

	if (cc->rcvd < RUE_NSCC_ADJUST_MSS * cfg->mss && !period)
		return 0;
	cwnd += div_u64(cc->inc, max_t(u32, cc->cwnd, 1));
	if (period) {
		cwnd += div_u64((u64)RUE_NSCC_ETA_PCT * cfg->mss * scale_a(cfg),
				100 * RUE_NSCC_ONE);
		cc->last_adjust = now;
	}
	cc->cwnd = min_t(u64, cwnd, cfg->max_cwnd);
	cc->inc = 0;
	cc->rcvd = 0;
	return cc->cwnd > old ? RUE_NSCC_EV_INCREASE : 0;
}

/*
 * Quick adapt, at the end of each period of base RTT + target.  Return:
 * whether it handled the ACK (the window was set, or its ECN echo is one
 * to ignore), and in *@ev what it did.
 */
static bool quick_adapt(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
			bool loss, bool ecn, u32 delay, u64 now,
			unsigned int *ev)
{
	bool done = false;

	if (ecn && cc->ignored < cc->ignore) {
		/* as htsim: the increase owed goes with the old window */
		cc->inc = 0;
		cc->rcvd = 0;
		return true;
	}
	if (!after_eq(now, cc->qa_end))
		return false;
	if ((cc->qa_trigger || loss ||
	     delay > RUE_NSCC_QA_FACTOR * cfg->target_us) &&
	    cc->achieved < cfg->max_cwnd >> RUE_NSCC_QA_GATE) {
		/* never up: that is the increases' business */
		u32 cwnd = max(cc->achieved, cfg->min_cwnd);

		if (cwnd < cc->cwnd) {
			/* the old window's marks are still on their way */
			cc->ignore = cc->cwnd;
			cc->ignored = 0;
			cc->cwnd = cwnd;
			*ev |= RUE_NSCC_EV_QUICK_ADAPT;
		}
		cc->inc = 0;
		cc->rcvd = 0;
		done = true;
	}
	/* a loss asks for one look, at the end of the period it came in */
	cc->qa_trigger = false;
	cc->achieved = 0;
	cc->qa_end = now + us_to_ns(rtt_period_us(cc, cfg) + cfg->target_us);
	return done;
}

/**
 * rue_nscc_on_ack() - an ACK arrived
 * @cc: the PDC's state, under the PDC's lock
 * @cfg: settings
 * @bytes: bytes of data it newly acknowledged (0: SACK-only, duplicate)
 * @rtt_us: an RTT sample it brought, 0 if none (only resends acked)
 * @ecn: its M flag: the request it acknowledges was CE-marked
 * @now_ns: ktime_get_ns()
 *
 * Return: RUE_NSCC_EV_* bits, what happened to the window.
 */
unsigned int rue_nscc_on_ack(struct rue_nscc *cc,
			     const struct rue_nscc_cfg *cfg, u32 bytes,
			     u32 rtt_us, bool ecn, u64 now_ns)
{
	unsigned int ev = 0;
	u32 delay;

	if (!cfg->enabled)
		return 0;
	start_clock(cc, cfg, now_ns);
	if (rtt_us)
		delay = take_sample(cc, cfg, rtt_us, ecn, now_ns);
	else
		delay = cc->avg_delay >> RUE_NSCC_AVG_SHIFT;
	/* no more than a window's worth can have been in flight */
	bytes = min(bytes, cfg->max_cwnd);
	cc->achieved = add_sat(cc->achieved, bytes);
	cc->rcvd = add_sat(cc->rcvd, bytes);
	cc->ignored = add_sat(cc->ignored, bytes);

	if (quick_adapt(cc, cfg, false, ecn, delay, now_ns, &ev))
		return ev;

	if (!ecn && delay >= cfg->target_us)
		fair_increase(cc, cfg, bytes);
	else if (!ecn)
		proportional_increase(cc, cfg, bytes, delay);
	else if (delay >= cfg->target_us)
		ev |= multiplicative_decrease(cc, cfg, now_ns);
	/* ECN with a short queue: hold (htsim moves to another path) */

	ev |= adjust(cc, cfg, now_ns);
	cc->cwnd = clamp(cc->cwnd, cfg->min_cwnd, cfg->max_cwnd);
	return ev;
}

/**
 * rue_nscc_on_loss() - the sender lost packets: an RTO, or a loss it
 *	inferred
 * @cc: the PDC's state, under the PDC's lock
 * @cfg: settings
 * @now_ns: ktime_get_ns()
 *
 * Return: RUE_NSCC_EV_* bits, what happened to the window.
 */
unsigned int rue_nscc_on_loss(struct rue_nscc *cc,
			      const struct rue_nscc_cfg *cfg, u64 now_ns)
{
	unsigned int ev = 0;
	u32 old = cc->cwnd;

	if (!cfg->enabled)
		return 0;
	start_clock(cc, cfg, now_ns);
	cc->qa_trigger = true;
	if (quick_adapt(cc, cfg, true, false, 0, now_ns, &ev))
		return ev;
	if (cc->decreased &&
	    !after_eq(now_ns, cc->last_dec + us_to_ns(rtt_period_us(cc, cfg))))
		return 0;
	cc->cwnd = max(cc->cwnd / 2, cfg->min_cwnd);
	cc->last_dec = now_ns;
	cc->decreased = true;
	cc->inc = 0;
	cc->rcvd = 0;
	return cc->cwnd < old ? RUE_NSCC_EV_DECREASE : 0;
}

/**
 * rue_nscc_undo() - a loss response was wrong: the window it cut returns
 * @cc: the PDC's state, under the PDC's lock
 * @cfg: settings
 * @cwnd: the window before the loss was reported
 *
 * For an RTO the sender found spurious (its ACK came back sooner than a
 * resend could have drawn one): nothing was lost, so the cut and the
 * quick adapt look the loss asked for are taken back, as TCP undoes a
 * spurious RTO's cut (RFC 4015, the Eifel response).  Never lowers the
 * window: what it grew by since stays.
 *
 * Return: RUE_NSCC_EV_INCREASE if the window grew.
 */
unsigned int rue_nscc_undo(struct rue_nscc *cc, const struct rue_nscc_cfg *cfg,
			   u32 cwnd)
{
	u32 old = cc->cwnd;

	if (!cfg->enabled)
		return 0;
	cc->qa_trigger = false;
	cc->cwnd = clamp(max(cc->cwnd, cwnd), cfg->min_cwnd, cfg->max_cwnd);
	return cc->cwnd > old ? RUE_NSCC_EV_INCREASE : 0;
}
