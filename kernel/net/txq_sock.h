/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sockets that own rue's packets in the IP stack.
 */
#ifndef _RUE_TXQ_SOCK_H
#define _RUE_TXQ_SOCK_H

struct rue_dev;
struct rue_txq;

/*
 * What the sockets may hold together: about 400 packets of a 1 KiB MTU,
 * well under netdev_max_backlog (1000) even for two devices sending on
 * one CPU, and far more than a veth or a NIC needs to stay busy.
 */
#define RUE_TXQ_BYTES		(1024 * 1024)

int rue_txq_open(struct rue_dev *rdev);
void rue_txq_unhook(struct rue_dev *rdev);
void rue_txq_sock_release(struct rue_dev *rdev);
int rue_txq_charged(struct rue_txq *txq);

#endif
