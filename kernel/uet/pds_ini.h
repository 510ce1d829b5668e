/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET PDS, initiator side (pds_ini.c): what SES sends through, then
 * what the other PDS files use.  All under the QP's req.lock.
 */
#ifndef _RUE_PDS_INI_H
#define _RUE_PDS_INI_H

#include <linux/skbuff.h>
#include <linux/types.h>

struct rue_av;
struct rue_pdc;
struct rue_pds_qp;
struct rue_pds_tx;
struct rue_qp;

void rue_pds_qp_init(struct rue_pds_qp *pq, u32 job, u8 mode, u8 entropy);
void rue_pds_qp_account(struct rue_pds_qp *pq);
void rue_pds_qp_fini(struct rue_pds_qp *pq);
void rue_pds_qp_stop(struct rue_qp *qp);
struct rue_pdc *rue_pdc_find(struct rue_qp *qp, const struct rue_av *av,
			     u32 mss, struct sk_buff_head *out);
bool rue_pdc_room(const struct rue_pdc *pdc, u32 len);
struct rue_pds_tx *rue_pdc_take_psn(struct rue_pdc *pdc, u32 charge,
				    u32 *psn);
int rue_pds_qp_resend(struct rue_qp *qp, struct sk_buff_head *out,
		      int budget);
void rue_pds_qp_drop(struct rue_qp *qp);

/* for pds_ack.c */
void rue_pdc_arm(struct rue_pdc *pdc);
void rue_pdc_arm_idle(struct rue_pdc *pdc);
void rue_pdc_close_ask(struct rue_pdc *pdc);
struct sk_buff *rue_pds_clear_pkt(struct rue_pdc *pdc);
void rue_pdc_tlp_kick(struct rue_pdc *pdc, u64 now);
u32 rue_pdc_rtt(struct rue_pdc *pdc, const struct rue_pds_tx *tx);
void rue_pdc_fail(struct rue_pdc *pdc, u8 status);
void rue_pdc_ini_drop(struct rue_pdc *pdc);

#endif /* _RUE_PDS_INI_H */
