/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RC transport, and what UC (uc.c) shares of it.
 */
#ifndef _RUE_RC_H
#define _RUE_RC_H

#include <rdma/ib_verbs.h>

struct rue_pkt;
struct rue_qp;

extern const struct rue_transport_ops rue_rc_transport;

int rue_rc_tx(struct rue_qp *qp, int budget);
bool rue_rc_rcv_ok(struct rue_qp *qp, const struct rue_pkt *pkt);
void rue_rc_enter(struct rue_qp *qp, enum ib_qp_state state);

#endif /* _RUE_RC_H */
