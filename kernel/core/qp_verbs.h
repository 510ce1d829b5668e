/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queue pair verbs.
 */
#ifndef _RUE_QP_VERBS_H
#define _RUE_QP_VERBS_H

struct ib_device;

void rue_qp_set_ops(struct ib_device *ibdev);

#endif /* _RUE_QP_VERBS_H */
