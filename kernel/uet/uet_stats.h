/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET counters of a device, apart from rdma statistic (whose one netlink
 * message has no room for more, see rue_stats_check()): read through the
 * rue generic netlink family (RUE_CMD_UET_STATS_GET, "ruectl uet stats").
 *
 * The four UET counters rdma statistic shows (uet_rx_drops,
 * uet_retransmits, uet_nacks_sent, uet_ecn_echo) stay there; these add
 * to them.  The names are in uet_stats.c, with the rule of each counter:
 * they are not ABI, netlink carries them by name.
 */
#ifndef _RUE_UET_STATS_H
#define _RUE_UET_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/*
 * PDC lifetime: every PDC counted in pdc_opened ends once, counted in
 * pdc_closed or in pdc_failed, so opened - closed - failed is the number
 * of PDCs alive (what RUE_CMD_PDC_GET lists).
 */
enum rue_ustat {
	/* a PDC was published: initiator on its first request to a peer,
	 * target on a SYN that found no PDC (UE 1.0.1 3.5.8)
	 */
	RUE_USTAT_PDC_OPENED,
	/* a PDC ended without error: its CLOSE exchange completed, an idle
	 * target PDC was reaped, or its QP or device went away with nothing
	 * unacknowledged
	 */
	RUE_USTAT_PDC_CLOSED,
	/* a close started because the PDC was idle: an initiator sent CLOSE
	 * after uet_idle_ms, or the reaper freed a target PDC after
	 * RUE_PDC_IDLE; each such PDC also counts in pdc_closed when it ends
	 */
	RUE_USTAT_PDC_IDLE_CLOSED,
	/* a PDC ended in error: retries exhausted, a NACK that ends it
	 * (a PDC_ERR or PDC_FATAL code, pds_ack.c), or torn down with
	 * requests unacknowledged
	 */
	RUE_USTAT_PDC_FAILED,
	/* a packet left with the SYN flag set, first sends and resends */
	RUE_USTAT_SYN_SENT,
	/* a target sent an ACK (ACK, ACK_CC or ACK_CCX) */
	RUE_USTAT_ACKS_SENT,
	/* an initiator accepted an ACK for one of its PDCs */
	RUE_USTAT_ACKS_RCVD,
	/* of those, ACKs whose SACK bitmap was not zero */
	RUE_USTAT_SACKS_RCVD,
	/* an initiator accepted a NACK for one of its PDCs, any code */
	RUE_USTAT_NACKS_RCVD,
	/* of those, NACKs whose code UE 1.0.1 reserves (0x0c, 0x1b-0xfc):
	 * ignored, never fatal (pds_ack.c)
	 */
	RUE_USTAT_NACKS_IGNORED,
	/* a ROD target dropped a request ahead of the next expected PSN,
	 * whether or not it NACKed it (it NACKs once per hole)
	 */
	RUE_USTAT_ROD_OOO_DROPS,
	/* a request was sent again before its RTO: for a NACK, or for a
	 * hole a SACK showed (ROD goes back once per hole)
	 */
	RUE_USTAT_FAST_RETRANSMITS,
	/* a request was sent again because the RTO fired, including the
	 * probe with the oldest; fast + rto + tlp = uet_retransmits
	 */
	RUE_USTAT_RTO_RETRANSMITS,
	/* an initiator sent a CTRL PROBE: requests in flight and nothing
	 * sent or acknowledged for a probe timeout (tail-loss probe)
	 */
	RUE_USTAT_TLP_PROBES_SENT,
	/* a target answered a CTRL PROBE with an ACK_CC (P set) */
	RUE_USTAT_TLP_PROBES_RCVD,
	/* a request was sent again because the answer to a PROBE showed it
	 * missing (sent before the probe, not in the SACK), or, while SYN,
	 * the newest request at a probe timeout
	 */
	RUE_USTAT_TLP_RETRANSMITS,
	/* an RTO proved spurious: the ACK that moved past the oldest
	 * request came back sooner than the base RTT after it fired; its
	 * window cut was undone (pds_ack.c)
	 */
	RUE_USTAT_RTO_UNDONE,
	/* a target sent a SES response with a return code other than
	 * RC_OK: the request was refused (key, bounds, job, length)
	 */
	RUE_USTAT_SES_ERRORS_SENT,
	/* an initiator received a SES response with a return code other
	 * than RC_OK; its work request completes in error
	 */
	RUE_USTAT_SES_ERRORS_RCVD,
	/* a target sent a NACK NO_SES_MSG_AVAIL: a SEND found no receive
	 * posted (the UET form of RNR); also counts in uet_nacks_sent
	 */
	RUE_USTAT_RNR_NACKS,
	/* congestion control shrank a PDC's window (NSCC or credit) */
	RUE_USTAT_CWND_DECREASES,
	/* congestion control grew a PDC's window */
	RUE_USTAT_CWND_INCREASES,
	/* a UET packet arrived with CE in the IP ECN field, any type */
	RUE_USTAT_ECN_MARKED_RCVD,
	/* a SYN opened no target PDC: its initiator's address bucket was
	 * full, or the table was and no PDC could be evicted, or it had
	 * a new start PSN for a PDC used in the last 100 ms (pds_tgt.c)
	 */
	RUE_USTAT_SYN_REFUSED,
	/* a target PDC SES had taken no request of was closed to make room
	 * for a new one; it also counts in pdc_closed
	 */
	RUE_USTAT_PDC_EVICTED,
	/* a target PDC was closed because a SYN with its initiator's
	 * address and PDCID but another start PSN began a new PDC: the
	 * initiator had forgotten the old one (pds_tgt.c); it also counts
	 * in pdc_closed
	 */
	RUE_USTAT_PDC_SUPERSEDED,
	/* a QP at rue.uet_max_qp_pdcs closed its initiator PDC idle longest
	 * to make room for a PDC to a new peer (pds_ini.c); the close also
	 * counts in pdc_closed when it ends
	 */
	RUE_USTAT_PDC_RECYCLED,
	/* a UUD message was handed to the network (ses_ini.c): sent, not
	 * known to arrive; one dropped before (no route) counts in tx_drops
	 */
	RUE_USTAT_UUD_SENT,
	/* a UUD message completed a receive WQE (ses_tgt.c) */
	RUE_USTAT_UUD_DELIVERED,
	/* a UUD message was dropped: malformed, for no QP that takes it
	 * (PIDonFEP, resource index, job, state), or no receive WQE was
	 * posted; it also counts in uet_rx_drops
	 */
	RUE_USTAT_UUD_DROPPED,
	/* an initiator PDC's target asked it to close (a CTRL CLOSE_REQ or
	 * an ACK whose REQ field says close); it closes once idle, and
	 * also counts in pdc_closed when it ends
	 */
	RUE_USTAT_PDC_CLOSE_ASKED,
	/* a target PDC idle for half of its reaping time asked its
	 * initiator to close (a CTRL CLOSE_REQ, pds_tgt.c)
	 */
	RUE_USTAT_PDC_CLOSE_REQS_SENT,
	/* a QP's new PDC waited: its user's QPs held rue.uet_max_user_pdcs
	 * on the device (pdc_owner.c); once per wait
	 */
	RUE_USTAT_PDC_USER_WAITS,
	/* a QP could not make a PDC (no memory, or no PDCID free) and tries
	 * again in 20 ms (pds_ini.c); once per try
	 */
	RUE_USTAT_PDC_ALLOC_RETRIES,
	/* a target answered a CTRL ACK_REQ: an ACK, or NACK PKT_NOT_RCVD
	 * or ACK_WITH_DATA (pds_tgt.c); one naming a PSN it cannot tell
	 * about counts in uet_rx_drops instead
	 */
	RUE_USTAT_ACK_REQS_RCVD,
	/* a target took a CTRL CLEAR: it keeps no answers, nothing to free */
	RUE_USTAT_CLEARS_RCVD,
	/* an initiator sent a CTRL CLEAR, asked by its target (a CTRL
	 * CLEAR_REQ or an ACK whose REQ field says clear, pds_ack.c)
	 */
	RUE_USTAT_CLEARS_SENT,
	RUE_NUSTATS
};

struct rue_dev;

struct rue_uet_stats {
	u64 c[RUE_NUSTATS];
};

/*
 * rdev->uet_stats is per CPU, like rdev->stats: counting is one
 * this_cpu_add() in any context, reading sums every CPU's.  Counters
 * only go up, for the life of the device.
 */
#define rue_uet_stat_add(rdev, idx, n) \
	this_cpu_add((rdev)->uet_stats->c[idx], (n))
#define rue_uet_stat_inc(rdev, idx) rue_uet_stat_add(rdev, idx, 1)

u64 rue_uet_stat_read(struct rue_dev *rdev, enum rue_ustat idx);
const char *rue_uet_stat_name(enum rue_ustat idx);

#endif /* _RUE_UET_STATS_H */
