/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A loss-driven transmit window for a reliable QP (cc/window.c).
 */
#ifndef _RUE_WINDOW_H
#define _RUE_WINDOW_H

#include <linux/types.h>

#define RUE_CWND_MAX	256	/* packets in flight: the go-back-N window */
#define RUE_CWND_MIN	4

/* Under the owner's lock (the RC requester's req.lock). */
struct rue_cwnd {
	u16 cwnd;		/* packets that may be unacknowledged */
	u16 ssthresh;		/* below it the window doubles per round trip */
	u16 acc;		/* packets acknowledged toward the next +1 */
};

void rue_cwnd_init(struct rue_cwnd *w);
void rue_cwnd_grow(struct rue_cwnd *w, u32 acked);
void rue_cwnd_cut(struct rue_cwnd *w, bool timeout);

#endif
