// SPDX-License-Identifier: GPL-2.0
/*
 * UET counters of a device (uet_stats.h says when each counts): their
 * names and the sums netlink reports.  Device creation allocates them
 * (alloc_percpu(), zeroed), its release frees them.
 */
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/percpu.h>

#include "uet_stats.h"
#include "core/device.h"

/* The names netlink carries; ruectl prints them as they are. */
/*
 * Sized by its entries, so that a counter added at the end of the enum
 * without a name here fails the build (rue_uet_stat_name()).
 */
static const char *const rue_uet_stat_names[] = {
	[RUE_USTAT_PDC_OPENED] = "pdc_opened",
	[RUE_USTAT_PDC_CLOSED] = "pdc_closed",
	[RUE_USTAT_PDC_IDLE_CLOSED] = "pdc_idle_closed",
	[RUE_USTAT_PDC_FAILED] = "pdc_failed",
	[RUE_USTAT_SYN_SENT] = "syn_sent",
	[RUE_USTAT_ACKS_SENT] = "acks_sent",
	[RUE_USTAT_ACKS_RCVD] = "acks_rcvd",
	[RUE_USTAT_SACKS_RCVD] = "sacks_rcvd",
	[RUE_USTAT_NACKS_RCVD] = "nacks_rcvd",
	[RUE_USTAT_NACKS_IGNORED] = "nacks_ignored",
	[RUE_USTAT_ROD_OOO_DROPS] = "rod_ooo_drops",
	[RUE_USTAT_FAST_RETRANSMITS] = "fast_retransmits",
	[RUE_USTAT_RTO_RETRANSMITS] = "rto_retransmits",
	[RUE_USTAT_TLP_PROBES_SENT] = "tlp_probes_sent",
	[RUE_USTAT_TLP_PROBES_RCVD] = "tlp_probes_rcvd",
	[RUE_USTAT_TLP_RETRANSMITS] = "tlp_retransmits",
	[RUE_USTAT_RTO_UNDONE] = "rto_undone",
	[RUE_USTAT_SES_ERRORS_SENT] = "ses_errors_sent",
	[RUE_USTAT_SES_ERRORS_RCVD] = "ses_errors_rcvd",
	[RUE_USTAT_RNR_NACKS] = "rnr_nacks",
	[RUE_USTAT_CWND_DECREASES] = "cwnd_decreases",
	[RUE_USTAT_CWND_INCREASES] = "cwnd_increases",
	[RUE_USTAT_ECN_MARKED_RCVD] = "ecn_marked_rcvd",
	[RUE_USTAT_SYN_REFUSED] = "syn_refused",
	[RUE_USTAT_PDC_EVICTED] = "pdc_evicted",
	[RUE_USTAT_PDC_SUPERSEDED] = "pdc_superseded",
	[RUE_USTAT_PDC_RECYCLED] = "pdc_recycled",
	[RUE_USTAT_UUD_SENT] = "uud_sent",
	[RUE_USTAT_UUD_DELIVERED] = "uud_delivered",
	[RUE_USTAT_UUD_DROPPED] = "uud_dropped",
	[RUE_USTAT_PDC_CLOSE_ASKED] = "pdc_close_asked",
	[RUE_USTAT_PDC_CLOSE_REQS_SENT] = "pdc_close_reqs_sent",
	[RUE_USTAT_PDC_USER_WAITS] = "pdc_user_waits",
	[RUE_USTAT_PDC_ALLOC_RETRIES] = "pdc_alloc_retries",
	[RUE_USTAT_ACK_REQS_RCVD] = "ack_reqs_rcvd",
	[RUE_USTAT_CLEARS_RCVD] = "clears_rcvd",
	[RUE_USTAT_CLEARS_SENT] = "clears_sent",
};

/*
 * Without a lock: each CPU's counter is only ever added to, so the sum
 * may miss increments racing with it, never go back.
 */
u64 rue_uet_stat_read(struct rue_dev *rdev, enum rue_ustat idx)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(rdev->uet_stats, cpu)->c[idx];
	return sum;
}

/**
 * rue_uet_stat_name() - the name netlink gives a counter
 * @idx: a counter, below RUE_NUSTATS
 *
 * Return: its name.
 */
const char *rue_uet_stat_name(enum rue_ustat idx)
{
	const char *name;

	static_assert(ARRAY_SIZE(rue_uet_stat_names) == RUE_NUSTATS);
	name = rue_uet_stat_names[idx];
	/* one added in the middle without a name */
	if (WARN_ON_ONCE(!name))
		return "unnamed";
	return name;
}
