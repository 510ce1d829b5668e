/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UC transport: unreliable connected queue pairs.
 */
#ifndef _RUE_UC_H
#define _RUE_UC_H

extern const struct rue_transport_ops rue_uc_transport;

#endif /* _RUE_UC_H */
