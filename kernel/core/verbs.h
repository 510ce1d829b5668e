/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verbs entry points that belong to no other object file: user contexts
 * and protection domains.
 */
#ifndef _RUE_VERBS_H
#define _RUE_VERBS_H

#include <rdma/ib_verbs.h>

struct rue_ucontext {
	struct ib_ucontext ibuc;
};

struct rue_pd {
	struct ib_pd ibpd;
};

static inline struct rue_pd *to_rue_pd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct rue_pd, ibpd);
}

void rue_verbs_set_ops(struct ib_device *ibdev);

#endif /* _RUE_VERBS_H */
