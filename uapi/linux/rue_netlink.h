/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * The "rue" generic netlink family: configuration and state of rue devices.
 * Documentation/netlink/rue.yaml describes it; this header is its C form.
 *
 * Requests that change state need CAP_NET_ADMIN: CC_SET in the caller's
 * network namespace, JOB_NEW and JOB_DEL in the initial user namespace
 * (job IDs are fabric-wide).  GET requests are open to everyone.
 */
#ifndef _UAPI_LINUX_RUE_NETLINK_H
#define _UAPI_LINUX_RUE_NETLINK_H

#define RUE_GENL_NAME "rue"
#define RUE_GENL_VERSION 1

enum rue_cmd {
	RUE_CMD_UNSPEC,
	RUE_CMD_DEV_GET,	/* do: one device (DEV_INDEX or DEV_NAME); dump: all */
	RUE_CMD_CC_GET,		/* do: one device's congestion control; dump: all */
	RUE_CMD_CC_SET,		/* do: change what DEV_CC carries (admin) */
	RUE_CMD_QP_GET,		/* dump: the QPs of one device (DEV_INDEX or DEV_NAME) */
	RUE_CMD_JOB_NEW,	/* do: grant the job DEV_JOB names (admin) */
	RUE_CMD_JOB_DEL,	/* do: revoke it; EBUSY while QPs use it (admin) */
	RUE_CMD_JOB_GET,	/* do: one job of one device; dump: every job
				 * of one device, or of every device */
	RUE_CMD_PDC_GET,	/* dump: the UET PDCs of one device, or of
				 * every device */
	RUE_CMD_UET_STATS_GET,	/* do: one device's UET counters; dump: all */

	__RUE_CMD_MAX,
	RUE_CMD_MAX = __RUE_CMD_MAX - 1
};

/* Attributes of a device (RUE_CMD_DEV_*). */
enum rue_dev_attr {
	RUE_A_DEV_UNSPEC,
	RUE_A_DEV_INDEX,		/* u32: ib_device index */
	RUE_A_DEV_NAME,			/* string: ib_device name */
	RUE_A_DEV_NETDEV_IFINDEX,	/* u32: lower netdev */
	RUE_A_DEV_NETDEV_NAME,		/* string */
	RUE_A_DEV_PORT_STATE,		/* u8: enum ib_port_state */
	RUE_A_DEV_PHYS_STATE,		/* u8: IB physical port state */
	RUE_A_DEV_ACTIVE_MTU,		/* u32: RoCE path MTU in bytes */
	RUE_A_DEV_NETDEV_MTU,		/* u32: IP MTU of the netdev */
	RUE_A_DEV_GIDS,			/* nest of RUE_A_DEV_GID */
	RUE_A_DEV_GID,			/* nest: enum rue_gid_attr */
	RUE_A_DEV_NODE_GUID,		/* u64, host order */
	RUE_A_DEV_PAD,
	RUE_A_DEV_CC,			/* nest: enum rue_cc_attr */
	RUE_A_DEV_QP,			/* nest: enum rue_qp_attr */
	RUE_A_DEV_JOB,			/* nest: enum rue_job_attr */
	RUE_A_DEV_PDC,			/* nest: enum rue_pdc_attr */
	RUE_A_DEV_UET_STATS,		/* nest of RUE_A_DEV_UET_STAT */
	RUE_A_DEV_UET_STAT,		/* nest: enum rue_uet_stat_attr */

	__RUE_A_DEV_MAX,
	RUE_A_DEV_MAX = __RUE_A_DEV_MAX - 1
};

/* Attributes of one GID table entry. */
enum rue_gid_attr {
	RUE_A_GID_UNSPEC,
	RUE_A_GID_INDEX,		/* u32 */
	RUE_A_GID_GID,			/* binary, 16 bytes */
	RUE_A_GID_TYPE,			/* u8: enum rue_gid_type */

