/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PDC's insides and what pds.c does with them for the other PDS files
 * (pds_ini.c, pds_ack.c, pds_tgt.c), which alone include this header:
 * the rest of the module sees struct rue_pdc as an opaque handle (pds.h).
 */
#ifndef _RUE_PDC_H
#define _RUE_PDC_H

#include <linux/bitmap.h>
#include <linux/hrtimer.h>
#include <linux/refcount.h>
#include <linux/timer.h>
#include <net/dst_cache.h>

#include "pds.h"
#include "uet_stats.h"
#include "cc/nscc.h"
#include "core/ah.h"
#include "core/device.h"

/* Why a request is sent again (rue_pds_tx.retx). */
enum {
	RUE_RETX_FAST = 1,		/* a NACK or a SACK hole */
	RUE_RETX_RTO = 2,
	RUE_RETX_TLP = 3,		/* a PROBE's ACK showed it missing */
};

/* What made NSCC move (rue_pdc_cc()): an ACK, or a kind of loss. */
enum rue_pdc_cc_why {
	RUE_CC_ACK,
	RUE_CC_SACK_HOLE,		/* an ACK's SACK showed a hole */
	RUE_CC_NACK,			/* a NACK asked for a resend */
	RUE_CC_GO_BACK,			/* ROD: a NACK or SACK, back to a PSN */
	RUE_CC_TLP,			/* a PROBE's ACK showed losses */
	RUE_CC_RTO,
	RUE_CC_UNDO,			/* the RTO was spurious */
};

enum rue_pds_tx_state {
	RUE_PDS_TX_FREE,
	RUE_PDS_TX_SENT,
	RUE_PDS_TX_ACKED,
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
	bool close_asked;		/* by the target: close once idle */
	u8 retries;			/* RTOs without progress: backoff */
	u32 start_psn;		/* the first PSN; a target learns it from a SYN */
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
	/* an RTO that may prove spurious (pds_ack.c, rue_pdc_rto_check()) */
	bool rto_undo;
	u32 rto_undo_cwnd;		/* the window before it */
	u64 rto_ns;			/* when it fired */
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
	struct list_head probation;	/* rdev->uet.unproven; its lock */
	unsigned long born;		/* jiffies */
	/* last_rx when the reaper asked for a close; the reaper's own */
	unsigned long close_req_rx;
	/* SES took a request: no longer evictable (WRITE_ONCE under lock) */
	bool proven;
	u32 rx_next;			/* every PSN before it arrived */
	u32 ack_bytes;			/* since the last ACK */
	u32 ooo;			/* arrived out of order */
	u32 rcvd_bytes;
	bool nak_valid;			/* ROD: NACKed the hole at nak_psn */
	u32 nak_psn;
	DECLARE_BITMAP(rx_bits, RUE_PDC_WIN);	/* PSN % WIN, ahead of rx_next */
	/*
	 * PSN % (2 * WIN): the packet taken there was a READ, whose ACK
	 * carried data the target does not keep (an ACK_REQ naming it is
	 * told so).  Each PSN within WIN of rx_next, behind or ahead, has
	 * a slot of its own.
	 */
	DECLARE_BITMAP(rx_reads, 2 * RUE_PDC_WIN);
};

/* Send @tx again: RUE_RETX_FAST (a NACK, a SACK hole), _RTO or _TLP. */
static inline void rue_pdc_mark_retx(struct rue_pdc *pdc,
				     struct rue_pds_tx *tx, u8 why)
{
	if (tx->state == RUE_PDS_TX_SENT && !tx->retx) {
		tx->retx = why;
		pdc->nr_retx++;
	}
}

/* pds.c: the object */
struct rue_pdc *rue_pdc_alloc(struct rue_dev *rdev, u8 role, u8 mode, gfp_t gfp,
			      u32 job, const struct rue_av *av);
void rue_pdc_publish(struct rue_pdc *pdc);
void rue_pdc_unpublish(struct rue_pdc *pdc);
void rue_pdc_ses_close(struct rue_pdc *pdc);
void rue_pdc_put(struct rue_pdc *pdc);
void rue_pdc_cc(struct rue_pdc *pdc, enum rue_pdc_cc_why why,
		unsigned int ev);
void rue_pdc_lost(struct rue_pdc *pdc, enum rue_pdc_cc_why why);
struct rue_pdc *rue_pdc_lookup(struct rue_dev *rdev, u16 lid, u8 role,
			       const struct rue_uet_rx *rx);
struct rue_qp *rue_pdc_qp_get(struct rue_pdc *pdc);

/* pds.c: sending and receiving */
void rue_pds_xmit(struct rue_pdc *pdc, struct sk_buff *skb, u32 psn,
		  bool ect);
void rue_pds_prepare(struct sk_buff *skb, struct rue_pdc *pdc, u32 psn);
void rue_pds_send_one(struct sk_buff *skb);
struct sk_buff *rue_pds_ctrl_alloc(struct rue_pdc *pdc, u8 type, u8 flags,
				   struct rue_pds_ctrl **c);
bool rue_pds_pull(struct sk_buff *skb, unsigned int len);
bool rue_pds_pull_ses(struct rue_uet_rx *rx, unsigned int hlen, u8 next);

#endif /* _RUE_PDC_H */
