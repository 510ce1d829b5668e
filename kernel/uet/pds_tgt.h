/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET PDS, target side (pds_tgt.c), for the other PDS files: the
 * receive dispatch and a device's PDS (pds.c).
 */
#ifndef _RUE_PDS_TGT_H
#define _RUE_PDS_TGT_H

struct rue_dev;
struct rue_uet_rx;

void rue_pds_tgt_rcv_req(struct rue_dev *rdev, struct rue_uet_rx *rx);
void rue_pds_tgt_rcv_ctrl(struct rue_dev *rdev, struct rue_uet_rx *rx);
void rue_pds_tgt_start(struct rue_dev *rdev);
void rue_pds_tgt_stop(struct rue_dev *rdev);

#endif /* _RUE_PDS_TGT_H */