	__RUE_A_GID_MAX,
	RUE_A_GID_MAX = __RUE_A_GID_MAX - 1
};

enum rue_gid_type {
	RUE_GID_TYPE_IB = 0,
	RUE_GID_TYPE_ROCE_V1 = 1,
	RUE_GID_TYPE_ROCE_V2 = 2,
};

/*
 * Congestion control of a device (RUE_A_DEV_CC): ECN marking, the
 * notification point (NP) that answers CE marks with CNPs, and the DCQCN
 * reaction point (RP) of every QP.  Names and defaults follow the mlx5
 * parameters of the same name (Documentation/congestion.md); times in
 * microseconds, rates in Mb/s.  CC_SET takes any subset; values out of
 * range are refused with the attribute named in the extended ACK.
 */
enum rue_cc_attr {
	RUE_A_CC_UNSPEC,
	RUE_A_CC_ECN,			/* u8: enum rue_ecn_mode, data packets */
	RUE_A_CC_DSCP_PRIO,		/* binary: 64 bytes, priority of each DSCP */
	RUE_A_CC_CNP_DSCP,		/* u8: DSCP of CNPs, ACKs and NAKs */
	RUE_A_CC_CNP_PRIO,		/* u8: their priority (skb->priority) */
	RUE_A_CC_NP_ENABLE,		/* u8: bit n = NP on for priority n */
	RUE_A_CC_RP_ENABLE,		/* u8: bit n = DCQCN on for priority n */
	RUE_A_CC_MIN_TIME_BETWEEN_CNPS,	/* u32: us, per QP */
	RUE_A_CC_DCE_TCP_G,		/* u32: alpha gain g, in 1/1024 */
	RUE_A_CC_DCE_TCP_RTT,		/* u32: us, alpha update period */
	RUE_A_CC_INITIAL_ALPHA,		/* u32: alpha on the first CNP, 0..1023 */
	RUE_A_CC_RATE_REDUCE_MONITOR_PERIOD, /* u32: us between cuts */
	RUE_A_CC_RPG_GD,		/* u32: cut = RC * alpha / 2^gd */
	RUE_A_CC_RPG_MIN_DEC_FAC,	/* u32: %, a cut leaves at least this */
	RUE_A_CC_RPG_MIN_RATE,		/* u32: Mb/s */
	RUE_A_CC_RPG_MAX_RATE,		/* u32: Mb/s, 0 = the link speed */
	RUE_A_CC_RATE_TO_SET_ON_FIRST_CNP, /* u32: Mb/s, 0 = cut as usual */
	RUE_A_CC_CLAMP_TGT_RATE,	/* u8: RT = RC on every cut */
	RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC, /* u8: ... after a timer increase */
	RUE_A_CC_RPG_TIME_RESET,	/* u32: us, increase timer T */
	RUE_A_CC_RPG_BYTE_RESET,	/* u32: bytes, increase byte counter B */
	RUE_A_CC_RPG_THRESHOLD,		/* u32: F, fast recovery steps */
	RUE_A_CC_RPG_AI_RATE,		/* u32: Mb/s, additive increase */
	RUE_A_CC_RPG_HAI_RATE,		/* u32: Mb/s, hyper increase */
	RUE_A_CC_LINK_SPEED,		/* u32: Mb/s, read only: the netdev's */
	/*
	 * Priority queues and 802.1Qbb PFC (Documentation/congestion.md).
	 * Transmission selection: a priority is strict (served before any
	 * ETS one, higher priorities first) or ETS (deficit round robin
	 * over the ETS priorities by weight; the weights of ETS priorities
	 * add up to 100).
	 */
	RUE_A_CC_ETS_TSA,		/* binary: 8 bytes, enum rue_tsa per priority */
	RUE_A_CC_ETS_WEIGHT,		/* binary: 8 bytes, % per priority */
	RUE_A_CC_PFC_ENABLE,		/* u8: bit n = PFC on for priority n */
	RUE_A_CC_PFC_XOFF,		/* u32: bytes of receive backlog of one
					 * priority that send XOFF; 0 = never */
	RUE_A_CC_PFC_XON,		/* u32: bytes below which XON follows */
	RUE_A_CC_PFC_QUANTA,		/* u32: pause time that XOFF asks for,
					 * 1..65535 quanta of 512 bit times */
	RUE_A_CC_PFC_PAUSED,		/* u8: read only, priorities paused now
					 * by the link partner */
	RUE_A_CC_PFC_ASSERTED,		/* u8: read only, priorities this device
					 * holds in XOFF now */
	/*
	 * DCQCN parameters (DCE_TCP_G ... RPG_HAI_RATE) are kept per
	 * priority.  With RUE_A_CC_PRIO in CC_SET's nest they change for
	 * that priority only, without it for every priority; in CC_GET's
	 * request nest it asks for that priority's (else priority 0's), and
	 * the reply names the priority it reports.
	 */
	RUE_A_CC_PRIO,			/* u8: 0..7 */
	RUE_A_CC_DCQCN_DIFFER,		/* u8: read only, priorities whose DCQCN
					 * parameters differ from priority 0's */

