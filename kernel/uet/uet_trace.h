/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET tracepoints (events/rue/): what moved an initiator PDC's
 * congestion window, one event per ACK and per loss, with the signals
 * NSCC saw.  A time series of a run is
 *
 *	echo 1 > /sys/kernel/tracing/events/rue/rue_uet_cc/enable
 *
 * and the trace buffer (scripts/bench-pair -T turns it into a CSV and a
 * plot).  Free when disabled; pds.c alone emits it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rue

#if !defined(_RUE_UET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RUE_UET_TRACE_H

#include <linux/tracepoint.h>

#include "pdc.h"

TRACE_DEFINE_ENUM(RUE_CC_ACK);
TRACE_DEFINE_ENUM(RUE_CC_SACK_HOLE);
TRACE_DEFINE_ENUM(RUE_CC_NACK);
TRACE_DEFINE_ENUM(RUE_CC_GO_BACK);
TRACE_DEFINE_ENUM(RUE_CC_TLP);
TRACE_DEFINE_ENUM(RUE_CC_RTO);
TRACE_DEFINE_ENUM(RUE_CC_UNDO);

/* acked and rtt are the ACK's (0 for a loss); delay is NSCC's average */
TRACE_EVENT(rue_uet_cc,
	    TP_PROTO(const struct rue_pdc *pdc, enum rue_pdc_cc_why why,
		     unsigned int ev),
	    TP_ARGS(pdc, why, ev),
	    TP_STRUCT__entry(__field(u16, lid)
			     __field(u8, why)
			     __field(u8, ev)
			     __field(u32, cwnd)
			     __field(u32, inflight)
			     __field(u32, acked)
			     __field(u32, rtt_us)
			     __field(u32, base_rtt_us)
			     __field(u32, delay_us)
			     __field(u32, srtt_us)),
	    TP_fast_assign(__entry->lid = pdc->lid;
			   __entry->why = why;
			   __entry->ev = ev;
			   __entry->cwnd = rue_nscc_cwnd(&pdc->cc);
			   __entry->inflight = pdc->inflight;
			   __entry->acked = why == RUE_CC_ACK ?
					    pdc->ack_bytes_new : 0;
			   __entry->rtt_us = why == RUE_CC_ACK ?
					     pdc->ack_rtt_us : 0;
			   __entry->base_rtt_us = pdc->cc.base_rtt_us;
			   __entry->delay_us = pdc->cc.avg_delay >>
					       RUE_NSCC_AVG_SHIFT;
			   __entry->srtt_us = pdc->srtt_us),
	    TP_printk("pdc=%u why=%s ev=%#x cwnd=%u inflight=%u acked=%u rtt=%u base=%u delay=%u srtt=%u",
		      __entry->lid,
		      __print_symbolic(__entry->why,
				       { RUE_CC_ACK, "ack" },
				       { RUE_CC_SACK_HOLE, "sack_hole" },
				       { RUE_CC_NACK, "nack" },
				       { RUE_CC_GO_BACK, "go_back" },
				       { RUE_CC_TLP, "tlp" },
				       { RUE_CC_RTO, "rto" },
				       { RUE_CC_UNDO, "undo" }),
		      __entry->ev, __entry->cwnd, __entry->inflight,
		      __entry->acked, __entry->rtt_us, __entry->base_rtt_us,
		      __entry->delay_us, __entry->srtt_us));

#endif /* _RUE_UET_TRACE_H */

/* out of tree: define_trace.h finds this file through ccflags' -I$(src) */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH uet
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE uet_trace
#include <trace/define_trace.h>
