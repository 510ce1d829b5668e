/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared receive queues.
 */
#ifndef _RUE_SRQ_H
#define _RUE_SRQ_H

#include <rdma/ib_verbs.h>

#include "queue.h"

struct rue_ksge;
struct rue_rqe_info;

struct rue_srq {
	struct ib_srq ibsrq;
	struct rue_ring ring;
	spinlock_t lock;		/* the consumer: cons, limit */
	spinlock_t post_lock;		/* kernel SRQs: the producer */
	u32 cons;			/* next ring index to consume */
	u32 limit;			/* armed while nonzero */
	u32 max_sge;
	bool user;
};

static inline struct rue_srq *to_rue_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct rue_srq, ibsrq);
}

int rue_srq_take(struct rue_srq *srq, struct rue_ksge *sg,
		 struct rue_rqe_info *info);
void rue_srq_set_ops(struct ib_device *ibdev);

#endif /* _RUE_SRQ_H */