	__RUE_A_CC_MAX,
	RUE_A_CC_MAX = __RUE_A_CC_MAX - 1
};

/* Transmission selection algorithm of a priority (IEEE 802.1Q 8.6.8). */
enum rue_tsa {
	RUE_TSA_STRICT = 0,
	RUE_TSA_ETS = 1,
};

enum rue_ecn_mode {
	RUE_ECN_OFF = 0,		/* Not-ECT */
	RUE_ECN_ECT0 = 1,
	RUE_ECN_ECT1 = 2,
};

/* One QP (RUE_A_DEV_QP), as RUE_CMD_QP_GET dumps it. */
enum rue_qp_attr {
	RUE_A_QP_UNSPEC,
	RUE_A_QP_NUM,			/* u32 */
	RUE_A_QP_TYPE,			/* u8: enum ib_qp_type */
	RUE_A_QP_STATE,			/* u8: enum ib_qp_state */
	RUE_A_QP_DEST_NUM,		/* u32: the peer QP (RC) */
	RUE_A_QP_PRIO,			/* u8: priority from the DSCP map */
	RUE_A_QP_DSCP,			/* u8 */
	RUE_A_QP_CC_LIMITED,		/* u8: the rate limiter is on */
	RUE_A_QP_CC_RATE,		/* u32: current rate RC, Mb/s */
	RUE_A_QP_CC_TARGET,		/* u32: target rate RT, Mb/s */
	RUE_A_QP_CC_ALPHA,		/* u32: alpha, in 1/1024 */
	RUE_A_QP_CNP_SENT,		/* u64: as NP */
	RUE_A_QP_CNP_HANDLED,		/* u64: as RP */
	RUE_A_QP_ECN_MARKED,		/* u64: CE packets received */
	RUE_A_QP_TX_BYTES,		/* u64: wire bytes sent by the engine */
	RUE_A_QP_PAD,
	RUE_A_QP_CWND,			/* u32: RC, packets its window allows */

	__RUE_A_QP_MAX,
	RUE_A_QP_MAX = __RUE_A_QP_MAX - 1
};

/*
 * One UET job (RUE_A_DEV_JOB).  A job is a 24-bit JobID (UE 1.0.1 §3.4,
 * the SES header) that a device admits traffic of.  A UET QP binds to one
 * job at creation, which needs its creator to be the job's user, or in its
 * group, or to have CAP_NET_ADMIN over the device's network namespace.
 * UID and GID are numbers in the user namespace of the requesting socket;
 * a job without them admits CAP_NET_ADMIN only.
 */
