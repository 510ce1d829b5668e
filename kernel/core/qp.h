/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queue pairs: the object, and the services the data path uses.
 */
#ifndef _RUE_QP_H
#define _RUE_QP_H

#include <linux/bitmap.h>
#include <linux/refcount.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>

#include "ah.h"
#include "queue.h"
#include "rq.h"
#include "cc/cc.h"
#include "cc/window.h"
#include "uet/ses.h"

struct rue_cq;
struct rue_dev;
struct rue_mr;
struct rue_srq;
struct rue_transport_ops;

/* A scatter/gather element after its lkey was checked. */
struct rue_ksge {
	struct rue_mr *mr;		/* referenced while the WQE lives */
	u64 addr;
	u32 length;
};

/*
 * The kernel's copy of a send WQE, taken from the ring once and validated
 * (librue could change the ring slot at any time).  Lives in
 * qp->req.swqe[], one slot per ring slot, until the WQE is retired.
 */
struct rue_swqe {
	struct rue_sqe sqe;		/* sqe.length = message bytes */
	u32 first_psn;			/* RC: PSN of its first packet */
	u32 last_psn;			/* RC: of its last (READ: response) */
	u32 read_done;			/* RDMA READ: bytes placed */
	u8 status;			/* IB_WC_* when it failed */
	u8 done;			/* acknowledged or executed */
	u8 sent;			/* every packet went out once */
	u8 num_sge;
	u8 early;			/* RC READ: RUE_EARLY_* (rc_comp.c) */
	u16 uet_msg;			/* UET: its message_id */
	u32 uet_left;			/* UET: packets not acknowledged */
	struct rue_av av;		/* UD, UET: copied from the AH */
	union {
		DECLARE_FLEX_ARRAY(struct rue_ksge, sg);
		DECLARE_FLEX_ARRAY(u8, inline_data);
	};
};

/* READ response packets a requester can place ahead of una_psn. */
#define RUE_EARLY_BITS		1024

/* Requester state (IBTA 9.7.2 and 9.7.5.2), under req.lock. */
struct rue_req {
	spinlock_t lock;		/* everything below */
	struct rue_ring ring;		/* SQ */
	void *swqe;			/* shadow slots, swqe_stride apart */
	u32 swqe_stride;
	u32 head;			/* next ring index to fetch */
	u32 tail;			/* oldest not retired (ring cons) */
	u32 cur;			/* WQE being transmitted */
	u32 cur_off;			/* its bytes already packetized */
	u32 psn;			/* next PSN to send */
	u32 una_psn;			/* oldest unacknowledged PSN */
	u32 ackreq_psn;			/* last PSN sent with AckReq */
	u32 sent_psn;			/* one past the newest PSN built */
	u32 sent_cur;			/* the WQE that PSN belongs to */
	u32 rd_atomic;			/* reads/atomics awaiting response */
	u8 retry_left;
	u8 rnr_left;
	bool rnr_wait;			/* an RNR NAK holds us until the timer */
	bool drained_event;		/* SQD: SQ_DRAINED due or sent */
	bool last_small;		/* the last WQE fetched fits a packet */
	bool bad_prod;			/* the ring's producer index lied */
	bool unacked;			/* UC: nothing answers (rc_req.c) */
	u32 nak_psn;			/* una_psn of the last implied NAK */
	u32 nr_early;			/* bits set in early */
	u32 early_pkts;			/* placed early since una_psn moved */
	struct rue_cwnd cwnd;		/* packets in flight (cc/window.c) */
	u32 recover_psn;		/* losses before it were cut for */
	/* READ responses placed ahead of una_psn: bit psn % RUE_EARLY_BITS */
	DECLARE_BITMAP(early, RUE_EARLY_BITS);
	struct hrtimer rto_timer;	/* retransmission (IBTA 9.7.6.1.3) */
	ktime_t rto_deadline;
	struct hrtimer rnr_timer;
	/* tail-loss probes and the RTT they wait for (rc_timer.c) */
	struct hrtimer tlp_timer;
	ktime_t tlp_deadline;
	ktime_t rtt_start;		/* when rtt_psn was sent */
	u32 rtt_psn;			/* its ACK is an RTT sample */
	u32 srtt_ns;			/* smoothed RTT, 0: no sample yet */
	u32 rttvar_ns;			/* its mean deviation */
	bool rtt_pending;		/* rtt_psn sent, not yet ACKed */
	bool tlp_ackreq;		/* the next packet is a probe */
	u8 tlp_count;			/* probes since una_psn moved */
};

