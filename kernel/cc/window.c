// SPDX-License-Identifier: GPL-2.0
/*
 * A loss-driven transmit window for a reliable QP.
 *
 * RoCEv2 recovers loss by going back (IBTA 9.7.6.1.2): a lost packet costs
 * everything sent after it, which the responder drops as out of sequence.
 * A fixed window of RUE_CWND_MAX packets is right on a path that does not
 * drop (same device, a PFC fabric), where DCQCN alone sets the pace from
 * ECN marks.  On a path that drops when its queue fills - a switch without
 * PFC, a virtual link whose receiver reads late - every full window
 * overruns the queue again and most of what is sent is sent twice.
 *
 * So the window follows loss as TCP's does (RFC 5681): it starts at
 * RUE_CWND_MAX, so a clean path never notices it; a loss (a sequence
 * NAK, an implied NAK, a timeout) halves it once per round of loss, a
 * timeout takes it down to RUE_CWND_MIN; then it doubles per window
 * acknowledged up to the last halving (ssthresh) and grows by a packet
 * per window after that.  Hardware RoCE NICs without PFC do the same
 * with their own schemes; the wire does not change.  The caller decides
 * what one "round of loss" is (the RC requester: losses before its
 * recovery PSN count once, rc_comp.c).
 */
#include <linux/minmax.h>

#include "window.h"

void rue_cwnd_init(struct rue_cwnd *w)
{
	w->cwnd = RUE_CWND_MAX;
	w->ssthresh = RUE_CWND_MAX;
	w->acc = 0;
}

/* @acked packets were acknowledged for the first time. */
void rue_cwnd_grow(struct rue_cwnd *w, u32 acked)
{
	u32 cwnd = w->cwnd;

	if (cwnd >= RUE_CWND_MAX)
		return;
	if (cwnd < w->ssthresh) {
		/* slow start: +1 per packet acknowledged */
		cwnd = min_t(u32, cwnd + acked, w->ssthresh);
		acked = 0;
	}
	/* congestion avoidance: +1 per window acknowledged */
	acked += w->acc;
	while (acked >= cwnd && cwnd < RUE_CWND_MAX) {
		acked -= cwnd;
		cwnd++;
	}
	/* below the maximum, what is left is less than the window */
	w->cwnd = cwnd;
	w->acc = cwnd < RUE_CWND_MAX ? acked : 0;
}

/* A loss: halve, or after a timeout start again from the minimum. */
void rue_cwnd_cut(struct rue_cwnd *w, bool timeout)
{
	w->ssthresh = max_t(u16, w->cwnd / 2, RUE_CWND_MIN);
	w->cwnd = timeout ? RUE_CWND_MIN : w->ssthresh;
	w->acc = 0;
}
