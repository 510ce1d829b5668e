/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transports: what a QP does on the wire, one ops table each.
 *
 * A QP's transport is chosen once, when it is created, from its type (and
 * for IB_QPT_DRIVER QPs from the private create command), among those the
 * device was assembled with (link.c).  The QP object, its verbs and the
 * transmit engine (qp.c, qp_verbs.c, engine.c) know nothing else of it:
 * they call these hooks, and a new QP type or delivery mode is a new
 * table, not another switch on qp_type.
 *
 * Unless said otherwise a hook is optional (NULL: nothing to do) and runs
 * in process context with no QP lock held.
 */
#ifndef _RUE_TRANSPORT_H
#define _RUE_TRANSPORT_H

#include <rdma/ib_verbs.h>
#include <rdma/rue-abi.h>

struct rue_dev;
struct rue_pkt;
struct rue_qp;
struct rue_swqe;

enum rue_xport_flags {
	/* each send WQE names its peer (an AH): ud_wr() for kernel posts */
	RUE_XPORT_AV_PER_WR = 1 << 0,
	/* the send queue poller pays for it (engine.c) */
	RUE_XPORT_SQ_POLL = 1 << 1,
	/* a DCQCN reaction point: CNPs slow it down (cc.c) */
	RUE_XPORT_DCQCN = 1 << 2,
	/*
	 * its packets must reach the peer in the order sent, or the
	 * message is lost: its engine runs on the device's transmit CPU
	 * only (engine.c, and txq.c: Order)
	 */
	RUE_XPORT_IN_ORDER = 1 << 3,
	/* its QPs may take their receive WQEs from an SRQ (rq.c) */
	RUE_XPORT_SRQ = 1 << 4,
	/* its requester's packets in flight follow loss (cc/window.c) */
	RUE_XPORT_WINDOW = 1 << 5,
	/* its QPs may be attached to multicast groups (roce/mcast.c) */
	RUE_XPORT_MCAST = 1 << 6,
};

/* IB_QPT_DRIVER (0xff) has the last bit of rue_transport_ops.qp_types. */
#define RUE_QPT_DRIVER_BIT	BIT(31)

static inline u32 rue_qpt_bit(enum ib_qp_type type)
{
	if (type == IB_QPT_DRIVER)
		return RUE_QPT_DRIVER_BIT;
	return (u32)type < 31 ? BIT(type) : 0;
}

struct rue_transport_ops {
	const char *name;
	u32 qp_types;			/* rue_qpt_bit() of each QP type it serves */
	u32 driver_qpt;			/* for IB_QPT_DRIVER: RUE_DRIVER_QPT_* */
	u32 flags;			/* enum rue_xport_flags */
	u32 rx_opm;			/* RoCE opcodes it takes (RUE_OPM_RC, _UD) */
	/*
	 * match: for IB_QPT_DRIVER, whether the private create command is
	 * for this table when several serve one driver QP type (a UET
	 * QP's delivery mode picks one); NULL: any.  Required of all but
	 * the last such table.
	 */
	bool (*match)(const struct rue_create_qp_cmd *cmd);

	/*
	 * Lifetime, in this order.  create: the queues and the QPN exist,
	 * nothing is published; @cmd is the private create command (zeroed
	 * when there is none).  user_resp: what a user QP's creator learns.
	 * publish: the last step of creation.  unpublish: the first step of
	 * destruction.  destroy: unpublished, a grace period later, in the
	 * error state; may sleep.  release: no reference is left.  free:
	 * undo create, at the end of destruction or when creation fails
	 * after create (then nothing else of these ran).
	 */
	int (*create)(struct rue_qp *qp, const struct rue_create_qp_cmd *cmd,
		      bool user);
	void (*user_resp)(const struct rue_qp *qp,
			  struct rue_create_qp_resp *resp);
	void (*publish)(struct rue_qp *qp);
	void (*unpublish)(struct rue_qp *qp);
	void (*destroy)(struct rue_qp *qp);
	void (*release)(struct rue_qp *qp);
	void (*free)(struct rue_qp *qp);

	/*
	 * modify_qp.  modify_ok: whether @mask may move the QP from @cur to
	 * @next (NULL: the IBTA's rules, ib_modify_qp_is_ok()).  enter: the
	 * side effects of entering @state, both QP locks held, before the
	 * state changes.  stop: stop the transport's timers for good (the
	 * QP goes to RESET or ERR, or away); may sleep.
	 */
	bool (*modify_ok)(enum ib_qp_state cur, enum ib_qp_state next,
			  int mask);
	void (*enter)(struct rue_qp *qp, enum ib_qp_state state);
	void (*stop)(struct rue_qp *qp);

	/*
	 * Forgetting state.  drop_peers: per-peer send state (req.lock
	 * held), before the send queue is flushed or reset.  clear: receive
	 * state of messages in progress and queued answers (resp.lock held);
	 * @flush: complete what holds a receive WQE with a flush error.
	 */
	void (*drop_peers)(struct rue_qp *qp);
	void (*clear)(struct rue_qp *qp, bool flush);

	/*
	 * Send queue.  op_valid (required): whether a WQE opcode (RUE_WR_*)
	 * is one this QP sends.  check_wqe: what the transport checks of a
	 * WQE after the core checked its SGEs; an IB_WC_* status.  Both under
	 * req.lock.  tx (required): build and send at most @budget packets;
	 * the number sent.  Called by the engine only (engine.c), one
	 * context at a time.
	 */
	bool (*op_valid)(const struct rue_qp *qp, u8 op);
	u8 (*check_wqe)(struct rue_qp *qp, struct rue_swqe *w);
	int (*tx)(struct rue_qp *qp, int budget);

	/*
	 * RoCE receive: a checked packet whose opcode is in rx_opm, for
	 * this QP; softirq, a QP reference held by the caller.
	 */
	void (*rcv)(struct rue_qp *qp, struct rue_pkt *pkt);
};

#endif /* _RUE_TRANSPORT_H */