enum rue_res_type {
	RUE_RES_READ,
	RUE_RES_ATOMIC,
	RUE_RES_ATOMIC_WRITE,		/* answered as a zero-length READ */
};

/*
 * A responder resource (IBTA 9.7.5.1.1): one RDMA READ or atomic the
 * responder must answer, queued until answered; a copy is kept in the
 * history after that, so a duplicate request can be re-executed (READ)
 * or replayed (atomic: never twice).
 */
struct rue_res {
	u8 type;			/* enum rue_res_type */
	bool pending;			/* response not fully sent */
	u32 first_psn;
	u32 last_psn;
	u64 va;
	u32 length;
	u32 rkey;			/* READ: of the MR */
	u32 sent;			/* READ: bytes sent */
	struct rue_mr *mr;		/* READ: referenced while pending */
	u64 orig;			/* atomic: the value before */
	u8 syndrome;			/* atomic ACK's AETH */
};

/* Responder state (IBTA 9.7.3, 9.7.4, 9.7.5.1), under resp.lock. */
struct rue_resp {
	spinlock_t lock;		/* everything below */
	struct rue_ring ring;		/* RQ; unused with an SRQ */
	u32 rq_cons;			/* next RQ ring index to consume */
	u32 epsn;			/* expected PSN */
	u32 msn;			/* messages completed */
	bool nak_sent;			/* one NAK per sequence error */
	bool dup_run;			/* duplicates arriving in order ... */
	u32 dup_next;			/* ... and the PSN the next one has */
	bool comm_est;			/* COMM_EST event sent */
	/*
	 * The affiliated asynchronous error (IBTA 11.6.3.1) of the NAK that
	 * is moving the QP to error; rue_qp_error() takes it.
	 */
	bool fail_async;
	u8 fail_event;			/* enum ib_event_type */

	/* the SEND being received, and its receive WQE */
	bool in_send;			/* a receive WQE is held */
	bool msg_open;			/* UC: a SEND is placed into it */
	bool drop_msg;			/* UC: drop until FIRST or ONLY */
	struct rue_rqe_info rqe_info;
	u32 msg_off;			/* bytes placed so far */
	struct rue_ksge *rqe_sg;	/* max_recv_sge entries */

	/* the RDMA WRITE being received */
	bool in_write;
	struct rue_mr *write_mr;	/* referenced until the last packet */
	u32 write_rkey;
	u64 write_va;
	u32 write_left;
	u32 write_len;

	/* responses not sent yet, oldest first */
	struct rue_res *res;		/* RUE_MAX_RD_ATOMIC entries */
	u32 res_size;
	u32 res_head;			/* next to fill */
	u32 res_out;			/* oldest with output pending */
	/* READs and atomics executed, for duplicates (rc_resp.c) */
	struct rue_res *hist;		/* RUE_RES_HIST entries, no MRs */
	u32 hist_head;			/* next to fill */
	u32 hist_used;			/* entries kept */
	bool ack_pending;		/* ack_psn/ack_syn wait behind res_out */
	u32 ack_psn;
	u8 ack_syn;
};

enum rue_qp_tx_bits {
	RUE_TX_RUNNING,
	RUE_TX_PENDING,
	RUE_TX_POLL,		/* a poller watches the SQ (rue_qp_poll_work()) */
	RUE_TX_PINNED,		/* its packets leave from txq->cpu (txq.c, Order) */
};