enum rue_job_attr {
	RUE_A_JOB_UNSPEC,
	RUE_A_JOB_ID,			/* u32: 1..RUE_JOB_ID_MAX */
	RUE_A_JOB_UID,			/* u32: the user it admits */
	RUE_A_JOB_GID,			/* u32: the group it admits */
	RUE_A_JOB_BOUND,		/* u32: read only, QPs bound to it */

	__RUE_A_JOB_MAX,
	RUE_A_JOB_MAX = __RUE_A_JOB_MAX - 1
};

/* JobIDs are 24 bits; 0 is reserved (rue's "no job"). */
#define RUE_JOB_ID_MAX 0xffffff

/*
 * One UET packet delivery context (RUE_A_DEV_PDC), as RUE_CMD_PDC_GET
 * dumps it (UE 1.0.1 §3.5): a copy taken under the PDC's lock.  Initiator
 * PDCs carry the QP and the send state (QPN ... CWND), target PDCs the
 * receive state (RX_NEXT_PSN).
 */
enum rue_pdc_attr {
	RUE_A_PDC_UNSPEC,
	RUE_A_PDC_LOCAL_ID,		/* u16: our PDCID */
	RUE_A_PDC_REMOTE_ID,		/* u16: the peer's; 0 while unknown */
	RUE_A_PDC_ROLE,			/* u8: enum rue_nl_pdc_role */
	RUE_A_PDC_MODE,			/* u8: enum rue_uet_mode (rdma/rue-abi.h) */
	RUE_A_PDC_JOB,			/* u32: JobID */
	RUE_A_PDC_FAMILY,		/* u8: AF_INET or AF_INET6 */
	RUE_A_PDC_PEER,			/* binary: the peer's IP address, 4 bytes
					 * (AF_INET) or 16 (AF_INET6) */
	RUE_A_PDC_SYN,			/* u8: initiator, the target's PDCID is
					 * not known yet (SYN set) */
	RUE_A_PDC_CLOSING,		/* u8: initiator, CLOSE sent */
	RUE_A_PDC_QPN,			/* u32: initiator, its UET QP */
	RUE_A_PDC_NEXT_PSN,		/* u32: initiator, next new PSN */
	RUE_A_PDC_UNA_PSN,		/* u32: initiator, oldest unacknowledged */
	RUE_A_PDC_SRTT,			/* u32: initiator, smoothed RTT in us,
					 * 0 before the first sample */
	RUE_A_PDC_RTO,			/* u32: initiator, RTO in us, before
					 * backoff */
	RUE_A_PDC_RETRIES,		/* u32: initiator, RTOs without progress */
	RUE_A_PDC_CWND,			/* u32: initiator, congestion window in
					 * bytes; 0 = no window */
	RUE_A_PDC_RX_NEXT_PSN,		/* u32: target, every PSN before it
					 * has arrived */

	__RUE_A_PDC_MAX,
	RUE_A_PDC_MAX = __RUE_A_PDC_MAX - 1
};

/* Whether a PDC sends requests (initiator) or receives them (target). */
enum rue_nl_pdc_role {
	RUE_PDC_ROLE_INITIATOR = 0,
	RUE_PDC_ROLE_TARGET = 1,
};

/*
 * One UET counter (RUE_A_DEV_UET_STAT).  Counters travel by name: the
 * kernel's table (kernel/uet_stats.c) is the only list, and says when
 * each counts.  Values only go up for the device's life.
 */
enum rue_uet_stat_attr {
	RUE_A_UET_STAT_UNSPEC,
	RUE_A_UET_STAT_NAME,		/* string */
	RUE_A_UET_STAT_VALUE,		/* u64 */
	RUE_A_UET_STAT_PAD,

	__RUE_A_UET_STAT_MAX,
	RUE_A_UET_STAT_MAX = __RUE_A_UET_STAT_MAX - 1
};

#endif /* _UAPI_LINUX_RUE_NETLINK_H */
