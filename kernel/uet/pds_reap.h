/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET PDS, the reaper of idle target PDCs (pds_reap.c), for a device's
 * PDS (pds.c).
 */
#ifndef _RUE_PDS_REAP_H
#define _RUE_PDS_REAP_H

struct rue_dev;

void rue_pds_reaper_start(struct rue_dev *rdev);
void rue_pds_reaper_stop(struct rue_dev *rdev);

#endif /* _RUE_PDS_REAP_H */
