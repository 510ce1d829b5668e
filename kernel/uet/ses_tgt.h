/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET SES, target side (ses_tgt.c), for the upcall table (ses.c).  Under
 * the target PDC's lock.
 */
#ifndef _RUE_SES_TGT_H
#define _RUE_SES_TGT_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct rue_dev;
struct rue_qp;
struct rue_ses_rsp;
struct rue_uet_rx;

void *rue_ses_tgt_pdc_open(void);
void rue_ses_tgt_pdc_close(void *ses);
void rue_ses_tgt_qp_gone(void *ses, struct rue_qp *qp);
int rue_ses_deliver(struct rue_dev *rdev, u32 pdc_job, void *pdc_ses,
		    const struct rue_uet_rx *rx, struct rue_ses_rsp *rsp);
u8 rue_ses_read(struct rue_dev *rdev, u32 pdc_job,
		const struct rue_uet_rx *rx, struct sk_buff *skb);
void rue_ses_uud_rcv(struct rue_dev *rdev, const struct rue_uet_rx *rx);

#endif /* _RUE_SES_TGT_H */
