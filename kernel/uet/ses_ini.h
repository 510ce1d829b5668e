/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET SES, initiator side (ses_ini.c), for the transport and upcall
 * tables (ses.c).  Under the QP's req.lock unless said otherwise.
 */
#ifndef _RUE_SES_INI_H
#define _RUE_SES_INI_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct rue_pdc;
struct rue_pds_rsp;
struct rue_pds_tx;
struct rue_qp;

void *rue_ses_ini_pdc_open(gfp_t gfp);
struct sk_buff *rue_ses_rebuild(struct rue_qp *qp, struct rue_pdc *pdc,
				const struct rue_pds_tx *tx, u32 psn);
u8 rue_ses_answer(struct rue_qp *qp, const struct rue_pds_tx *tx,
		  const struct rue_pds_rsp *r);
void rue_ses_done(struct rue_qp *qp, const struct rue_pds_tx *tx, u8 status);
int rue_ses_tx(struct rue_qp *qp, int budget);	/* no lock held */

struct rue_swqe;

bool rue_ses_uud_op_valid(const struct rue_qp *qp, u8 op);
u8 rue_ses_uud_check_wqe(struct rue_qp *qp, struct rue_swqe *w);
int rue_ses_uud_tx(struct rue_qp *qp, int budget);	/* no lock held */

#endif /* _RUE_SES_INI_H */
