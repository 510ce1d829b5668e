/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET PDS, target side (pds_tgt.c), for the other PDS files: the
 * receive dispatch (pds.c) and the reaper (pds_reap.c).
 */
#ifndef _RUE_PDS_TGT_H
#define _RUE_PDS_TGT_H

struct rue_dev;
struct rue_pdc;
struct rue_uet_dev;
struct rue_uet_rx;

void rue_pds_tgt_rcv_req(struct rue_dev *rdev, struct rue_uet_rx *rx);
void rue_pds_tgt_rcv_ctrl(struct rue_dev *rdev, struct rue_uet_rx *rx);
void rue_pdc_tgt_unlink(struct rue_uet_dev *u, struct rue_pdc *pdc);
void rue_pdc_tgt_close(struct rue_pdc *pdc);

#endif /* _RUE_PDS_TGT_H */
