/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Send queue consumer.
 */
#ifndef _RUE_SQ_H
#define _RUE_SQ_H

#include <linux/types.h>

struct rue_qp;
struct rue_swqe;

bool rue_sq_fetch(struct rue_qp *qp);
bool rue_sq_more(struct rue_qp *qp);
bool rue_sq_retire(struct rue_qp *qp);
void rue_sq_drained_check(struct rue_qp *qp);
void rue_sq_retire_all(struct rue_qp *qp);
void rue_sq_flush(struct rue_qp *qp);
void rue_sq_reset(struct rue_qp *qp);
void rue_sq_set_armed(struct rue_qp *qp, bool armed);
u8 rue_sq_wqe_av(struct rue_qp *qp, struct rue_swqe *w);
void rue_swqe_release(struct rue_qp *qp, struct rue_swqe *w);

#endif /* _RUE_SQ_H */
