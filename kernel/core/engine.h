/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transmit engine: running a QP's transport to send.
 */
#ifndef _RUE_ENGINE_H
#define _RUE_ENGINE_H

struct rue_qp;

void rue_qp_run(struct rue_qp *qp);
void rue_qp_kick(struct rue_qp *qp);
void rue_qp_doorbell(struct rue_qp *qp);
void rue_qp_engine_init(struct rue_qp *qp);
void rue_qp_engine_stop(struct rue_qp *qp);

#endif /* _RUE_ENGINE_H */
