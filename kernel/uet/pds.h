/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET Packet Delivery Sublayer (UE 1.0.1 section 3.5): packet delivery
 * contexts (PDCs), their PSNs, acknowledgements and retransmission.
 */
#ifndef _RUE_PDS_H
#define _RUE_PDS_H

#include <linux/bitmap.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/timer.h>
#include <linux/xarray.h>
#include <net/dst_cache.h>

#include "cc/nscc.h"
#include "core/ah.h"

struct rue_dev;
struct rue_pds_upcalls;
struct rue_qp;

/* Requests a PDC has in flight, and the PSNs a target tracks ahead. */
#define RUE_PDC_WIN		256

/* What a device keeps for UET, in struct rue_dev. */
struct rue_uet_dev {
	spinlock_t lock;		/* tgt hash, the list of PDCs */
	struct xarray pdcs;		/* every PDC by its local PDCID; RCU */
	struct xarray eps;		/* UET QPs by PIDonFEP; RCU */
	DECLARE_HASHTABLE(tgt, 8);	/* target PDCs by peer and its PDCID */
	struct delayed_work reaper;	/* closes idle target PDCs */
	u32 pid_next;
	u32 nr_tgt;			/* target PDCs in tgt; lock */
	atomic_t nr_alloc;		/* PDCs allocated and not yet freed */
	const struct rue_pds_upcalls *up;	/* SES, from rue_pds_dev_init() */
};

/*
 * One request the initiator sent and the target has not acknowledged.
 * SES fills the first part after rue_pdc_take_psn() and PDS hands it
 * back in the upcalls; the rest is PDS's.
 */
struct rue_pds_tx {
	u32 wqe;			/* SQ ring index of its WQE */
	u32 off;			/* its payload's offset in the message */
	u16 len;
	u16 msg_id;
	u8 ses_flags;			/* SOM, EOM */
	u8 read;			/* a READ: acknowledged by its data only */

	u8 state;			/* enum rue_pds_tx_state */
	u8 sent;			/* times sent */
	u8 retx;			/* queued to be sent again */
	u8 epoch;			/* pdc->epoch of the last send */
	bool close;			/* the CLOSE, no SES request */
	u16 charge;			/* bytes it counts in flight (NSCC) */
	u64 sent_ns;			/* ktime of the last send */
};

/* Why a request is sent again (rue_pds_tx.retx). */
enum {
	RUE_RETX_FAST = 1,		/* a NACK or a SACK hole */
	RUE_RETX_RTO = 2,
	RUE_RETX_TLP = 3,		/* a PROBE's ACK showed it missing */
};

enum rue_pds_tx_state {
	RUE_PDS_TX_FREE,
	RUE_PDS_TX_SENT,
	RUE_PDS_TX_ACKED,
};

enum rue_pdc_role {
	RUE_PDC_INITIATOR,
	RUE_PDC_TARGET,
};

/*
 * A PDC.  An initiator PDC belongs to one UET QP and one peer address,
 * and lives under that QP's req.lock; a target PDC belongs to the device
 * and lives under its own lock.  Both are found by local PDCID through
 * rdev->uet.pdcs under RCU and freed after a grace period.
 */
struct rue_pdc {
	struct rue_dev *rdev;
	refcount_t ref;
	spinlock_t lock;		/* target state */
	struct rcu_head rcu;
	u16 lid;			/* our PDCID */
	u16 rid;			/* the peer's; initiator: valid once !syn */
	u8 role;			/* enum rue_pdc_role */
	u8 mode;			/* enum rue_uet_mode */
	bool dead;			/* unpublished, being freed */
	bool failed;			/* ended in error (rue_pdc_fail()) */
	/*
	 * SES's state of the PDC: made by the pdc_open upcall with the PDC,
	 * given back to pdc_close when it dies (under the lock its state
	 * lives under: req.lock for an initiator, lock for a target), never
	 * read by PDS.
	 */
	void *ses;
	u32 job;
	struct rue_av av;		/* the peer */
	struct dst_cache dst_cache;
	unsigned long last_rx;		/* jiffies */

