/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory windows (IBTA 10.6.7): type 1 and type 2B.
 */
#ifndef _RUE_MW_H
#define _RUE_MW_H

#include <rdma/ib_verbs.h>

struct rue_sqe;

struct rue_mw {
	struct ib_mw ibmw;
	u32 index;		/* its windows' index in rdev->mrs */
};

int rue_mw_bind(struct ib_qp *qp, const struct rue_sqe *sqe);
int rue_mw_invalidate(struct ib_qp *qp, u32 rkey, bool remote);
void rue_mw_qp_gone(struct ib_qp *qp);
void rue_mw_set_ops(struct ib_device *ibdev);

#endif /* _RUE_MW_H */
