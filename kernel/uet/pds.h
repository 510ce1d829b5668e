/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET Packet Delivery Sublayer (UE 1.0.1 section 3.5): packet delivery
 * contexts (PDCs), their PSNs, acknowledgements and retransmission.
 *
 * What the rest of the module sees of it (pds.c; a QP's PDCs are
 * pds_ini.h's): the interface to SES, the layer above, and what the
 * receive path and netlink use.  A PDC is opaque here (pdc.h).
 */
#ifndef _RUE_PDS_H
#define _RUE_PDS_H

#include <linux/hashtable.h>
#include <linux/skbuff.h>
#include <linux/timer.h>

#include "core/ah.h"
#include "uet.h"

struct rue_dev;
struct rue_pdc;
struct rue_qp;
struct mem_cgroup;
struct rue_pdc_owner;

/* Requests a PDC has in flight, and the PSNs a target tracks ahead. */
#define RUE_PDC_WIN		256

/*
 * What PDS keeps in a UET QP (qp->uet.pds): what its PDCs are made with,
 * and the PDCs, one per peer address.
 */
struct rue_pds_qp {
	u32 job;			/* the QP's: its PDCs carry it */
	u8 mode;			/* enum rue_uet_mode */
	u8 entropy;			/* RUD: source ports to spray over */
	u32 nr_pdcs;
	DECLARE_HASHTABLE(pdcs, 4);	/* initiator PDCs by peer; req.lock */
	struct mem_cgroup *memcg;	/* its creator's, referenced: pays for them */
	struct rue_pdc_owner *owner;	/* its creator, whose count they are in */
	struct list_head owner_wait;	/* on owner's waiters (pdc_owner.c) */
	struct timer_list retry;	/* kicks it when no PDC could be made */
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

enum rue_pdc_role {
	RUE_PDC_INITIATOR,
	RUE_PDC_TARGET,
};

/* What the receive path knows of a UET packet. */
struct rue_uet_rx {
	struct sk_buff *skb;		/* data at the PDS header */
	struct rue_av av;		/* back to the sender */
	__be16 sport;			/* the sender's UDP source port */
	u16 spdcid;
	bool ce;			/* ECN congestion experienced */
	u8 ses_kind;			/* requests: next_hdr REQ_* */
	bool at_start;			/* no buffer_offset: the buffer's start */
	u32 psn;			/* RUD and ROD requests */
	const struct rue_ses_std *ses;	/* requests, standard or widened */
	u32 pay_off;
	u32 paylen;
	struct rue_ses_std ses_buf;	/* a small or medium one, widened */
};

struct rue_pds_req;
struct rue_ses_rsp;
struct rue_ses_rsp_data;
struct rue_ses_std;

/*
 * The SES response an ACK carries (next_hdr RSP, RSP_DATA or
 * RSP_DATA_SMALL), pulled; at most one of the three is set.
 */
struct rue_pds_rsp {
	const struct rue_ses_rsp *rsp;		/* RSP */
	const struct rue_ses_rsp_data *rd;	/* RSP_DATA */
	const struct rue_ses_rsp_data_small *rds; /* RSP_DATA_SMALL */
	const struct sk_buff *skb;		/* the ACK */
	u32 off;				/* the data in @skb */
};

/**
 * struct rue_pds_upcalls - what PDS asks of the layer above it (SES)
 *
 * PDS calls nothing else of SES: the semantic sublayer registers this
 * table with rue_pds_dev_init() and reaches PDS through this header's
 * functions only.
 *
 * @pdc_open: SES's state for a new PDC (@target: a target PDC), made
 *	in any context with @gfp (atomic; accounted for an initiator's);
 *	NULL: no memory, the PDC is not made.
 *	PDS keeps it in the PDC (rue_pdc_ses()) and never looks inside.
 * @pdc_close: the PDC (@target: a target PDC) goes away: forget and
 *	free @ses.  Initiator: its QP's req.lock held; target: the PDC's
 *	lock held.
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
 * @uud: a UUD request: no PDC (so no lock held), no job but its own,
 *	nothing to answer; take it or drop it, counting which.
 * @qp_gone: forget what @ses holds for the QP @qp, being destroyed.
 */
struct rue_pds_upcalls {
	void *(*pdc_open)(bool target, gfp_t gfp);
	void (*pdc_close)(void *ses, bool target);

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
	void (*uud)(struct rue_dev *rdev, const struct rue_uet_rx *rx);
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
void *rue_pdc_ses(const struct rue_pdc *pdc);
void rue_pds_req_fill(const struct rue_pdc *pdc, struct rue_pds_req *h,
		      u32 psn, bool ar, bool retx);
void rue_pds_queue(struct sk_buff_head *q, struct sk_buff *skb,
		   struct rue_pdc *pdc, u32 psn);
void rue_pds_send_queued(struct sk_buff_head *q);
__be16 rue_pds_sport(u32 flow, u32 path);
void rue_pds_rcv(struct rue_dev *rdev, struct rue_uet_rx *rx);
void rue_pds_tgt_qp_gone(struct rue_dev *rdev, struct rue_qp *qp);

int rue_pds_dev_init(struct rue_dev *rdev, const struct rue_pds_upcalls *up);
void rue_pds_dev_free(struct rue_dev *rdev);

#endif /* _RUE_PDS_H */