	/* initiator, under qp->req.lock */
	struct rue_qp *qp;
	struct hlist_node qp_node;	/* in the QP's PDC hash */
	bool syn;			/* the target's PDCID is not known yet */
	bool closing;			/* CLOSE sent: no new requests */
	u8 retries;			/* RTOs without progress: backoff */
	u32 start_psn;
	u32 next_psn;			/* next new PSN */
	u32 una_psn;			/* oldest unacknowledged */
	u32 sack_high;			/* newest PSN the target has */
	u32 nr_retx;			/* entries with retx set */
	bool gbn_valid;			/* ROD: went back to gbn_psn */
	u32 gbn_psn;
	u8 epoch;			/* RTOs so far, mod 256 */
	u32 srtt_us;			/* smoothed RTT, 0: no sample yet */
	u32 rttvar_us;
	u32 rto_us;			/* current RTO, before backoff */
	struct rue_nscc cc;		/* the congestion window (nscc.c) */
	struct rue_nscc_cfg cc_cfg;
	u32 inflight;			/* bytes charged to requests in flight */
	u32 ack_bytes_new;		/* of this ACK: newly acknowledged */
	u32 ack_rtt_us;			/* of this ACK: an RTT sample, 0: none */
	struct timer_list rto;
	/* tail-loss probe (rue_pds_tlp()); a pending one holds a reference */
	struct hrtimer tlp;
	u64 last_act_ns;		/* last send, or ACK that moved una */
	u64 tlp_sent_ns;		/* the outstanding PROBE's; 0: none */
	u32 tlp_psn;			/* newest PSN sent before it */
	u16 tlp_opaque;			/* its probe_opaque */
	u8 tlp_count;			/* PROBEs since una last moved */
	struct rue_pds_tx win[RUE_PDC_WIN];	/* by PSN % RUE_PDC_WIN */

	/* target, under lock */
	struct hlist_node tgt_node;	/* rdev->uet.tgt */
	struct list_head gc_node;	/* the reaper's */
	u32 rx_next;			/* every PSN before it arrived */
	u32 ack_bytes;			/* since the last ACK */
	u32 ooo;			/* arrived out of order */
	u32 rcvd_bytes;
	bool nak_valid;			/* ROD: NACKed the hole at nak_psn */
	u32 nak_psn;
	DECLARE_BITMAP(rx_bits, RUE_PDC_WIN);	/* PSN % WIN, ahead of rx_next */
};

/* What the receive path knows of a UET packet. */
struct rue_uet_rx {
	struct sk_buff *skb;		/* data at the PDS header */
	struct rue_av av;		/* back to the sender */
	__be16 sport;			/* the sender's UDP source port */
	u16 spdcid;
	bool ce;			/* ECN congestion experienced */
	const struct rue_ses_std *ses;	/* requests */
	u32 pay_off;
	u32 paylen;
};

struct rue_pds_req;
struct rue_ses_rsp;
struct rue_ses_rsp_data;
struct rue_ses_std;

/* The SES response an ACK carries (next_hdr RSP or RSP_DATA), pulled. */
struct rue_pds_rsp {
	const struct rue_ses_rsp *rsp;		/* RSP, or NULL */
	const struct rue_ses_rsp_data *rd;	/* RSP_DATA, or NULL */
	const struct sk_buff *skb;		/* the ACK */
	u32 off;				/* RSP_DATA's data in @skb */
};

