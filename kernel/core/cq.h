/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Completion queues.
 */
#ifndef _RUE_CQ_H
#define _RUE_CQ_H

#include <linux/hrtimer.h>
#include <rdma/ib_verbs.h>

#include "queue.h"

struct rue_cq {
	struct ib_cq ibcq;
	struct rue_ring ring;
	spinlock_t lock;	/* producers; kernel CQs: the consumer too */
	u32 prod;		/* next slot to fill */
	u32 cons;		/* kernel CQs: next slot to poll */
	bool user;
	bool timestamps;	/* user CQs that asked: rue_cqe.timestamp */
	bool ignore_overrun;	/* full: drop the CQE, no error */
	bool overflowed;
	/*
	 * Event moderation (modify_cq), under lock: with mod_count > 1 an
	 * armed CQ's event waits for mod_count completions, or mod_period
	 * microseconds after the first of them (mod_timer).
	 */
	u16 mod_count;
	u16 mod_period;
	u16 mod_held;			/* completions whose event waits */
	struct hrtimer mod_timer;
};

static inline struct rue_cq *to_rue_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct rue_cq, ibcq);
}

/*
 * For kernel CQs, the QP of a completion rides in the CQE's reserved
 * bytes: the ring is kernel memory, never mapped.
 */
static inline void rue_cqe_set_kqp(struct rue_cqe *cqe, struct ib_qp *qp)
{
	memcpy(cqe->reserved1, &qp, sizeof(qp));
}

int rue_cq_post(struct rue_cq *cq, const struct rue_cqe *cqe, bool solicited,
		bool *notify);
void rue_cq_notify(struct rue_cq *cq);
void rue_cq_set_ops(struct ib_device *ibdev);

#endif /* _RUE_CQ_H */
