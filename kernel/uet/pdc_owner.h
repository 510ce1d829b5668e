/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user a UET QP's initiator PDCs count against (pdc_owner.c):
 * rue.uet_max_user_pdcs per user and device.
 */
#ifndef _RUE_PDC_OWNER_H
#define _RUE_PDC_OWNER_H

#include <linux/types.h>

struct rue_qp;

int rue_pdc_owner_get(struct rue_qp *qp);
void rue_pdc_owner_put(struct rue_qp *qp);
bool rue_pdc_owner_charge(struct rue_qp *qp);
void rue_pdc_owner_uncharge(struct rue_qp *qp);
void rue_pdc_owner_unwait(struct rue_qp *qp);

#endif /* _RUE_PDC_OWNER_H */
