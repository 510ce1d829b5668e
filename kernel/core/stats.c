// SPDX-License-Identifier: GPL-2.0
/*
 * Per-device counters through the core's hw_stats interface, so that
 * "rdma statistic show link rue0/1" and sysfs hw_counters show them.
 */
#include <net/netlink.h>
#include <rdma/ib_verbs.h>

#include "device.h"
#include "stats.h"
#include "cc/cc.h"
#include "net/txq.h"

static const struct rdma_stat_desc rue_stat_descs[RUE_NSTATS] = {
	[RUE_STAT_TX_PACKETS].name = "tx_packets",
	[RUE_STAT_TX_BYTES].name = "tx_bytes",
	[RUE_STAT_RX_PACKETS].name = "rx_packets",
	[RUE_STAT_RX_BYTES].name = "rx_bytes",
	[RUE_STAT_TX_DROPS].name = "tx_drops",
	[RUE_STAT_RX_DROP_HDR].name = "rx_drop_bad_header",
	[RUE_STAT_RX_DROP_ICRC].name = "rx_drop_icrc",
	[RUE_STAT_RX_DROP_OPCODE].name = "rx_drop_opcode",
	[RUE_STAT_RX_DROP_QP].name = "rx_drop_unknown_qp",
	[RUE_STAT_RX_DROP_STATE].name = "rx_drop_qp_state",
	[RUE_STAT_RX_DROP_QKEY].name = "rx_drop_qkey",
	[RUE_STAT_RX_DROP_SEQ].name = "rx_drop_out_of_sequence",
	[RUE_STAT_RX_DUP_REQUESTS].name = "duplicate_requests",
	[RUE_STAT_RX_STALE_RESPONSES].name = "stale_responses",
	[RUE_STAT_RETRANSMITS].name = "retransmits",
	[RUE_STAT_RTO_TIMEOUTS].name = "local_ack_timeout_err",
	[RUE_STAT_TLP_PROBES].name = "tlp_probes",
	[RUE_STAT_RETRY_EXCEEDED].name = "retry_exceeded",
	[RUE_STAT_RNR_NAK_SENT].name = "rnr_nak_sent",
	[RUE_STAT_RNR_NAK_RCVD].name = "rnr_nak_retry_err",
	[RUE_STAT_RNR_RETRY_EXCEEDED].name = "rnr_retry_exceeded",
	[RUE_STAT_SEQ_NAK_SENT].name = "out_of_sequence_nak_sent",
	[RUE_STAT_SEQ_NAK_RCVD].name = "packet_seq_err",
	[RUE_STAT_ERR_NAK_SENT].name = "error_nak_sent",
	[RUE_STAT_ERR_NAK_RCVD].name = "error_nak_rcvd",
	[RUE_STAT_IMPLIED_NAKS].name = "implied_nak_seq_err",
	[RUE_STAT_ACKED_AHEAD].name = "acked_ahead",
	[RUE_STAT_READ_EARLY].name = "rx_read_early",
	[RUE_STAT_CQ_OVERFLOWS].name = "cq_overflows",
	/* as mlx5 names them */
	[RUE_STAT_NP_ECN_MARKED].name = "np_ecn_marked_roce_packets",
	[RUE_STAT_NP_CNP_SENT].name = "np_cnp_sent",
	[RUE_STAT_RP_CNP_HANDLED].name = "rp_cnp_handled",
	[RUE_STAT_RP_CNP_IGNORED].name = "rp_cnp_ignored",
	[RUE_STAT_PFC_MALFORMED].name = "rx_pfc_malformed",
	[RUE_STAT_PFC_IGNORED].name = "rx_pfc_ignored",
	[RUE_STAT_PAUSE_TRANSITION].name = "rx_pause_transition",
	[RUE_STAT_UET_RX_DROPS].name = "uet_rx_drops",
	[RUE_STAT_UET_RETRANSMITS].name = "uet_retransmits",
	[RUE_STAT_UET_NACKS_SENT].name = "uet_nacks_sent",
	[RUE_STAT_UET_ECN_ECHO].name = "uet_ecn_echo",
	/* per priority, as mlx5's ethtool counters */
	[RUE_STAT_PRIO(0, RUE_PRIO_TX_PACKETS)].name = "tx_prio0_packets",
	[RUE_STAT_PRIO(0, RUE_PRIO_TX_BYTES)].name = "tx_prio0_bytes",
	[RUE_STAT_PRIO(0, RUE_PRIO_TX_DISCARDS)].name = "tx_prio0_discards",
	[RUE_STAT_PRIO(0, RUE_PRIO_RX_DISCARDS)].name = "rx_prio0_discards",
	[RUE_STAT_PRIO(0, RUE_PRIO_RX_PAUSE)].name = "rx_prio0_pause",
	[RUE_STAT_PRIO(0, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio0_pause_duration",
	[RUE_STAT_PRIO(0, RUE_PRIO_TX_PAUSE)].name = "tx_prio0_pause",
	[RUE_STAT_PRIO(1, RUE_PRIO_TX_PACKETS)].name = "tx_prio1_packets",
	[RUE_STAT_PRIO(1, RUE_PRIO_TX_BYTES)].name = "tx_prio1_bytes",
	[RUE_STAT_PRIO(1, RUE_PRIO_TX_DISCARDS)].name = "tx_prio1_discards",
	[RUE_STAT_PRIO(1, RUE_PRIO_RX_DISCARDS)].name = "rx_prio1_discards",
	[RUE_STAT_PRIO(1, RUE_PRIO_RX_PAUSE)].name = "rx_prio1_pause",
	[RUE_STAT_PRIO(1, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio1_pause_duration",
	[RUE_STAT_PRIO(1, RUE_PRIO_TX_PAUSE)].name = "tx_prio1_pause",
	[RUE_STAT_PRIO(2, RUE_PRIO_TX_PACKETS)].name = "tx_prio2_packets",
	[RUE_STAT_PRIO(2, RUE_PRIO_TX_BYTES)].name = "tx_prio2_bytes",
	[RUE_STAT_PRIO(2, RUE_PRIO_TX_DISCARDS)].name = "tx_prio2_discards",
	[RUE_STAT_PRIO(2, RUE_PRIO_RX_DISCARDS)].name = "rx_prio2_discards",
	[RUE_STAT_PRIO(2, RUE_PRIO_RX_PAUSE)].name = "rx_prio2_pause",
	[RUE_STAT_PRIO(2, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio2_pause_duration",
	[RUE_STAT_PRIO(2, RUE_PRIO_TX_PAUSE)].name = "tx_prio2_pause",
	[RUE_STAT_PRIO(3, RUE_PRIO_TX_PACKETS)].name = "tx_prio3_packets",
	[RUE_STAT_PRIO(3, RUE_PRIO_TX_BYTES)].name = "tx_prio3_bytes",
	[RUE_STAT_PRIO(3, RUE_PRIO_TX_DISCARDS)].name = "tx_prio3_discards",
	[RUE_STAT_PRIO(3, RUE_PRIO_RX_DISCARDS)].name = "rx_prio3_discards",
	[RUE_STAT_PRIO(3, RUE_PRIO_RX_PAUSE)].name = "rx_prio3_pause",
	[RUE_STAT_PRIO(3, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio3_pause_duration",
	[RUE_STAT_PRIO(3, RUE_PRIO_TX_PAUSE)].name = "tx_prio3_pause",
	[RUE_STAT_PRIO(4, RUE_PRIO_TX_PACKETS)].name = "tx_prio4_packets",
	[RUE_STAT_PRIO(4, RUE_PRIO_TX_BYTES)].name = "tx_prio4_bytes",
	[RUE_STAT_PRIO(4, RUE_PRIO_TX_DISCARDS)].name = "tx_prio4_discards",
	[RUE_STAT_PRIO(4, RUE_PRIO_RX_DISCARDS)].name = "rx_prio4_discards",
	[RUE_STAT_PRIO(4, RUE_PRIO_RX_PAUSE)].name = "rx_prio4_pause",
	[RUE_STAT_PRIO(4, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio4_pause_duration",
	[RUE_STAT_PRIO(4, RUE_PRIO_TX_PAUSE)].name = "tx_prio4_pause",
	[RUE_STAT_PRIO(5, RUE_PRIO_TX_PACKETS)].name = "tx_prio5_packets",
	[RUE_STAT_PRIO(5, RUE_PRIO_TX_BYTES)].name = "tx_prio5_bytes",
	[RUE_STAT_PRIO(5, RUE_PRIO_TX_DISCARDS)].name = "tx_prio5_discards",
	[RUE_STAT_PRIO(5, RUE_PRIO_RX_DISCARDS)].name = "rx_prio5_discards",
	[RUE_STAT_PRIO(5, RUE_PRIO_RX_PAUSE)].name = "rx_prio5_pause",
	[RUE_STAT_PRIO(5, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio5_pause_duration",
	[RUE_STAT_PRIO(5, RUE_PRIO_TX_PAUSE)].name = "tx_prio5_pause",
	[RUE_STAT_PRIO(6, RUE_PRIO_TX_PACKETS)].name = "tx_prio6_packets",
	[RUE_STAT_PRIO(6, RUE_PRIO_TX_BYTES)].name = "tx_prio6_bytes",
	[RUE_STAT_PRIO(6, RUE_PRIO_TX_DISCARDS)].name = "tx_prio6_discards",
	[RUE_STAT_PRIO(6, RUE_PRIO_RX_DISCARDS)].name = "rx_prio6_discards",
	[RUE_STAT_PRIO(6, RUE_PRIO_RX_PAUSE)].name = "rx_prio6_pause",
	[RUE_STAT_PRIO(6, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio6_pause_duration",
	[RUE_STAT_PRIO(6, RUE_PRIO_TX_PAUSE)].name = "tx_prio6_pause",
	[RUE_STAT_PRIO(7, RUE_PRIO_TX_PACKETS)].name = "tx_prio7_packets",
	[RUE_STAT_PRIO(7, RUE_PRIO_TX_BYTES)].name = "tx_prio7_bytes",
	[RUE_STAT_PRIO(7, RUE_PRIO_TX_DISCARDS)].name = "tx_prio7_discards",
	[RUE_STAT_PRIO(7, RUE_PRIO_RX_DISCARDS)].name = "rx_prio7_discards",
	[RUE_STAT_PRIO(7, RUE_PRIO_RX_PAUSE)].name = "rx_prio7_pause",
	[RUE_STAT_PRIO(7, RUE_PRIO_RX_PAUSE_DURATION)].name = "rx_prio7_pause_duration",
	[RUE_STAT_PRIO(7, RUE_PRIO_TX_PAUSE)].name = "tx_prio7_pause",
};

u64 rue_stat_read(struct rue_dev *rdev, enum rue_stat idx)
{
	BUILD_BUG_ON(RUE_STAT_PRIO_BASE + RUE_NPRIO * RUE_PRIO_NSTATS !=
		     RUE_NSTATS);
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(rdev->stats, cpu)->c[idx];
	return sum;
}

static struct rdma_hw_stats *rue_alloc_hw_port_stats(struct ib_device *ibdev,
						     u32 port)
{
	return rdma_alloc_hw_stats_struct(rue_stat_descs, RUE_NSTATS,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int rue_get_hw_stats(struct ib_device *ibdev,
			    struct rdma_hw_stats *stats, u32 port, int index)
{
	struct rue_dev *rdev = to_rue_dev(ibdev);
	int i;

	for (i = 0; i < RUE_NSTATS; i++)
		stats->value[i] = rue_stat_read(rdev, i);
	for (i = 0; i < RUE_NPRIO; i++)
		stats->value[RUE_STAT_PRIO(i, RUE_PRIO_RX_PAUSE_DURATION)] =
			rue_txq_pause_duration(rdev, i);
	return RUE_NSTATS;
}

static const struct ib_device_ops rue_stats_ops = {
	.alloc_hw_port_stats = rue_alloc_hw_port_stats,
	.get_hw_stats = rue_get_hw_stats,
};

/**
 * rue_stats_check() - refuse counters that "rdma statistic" cannot carry
 *
 * nldev answers "rdma statistic show link" in one message of
 * NLMSG_DEFAULT_SIZE; with more counter names than fit, every such
 * query fails with EMSGSIZE.  Adding a counter must not do that
 * silently: the module then refuses to load.  The room kept for the
 * message's other attributes is what nldev puts there (6.1, 6.12): the
 * device's index (8 bytes), its name (68 at IB_DEVICE_NAME_MAX), the
 * port's index (8) and the counters' nest header (4), 88 bytes, and a
 * little more.
 *
 * Return: 0, or -E2BIG.
 */
int rue_stats_check(void)
{
	size_t len = 0, budget = NLMSG_DEFAULT_SIZE - 96;
	int i;

	for (i = 0; i < RUE_NSTATS; i++)
		len += nla_total_size(0) +
		       nla_total_size(strlen(rue_stat_descs[i].name) + 1) +
		       nla_total_size_64bit(sizeof(u64));
	if (len <= budget)
		return 0;
	pr_err("rue: counters need %zu bytes in rdma statistic, which carries %zu\n",
	       len, budget);
	return -E2BIG;
}

void rue_stats_set_ops(struct ib_device *ibdev)
{
	ib_set_device_ops(ibdev, &rue_stats_ops);
}