/* Work found under a lock, done by rue_qp_notify() once unlocked. */
enum rue_qp_pend_bits {
	RUE_PEND_NOTIFY_SCQ,	/* completion event due on the send CQ */
	RUE_PEND_NOTIFY_RCQ,
	RUE_PEND_ERROR,		/* a CQ overflowed: move to error */
	RUE_PEND_SQ_DRAINED,	/* SQD reached with nothing outstanding */
};

struct rue_qp {
	struct ib_qp ibqp;
	struct rue_dev *rdev;
	const struct rue_transport_ops *xport;	/* fixed at creation */
	refcount_t refcnt;		/* lookups from the receive path */
	struct completion released;
	bool user;

	enum ib_qp_state state;		/* written under both locks */
	struct ib_qp_attr attr;		/* last modify_qp values */
	int access;			/* qp_access_flags */
	u32 mtu;			/* path MTU, bytes */
	u32 dest_qpn;
	u32 qkey;
	struct rue_av av;		/* RC: the peer */
	struct dst_cache dst_cache;
	__be16 sport;			/* UDP source port, per QP for ECMP */
	bool loop;			/* the peer is local: multi-segment packets */
	bool sq_sig_all;
	u32 max_send_sge;
	u32 max_recv_sge;
	u32 max_inline;

	struct rue_cq *scq;
	struct rue_cq *rcq;
	struct rue_srq *srq;

	spinlock_t post_lock;		/* kernel QPs: ring producers */
	struct rue_req req;
	struct rue_resp resp;

	unsigned long tx_bits;		/* enum rue_qp_tx_bits */
	unsigned long pend_bits;	/* enum rue_qp_pend_bits */
	struct work_struct tx_work;
	struct work_struct bulk_work;	/* on rdev->bulk_wq (engine.c) */
	struct work_struct poll_work;	/* on system_unbound_wq */
	unsigned long poll_after;	/* jiffies: no poller before */
	struct work_struct err_work;	/* flush after an error in softirq */
	/* the async event err_work raises first; both QP locks */
	bool err_async;
	u8 err_event;			/* enum ib_event_type */
	struct list_head txq_node;	/* waiting for room (txq.c) */
	struct rue_qp_cc cc;		/* rate control (cc.c) */
	struct rue_uet_qp uet;		/* IB_QPT_DRIVER: UET (ses.c) */
};

static inline struct rue_qp *to_rue_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct rue_qp, ibqp);
}

static inline struct rue_swqe *rue_swqe(const struct rue_qp *qp, u32 index)
{
	return qp->req.swqe +
	       (size_t)(index & qp->req.ring.mask) * qp->req.swqe_stride;
}

#define rue_dbg_qp(qp, fmt, ...) \
	rue_qp_dbg(qp, __func__, fmt, ##__VA_ARGS__)

/* Dynamic debug, prefixed "QP n func:" (the leak oracle in the tests). */
static inline __printf(3, 4)
void rue_qp_dbg(const struct rue_qp *qp, const char *func, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	ibdev_dbg(qp->ibqp.device, "QP %u %s: %pV", qp->ibqp.qp_num, func, &vaf);
	va_end(args);
}

struct rue_qp * __must_check rue_qp_get(struct rue_dev *rdev, u32 qpn);
void rue_qp_put(struct rue_qp *qp);

void rue_qp_init(struct rue_qp *qp, struct rue_dev *rdev,
		 const struct rue_transport_ops *xport, bool user);
void rue_qp_set_state(struct rue_qp *qp, enum ib_qp_state state);
void rue_qp_stop(struct rue_qp *qp);
void rue_qp_error(struct rue_qp *qp);
void rue_qp_sq_error(struct rue_qp *qp);
void rue_qp_flush(struct rue_qp *qp);
void rue_qp_event(struct rue_qp *qp, enum ib_event_type type);

void rue_qp_complete(struct rue_qp *qp, struct rue_cq *cq,
		     struct rue_cqe *cqe, bool solicited);
void rue_qp_notify(struct rue_qp *qp);

#endif /* _RUE_QP_H */