/**
 * struct rue_pds_upcalls - what PDS asks of the layer above it (SES)
 *
 * PDS calls nothing else of SES: the semantic sublayer registers this
 * table with rue_pds_dev_init() and reaches PDS through this header's
 * functions only.
 *
 * @pdc_open: SES's state for a new PDC (@target: a target PDC), made
 *	in any context (GFP_ATOMIC); NULL: no memory, the PDC is not made.
 *	PDS keeps it in the PDC (rue_pdc_ses()) and never looks inside.
 * @pdc_close: the PDC goes away: forget and free @ses.  Initiator:
 *	its QP's req.lock held; target: the PDC's lock held.
 *
 * Initiator, the QP's req.lock held:
 * @rebuild: the request @tx again, for a resend (AR and RETX set).
 * @answer: an ACK carried the SES response @r; @tx the request it
 *	answers if one waits for it (else NULL).  Return: the completion
 *	status @tx ends with.
 * @done: @tx was acknowledged, or failed: @status IB_WC_*.
 *
 * Target, the PDC's lock held; @job is the PDC's, @ses its SES state:
 * @deliver: a request PDS has not delivered before.  Return: an SES
 *	return code, with @rsp filled when not RUE_SES_RC_OK; a negative
 *	errno when SES cannot take it now (no receive WQE): the request
 *	counts as not received.
 * @read: answer the READ @rx (new or again) in its ACK @skb, room for
 *	the response and its data reserved.  Return: the ACK's next_hdr.
 * @qp_gone: forget what @ses holds for the QP @qp, being destroyed.
 */
struct rue_pds_upcalls {
	void *(*pdc_open)(bool target);
	void (*pdc_close)(void *ses);

	struct sk_buff *(*rebuild)(struct rue_qp *qp, struct rue_pdc *pdc,
				   const struct rue_pds_tx *tx, u32 psn);
	u8 (*answer)(struct rue_qp *qp, const struct rue_pds_tx *tx,
		     const struct rue_pds_rsp *r);
	void (*done)(struct rue_qp *qp, const struct rue_pds_tx *tx,
		     u8 status);

	int (*deliver)(struct rue_dev *rdev, u32 job, void *ses,
		       const struct rue_uet_rx *rx, struct rue_ses_rsp *rsp);
	u8 (*read)(struct rue_dev *rdev, u32 job, const struct rue_uet_rx *rx,
		   struct sk_buff *skb);
	void (*qp_gone)(void *ses, struct rue_qp *qp);
};

/* A PDC as rue_pds_for_each() reports it: a copy. */
struct rue_pdc_info {
	u16 lid;
	u16 rid;			/* 0: not known yet (initiator, SYN) */
	u8 role;			/* enum rue_pdc_role */
	u8 mode;			/* enum rue_uet_mode */
	bool syn;
	bool closing;
	u32 job;
	u32 qpn;			/* initiator: its QP */
	u8 network_type;		/* RDMA_NETWORK_IPV4 or _IPV6 */
	struct in6_addr peer;
	u32 next_psn;			/* initiator */
	u32 una_psn;
	u32 rx_next;			/* target */
	u32 srtt_us;
	u32 rto_us;
	u32 retries;
	u32 cwnd;			/* bytes; 0: no window */
};

typedef int (*rue_pdc_iter_fn)(const struct rue_pdc_info *info, void *arg);

int rue_pds_for_each(struct rue_dev *rdev, unsigned long *cursor,
		     rue_pdc_iter_fn fn, void *arg);
struct rue_pdc *rue_pdc_find(struct rue_qp *qp, const struct rue_av *av,
			     u32 mss);
void *rue_pdc_ses(const struct rue_pdc *pdc);
bool rue_pdc_room(const struct rue_pdc *pdc, u32 len);
bool rue_pdc_filling(const struct rue_pdc *pdc);
struct rue_pds_tx *rue_pdc_take_psn(struct rue_pdc *pdc, u32 charge,
				    u32 *psn);
void rue_pds_req_fill(const struct rue_pdc *pdc, struct rue_pds_req *h,
		      u32 psn, bool ar, bool retx);
void rue_pds_queue(struct sk_buff_head *q, struct sk_buff *skb,
		   struct rue_pdc *pdc, u32 psn);
void rue_pds_send_queued(struct sk_buff_head *q);
int rue_pds_qp_resend(struct rue_qp *qp, struct sk_buff_head *out,
		      int budget);
void rue_pds_qp_drop(struct rue_qp *qp);
void rue_pds_rcv(struct rue_dev *rdev, struct rue_uet_rx *rx);
void rue_pds_tgt_qp_gone(struct rue_dev *rdev, struct rue_qp *qp);

int rue_pds_dev_init(struct rue_dev *rdev, const struct rue_pds_upcalls *up);
void rue_pds_dev_free(struct rue_dev *rdev);

#endif /* _RUE_PDS_H */
