/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UD transport: unreliable datagram and GSI (QP1) queue pairs.
 */
#ifndef _RUE_UD_H
#define _RUE_UD_H

extern const struct rue_transport_ops rue_ud_transport;

#endif /* _RUE_UD_H */
