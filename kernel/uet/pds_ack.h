/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UET PDS: ACKs and NACKs at an initiator (pds_ack.c), for the receive
 * dispatch (pds.c).
 */
#ifndef _RUE_PDS_ACK_H
#define _RUE_PDS_ACK_H

#include <linux/types.h>

struct rue_dev;
struct rue_uet_rx;

void rue_pds_ack_rcv(struct rue_dev *rdev, struct rue_uet_rx *rx, u8 type);

#endif /* _RUE_PDS_ACK_H */
